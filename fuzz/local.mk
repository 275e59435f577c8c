# Fuzzing: libFuzzer harnesses built with clang, never by "make" or
# "make check" (which use $(CC), usually gcc).  "make fuzz" builds them
# and runs each for $(FUZZ_TIME) seconds from the seeds in fuzz/seeds;
# "make fuzz-build" only builds.  See fuzz/README.md.
FUZZ_CC = clang
FUZZ_TIME = 60
FUZZ_SAN = -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS = -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) \
	-DJSMN_PARENT_LINKS -I$(top_builddir) -I$(top_srcdir)/libcommon \
	-I$(top_srcdir)/tools -I$(top_srcdir)/fuzz $(LIBARCHIVE_CFLAGS) $(UNZ_CFLAGS) \
	$(SQLITE3_CFLAGS)
FUZZ_LIBS = $(LIBARCHIVE_LIBS) $(UNZ_LIBS) $(LIBCSV_LIBS) $(SQLITE3_LIBS)
FUZZ_COMMON = $(top_srcdir)/fuzz/fuzz.c \
	$(top_srcdir)/libcommon/diag.c $(top_srcdir)/libcommon/xalloc.c \
	$(top_srcdir)/libcommon/input.c $(top_srcdir)/libcommon/unz.c
FUZZ_NUMS = $(top_srcdir)/libcommon/dtime.c $(top_srcdir)/libcommon/num.c \
	$(top_srcdir)/libcommon/hash.c $(top_srcdir)/libcommon/utf8.c
FUZZ_JSON = $(top_srcdir)/libcommon/jsmn.c $(top_srcdir)/libcommon/json.c \
	$(top_srcdir)/libcommon/jsonev.c $(top_srcdir)/libcommon/jsontok.c
# Every reader the format table names (tools/ingest-formats.c).
FUZZ_INGEST = $(top_srcdir)/tools/ingest-ascend.c \
	$(top_srcdir)/tools/ingest-chrome.c $(top_srcdir)/tools/ingest-pair.c \
	$(top_srcdir)/tools/ingest-toplevel.c $(top_srcdir)/fuzz/sink-stub.c \
	$(top_srcdir)/tools/ingest-formats.c $(top_srcdir)/tools/ingest-frame.c \
	$(top_srcdir)/tools/ingest-instr.c $(top_srcdir)/tools/ingest-meta.c \
	$(top_srcdir)/tools/ingest-sqlite.c $(top_srcdir)/tools/ingest-sqpf.c \
	$(top_srcdir)/tools/ingest-ascend-db.c $(top_srcdir)/tools/ingest-cluster-db.c \
	$(top_srcdir)/tools/ingest-nsys.c $(top_srcdir)/tools/ingest-xplane.c \
	$(top_srcdir)/tools/ingest-xop.c $(top_srcdir)/libcommon/pbuf.c \
	$(top_srcdir)/libcommon/csvin.c $(top_srcdir)/libcommon/tsvw.c \
	$(FUZZ_JSON) $(FUZZ_NUMS)
# The reader and the stage loop end on bad input with exit(): their
# harnesses link copies compiled under fuzz/track.h instead.
FUZZ_TRACKED = $(top_srcdir)/fuzz/fuzz.c $(top_srcdir)/fuzz/track.c \
	$(top_srcdir)/fuzz/tracked-diag.c $(top_srcdir)/fuzz/tracked-tsv.c \
	$(top_srcdir)/libcommon/xalloc.c $(top_srcdir)/libcommon/input.c \
	$(top_srcdir)/libcommon/unz.c $(top_srcdir)/libcommon/spool.c
# What tracked-tsv.c includes, for make to see.
FUZZ_TSV_DEPS = $(top_srcdir)/libcommon/tsvr.c \
	$(top_srcdir)/libcommon/tsvr-field.c $(top_srcdir)/libcommon/tsvr-int.h \
	$(top_srcdir)/libcommon/tsvw.c
FUZZ_HARNESSES = fuzz/fuzz-dtime fuzz/fuzz-csv fuzz/fuzz-json \
	fuzz/fuzz-tsv fuzz/fuzz-stage fuzz/fuzz-unz fuzz/fuzz-walk
