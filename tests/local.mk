# Tests: libcommon unit tests (small C programs), golden-file cases per
# tool (each a test of its own), the real-corpus walk, the CLI conventions
# loop, and man-page lint.  Included by Makefile.am.

TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	PATH='$(abs_top_builddir)/tools:'"$$PATH"; export PATH; \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	LC_ALL=C; export LC_ALL; \
	COLUMNS=80; export COLUMNS;

unit_tests = \
	tests/unit/test-csvin \
	tests/unit/test-devtab \
	tests/unit/test-dtime \
	tests/unit/test-input \
	tests/unit/test-ival \
	tests/unit/test-json \
	tests/unit/test-jsonev \
	tests/unit/test-jsontok \
	tests/unit/test-medq \
	tests/unit/test-num \
	tests/unit/test-pbuf \
	tests/unit/test-spool \
	tests/unit/test-stage \
	tests/unit/test-strtab \
	tests/unit/test-tsv \
	tests/unit/test-tsv-words tests/unit/test-tsv-sse2 \
	tests/unit/test-utf8
check_PROGRAMS = $(unit_tests)
tests_unit_test_csvin_SOURCES = tests/unit/test-csvin.c tests/unit/check.h
tests_unit_test_devtab_SOURCES = tests/unit/test-devtab.c tests/unit/check.h
tests_unit_test_dtime_SOURCES = tests/unit/test-dtime.c tests/unit/check.h
tests_unit_test_input_SOURCES = tests/unit/test-input.c tests/unit/check.h \
	tests/unit/errcap.h
tests_unit_test_ival_SOURCES = tests/unit/test-ival.c tests/unit/check.h
tests_unit_test_json_SOURCES = tests/unit/test-json.c tests/unit/check.h \
	tests/unit/errcap.h
tests_unit_test_jsonev_SOURCES = tests/unit/test-jsonev.c tests/unit/check.h \
	tests/unit/errcap.h
tests_unit_test_jsontok_SOURCES = tests/unit/test-jsontok.c tests/unit/check.h
tests_unit_test_medq_SOURCES = tests/unit/test-medq.c tests/unit/check.h
tests_unit_test_num_SOURCES = tests/unit/test-num.c tests/unit/check.h
tests_unit_test_pbuf_SOURCES = tests/unit/test-pbuf.c tests/unit/check.h
tests_unit_test_spool_SOURCES = tests/unit/test-spool.c tests/unit/check.h
tests_unit_test_stage_SOURCES = tests/unit/test-stage.c tests/unit/check.h
tests_unit_test_strtab_SOURCES = tests/unit/test-strtab.c tests/unit/check.h
tests_unit_test_tsv_SOURCES = tests/unit/test-tsv.c tests/unit/check.h
tests_unit_test_utf8_SOURCES = tests/unit/test-utf8.c tests/unit/check.h
# The same tests on the word-at-a-time scans that machines without SSE2
# (aarch64 Ascend hosts among them) run: the reader and writer built
# again without SIMD.
tests_unit_test_tsv_words_SOURCES = tests/unit/test-tsv.c \
	tests/unit/check.h libcommon/tsvr.c libcommon/tsvw.c
tests_unit_test_tsv_words_CPPFLAGS = $(AM_CPPFLAGS) -DPROF_NO_SIMD
# And on the SSE2 scan, which x86-64 machines without AVX2 run.
tests_unit_test_tsv_sse2_SOURCES = tests/unit/test-tsv.c \
	tests/unit/check.h libcommon/tsvr.c libcommon/tsvw.c
tests_unit_test_tsv_sse2_CPPFLAGS = $(AM_CPPFLAGS) -DPROF_NO_AVX2

