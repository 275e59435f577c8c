/*
 * prof-roofline: whether each kernel is compute-bound, memory-bound or
 * neither against the chip's peaks, and what bounds each step and the
 * run.
 *
 * Kernels pass through with their FLOPs and bytes (from the trace, or
 * estimated from shapes and dtypes: roofline-ops.c), arithmetic
 * intensity, bound class, utilisations and time at the roof against
 * the peaks (roofline-peaks.c), and the Ascend pipe that bounds them
 * (roofline-pipe.c).  Summary roof, bottleneck and metric records
 * (roofline-sum.c) follow at the end.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "num.h"
#include "roofline.h"
#include "stage.h"
#include "tsv.h"
#include "xalloc.h"

#define COL(m, name, f)	STAGE_COLUMN(struct rf_cols, m, name, f)
/* The columns prof-roofline adds, in their order, and reads. */
static const struct stage_column columns[] = {
	COL(flops, "flops", STAGE_READ | STAGE_ADD),
	COL(bytes, "bytes", STAGE_READ | STAGE_ADD),
	COL(dtype, "dtype", STAGE_ADD),
	COL(ai, "ai", STAGE_ADD),
	COL(bound, "bound", STAGE_ADD),
	COL(bsrc, "bound_src", STAGE_ADD),
	COL(pipe, "pipe_bound", STAGE_ADD),
	COL(pratio, "pipe_ratio", STAGE_ADD),
	COL(mfu, "mfu_ratio", STAGE_ADD),
	COL(bw, "bw_ratio", STAGE_ADD),
	COL(roof, "roofline_ns", STAGE_ADD),
	COL(shortfall, "shortfall_ns", STAGE_ADD),
	COL(ridge, "ridge", STAGE_ADD),
	COL(srcop, "src_op", STAGE_ADD),
	COL(scope, "scope", STAGE_ADD),
	COL(calls, "calls", STAGE_ADD),
	COL(durt, "dur_total_ns", STAGE_ADD),
	COL(cov, "cov_ratio", STAGE_ADD),
	COL(busy, "busy_ns", STAGE_ADD),
	COL(chip, "chip", STAGE_ADD),
	COL(evid, "evidence", STAGE_ADD),
	COL(value, "value", STAGE_READ | STAGE_ADD),
	COL(step, "step", STAGE_READ | STAGE_ADD),
	COL(tags, "tags", STAGE_READ | STAGE_ADD),
	COL(type, "type", STAGE_READ),
	COL(core, "core", STAGE_READ),
	COL(pmu, "pmu", STAGE_READ),
	COL(labels, "labels", STAGE_READ),
	COL(cat, "cat", STAGE_READ),
	COL(ext, "ext", STAGE_READ),
	COL(corr, "corr", STAGE_READ),
	COL(ish, "in_shapes", STAGE_READ),
	COL(idt, "in_dtypes", STAGE_READ),
	COL(osh, "out_shapes", STAGE_READ),
	COL(odt, "out_dtypes", STAGE_READ),
};
#undef COL

static struct stage *st;
static struct rf_opts opts = { 0, 0, 10000, 10, 50, 1000 };
static struct rf_peaks peaks;
static int user_peaks;		/* -c, -f or --peak-*: no chip from the trace */

/* With their lengths: one is written for most kernels. */
static const struct rf_word bounds[B_NBOUND] = {
	RF_WORD("unknown", B_UNKNOWN), RF_WORD("compute", B_COMPUTE),
	RF_WORD("memory", B_MEMORY), RF_WORD("latency", B_LATENCY)
};

const char *
rf_bound_name(int b)
{
	return b >= 0 && b < B_NBOUND ? bounds[b].s : "";
}

/*
 * SCALE / PEAK (PEAK > 0) in lowest terms, MUL / DIV, kept for the last
 * PEAK.  Peaks are round numbers, so that the terms of a utilisation or
 * of a time at a roof mostly fit in 64 bits once reduced, where a
 * division is one instruction and not a library call.  The value of a
 * fraction, and so each digit written or rounded from it, is the same.
 */
struct lowest {
	int64_t		 scale, peak, mul, div;
};

static const struct lowest *
lowest(struct lowest *l, int64_t peak)
{
	int64_t a = l->scale, b = peak, t;

	if (peak == l->peak)
		return l;
	while (b != 0) {
		t = a % b;
		a = b;
		b = t;
	}
	l->peak = peak;
	l->mul = l->scale / a;
	l->div = peak / a;
	return l;
}

