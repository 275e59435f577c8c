/*
 * Marker families of prof-attrib: which host events count as host
 * activity, sync or copy, communication, kernel launch, input pipeline,
 * or CPU work such as the optimizer.
 *
 * A pattern is a glob over the whole event name ("cat:" before it: over
 * the cat column), where '*' matches any run of bytes and every other
 * byte matches itself, case-sensitively; a leading '!' excludes.  An
 * event is in a family when an including pattern matches and no
 * excluding one does.  Names repeat millions of times in a stream, so
 * the answer per (cat, name), with the id of the normalised name
 * (attrib-names.c), is cached in a bounded table.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attrib.h"
#include "diag.h"
#include "xalloc.h"

struct pat {
	char	*glob;
	int	 on_cat;	/* match the cat column, not the name */
	int	 exclude;
};

static struct pat *pats[FAM_N];
static size_t npats[FAM_N];

static const char *const famnames[FAM_N] = {
	"host", "sync", "comm", "launch", "input", "cpu"
};

static const char *const clsnames[CLS_N + 1] = {
	"sync", "input", "launch", "host", "untraced"
};

/*
 * The built-in families: Ascend (torch_npu, CANN) and CUDA/ROCm names.
 * Python frames and Kineto's whole-trace "PyTorch Profiler" span are left
 * out of host activity: an outer frame is open during every bubble and
 * would say nothing about what the host was doing; so are step markers
 * (ProfilerStep#N), which span their whole step.  The input and cpu
 * families match Python frames too: a DataLoader or optimizer frame
 * does say what the host was doing.
 */
static const char *const defaults[] = {
	"host *", "host !cat:python_function", "host !cat:Trace",
	"host !ProfilerStep#*", "host !Iteration#*", "host !Step#*",
	"sync AscendCL@aclrtMemcpy*", "sync AscendCL@aclrtSynchronize*",
	"sync aclrtMemcpy*", "sync aclrtSynchronize*", "sync HostToDevice*",
	"sync torch_to_npu*", "sync aten::to", "sync aten::_to_copy",
	"sync aten::copy_", "sync aten::item", "sync aten::_local_scalar_dense",
	"sync cudaStreamSynchronize*", "sync cudaDeviceSynchronize*",
	"sync cudaEventSynchronize*", "sync cudaMemcpy*", "sync cuMemcpy*",
	"sync cuStreamSynchronize*", "sync cuCtxSynchronize*",
	"sync cuEventSynchronize*", "sync Memcpy DtoH*", "sync Memcpy D2H*",
	"sync DeviceToHost*", "sync hipMemcpy*", "sync hipStreamSynchronize*",
	"sync hipDeviceSynchronize*", "sync hipEventSynchronize*",
	"comm Hccl*", "comm HCCL*", "comm hccl*", "comm hcom*",
	"comm AscendCL@hcom*", "comm AscendCL@Hccl*", "comm c10d*",
	"comm *StreamWaitEvent*", "comm Notify_Wait*", "comm nccl*",
	"comm NCCL*", "comm rccl*", "comm gloo*", "comm record_param_comms",
	"launch cudaLaunchKernel*", "launch cuLaunchKernel*",
	"launch cudaLaunchCooperativeKernel*", "launch cudaGraphLaunch*",
	"launch cuGraphLaunch*", "launch hipLaunchKernel*",
	"launch hipExtModuleLaunchKernel*", "launch hipGraphLaunch*",
	"launch hipModuleLaunchKernel*", "launch Node@launch*",
	"launch AscendCL@aclopCompileAndExecute*", "launch aclnn*",
	"launch AscendCL@aclnn*", "launch Dequeue@*",
	"input *DataLoader*", "input *dataloader.py(*", "input *__next__",
	"input *data*__getitem__*", "input *data*__getitems__*",
	"input *collate*",
	"input *Dataset*", "input *dataset*", "input *torch/utils/data/*",
	"input *pin_memory*",
	"cpu *Optimizer*", "cpu *optimizer*", "cpu *zero_grad*",
	"cpu *torch/optim/*",
	NULL
};

/* The idle class of an event of families MASK (CLS_*), or -1. */
int
cls_of(unsigned mask)
{
	if (mask & FAM_BIT(FAM_SYNC))
		return CLS_SYNC;
	if (mask & FAM_BIT(FAM_INPUT))
		return CLS_INPUT;
	if (mask & FAM_BIT(FAM_LAUNCH))
		return CLS_LAUNCH;
	if (mask & (FAM_BIT(FAM_HOST) | FAM_BIT(FAM_CPU)))
		return CLS_HOST;
	return -1;
}