# Every golden case, tests/<tool>/<case>.sh, is a test of its own, so
# that `make check TESTS=tests/prof-ingest/archive.sh` runs one and its
# log (tests/prof-ingest/archive.log) names it; tests/run-case.sh runs it
# and compares its goldens.  The cases are found with GNU make's
# $(wildcard), so that a case added under tests/ (or a new tool's
# directory of them) runs without an edit here; the file names are made
# relative to the source directory so that a VPATH build (make distcheck)
# writes the logs in the build tree and finds the cases by VPATH.  TESTS
# names them through CASE_TESTS (configure.ac), which Automake does not
# try to split.  Only the cases' logs get the driver: the other shell
# tests run on their own.
case_tests = $(patsubst $(srcdir)/%,%,\
	$(sort $(wildcard $(srcdir)/tests/prof-*/*.sh)))
$(case_tests:.sh=.log): SH_LOG_COMPILER = $(SHELL) $(srcdir)/tests/run-case.sh
# Each tool's directory of cases is distributed whole, and a check run in
# the source tree leaves the cases' logs in it: they must not reach the
# tarball, where a VPATH build would take them for results already made.
dist-hook:
	rm -f $(distdir)/tests/prof-*/*.log $(distdir)/tests/prof-*/*.trs

TESTS = $(unit_tests) \
	tests/cli.sh \
	$(CASE_TESTS) \
	tests/corpus.sh \
	tests/examples.sh \
	tests/man-lint.sh

EXTRA_DIST += tests/lib.sh tests/cols.awk tests/cli.sh tests/cases.sh \
	tests/run-case.sh tests/same-output.sh tests/corpus.sh \
	tests/examples.sh tests/man-lint.sh tests/prof-ingest tests/prof-pipeline \
	tests/data \
	examples

# Hostile input and conservation (issue 6): every stage keeps every input
# record; the fuzzers' regression inputs replayed through the tools.
TESTS += tests/nothing-lost.sh
EXTRA_DIST += tests/nothing-lost.sh
# The verdict on real profiles (issue 12): an expert table computed from
# the raw files without proftools, and no false follow-up.
TESTS += tests/verdict-corpus.sh tests/followup-corpus.sh
TESTS += tests/xplane-corpus.sh
EXTRA_DIST += tests/xplane-corpus.sh tests/xplane-evidence.py tests/xplane-gen.py \
	tests/data/xplane-expected.tsv
EXTRA_DIST += tests/verdict-corpus.sh tests/followup-corpus.sh \
	tests/verdict-evidence.py
# Across ranks (issue 16): prof-cluster's skew and waits against the
# CSVs and communication.json, read without proftools.
TESTS += tests/cluster-corpus.sh tests/cluster-parallel.sh
EXTRA_DIST += tests/cluster-corpus.sh tests/cluster-parallel.sh \
	tests/gen-ranks.sh
TESTS += tests/stage-input.sh
EXTRA_DIST += tests/stage-input.sh
TESTS += tests/fuzz-regress.sh
EXTRA_DIST += tests/fuzz-regress.sh
# Every man page's EXAMPLES run as written (issue 20).
TESTS += tests/man-examples.sh
EXTRA_DIST += tests/man-examples.sh tests/man-examples.py
# The model's structure on real profiles (issue 13): an independent table
# of steps, passes, layers and layer types read from the raw files, and
# steps detected again once the markers are removed (the ranks where
# they are not, and why, are listed in tests/data/steps-markerless-known.tsv).
TESTS += tests/steps-markerless.sh
TESTS += tests/structure-corpus.sh
EXTRA_DIST += tests/structure-corpus.sh tests/steps-markerless.sh \
	tests/structure-evidence.py \
	tests/data/steps-markerless-known.tsv

# prof-ops and prof-diff against an independent python3 computation.
TESTS += tests/ops-corpus.sh
EXTRA_DIST += tests/ops-corpus.sh tests/ops-evidence.py

# The SQLite readers against sqlite3's own counts on the corpus (issue 17).
TESTS += tests/sqlite-corpus.sh
EXTRA_DIST += tests/sqlite-corpus.sh tests/cluster-db-twin.py
# A lone Ascend database's direct output against the stored path, on the
# corpus and on copies made to take each other way (issue 17).
TESTS += tests/sqlite-direct.sh
EXTRA_DIST += tests/sqlite-direct.sh
# The same for a lone kernel_details or op_summary CSV (issue 15).
TESTS += tests/csv-direct.sh
EXTRA_DIST += tests/csv-direct.sh
# prof-export (issue 20): the SQLite export's kernel time per device
# against the stream's own sums, on every corpus run.
TESTS += tests/export-corpus.sh
EXTRA_DIST += tests/export-corpus.sh
# The Chrome trace on real profiles (issue 20): every flow end binds to a
# slice, device tracks nest, tracks are named (tests/chrome-check.py).
TESTS += tests/chrome-corpus.sh
EXTRA_DIST += tests/chrome-corpus.sh tests/chrome-check.py
# The HTML report in headless Chromium (issue 20): not in make check (a
# browser is slow to start and make check installs none); .ci/run
# installs Debian's chromium and runs it.  Status 77 (no browser) passes.
EXTRA_DIST += tests/browser.sh
.PHONY: check-browser
check-browser: all
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    LC_ALL=C $(SHELL) $(srcdir)/tests/browser.sh; st=$$?; \
	    test $$st -eq 0 || test $$st -eq 77
# DuckDB on the SQLite export (issue 20) and the Chrome trace in an
# offline viewer: not in make check (they install from the npm registry
# into tests/npm); .ci/run runs them.  Status 77 (no node, npm or
# registry) passes.
EXTRA_DIST += tests/npm.sh tests/duckdb.sh tests/duckdb-check.cjs
.PHONY: check-duckdb
check-duckdb: all
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    LC_ALL=C $(SHELL) $(srcdir)/tests/duckdb.sh; st=$$?; \
	    test $$st -eq 0 || test $$st -eq 77
clean-local: clean-npm
.PHONY: clean-npm
clean-npm:
	rm -rf tests/npm
EXTRA_DIST += tests/viewer.sh tests/viewer.cjs
.PHONY: check-viewer
check-viewer: all
	@top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    LC_ALL=C $(SHELL) $(srcdir)/tests/viewer.sh; st=$$?; \
	    test $$st -eq 0 || test $$st -eq 77
