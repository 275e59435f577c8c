/*
 * The chip peak table of prof-roofline: dense FLOP/s per dtype and HBM
 * bytes/s, as exact integers, from the vendors' datasheets (sources and
 * the uncertain figures are listed in prof-roofline(1)).  A peaks file
 * and --peak-flops/--peak-bw override them.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "diag.h"
#include "roofline.h"
#include "xalloc.h"

#define T	1000000000000LL		/* tera */
#define G	1000000000LL		/* giga */

/*
 * Dense figures (the datasheets' sparse ones halved where only those are
 * given); 0 where the chip has no such unit or no published figure.
 *                        fp32        tf32         bf16         fp16
 *                        fp8         int8         hbm bytes/s
 */
static const struct rf_chip builtin[] = {
	{ "910b1", { 0, 0, 414 * T, 414 * T, 0, 828 * T }, 1600 * G,
	    "Huawei Ascend 910B1 (uncertain: no public datasheet)" },
	{ "910b2", { 0, 0, 376 * T, 376 * T, 0, 752 * T }, 1600 * G,
	    "Huawei Ascend 910B2 (uncertain)" },
	{ "910b3", { 0, 0, 313 * T, 313 * T, 0, 626 * T }, 1600 * G,
	    "Huawei Ascend 910B3 (uncertain)" },
	{ "910b4", { 0, 0, 280 * T, 280 * T, 0, 560 * T }, 800 * G,
	    "Huawei Ascend 910B4 (uncertain)" },
	{ "a2", { 0, 0, 313 * T, 313 * T, 0, 626 * T }, 1600 * G,
	    "Huawei Atlas 800T A2, per NPU (uncertain)" },
	{ "a3", { 0, 0, 376 * T, 376 * T, 0, 752 * T }, 1600 * G,
	    "Huawei Atlas A3 (910C), per die as profiled (uncertain)" },
	/*
	 * Issue 20's rows, one block (the sources are listed in
	 * prof-roofline(1) too).  Dense figures: the datasheets' sparse
	 * TF32/BF16/FP16/FP8/INT8 tensor figures halved.
	 */
	/* Huawei Ascend 910 (first generation, Atlas 800 9000 / 300T):
	 * 256 TFLOP/s fp16, 512 TOPS int8 as shipped, 4 HBM2 stacks at
	 * 1.2 TB/s (Huawei's Ascend 910 launch, Aug 2019); uncertain. */
	{ "910a", { 0, 0, 0, 256 * T, 0, 512 * T }, 1200 * G,
	    "Huawei Ascend 910 (first generation; uncertain)" },
	/* Ascend 310P3 (Atlas 300I Pro): 140 TFLOP/s fp16, 280 TOPS int8,
	 * LPDDR4X 204.8 GB/s (Atlas 300I Pro data sheet); uncertain. */
	{ "310p", { 0, 0, 0, 140 * T, 0, 280 * T }, 204800000000LL,
	    "Huawei Ascend 310P3, Atlas 300I Pro (uncertain)" },
	/* NVIDIA V100 SXM2 datasheet: 15.7 fp32, 125 tensor fp16,
	 * 900 GB/s HBM2; no bf16, tf32, fp8 or int8 tensor unit. */
	{ "v100", { 15700 * G, 0, 0, 125 * T, 0, 0 }, 900 * G,
	    "NVIDIA V100 SXM2" },
	/* NVIDIA A10 datasheet: 31.2 fp32; 125 tf32, 250 bf16/fp16,
	 * 500 int8 sparse; 600 GB/s GDDR6. */
	{ "a10", { 31200 * G, 62500 * G, 125 * T, 125 * T, 0, 250 * T },
	    600 * G, "NVIDIA A10" },
	/* NVIDIA L4 datasheet: 30.3 fp32; 120 tf32, 242 bf16/fp16, 485
	 * fp8/int8 sparse; 300 GB/s GDDR6. */
	{ "l4", { 30300 * G, 60 * T, 121 * T, 121 * T, 242500 * G,
	    242500 * G }, 300 * G, "NVIDIA L4" },
	/* NVIDIA L40S datasheet: 91.6 fp32; 366 tf32, 733 bf16/fp16,
	 * 1466 fp8/int8 sparse; 864 GB/s GDDR6. */
	{ "l40s", { 91600 * G, 183 * T, 366500 * G, 366500 * G, 733 * T,
	    733 * T }, 864 * G, "NVIDIA L40S" },
	/* AMD Instinct MI250X data sheet, per GCD (ROCm and the profilers
	 * show each of the package's two GCDs as a device): 95.7 fp32
	 * matrix, 383 bf16/fp16/int8 and 3.2768 TB/s per package,
	 * halved. */
	{ "mi250x", { 47850 * G, 0, 191500 * G, 191500 * G, 0, 191500 * G },
	    1638400000000LL, "AMD Instinct MI250X, per GCD" },
	/* Intel Gaudi 2 (HL-225): 432 bf16, 865 fp8 MME TFLOP/s, HBM2e
	 * 2.46 TB/s (Intel Gaudi 2 white paper); uncertain. */
	{ "gaudi2", { 0, 0, 432 * T, 432 * T, 865 * T, 0 }, 2460 * G,
	    "Intel Gaudi 2 (uncertain)" },
	/* Intel Gaudi 3 white paper: 1835 bf16/fp8 MME TFLOP/s, HBM2e
	 * 3.7 TB/s (OAM HL-325L); uncertain. */
	{ "gaudi3", { 0, 0, 1835 * T, 1835 * T, 1835 * T, 0 }, 3700 * G,
	    "Intel Gaudi 3 (uncertain)" },
	{ "a100", { 19500 * G, 156 * T, 312 * T, 312 * T, 0, 624 * T },
	    2039 * G, "NVIDIA A100 SXM 80GB" },
	{ "a100-40gb", { 19500 * G, 156 * T, 312 * T, 312 * T, 0, 624 * T },
	    1555 * G, "NVIDIA A100 SXM 40GB" },
	{ "h100", { 67 * T, 494500 * G, 989500 * G, 989500 * G, 1979 * T,
	    1979 * T }, 3350 * G, "NVIDIA H100 SXM 80GB" },
	{ "h200", { 67 * T, 494500 * G, 989500 * G, 989500 * G, 1979 * T,
	    1979 * T }, 4800 * G, "NVIDIA H200 SXM 141GB" },
	{ "b200", { 75 * T, 1125 * T, 2250 * T, 2250 * T, 4500 * T,
	    4500 * T }, 8000 * G, "NVIDIA B200 (HGX B200, uncertain)" },
	{ "mi300x", { 163400 * G, 653700 * G, 1307400 * G, 1307400 * G,
	    2614900 * G, 2614900 * G }, 5300 * G, "AMD Instinct MI300X" },
	{ "tpu-v5e", { 0, 0, 197 * T, 0, 0, 394 * T }, 819 * G,
	    "Google TPU v5e, per chip" },
	{ "tpu-v5p", { 0, 0, 459 * T, 0, 0, 918 * T }, 2765 * G,
	    "Google TPU v5p, per chip" },
	{ "tpu-v6e", { 0, 0, 918 * T, 0, 0, 1836 * T }, 1640 * G,
	    "Google TPU v6e (Trillium), per chip" },
	{ "tpu-v7x", { 0, 0, 2307 * T, 0, 4614 * T, 0 }, 7370 * G,
	    "Google TPU v7x (Ironwood), per chip (uncertain)" },
};
#define NBUILTIN	(sizeof(builtin) / sizeof(builtin[0]))