/* ps at a roof: N * 10^12 / PEAK, rounded; -1 when unknown. */
static int64_t
roof_ps(int64_t n, int64_t peak, struct lowest *l)
{
	int64_t v;
	__int128 w;

	if (n < 0 || peak <= 0)
		return -1;
	lowest(l, peak);
	if (!__builtin_mul_overflow(n, l->mul, &v) &&
	    v <= INT64_MAX - l->div / 2)
		return (v + l->div / 2) / l->div;
	w = ((__int128)n * l->mul + l->div / 2) / l->div;
	return w > INT64_MAX ? -1 : (int64_t)w;
}

/* Set COL to a string literal, its length known. */
#define SET_LIT(col, s)	stage_set(st, col, s, sizeof(s) - 1)

/* Whether T is the text of A / B (of A when B is 0). */
static int
is_text(const struct numtext *t, int64_t a, int64_t b)
{
	return t->len > 0 && t->a == a && t->b == b;
}

/* Whether column COL of the current record is the text S. */
static int
stage_col_is(int col, const char *s)
{
	size_t n;
	const char *v = stage_get(st, col, &n);

	return n == strlen(s) && memcmp(v, s, n) == 0;
}

/* The roofline columns of the current kernel, F the facts of its op. */
static void
kernel_roof(struct rf_kern *k, const struct opfacts *f, char *tags,
    size_t tcap)
{
	const struct rf_cols *cols = stage_columns(st);
	static struct lowest fps = { 1000000000000LL, 0, 0, 0 };
	static struct lowest bps = { 1000000000000LL, 0, 0, 0 };
	static struct lowest mfu = { 1000000000, 0, 0, 0 };
	static struct lowest bw = { 1000000000, 0, 0, 0 };
	const struct lowest *l;
	int64_t dur = k->dur, pf, rns;

	k->flop_ps = k->byte_ps = -1;
	/* an op's estimate is written from the text made with it */
	if (is_text(&f->flops, k->flops, 0))
		stage_set(st, cols->flops, f->flops.s, f->flops.len);
	else if (k->flops >= 0)
		stage_set_i64(st, cols->flops, k->flops);
	if (is_text(&f->bytes, k->bytes, 0))
		stage_set(st, cols->bytes, f->bytes.s, f->bytes.len);
	else if (k->bytes >= 0)
		stage_set_i64(st, cols->bytes, k->bytes);
	if (k->dt >= 0)
		stage_set_str(st, cols->dtype, rf_dtype_name(k->dt));
	if (is_text(&f->ai, k->flops, k->bytes))
		stage_set(st, cols->ai, f->ai.s, f->ai.len);
	else if (k->flops >= 0 && k->bytes > 0)
		stage_set_ratio(st, cols->ai, k->flops, k->bytes);
	pf = k->dt >= 0 && k->dt < DT_NPEAK ? peaks.flops[k->dt] : 0;
	/*
	 * A TPU runs f32 and f16 matmuls through its bf16 MXU passes, and
	 * its tools count utilisation against the one bf16 peak: so is
	 * such an op here, tagged because its real precision is unknown.
	 */
	if (k->flops > 0 && pf == 0 && strncmp(peaks.name, "tpu-", 4) == 0 &&
	    (k->dt == DT_FP32 || k->dt == DT_FP16) && peaks.flops[DT_BF16] >
	    0) {
		pf = peaks.flops[DT_BF16];
		stage_tag_add(tags, tcap, "dtype_uncertain");
	}
	if (k->flops > 0 && pf == 0 && peaks.name[0] != '\0')
		stage_tag_add(tags, tcap, "no_peak_for_dtype");
	k->flop_ps = k->flops == 0 ? 0 : roof_ps(k->flops, pf, &fps);
	k->byte_ps = roof_ps(k->bytes, peaks.bw, &bps);
	if (k->flop_ps >= 0 && dur > 0) {
		/* flops * 10^9 / (dur * peak) */
		l = lowest(&mfu, pf > 0 ? pf : 1);
		stage_set_ratio(st, cols->mfu, (__int128)k->flops * l->mul,
		    (__int128)dur * l->div);
	}
	if (k->byte_ps >= 0 && dur > 0) {
		l = lowest(&bw, peaks.bw);
		stage_set_ratio(st, cols->bw, (__int128)k->bytes * l->mul,
		    (__int128)dur * l->div);
	}
	if (k->flop_ps < 0 || k->byte_ps < 0) {
		if (k->byte_ps >= 0) {
			/* Only the memory roof: a lower bound on the time. */
			stage_set_i64(st, cols->roof,
			    (k->byte_ps + 500) / 1000);
			stage_tag_add(tags, tcap, "memory_roof_only");
		}
		k->flop_ps = k->byte_ps = -1;
		return;
	}
	/* to the nearest ns; in 64 bits unsigned, where the sum fits */
	rns = (int64_t)(((uint64_t)(k->flop_ps > k->byte_ps ? k->flop_ps :
	    k->byte_ps) + 500) / 1000);
	stage_set_i64(st, cols->roof, rns);
	stage_set_i64(st, cols->shortfall, dur - rns);
	if (rns > dur)
		stage_tag_add(tags, tcap, "above_roof");
	if ((__int128)rns * 100 < (__int128)opts.latency_pct * dur &&
	    k->flops == 0 && k->bytes > 0 && !k->est) {
		/*
		 * No FLOPs (by the trace's own count, as XLA's cost model
		 * gives it) and far below the HBM roof: a transfer slower
		 * than HBM (to host memory, over DMA: XLA's copy-done), or
		 * a wait for one.  Never compute, whatever its length.
		 */
		k->bound = B_MEMORY;
		stage_tag_add(tags, tcap, "below_memory_roof");
	} else if ((__int128)rns * 100 < (__int128)opts.latency_pct * dur)
		k->bound = B_LATENCY;
	else
		k->bound = k->flop_ps >= k->byte_ps ? B_COMPUTE : B_MEMORY;
	stage_set(st, cols->bound, bounds[k->bound].s, bounds[k->bound].len);
	SET_LIT(cols->bsrc, "roofline");
}