EXTRA_DIST += fuzz/README.md fuzz/run.sh fuzz/fuzz.h fuzz/fuzz.c \
	fuzz/sink-stub.c fuzz/track.h fuzz/track.c fuzz/tracked-diag.c \
	fuzz/tracked-tsv.c fuzz/tracked-stage.c fuzz/fuzz-dtime.c fuzz/fuzz-csv.c fuzz/fuzz-json.c \
	fuzz/fuzz-tsv.c fuzz/fuzz-stage.c fuzz/fuzz-unz.c fuzz/fuzz-walk.c \
	fuzz/seeds fuzz/regress fuzz/dict fuzz/stages.py
CLEANFILES += $(FUZZ_HARNESSES)

fuzz/fuzz-dtime: $(top_srcdir)/fuzz/fuzz-dtime.c $(top_srcdir)/libcommon/dtime.c
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-dtime.c \
	    $(top_srcdir)/libcommon/dtime.c
fuzz/fuzz-csv: $(top_srcdir)/fuzz/fuzz-csv.c $(FUZZ_COMMON) $(FUZZ_INGEST)
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-csv.c \
	    $(FUZZ_COMMON) $(FUZZ_INGEST) $(FUZZ_LIBS)
fuzz/fuzz-json: $(top_srcdir)/fuzz/fuzz-json.c $(FUZZ_COMMON) $(FUZZ_INGEST)
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-json.c \
	    $(FUZZ_COMMON) $(FUZZ_INGEST) $(FUZZ_LIBS)
fuzz/fuzz-unz: $(top_srcdir)/fuzz/fuzz-unz.c $(FUZZ_COMMON)
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-unz.c \
	    $(FUZZ_COMMON) $(FUZZ_LIBS)
# The walk is static in prof-ingest.c, which the harness includes.
fuzz/fuzz-walk: $(top_srcdir)/fuzz/fuzz-walk.c $(top_srcdir)/tools/prof-ingest.c \
    $(FUZZ_COMMON) $(FUZZ_INGEST)
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-walk.c \
	    $(FUZZ_COMMON) $(FUZZ_INGEST) $(top_srcdir)/libcommon/cli.c \
	    $(FUZZ_LIBS)
fuzz/fuzz-tsv: $(top_srcdir)/fuzz/fuzz-tsv.c $(FUZZ_TRACKED) $(FUZZ_TSV_DEPS)
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-tsv.c \
	    $(FUZZ_TRACKED) $(FUZZ_LIBS)
fuzz/fuzz-stage: $(top_srcdir)/fuzz/fuzz-stage.c $(FUZZ_TRACKED) $(FUZZ_TSV_DEPS) \
    $(top_srcdir)/libcommon/stage.c $(top_srcdir)/libcommon/stage-out.c \
    $(top_srcdir)/libcommon/stage-int.h
	@mkdir -p fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(top_srcdir)/fuzz/fuzz-stage.c \
	    $(FUZZ_TRACKED) $(top_srcdir)/fuzz/tracked-stage.c \
	    $(FUZZ_NUMS) $(FUZZ_LIBS)

.PHONY: fuzz fuzz-build fuzz-stages
# The stages themselves, chained, on mutated streams with extreme
# integers (fuzz/stages.py): meant for a build configured with
# --enable-sanitizers; findings go to fuzz/stages-out.
fuzz-stages: all
	python3 $(top_srcdir)/fuzz/stages.py --tools $(top_builddir)/tools \
	    --seeds $(top_srcdir)/fuzz/seeds/stage/* --time $(FUZZ_TIME) \
	    --out $(top_builddir)/fuzz/stages-out
fuzz-build: $(FUZZ_HARNESSES)
fuzz: fuzz-build
	FUZZ_TIME='$(FUZZ_TIME)' $(SHELL) $(top_srcdir)/fuzz/run.sh \
	    '$(top_srcdir)/fuzz' fuzz $(FUZZ_HARNESSES)