/* Chips read from a peaks file; they hide built-in ones of their name. */
static struct rf_chip *user;
static size_t nuser;

static const char *const dtnames[DT_NDTYPE] = {
	"fp32", "tf32", "bf16", "fp16", "fp8", "int8",
	"fp64", "int16", "int32", "int64", "bool", "uint8"
};

const char *
rf_dtype_name(int dt)
{
	return dt >= 0 && dt < DT_NDTYPE ? dtnames[dt] : "";
}

int
rf_dtype_parse(const char *s)
{
	int i;

	for (i = 0; i < DT_NPEAK; i++)
		if (strcasecmp(s, dtnames[i]) == 0)
			return i;
	return DT_NONE;
}

int
rf_dtype_size(int dt)
{
	static const int size[DT_NDTYPE] = { 4, 4, 2, 2, 1, 1, 8, 2, 4, 8, 1,
	    1 };

	return dt >= 0 && dt < DT_NDTYPE ? size[dt] : 0;
}

/*
 * Trace spellings: Ascend (DT_BF16, FLOAT16, FLOAT, INT8, HIFLOAT8...)
 * and Kineto (c10::BFloat16, c10::Half, float, double, long int...).
 */
#define D(s, dt)	RF_WORD(s, dt)
static const struct rf_word dtmap[] = {
	D("DT_BF16", DT_BF16), D("BF16", DT_BF16),
	D("BFLOAT16", DT_BF16), D("c10::BFloat16", DT_BF16),
	D("DT_FLOAT16", DT_FP16), D("FLOAT16", DT_FP16),
	D("FP16", DT_FP16), D("HALF", DT_FP16), D("c10::Half", DT_FP16),
	D("DT_FLOAT", DT_FP32), D("FLOAT", DT_FP32),
	D("FLOAT32", DT_FP32), D("FP32", DT_FP32),
	D("DT_DOUBLE", DT_FP64), D("DOUBLE", DT_FP64),
	D("FLOAT64", DT_FP64),
	D("c10::Float8_e4m3fn", DT_FP8), D("c10::Float8_e5m2", DT_FP8),
	D("c10::Float8_e4m3fnuz", DT_FP8),
	D("c10::Float8_e5m2fnuz", DT_FP8),
	D("FLOAT8_E4M3FN", DT_FP8), D("FLOAT8_E5M2", DT_FP8),
	D("HIFLOAT8", DT_FP8),
	D("DT_INT8", DT_INT8), D("INT8", DT_INT8),
	D("signed char", DT_INT8),
	D("DT_UINT8", DT_UINT8), D("UINT8", DT_UINT8),
	D("unsigned char", DT_UINT8),
	D("DT_INT16", DT_INT16), D("INT16", DT_INT16),
	D("short int", DT_INT16),
	D("DT_INT32", DT_INT32), D("INT32", DT_INT32),
	D("int", DT_INT32),
	D("DT_INT64", DT_INT64), D("INT64", DT_INT64),
	D("long int", DT_INT64), D("long", DT_INT64),
	D("DT_BOOL", DT_BOOL), D("BOOL", DT_BOOL), D("bool", DT_BOOL),
};
#undef D
#define NDTMAP	(sizeof(dtmap) / sizeof(dtmap[0]))