/*
 * Set COL to the text of a pipe ratio, PPM / 10^6.  msprof writes three
 * decimals, so that some thousand values recur: their text is kept, by
 * value.
 */
static void
set_ppm(int col, int64_t ppm)
{
	static struct numtext seen[1024];
	struct numtext *t = &seen[(uint64_t)ppm / 1000 % 1024];

	if (!is_text(t, ppm, 1000000)) {
		t->a = ppm;
		t->b = 1000000;
		t->len = num_ratio_u128(t->s, (unsigned __int128)ppm, 1000000, 6);
	}
	stage_set(st, col, t->s, t->len);
}

/* PMU pipe ratios: the busiest pipe, and the bound when no roof is known. */
static void
kernel_pmu(struct rf_kern *k, char *tags, size_t tcap)
{
	const struct rf_cols *cols = stage_columns(st);
	size_t n;
	const char *pmu = stage_get(st, cols->pmu, &n);
	int64_t ppm;
	int p, b;

	if (n == 0 || (p = rf_pmu_pipe(pmu, n, &ppm)) == P_NONE)
		return;
	set_ppm(cols->pratio, ppm);
	if (ppm * 100 < opts.pipe_pct * 1000000) {
		SET_LIT(cols->pipe, "none");
		b = B_LATENCY;
	} else {
		stage_set_str(st, cols->pipe, rf_pipe_name(p));
		b = rf_pipe_bound(p);
	}
	if (k->bound == B_UNKNOWN) {
		k->bound = b;
		stage_set(st, cols->bound, bounds[b].s, bounds[b].len);
		SET_LIT(cols->bsrc, "pmu");
	} else if (k->bound != b && k->bound != B_LATENCY && b != B_LATENCY)
		stage_tag_add(tags, tcap, "pmu_disagrees");
}

/* Append TAGS to the tags column of the current record. */
static void
append_tags(const char *tags)
{
	const struct rf_cols *cols = stage_columns(st);
	size_t tl, nl = strlen(tags);
	const char *old = stage_get(st, cols->tags, &tl);
	char sbuf[512], *buf = sbuf;

	if (tl == 0) {
		stage_set(st, cols->tags, tags, nl);
		return;
	}
	/* on the stack mostly: a kernel's tags are short */
	if (tl + nl + 1 > sizeof(sbuf))
		buf = xmalloc(tl + nl + 1);
	memcpy(buf, old, tl);
	buf[tl] = ',';
	memcpy(buf + tl + 1, tags, nl);
	stage_set(st, cols->tags, buf, tl + nl + 1);
	if (buf != sbuf)
		free(buf);
}

