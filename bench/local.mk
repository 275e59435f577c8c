# Benchmarks: never part of "make check".  "make bench" generates large
# inputs under $(BENCH_DIR) and measures every program beside cat.
# See bench/README.md; BENCH_SIZE, BENCH_RUNS and BENCH_GZIP can be set
# in the environment.  bench/stages.sh then times every analysis stage
# on streams made from the same inputs.  The generator is built by
# run.sh with $(CC), so it
# is not part of "make all".
BENCH_DIR = $(abs_top_builddir)/bench/data
EXTRA_DIST += bench/run.sh bench/stages.sh bench/lib.sh bench/gen-trace.c \
	bench/README.md bench/cluster.sh bench/ingest-breadth.sh \
	bench/breadth.sh bench/ops.sh bench/sqlite.sh bench/gen-ascend-db.sh \
	bench/span.sh bench/xplane.sh bench/gen-xplane.c bench/report.sh
.PHONY: bench bench-breadth bench-sqlite bench-span bench-xplane \
	bench-report
# prof-ingest on generated torch_npu databases (bench/sqlite.sh); on its
# own, as it needs the sqlite3 shell and gigabytes of room.
bench-sqlite: all
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    top_srcdir='$(abs_top_srcdir)' $(SHELL) $(srcdir)/bench/sqlite.sh
# prof-ingest on generated XPlanes (bench/xplane.sh).
bench-xplane: all
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    CC='$(CC)' $(SHELL) $(srcdir)/bench/xplane.sh
# prof-report against the pipeline it runs, and -j2 against -j1 on 64
# generated ranks (bench/report.sh); on its own, it needs no inputs.
bench-report: all
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/report.sh
# The stages on one step over the whole capture (bench/span.sh): memory
# bounded or growing with it.
bench-span: all
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/span.sh
# The stages on 100,000 devices against 10,000 (bench/breadth.sh); on
# its own, as it needs no generated inputs.
bench-breadth: all
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/breadth.sh
bench: all
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    CC='$(CC)' $(SHELL) $(srcdir)/bench/run.sh
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/stages.sh
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/cluster.sh
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/report.sh