int
rf_dtype_of(const char *s, size_t n)
{
	static struct {
		char	 s[32];
		size_t	 n;
		int	 dt;
	} seen[4] = {
		{ "", SIZE_MAX, 0 }, { "", SIZE_MAX, 0 }, { "", SIZE_MAX, 0 },
		{ "", SIZE_MAX, 0 }
	};
	static unsigned next;
	unsigned i;
	int dt;

	while (n > 0 && (s[0] == ' ' || s[0] == '"' || s[0] == '\n')) {
		s++;
		n--;
	}
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '"' ||
	    s[n - 1] == '\n'))
		n--;
	/*
	 * A trace repeats a few spellings: the last four and their types
	 * are kept, since a walk of the table (two for a spelling not in
	 * it) costs more than the rest of a tensor's work.
	 */
	for (i = 0; i < 4; i++)
		if (seen[i].n == n && memcmp(seen[i].s, s, n) == 0)
			return seen[i].dt;
	/* Traces spell them as the table does; other cases are rare. */
	if ((dt = rf_word_find(dtmap, NDTMAP, s, n, 0, DT_NONE)) == DT_NONE)
		dt = rf_word_find(dtmap, NDTMAP, s, n, 1, DT_NONE);
	if (n < sizeof(seen[0].s)) {
		i = next++ % 4;
		memcpy(seen[i].s, s, n);
		seen[i].n = n;
		seen[i].dt = dt;
	}
	return dt;
}

/* Whether chip names A and B are the same: case and '-'/'_' ignored. */
static int
chip_eq(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		if ((*a == '-' || *a == '_') && (*b == '-' || *b == '_'))
			continue;
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return 0;
	}
	return *a == *b;
}