static void
do_kernel(void)
{
	const struct rf_cols *cols = stage_columns(st);
	struct rf_kern k;
	struct opfacts scratch;
	struct opfacts *f;
	struct rf_est est, *e = &est;
	unsigned flags;
	struct hostop *h = NULL;
	char tags[256];
	size_t n;
	const char *name = stage_get(st, COL_NAME, &n);

	tags[0] = '\0';		/* not "= \"\"": that zeroes all of it */
	memset(&k, 0, sizeof(k));
	if (stage_ts(st) == STAGE_NO_TS || stage_dur(st) < 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), stage_lineno(st),
		    "kernel record without %s", stage_ts(st) == STAGE_NO_TS ?
		    "ts_ns" : "dur_ns");
	k.dev = stage_get(st, COL_DEV, &k.devlen);
	k.key = name;
	k.keylen = n;
	k.step = stage_get(st, cols->step, &k.steplen);
	k.ts = stage_ts(st);
	k.dur = stage_dur(st);
	if (opts.by_type && cols->type >= 0 && !stage_absent(st, cols->type))
		k.key = stage_get(st, cols->type, &k.keylen);
	f = rf_record_work(&scratch, e, &flags);
	k.comm = rf_is_comm_kernel(f);
	k.group = &f->group;
	if (e->flops < 0 && e->bytes < 0 && (h = rf_kernel_hostop()) != NULL) {
		stage_set_str(st, cols->srcop, h->name);
		if (opts.by_type) {
			k.key = h->name;
			k.keylen = strlen(h->name);
		}
		if (h->used || (h->kind >= OPK_GEMM && h->kind <=
		    OPK_CONV_BWD_W && f->aux))
			stage_tag_add(tags, sizeof(tags), h->used ?
			    "op_shared" : "op_aux");
		else {
			h->used = 1;
			e->flops = h->flops;
			e->bytes = h->bytes;
			e->dt = h->dt;
			flags = h->flags;
		}
	}
	if (k.comm) {
		e->flops = e->bytes = -1;
		stage_tag_add(tags, sizeof(tags), "comm");
	}
	/*
	 * An fp32 GEMM that ran on TF32 tensor cores says so in its
	 * kernel name (cuBLAS/CUTLASS "s1688gemm", "tf32"): use that peak.
	 */
	if (e->dt == DT_FP32 && e->flops > 0 && f->tf32) {
		e->dt = DT_TF32;
		stage_tag_add(tags, sizeof(tags), "tf32_from_name");
	}
	/*
	 * A CUDA memcpy or memset (Kineto's gpu_memcpy and gpu_memset,
	 * Nsight Systems' MEMCPY and MEMSET tables) does no arithmetic:
	 * its FLOPs are 0, so that with its bytes it is placed against the
	 * memory roof (a pageable host copy far below it, as XLA's
	 * copy-done), not left unclassed and taken for compute.
	 */
	if (e->flops < 0 && e->bytes > 0 && !k.comm && cols->cat >= 0 &&
	    (stage_col_is(cols->cat, "gpu_memcpy") ||
	    stage_col_is(cols->cat, "gpu_memset"))) {
		e->flops = 0;
		k.copy = 1;
		stage_tag_add(tags, sizeof(tags), "copy_no_flops");
	}
	k.flops = e->flops;
	k.bytes = e->bytes;
	k.dt = e->dt;
	k.est = (flags & (EF_FLOPS_EST | EF_BYTES_EST)) != 0;
	/* mostly the op's own estimate, its tags already made */
	if (tags[0] == '\0' && h == NULL && flags == f->flags)
		memcpy(tags, f->tags, f->tagslen + 1);
	else
		rf_est_tags(tags, sizeof(tags), flags, h == NULL ? e->note :
		    NULL);
	if (!k.comm) {
		kernel_roof(&k, f, tags, sizeof(tags));
		kernel_pmu(&k, tags, sizeof(tags));
	}
	if (tags[0] != '\0')
		append_tags(tags);
	rf_sum_kernel(&k);
	stage_pass(st);
}

static void
do_pipe(void)
{
	const struct rf_cols *cols = stage_columns(st);
	size_t tn, nn;
	const char *track = stage_get(st, COL_TRACK, &tn);
	const char *name = stage_get(st, COL_NAME, &nn);
	const char *core = stage_get(st, cols->core, NULL);

	if (stage_ts(st) == STAGE_NO_TS || stage_dur(st) < 0)
		return;
	rf_sum_pipe(stage_get(st, COL_DEV, NULL), core[0] != '\0' ? core :
	    track, rf_pipe_of(track, tn), stage_ts(st), stage_dur(st),
	    rf_is_sync_instr(name, nn));
}