const char *
cls_name(int c)
{
	return clsnames[c];
}

int
match_family(const char *name)
{
	int f;

	for (f = 0; f < FAM_N; f++)
		if (strcmp(name, famnames[f]) == 0)
			return f;
	return -1;
}

const char *
match_famname(int f)
{
	return famnames[f];
}

void
match_add(int fam, const char *spec)
{
	struct pat *p;

	pats[fam] = xreallocarray(pats[fam], npats[fam] + 1, sizeof(*p));
	p = &pats[fam][npats[fam]++];
	p->exclude = *spec == '!';
	spec += p->exclude;
	p->on_cat = strncmp(spec, "cat:", 4) == 0;
	p->glob = xstrdup(spec + (p->on_cat ? 4 : 0));
}

/* "FAMILY PATTERN" as in a markers file; 0 when FAMILY is unknown. */
static int
add_line(const char *line)
{
	const char *sp = strchr(line, ' ');
	char fam[16];
	int f;

	if (sp == NULL || (size_t)(sp - line) >= sizeof(fam))
		return 0;
	memcpy(fam, line, (size_t)(sp - line));
	fam[sp - line] = '\0';
	if ((f = match_family(fam)) < 0)
		return 0;
	while (*sp == ' ')
		sp++;
	if (*sp == '\0')
		return 0;
	match_add(f, sp);
	return 1;
}

void
match_defaults(void)
{
	size_t i;

	for (i = 0; defaults[i] != NULL; i++)
		add_line(defaults[i]);
}

/*
 * A markers file: one "FAMILY PATTERN" per line, '#' comments and blank
 * lines ignored.  A bad line is a usage error: the file is part of the
 * command line.
 */
void
match_read_file(const char *path)
{
	FILE *fp;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;

	if ((fp = fopen(path, "r")) == NULL)
		diag_errno(EXIT_USAGE, "%s", path);
	while ((n = getline(&line, &cap, fp)) != -1) {
		lineno++;
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == ' ' ||
		    line[n - 1] == '\t' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		if (!add_line(line))
			diag_at_fatal(EXIT_USAGE, path, lineno,
			    "expected 'FAMILY PATTERN' with FAMILY one of "
			    "host, sync, comm, launch, input, cpu: '%s'", line);
	}
	if (ferror(fp))
		diag_errno(EXIT_USAGE, "%s", path);
	free(line);
	fclose(fp);
}

/* The patterns in effect, one "FAMILY PATTERN" line each. */
void
match_list(void)
{
	size_t i;
	int f;

	for (f = 0; f < FAM_N; f++)
		for (i = 0; i < npats[f]; i++)
			printf("%s %s%s%s\n", famnames[f],
			    pats[f][i].exclude ? "!" : "",
			    pats[f][i].on_cat ? "cat:" : "", pats[f][i].glob);
}

/* Whole-string glob with '*' only; iterative, backtracking to the last star. */
static int
glob_match(const char *g, const char *s, size_t len)
{
	const char *star = NULL;
	size_t i = 0, mark = 0;

	while (i < len) {
		if (*g == '*') {
			star = ++g;
			mark = i;
		} else if (*g != '\0' && *g == s[i]) {
			g++;
			i++;
		} else if (star != NULL) {
			g = star;
			i = ++mark;
		} else
			return 0;
	}
	while (*g == '*')
		g++;
	return *g == '\0';
}

static unsigned
classify(const char *name, size_t nlen, const char *cat, size_t clen)
{
	unsigned mask = 0;
	size_t i;
	int f, in, out;

	for (f = 0; f < FAM_N; f++) {
		in = out = 0;
		for (i = 0; i < npats[f] && !out; i++) {
			const struct pat *p = &pats[f][i];

			if (p->exclude ? out : in)
				continue;
			if (!glob_match(p->glob, p->on_cat ? cat : name,
			    p->on_cat ? clen : nlen))
				continue;
			if (p->exclude)
				out = 1;
			else
				in = 1;
		}
		if (in && !out)
			mask |= FAM_BIT(f);
	}
	if (mask == 0 && clen == 15 && memcmp(cat, "python_function", 15) == 0)
		mask = MATCH_FRAME;
	return mask;
}