static const struct rf_chip *
chip_find(const char *name)
{
	size_t i;

	for (i = 0; i < nuser; i++)
		if (chip_eq(user[i].name, name))
			return &user[i];
	for (i = 0; i < NBUILTIN; i++)
		if (chip_eq(builtin[i].name, name))
			return &builtin[i];
	/* "ascend910b3", "Ascend910B3": the SoC names msprof prints. */
	if (strncasecmp(name, "ascend", 6) == 0)
		return chip_find(name + 6);
	return NULL;
}

int
rf_chip_set(struct rf_peaks *p, const char *name)
{
	const struct rf_chip *c = chip_find(name);

	if (c == NULL)
		return 0;
	snprintf(p->name, sizeof(p->name), "%s", c->name);
	memcpy(p->flops, c->flops, sizeof(p->flops));
	p->bw = c->bw;
	return 1;
}

static void
list_one(const struct rf_chip *c)
{
	int i;

	for (i = 0; i < DT_NPEAK; i++)
		if (c->flops[i] > 0)
			printf("%s\t%s\t%lld\t%lld\t%s\n", c->name, dtnames[i],
			    (long long)c->flops[i], (long long)c->bw,
			    c->desc != NULL ? c->desc : "peaks file");
}

void
rf_chip_list(void)
{
	size_t i;

	printf("chip\tdtype\tflops_per_s\thbm_bytes_per_s\tdescription\n");
	for (i = 0; i < nuser; i++)
		list_one(&user[i]);
	for (i = 0; i < NBUILTIN; i++)
		if (chip_find(builtin[i].name) == &builtin[i])
			list_one(&builtin[i]);	/* not hidden by the file */
}

/* A whole non-negative decimal integer; -1 when S is not one. */
static int64_t
parse_count(const char *s)
{
	char *end;
	long long v;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return v;
}

static struct rf_chip *
user_chip(const char *name)
{
	size_t i;

	for (i = 0; i < nuser; i++)
		if (chip_eq(user[i].name, name))
			return &user[i];
	user = xreallocarray(user, nuser + 1, sizeof(*user));
	memset(&user[nuser], 0, sizeof(*user));
	user[nuser].name = xstrdup(name);
	return &user[nuser++];
}

/*
 * One line of a peaks file: "chip TAB dtype TAB flops_per_s TAB
 * hbm_bytes_per_s"; '#' lines, blank lines and a "chip" header line are
 * skipped.  Returns the chip it named.
 */
static struct rf_chip *
peaks_line(char *line, const char *path, unsigned long ln)
{
	char *f[4], *p = line;
	int n = 0, dt;
	int64_t fl, bw;
	struct rf_chip *c;

	if (line[0] == '#' || line[0] == '\0' ||
	    strncmp(line, "chip\t", 5) == 0)
		return NULL;
	while (n < 4) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (p == NULL)
			break;
		*p++ = '\0';
	}
	if (n != 4 || p != NULL)
		diag_at_fatal(EXIT_BAD, path, ln, "expected 4 TAB-separated "
		    "fields: chip, dtype, flops_per_s, hbm_bytes_per_s");
	if (f[0][0] == '\0')
		diag_at_fatal(EXIT_BAD, path, ln, "empty chip name");
	if ((dt = rf_dtype_parse(f[1])) == DT_NONE)
		diag_at_fatal(EXIT_BAD, path, ln, "unknown dtype '%s' (want "
		    "fp32, tf32, bf16, fp16, fp8 or int8)", f[1]);
	if ((fl = parse_count(f[2])) <= 0)
		diag_at_fatal(EXIT_BAD, path, ln, "invalid flops_per_s '%s' "
		    "(want a positive integer)", f[2]);
	if ((bw = parse_count(f[3])) <= 0)
		diag_at_fatal(EXIT_BAD, path, ln, "invalid hbm_bytes_per_s "
		    "'%s' (want a positive integer)", f[3]);
	c = user_chip(f[0]);
	if (c->bw != 0 && c->bw != bw)
		diag_at_fatal(EXIT_BAD, path, ln, "chip '%s' has two "
		    "hbm_bytes_per_s values", f[0]);
	c->flops[dt] = fl;
	c->bw = bw;
	return c;
}