/*
 * A device record (prof-ingest, Kineto deviceProperties) names the chip
 * when the user gave no peaks.  Timeless records come first, so this is
 * decided before any kernel.  One chip for the whole stream: the first
 * device's, with a tag when a later one has another name.
 */
static void
do_device(void)
{
	const struct rf_cols *cols = stage_columns(st);
	static char first[64];
	static int seen;
	const char *name = stage_get(st, COL_NAME, NULL), *chip;
	int64_t bytes;
	int absent;

	if (user_peaks || name[0] == '\0')
		return;
	if (seen) {
		if (strcmp(name, first) != 0 &&
		    strstr(peaks.tag, "mixed_devices") == NULL)
			stage_tag_add(peaks.tag, sizeof(peaks.tag),
			    "mixed_devices");
		return;
	}
	seen = 1;
	snprintf(first, sizeof(first), "%s", name);
	bytes = rf_col_i64(cols->value, &absent);
	if ((chip = rf_chip_of_device(name, absent ? -1 : bytes)) != NULL &&
	    rf_chip_set(&peaks, chip)) {
		stage_tag_add(peaks.tag, sizeof(peaks.tag), "chip_from_trace");
		return;
	}
	snprintf(peaks.device, sizeof(peaks.device), "%s", name);
	stage_tag_add(peaks.tag, sizeof(peaks.tag), "unknown_device");
	diag_warn("%s: device '%s' is not in the chip table: no peaks "
	    "(give -c or --peak-flops/--peak-bw)", diag_path(stage_path(st)),
	    name);
}

static void
run(const char *path, int argc, char *argv[])
{
	struct rf_cols c;
	int64_t end;
	const char *dev;

	st = stage_open(path, argc, argv, columns, sizeof(columns) /
	    sizeof(columns[0]), &c);
	rf_ops_open(st);
	rf_sum_opts(&opts);
	while (stage_next(st)) {
		/* the kind read once, not a stage_is() per kind: per record */
		size_t klen;
		const char *kind = stage_get(st, COL_KIND, &klen);

#define KIND_IS(s)	(klen == sizeof(s) - 1 && memcmp(kind, s, klen) == 0)
		if (KIND_IS("kernel")) {
			do_kernel();
			continue;
		}
		dev = stage_get(st, COL_DEV, NULL);
		if (KIND_IS("device"))
			do_device();
		else if (KIND_IS("host"))
			rf_do_host();
		else if (KIND_IS("pipe"))
			do_pipe();
		else if (KIND_IS("window") && stage_dur(st) >= 0)
			rf_sum_window(dev, stage_get(st, c.step, NULL),
			    stage_ts(st), stage_dur(st));
		else if (KIND_IS("bubble") && stage_dur(st) > 0)
			rf_sum_bubble(dev, stage_get(st, c.step, NULL),
			    stage_ts(st), stage_dur(st), stage_get(st,
			    c.labels, NULL));
		else if (KIND_IS("comm") && stage_dur(st) > 0)
			rf_sum_comm(dev, stage_get(st, c.step, NULL),
			    stage_dur(st));
#undef KIND_IS
		stage_pass(st);
	}
	end = stage_end_ts(st) == STAGE_NO_TS ? 0 : stage_end_ts(st);
	rf_sum_write(st, &opts, &peaks, end);
	stage_close(st);
	rf_ops_close();
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Class each kernel as compute-, memory- or latency-bound "
	    "against the chip's\npeaks, and say what bounds each step and "
	    "the run.\n\n");
	printf("With no FILE, or when FILE is -, read standard input.\n\n");
	printf("  -c, --chip=NAME         the chip's peaks ('-c list' "
	    "prints the table)\n"
	    "  -f, --peaks-file=FILE   peaks from FILE (chip, dtype, "
	    "flops_per_s,\n"
	    "                          hbm_bytes_per_s per line)\n"
	    "      --peak-flops=DTYPE=N  peak FLOP/s for DTYPE (fp32, tf32, "
	    "bf16, fp16,\n"
	    "                          fp8, int8)\n"
	    "      --peak-bw=N         peak HBM bandwidth in bytes/s\n"
	    "  -a, --all-devs          one op record per op across all "
	    "devices\n"
	    "  -t, --by-type           group ops by type (or launching host "
	    "op)\n"
	    "      --tiny-ns=N         a kernel shorter than N ns is tiny "
	    "(default 10000)\n"
	    "      --latency-pct=P     latency-bound below P%% of the roof "
	    "(default 10)\n"
	    "      --pipe-pct=P        PMU: latency-bound when no pipe is "
	    "busy P%%\n"
	    "                          (default 50)\n"
	    "      --degenerate-ns=N   simulator: degenerate below N ns of "
	    "pipe work\n"
	    "                          (default 1000)\n"
	    "  -h, --help              display this help and exit\n"
	    "  -V, --version           output version information and "
	    "exit\n\n");
	printf("See prof-roofline(1).\n\n");
	printf("Exit status: 0 on success, 1 if the input was bad or "
	    "unreadable, 2 for\nusage errors.\n");
	exit(EXIT_OK);
}