/* The cache: open addressing over (hash, key offset), keys in an arena. */
#define CACHE_SLOTS	65536		/* power of two */
#define CACHE_FILL	(CACHE_SLOTS / 2)
#define ARENA_MAX	(8u << 20)

struct slot {
	uint64_t hash;
	uint32_t off;
	uint32_t len;
	unsigned mask;
	uint32_t id;		/* normalised name, when it has a class */
	int	 used;
};

static struct slot *cache;
static char *arena;
static size_t arena_len, nfill;

/* Up to 8 bytes of S (LEN of them) as an integer. */
static uint64_t
load8(const char *s, size_t len)
{
	uint64_t v = 0;

	memcpy(&v, s, len < 8 ? len : 8);
	return v;
}

/*
 * The length and the first and last 8 bytes of each string: constant
 * time per event, and the names of one trace differ there (a mismatch
 * is caught by the comparison of the whole key anyway).
 */
static uint64_t
hash_key(const char *name, size_t nlen, const char *cat, size_t clen)
{
	uint64_t h;

	h = (nlen * 0x9e3779b97f4a7c15ULL) ^ load8(name, nlen);
	h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
	if (nlen > 8)
		h ^= load8(name + nlen - 8, 8);
	h = (h ^ (h >> 31)) * 0x94d049bb133111ebULL;
	h ^= (clen * 0x9e3779b97f4a7c15ULL) ^ load8(cat, clen);
	if (clen > 8)
		h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL ^
		    load8(cat + clen - 8, 8);
	h = (h ^ (h >> 32)) * 0xbf58476d1ce4e5b9ULL;
	return h ^ (h >> 29);
}

/* Forget every cached answer once the table or its arena is full. */
static void
cache_reset(void)
{
	if (cache == NULL) {
		cache = xcalloc(CACHE_SLOTS, sizeof(*cache));
		arena = xmalloc(ARENA_MAX);
	} else
		memset(cache, 0, CACHE_SLOTS * sizeof(*cache));
	arena_len = nfill = 0;
}

/* The id of NAME's normalised form, for an event of class CLS. */
static uint32_t
name_id(const char *name, size_t nlen, int cls)
{
	static char *buf;
	static size_t cap;
	uint32_t id;

	if (cls < 0)
		return 0;
	if (nlen > cap) {
		cap = nlen + 64;
		buf = xrealloc(buf, cap);
	}
	id = names_intern(NT_HOST, buf, names_norm(name, nlen, buf));
	names_set_class(id, cls);
	return id;
}

/*
 * The families of an event of NAME and CAT, and in *ID the id of its
 * normalised name (0 when it belongs to no idle class).
 */
unsigned
match_classify(const char *name, size_t nlen, const char *cat, size_t clen,
    uint32_t *id)
{
	uint64_t h = hash_key(name, nlen, cat, clen);
	size_t i, klen = clen + 1 + nlen;
	struct slot *sl;
	char *k;

	if (cache == NULL || nfill >= CACHE_FILL || arena_len + klen >
	    ARENA_MAX)
		cache_reset();
	for (i = h & (CACHE_SLOTS - 1); cache[i].used;
	    i = (i + 1) & (CACHE_SLOTS - 1)) {
		sl = &cache[i];
		k = arena + sl->off;
		if (sl->hash == h && sl->len == klen &&
		    memcmp(k, cat, clen) == 0 && k[clen] == '\0' &&
		    memcmp(k + clen + 1, name, nlen) == 0) {
			*id = sl->id;
			return sl->mask;
		}
	}
	if (klen > ARENA_MAX / 4) {	/* too long to be worth keeping */
		unsigned mask = classify(name, nlen, cat, clen);

		*id = name_id(name, nlen, cls_of(mask));
		return mask;
	}
	sl = &cache[i];
	sl->used = 1;
	sl->hash = h;
	sl->off = (uint32_t)arena_len;
	sl->len = (uint32_t)klen;
	memcpy(arena + arena_len, cat, clen);
	arena[arena_len + clen] = '\0';
	memcpy(arena + arena_len + clen + 1, name, nlen);
	arena_len += klen;
	nfill++;
	sl->mask = classify(name, nlen, cat, clen);
	sl->id = *id = name_id(name, nlen, cls_of(sl->mask));
	return sl->mask;
}