void
rf_peaks_file(struct rf_peaks *pk, const char *path)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned long ln = 0;
	const struct rf_chip *only = NULL, *c;
	int many = 0;

	if (fp == NULL)
		diag_errno(EXIT_BAD, "%s", path);
	while ((len = getline(&line, &cap, fp)) != -1) {
		ln++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (len > 0 && line[len - 1] == '\r')
			line[--len] = '\0';
		if ((c = peaks_line(line, path, ln)) == NULL)
			continue;
		if (only != NULL && only != c)
			many = 1;
		only = c;
	}
	if (ferror(fp))
		diag_errno(EXIT_BAD, "%s", path);
	free(line);
	fclose(fp);
	/* A file that names one chip selects it; -c picks among several. */
	if (only != NULL && !many && pk->name[0] == '\0')
		rf_chip_set(pk, only->name);
}

/*
 * Device names as runtimes report them: "NVIDIA A100-SXM4-80GB",
 * "NVIDIA A100-PG509-200" (40 GB), "NVIDIA H100 80GB HBM3", "AMD
 * Instinct MI300X", Ascend SoC names such as "Ascend910B3".  PCIe and NVL
 * boards have other clocks and memory than the table's SXM parts, so
 * they match nothing rather than the wrong row.
 */
/*
 * W in S as a word of its own: not followed by a letter or digit (A10
 * in "NVIDIA A10", not in "A100" or "A10G"; V100 in
 * "Tesla V100-SXM2-32GB").
 */
static const char *
word_in(const char *s, const char *w)
{
	const char *p;
	size_t n = strlen(w);

	for (p = s; (p = strcasestr(p, w)) != NULL; p++)
		if ((p == s || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return p;
	return NULL;
}

const char *
rf_chip_of_device(const char *name, int64_t bytes)
{
	static const struct { const char *word, *chip; } map[] = {
		{ "H100", "h100" }, { "H200", "h200" }, { "B200", "b200" },
		{ "MI300X", "mi300x" }, { "910B1", "910b1" },
		{ "910B2", "910b2" }, { "910B3", "910b3" },
		{ "910B4", "910b4" }
	};
	size_t i;

	if (strcasestr(name, "PCIe") != NULL || strcasestr(name, "NVL") !=
	    NULL)
		return NULL;
	if (word_in(name, "V100") != NULL)
		return "v100";
	if (word_in(name, "A10") != NULL)	/* not A100, not A10G */
		return "a10";
	if (word_in(name, "L40S") != NULL)
		return "l40s";
	if (word_in(name, "L4") != NULL)	/* not L40, not L40S */
		return "l4";
	if (word_in(name, "MI250X") != NULL)	/* not MI250: fewer units */
		return "mi250x";
	if (strcasestr(name, "A100") != NULL) {
		/* 40 GB boards report about 42.5e9 bytes, 80 GB ones 85e9. */
		if (bytes < 0)
			return NULL;
		return bytes > 60 * G ? "a100" : "a100-40gb";
	}
	/* An H100 of 94 or 96 GB is an NVL or GH200 board: faster HBM. */
	if (strcasestr(name, "H100") != NULL && bytes > 90 * G)
		return NULL;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcasestr(name, map[i].word) != NULL)
			return map[i].chip;
	return NULL;
}

void
rf_peak_flops_opt(struct rf_peaks *p, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char dt[16];
	int d;

	if (eq == NULL || (size_t)(eq - arg) >= sizeof(dt))
		cli_usage_error("option '--peak-flops': invalid value '%s' "
		    "(want DTYPE=FLOP_PER_S)", arg);
	memcpy(dt, arg, (size_t)(eq - arg));
	dt[eq - arg] = '\0';
	if ((d = rf_dtype_parse(dt)) == DT_NONE)
		cli_usage_error("option '--peak-flops': unknown dtype '%s' "
		    "(want fp32, tf32, bf16, fp16, fp8 or int8)", dt);
	p->flops[d] = cli_parse_i64(eq + 1, "--peak-flops", 1, INT64_MAX);
}