int
main(int argc, char **argv)
{
	enum { O_PEAKF = 256, O_PEAKBW, O_TINY, O_LAT, O_PIPE, O_DEGEN };
	static const struct option longopts[] = {
		{ "all-devs",	no_argument,		NULL, 'a' },
		{ "by-type",	no_argument,		NULL, 't' },
		{ "chip",	required_argument,	NULL, 'c' },
		{ "degenerate-ns", required_argument,	NULL, O_DEGEN },
		{ "help",	no_argument,		NULL, 'h' },
		{ "latency-pct", required_argument,	NULL, O_LAT },
		{ "peak-bw",	required_argument,	NULL, O_PEAKBW },
		{ "peak-flops",	required_argument,	NULL, O_PEAKF },
		{ "peaks-file",	required_argument,	NULL, 'f' },
		{ "pipe-pct",	required_argument,	NULL, O_PIPE },
		{ "tiny-ns",	required_argument,	NULL, O_TINY },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	const char *chip = NULL, *file = NULL, *bw = NULL;
	char **pf = xcalloc((size_t)argc + 1, sizeof(*pf));
	size_t npf = 0, i;
	int c;

	cli_init("prof-roofline");
	while ((c = getopt_long(argc, argv, "ac:f:htV", longopts, NULL)) !=
	    -1) {
		switch (c) {
		case 'a':
			opts.all_devs = 1;
			break;
		case 'c':
			chip = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		case 'h':
			usage();
			break;
		case 't':
			opts.by_type = 1;
			break;
		case 'V':
			cli_version();
			break;
		case O_PEAKF:
			pf[npf++] = optarg;
			break;
		case O_PEAKBW:
			bw = optarg;
			break;
		case O_TINY:
			opts.tiny_ns = cli_parse_i64(optarg, "--tiny-ns", 0,
			    INT64_MAX);
			break;
		case O_LAT:
			opts.latency_pct = cli_parse_i64(optarg,
			    "--latency-pct", 0, 100);
			break;
		case O_PIPE:
			opts.pipe_pct = cli_parse_i64(optarg, "--pipe-pct", 0,
			    100);
			break;
		case O_DEGEN:
			opts.degenerate_ns = cli_parse_i64(optarg,
			    "--degenerate-ns", 0, INT64_MAX);
			break;
		default:
			cli_try_help();
		}
	}
	if (argc - optind > 1)
		cli_usage_error("extra operand '%s'", argv[optind + 1]);
	user_peaks = chip != NULL || file != NULL || npf > 0 || bw != NULL;
	if (file != NULL)
		rf_peaks_file(&peaks, file);
	if (chip != NULL && strcmp(chip, "list") == 0) {
		rf_chip_list();
		free(pf);
		return EXIT_OK;
	}
	if (chip != NULL && !rf_chip_set(&peaks, chip))
		cli_usage_error("option '--chip': unknown chip '%s' (see "
		    "'-c list')", chip);
	for (i = 0; i < npf; i++)
		rf_peak_flops_opt(&peaks, pf[i]);
	free(pf);
	if (bw != NULL)
		peaks.bw = cli_parse_i64(bw, "--peak-bw", 1, INT64_MAX);
	if (peaks.name[0] == '\0' && (npf > 0 || bw != NULL))
		snprintf(peaks.name, sizeof(peaks.name), "custom");
	run(optind < argc ? argv[optind] : "-", argc, argv);
	return EXIT_OK;
}
