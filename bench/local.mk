# Benchmarks: never part of "make check".  "make bench" generates large
# inputs under $(BENCH_DIR) and measures every program beside cat.
BENCH_DIR = $(abs_top_builddir)/bench/data
EXTRA_DIST += bench/run.sh
.PHONY: bench
bench: all
	BENCH_DIR='$(BENCH_DIR)' top_builddir='$(abs_top_builddir)' \
	    $(SHELL) $(srcdir)/bench/run.sh
