/*
 * prof-cluster: compare the ranks of a job.  Reads a merged multi-rank
 * prof-tsv stream (prof-steps' windows, the communication kernels and
 * comm records, prof-ingest's step_trace_time metrics) and writes, at the
 * end of the stream, summary records that set the ranks side by side:
 *
 *   rank_step   per (dev, step): the step's time on that rank and its
 *               split when the profiler measured one; skew against the
 *               fastest rank of the step
 *   step_skew   per step: the slowest and the fastest rank, max / min
 *   collective  per collective matched across ranks: who arrived last
 *               and how long the others waited for it
 *   rank_wait   per dev: the time it waited for others and the time it
 *               made others wait, over every matched collective
 *   link        per (dev, transport link): the bytes communication.json
 *               says the rank's ops moved over it, their transit time
 *               and the bandwidth
 *   cluster     the job's findings: the slow rank, the step skew, the
 *               compute imbalance between ranks and, per link type, the
 *               rank with the slowest link
 *
 * A collective is matched by (step, name, occurrence): the n-th time a
 * rank runs an op of that name within that step.  Ascend names carry the
 * group's hash and the op's index (hcom_allReduce__061_4_1), so equal
 * names across ranks are the same op; NCCL kernel names are equal on
 * every rank of a collective.
 *
 * Memory: a step entry per (dev, step) and an entry per communication op,
 * kept to the end of the stream (prof-cluster(1), CAVEATS).
 */
#include <config.h>

#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "devtab.h"
#include "dtime.h"
#include "diag.h"
#include "kclass.h"
#include "num.h"
#include "stage.h"
#include "strtab.h"
#include "xalloc.h"

/* The columns, bound by stage_open() (-1: the input lacks one read). */
struct cluster_cols {
	int	step, scope, ranks, step_ns, compute, comm_exposed, idle, min;
	int	median, max, skew, slow_rank, fast_rank, last_rank, seq;
	int	arrival, waited, caused, matched, last_count, transit, gbps;
	int	evidence, tags;
	int	core, cat, value, pmu, type, bytes;	/* read */
	int	peak_gbps, peak_ratio;		/* with --link-peak */
};

#define COL(m, name, f)	STAGE_COLUMN(struct cluster_cols, m, name, f)
/*
 * The columns prof-cluster adds, in their order, and reads; the last two
 * are added only with --link-peak (run() makes them read-only without).
 */
static const struct stage_column columns[] = {
	COL(step, "step", STAGE_READ | STAGE_ADD),
	COL(scope, "scope", STAGE_ADD),
	COL(ranks, "ranks", STAGE_ADD),
	COL(step_ns, "step_ns", STAGE_ADD),
	COL(compute, "compute_ns", STAGE_ADD),
	COL(comm_exposed, "comm_exposed_ns", STAGE_ADD),
	COL(idle, "idle_ns", STAGE_ADD),
	COL(min, "min_ns", STAGE_ADD),
	COL(median, "median_ns", STAGE_ADD),
	COL(max, "max_ns", STAGE_ADD),
	COL(skew, "skew_ratio", STAGE_ADD),
	COL(slow_rank, "slow_rank", STAGE_ADD),
	COL(fast_rank, "fast_rank", STAGE_ADD),
	COL(last_rank, "last_rank", STAGE_ADD),
	COL(seq, "seq", STAGE_ADD),
	COL(arrival, "arrival_skew_ns", STAGE_ADD),
	COL(waited, "waited_ns", STAGE_ADD),
	COL(caused, "caused_ns", STAGE_ADD),
	COL(matched, "matched", STAGE_ADD),
	COL(last_count, "last_count", STAGE_ADD),
	COL(transit, "transit_ns", STAGE_ADD),
	COL(gbps, "gbps", STAGE_ADD),
	COL(evidence, "evidence", STAGE_ADD),
	COL(tags, "tags", STAGE_ADD),
	COL(core, "core", STAGE_READ),
	COL(cat, "cat", STAGE_READ),
	COL(value, "value", STAGE_READ),
	COL(pmu, "pmu", STAGE_READ),
	COL(type, "type", STAGE_READ),
	/* link records carry it where the input has it */
	COL(bytes, "bytes", STAGE_READ),
	COL(peak_gbps, "peak_gbps", STAGE_ADD),
	COL(peak_ratio, "peak_ratio", STAGE_ADD),
};
#undef COL

/* The step_trace_time metrics kept per step (prof-ingest's names). */
enum { PM_COMPUTING, PM_COMM_EXPOSED, PM_FREE, PM_STAGE, PM_N };
static const char *const pm_name[PM_N] = {
	"profiler_computing_ns", "profiler_communication_not_overlapped_ns",
	"profiler_free_ns", "profiler_stage_ns"
};

struct rstep {
	char		*step;
	int64_t		 window;	/* summed window time, -1: none */
	int64_t		 pm[PM_N];	/* -1: not measured */
};

/* One communication op of one rank, in the rank's order. */
struct cop {
	char		*key;		/* step \t name */
	uint32_t	 occ;		/* its occurrence of KEY on the rank */
	size_t		 dev;		/* index in devs */
	int		 kernel;	/* a kernel record, not a comm one */
	int64_t		 ts, dur;
};

/* What a rank's ops moved over one transport link (HCCS, RDMA ...). */
struct rlink {
	char		 name[16];	/* as pmu keys have it: "hccs" */
	int64_t		 bytes, transit_ns;
};

struct rdev {
	struct rstep	*steps;
	size_t		 nsteps;
	struct rlink	*links;
	size_t		 nlinks;
	size_t		 idx;		/* in devs.v, which does not move */
	int64_t		 pp_stage;	/* its place in its pp group, or -1 */
	int64_t		 pp_size;	/* pipeline stages, or 0: not said */
	size_t		 p2p_root;	/* send/receive peers: union-find */
	uint64_t	 nkernels, ncomm;
	int64_t		 waited, caused, last_count, matched;
	/*
	 * The last op of each key, by index + 1 in ops, of its records and
	 * its kernels: so that finding an op's occurrence does not scan
	 * back over every other rank's ops.
	 */
	struct strtab	 lastop[2];	/* of a size_t */
};

static struct devtab devs;
static struct cop *ops;
static size_t nops, capops;

/* The last op of (DEV, KERNEL, KEY), by index + 1 in ops; 0: none. */
static size_t *
op_last(size_t dev, int kernel, const char *key)
{
	struct rdev *d = devs.v[dev].item;
	struct strtab *t = &d->lastop[kernel != 0];

	return strtab_val(t, strtab_intern(t, key, strlen(key), NULL));
}
/* A link type's peak, from --link-peak TYPE=GBPS. */
struct lpeak {
	char		 name[16];	/* lower case, as link records have it */
	int64_t		 milli;		/* GB/s x 1000 */
};

static struct {
	int64_t		 skew_num, skew_den;	/* flag skew above this */
	struct lpeak	 peaks[16];
	size_t		 npeaks;
} opt = { 5, 100, { { "", 0 } }, 0 };

/* --link-peak TYPE=GBPS: TYPE is matched without regard to case. */
static void
add_peak(const char *arg)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq != NULL ? (size_t)(eq - arg) : 0, i;
	struct lpeak *p;

	if (eq == NULL || n == 0 || n >= sizeof(opt.peaks[0].name))
		cli_usage_error("--link-peak: '%s' is not TYPE=GBPS (a link "
		    "type such as hccs, then its peak in GB/s)", arg);
	for (i = 0; i < opt.npeaks; i++)
		if (strncasecmp(opt.peaks[i].name, arg, n) == 0 &&
		    opt.peaks[i].name[n] == '\0')
			break;
	if (i == opt.npeaks) {
		if (opt.npeaks == sizeof(opt.peaks) / sizeof(opt.peaks[0]))
			cli_usage_error("--link-peak: at most %zu link types",
			    opt.npeaks);
		opt.npeaks++;
	}
	p = &opt.peaks[i];
	for (i = 0; i < n; i++)
		p->name[i] = (char)tolower((unsigned char)arg[i]);
	p->name[n] = '\0';
	p->milli = cli_parse_fixed(eq + 1, "--link-peak", 3, 1,
	    (int64_t)1000000 * 1000);
}

/* The peak of link type NAME in GB/s x 1000, or 0: not given. */
static int64_t
peak_of(const char *name)
{
	size_t i;

	for (i = 0; i < opt.npeaks; i++)
		if (strcasecmp(opt.peaks[i].name, name) == 0)
			return opt.peaks[i].milli;
	return 0;
}

static void
usage(void)
{
	printf("Usage: %s [OPTION]... [FILE]\n", diag_progname());
	printf("Compare the ranks of a job: step time and skew per rank, who "
	    "waits on whom\nat each collective, the slow rank, compute "
	    "imbalance between ranks.\n\n");
	printf("Reads a merged prof-tsv stream of several ranks (prof-steps, "
	    "prof-merge).\nWith no FILE, or when FILE is -, reads standard "
	    "input.\n\n");
	printf("      --link-peak=TYPE=GBPS  the peak of a link type (hccs, "
	    "rdma, pcie, ...)\n"
	    "                        in GB/s: links are also measured against "
	    "it; repeat\n"
	    "                        for more types (none is assumed)\n"
	    "      --skew=RATIO      flag a step whose slowest rank takes "
	    "more than this\n"
	    "                        over its fastest (default 0.05)\n"
	    "  -h, --help            display this help and exit\n"
	    "  -V, --version         output version information and exit\n");
	exit(EXIT_OK);
}

static struct rstep *
step_of(struct rdev *d, const char *s, size_t n)
{
	size_t i;

	for (i = d->nsteps; i > 0; i--)	/* the current step is the last */
		if (strlen(d->steps[i - 1].step) == n &&
		    memcmp(d->steps[i - 1].step, s, n) == 0)
			return &d->steps[i - 1];
	d->steps = xreallocarray(d->steps, d->nsteps + 1, sizeof(*d->steps));
	d->steps[d->nsteps].step = xstrndup(s, n);
	d->steps[d->nsteps].window = -1;
	for (i = 0; i < PM_N; i++)
		d->steps[d->nsteps].pm[i] = -1;
	return &d->steps[d->nsteps++];
}

static struct rdev *
dev_of(struct stage *st, size_t *idx)
{
	size_t n;
	const char *s = stage_get(st, COL_DEV, &n);
	struct rdev *d;
	int isnew;

	if (n == 0)
		return NULL;
	d = devtab_get(&devs, s, n, &isnew);
	if (isnew) {
		d->idx = devs.n - 1;
		d->pp_stage = -1;
		d->p2p_root = devs.n - 1;
		strtab_init(&d->lastop[0], sizeof(size_t));
		strtab_init(&d->lastop[1], sizeof(size_t));
	}
	*idx = d->idx;
	return d;
}

/* The step column of the current record, "" when absent. */
static const char *
rec_step(struct stage *st, size_t *n)
{
	const struct cluster_cols *c = stage_columns(st);

	if (c->step < 0) {
		*n = 0;
		return "";
	}
	return stage_get(st, c->step, n);
}

static void
on_comm(struct stage *st, size_t dev, int kernel)
{
	size_t sn, nn, klen;
	const char *s = rec_step(st, &sn), *name;
	char *key;
	struct cop *o, *prev;
	size_t *slot;
	uint32_t occ = 0;

	name = stage_get(st, COL_NAME, &nn);
	klen = sn + nn + 1;
	key = xmalloc(klen + 1);
	snprintf(key, klen + 1, "%.*s\t%.*s", (int)sn, s, (int)nn, name);
	/*
	 * The occurrence: the rank's last op of this key, and one more.  An
	 * op that starts inside that one is the same op from a second
	 * source (communication.json and trace_view both list it).
	 */
	slot = op_last(dev, kernel, key);
	if (*slot != 0) {
		prev = &ops[*slot - 1];
		if (stage_ts(st) < prev->ts + prev->dur) {
			free(key);
			return;
		}
		occ = prev->occ + 1;
	}
	if (nops == capops) {
		capops = capops ? 2 * capops : 256;
		ops = xreallocarray(ops, capops, sizeof(*ops));
	}
	o = &ops[nops++];
	o->key = key;
	o->occ = occ;
	o->dev = dev;
	o->kernel = kernel;
	o->ts = stage_ts(st);
	o->dur = stage_dur(st);
	*slot = nops;
}

/* The link NAME (LEN bytes) of D, made on first sight. */
static struct rlink *
link_of(struct rdev *d, const char *name, size_t len)
{
	size_t i;

	if (len >= sizeof(d->links[0].name))
		len = sizeof(d->links[0].name) - 1;
	for (i = 0; i < d->nlinks; i++)
		if (strncmp(d->links[i].name, name, len) == 0 &&
		    d->links[i].name[len] == '\0')
			return &d->links[i];
	d->links = xreallocarray(d->links, d->nlinks + 1, sizeof(*d->links));
	memset(&d->links[d->nlinks], 0, sizeof(*d->links));
	memcpy(d->links[d->nlinks].name, name, len);
	return &d->links[d->nlinks++];
}

/*
 * A communication.json op's links, from its pmu (prof-ingest(1)):
 * LINK_transit_size_mb (decimal MB: bytes at scale 6) and
 * LINK_transit_time_ms (ns at scale 6).  SDMA is the on-node links'
 * sum again and is left out; a figure that does not parse is too.
 */
static void
on_links(struct stage *st, struct rdev *d)
{
	const struct cluster_cols *c = stage_columns(st);
	static const char size_key[] = "_transit_size_mb=";
	static const char time_key[] = "_transit_time_ms=";
	size_t n, kl, vl;
	const char *p, *e, *eq, *v, *end;
	struct rlink *l;
	int64_t x;
	int is_size;

	if (c->pmu < 0)
		return;
	p = stage_get(st, c->pmu, &n);
	for (end = p + n; p < end; p = e + 1) {
		if ((e = memchr(p, ',', (size_t)(end - p))) == NULL)
			e = end;
		if ((eq = memchr(p, '=', (size_t)(e - p))) == NULL)
			continue;
		v = eq + 1;
		vl = (size_t)(e - v);
		kl = (size_t)(v - p);
		is_size = kl > sizeof(size_key) - 1 && memcmp(v -
		    (sizeof(size_key) - 1), size_key, sizeof(size_key) - 1) ==
		    0;
		if (!is_size && !(kl > sizeof(time_key) - 1 && memcmp(v -
		    (sizeof(time_key) - 1), time_key, sizeof(time_key) - 1) ==
		    0))
			continue;
		kl -= sizeof(size_key) - 1;	/* both keys are as long */
		if ((kl == 4 && memcmp(p, "sdma", 4) == 0) ||
		    dtime_parse(v, vl, 6, &x) != DTIME_OK || x < 0)
			continue;
		l = link_of(d, p, kl);
		if (is_size)
			l->bytes = num_sat_add(l->bytes, x);
		else
			l->transit_ns = num_sat_add(l->transit_ns, x);
	}
}

static void
on_record(struct stage *st)
{
	const struct cluster_cols *c = stage_columns(st);
	struct rdev *d;
	size_t dev, n, sn;
	const char *s, *core;
	int k, absent;
	int64_t v;

	if ((d = dev_of(st, &dev)) == NULL)
		return;
	if (stage_is(st, "window")) {
		struct rstep *r;

		s = rec_step(st, &sn);
		r = step_of(d, s, sn);
		r->window = num_sat_add(r->window < 0 ? 0 : r->window,
		    stage_dur(st) > 0 ? stage_dur(st) : 0);
	} else if (stage_is(st, "kernel")) {
		d->nkernels++;
		core = c->core >= 0 ? stage_get(st, c->core, &n) : "";
		if (c->core < 0)
			n = 0;
		s = stage_get(st, COL_NAME, &sn);
		if (kclass_comm_core(core, n) || kclass_comm_name(s, sn))
			on_comm(st, dev, 1);
	} else if (stage_is(st, "comm")) {
		/*
		 * communication.json's ops (cat communication), not trace_view's
		 * copies of them without their step, nor their tasks
		 * (Notify_Record, Memcpy, Reduce_Inline)
		 */
		s = stage_get(st, COL_NAME, &sn);
		core = c->cat >= 0 ? stage_get(st, c->cat, &n) : "";
		if (c->cat < 0)
			n = 0;
		if (kclass_comm_name(s, sn) && n == 13 &&
		    memcmp(core, "communication", 13) == 0) {
			d->ncomm++;
			on_comm(st, dev, 0);
			on_links(st, d);
		}
	} else if (stage_is(st, "metric") && c->value >= 0 && c->cat >= 0 &&
	    (s = stage_get(st, c->cat, &n), n == 17) &&
	    memcmp(s, "profiler_metadata", 17) == 0) {
		/* The pipeline layout profiler_metadata.json gave. */
		s = stage_get(st, COL_NAME, &n);
		v = stage_i64(st, c->value, &absent);
		if (absent || v < 0)
			return;
		core = c->type >= 0 ? stage_get(st, c->type, &sn) : "";
		if (c->type < 0)
			sn = 0;
		if (n == 14 && memcmp(s, "parallel_group", 14) == 0 &&
		    sn == 2 && memcmp(core, "pp", 2) == 0)
			d->pp_stage = v;
		else if (n == 28 && memcmp(s, "pipeline_model_parallel_size",
		    28) == 0)
			d->pp_size = v;
	} else if (stage_is(st, "metric") && c->value >= 0) {
		s = stage_get(st, COL_NAME, &n);
		for (k = 0; k < PM_N; k++)
			if (n == strlen(pm_name[k]) &&
			    memcmp(s, pm_name[k], n) == 0)
				break;
		if (k == PM_N)
			return;
		v = stage_i64(st, c->value, &absent);
		if (absent || v < 0)
			return;
		s = rec_step(st, &sn);
		step_of(d, s, sn)->pm[k] = v;
	}
}

/* ---- the summary ---- */

static struct rdev *
dev_at(size_t i)
{
	return devs.v[i].item;
}

static int
by_key(const void *a, const void *b)
{
	const struct cop *x = a, *y = b;
	int k = strcmp(x->key, y->key);

	if (k != 0)
		return k;
	if (x->occ != y->occ)
		return x->occ < y->occ ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/*
 * A rank with communication.json's ops has its communication kernels
 * too (the same ops, without the group): keep one source per rank.
 */
static void
drop_duplicate_sources(void)
{
	size_t i, n = 0;

	for (i = 0; i < nops; i++)
		if (ops[i].kernel && dev_at(ops[i].dev)->ncomm > 0)
			free(ops[i].key);
		else
			ops[n++] = ops[i];
	nops = n;
}

static struct srec *
rec(struct stage *st, const char *kind, const char *dev, const char *name)
{
	struct srec *r = stage_new(st, kind, stage_end_ts(st) == STAGE_NO_TS ?
	    0 : stage_end_ts(st));

	srec_set_str(r, COL_DEV, dev);
	srec_set_str(r, COL_NAME, name);
	return r;
}

/* The part of KEY (step \t name) numbered FIELD, into BUF. */
static const char *
key_part(const char *key, int field, char *buf, size_t cap)
{
	const char *e;

	for (; field > 0; field--)
		key = strchr(key, '\t') + 1;
	e = strchr(key, '\t');
	snprintf(buf, cap, "%.*s", (int)(e != NULL ? (size_t)(e - key) :
	    strlen(key)), key);
	return buf;
}

struct coll {
	size_t		 first, n;	/* ops[first .. first + n - 1] */
	int64_t		 wait;		/* summed over its ranks */
};

static int
by_wait(const void *a, const void *b)
{
	const struct coll *x = a, *y = b;

	if (x->wait != y->wait)
		return x->wait > y->wait ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Match the ops: equal (key, occurrence) on two ranks or more is one
 * collective.  Each rank waits from its own start to the last rank's;
 * the last rank is charged with the others' waiting.
 */
/* The root of DEV's group of send/receive peers. */
static size_t
p2p_find(size_t dev)
{
	while (dev_at(dev)->p2p_root != dev) {
		struct rdev *d = dev_at(dev);

		d->p2p_root = dev_at(d->p2p_root)->p2p_root;
		dev = d->p2p_root;
	}
	return dev;
}

/*
 * A point-to-point op of HCCL: hcom_send, hcom_receive,
 * hcom_batchSendRecv.  Matched on two ranks, it joins them as pipeline
 * neighbours.  NCCL's SendRecv kernel is left out: NCCL builds its
 * all-to-all from it too (TorchRec's embedding exchange), so a pair of
 * NCCL ranks that exchange data need not be pipeline stages.
 */
static int
is_p2p(const char *key)
{
	const char *name = strchr(key, '\t');

	name = name != NULL ? name + 1 : key;
	if (strncmp(name, "hcom_", 5) != 0)
		return 0;
	return strcasestr(name, "send") != NULL ||
	    strcasestr(name, "recv") != NULL ||
	    strcasestr(name, "receive") != NULL;
}

static void
collectives(struct stage *st, int top)
{
	const struct cluster_cols *c = stage_columns(st);
	struct coll *cl = NULL;
	size_t ncl = 0, i, j, k, last;
	char step[256], name[512], ev[1024], ms[NUM_BUFSIZE];
	struct srec *r;
	int64_t lts;

	if (nops > 1)
		qsort(ops, nops, sizeof(*ops), by_key);
	for (i = 0; i < nops; i = j) {
		for (j = i + 1; j < nops && ops[j].occ == ops[i].occ &&
		    strcmp(ops[j].key, ops[i].key) == 0; j++)
			;
		if (j - i < 2)
			continue;
		last = j - 1;	/* by start time within the run */
		lts = ops[last].ts;
		cl = xreallocarray(cl, ncl + 1, sizeof(*cl));
		cl[ncl].first = i;
		cl[ncl].n = j - i;
		cl[ncl].wait = 0;
		for (k = i; k < j; k++) {
			struct rdev *d = dev_at(ops[k].dev);

			d->matched++;
			d->waited = num_sat_add(d->waited, lts - ops[k].ts);
			cl[ncl].wait = num_sat_add(cl[ncl].wait, lts - ops[k].ts);
		}
		dev_at(ops[last].dev)->caused = num_sat_add(dev_at(ops[last].dev)->caused,
		    cl[ncl].wait);
		dev_at(ops[last].dev)->last_count++;
		if (j - i == 2 && is_p2p(ops[i].key))
			dev_at(p2p_find(ops[i].dev))->p2p_root =
			    p2p_find(ops[i + 1].dev);
		ncl++;
	}
	if (ncl > 1)
		qsort(cl, ncl, sizeof(*cl), by_wait);
	for (i = 0; i < ncl && (top < 0 || i < (size_t)top); i++) {
		const struct cop *o = &ops[cl[i].first];
		size_t n = 0;

		last = cl[i].first + cl[i].n - 1;
		r = rec(st, "collective", "", key_part(o->key, 1, name,
		    sizeof(name)));
		srec_set_str(r, c->step, key_part(o->key, 0,
		    step, sizeof(step)));
		srec_set_i64(r, c->seq, o->occ);
		srec_set_i64(r, c->ranks, (int64_t)cl[i].n);
		srec_set_str(r, c->last_rank,
		    devs.v[ops[last].dev].name);
		srec_set_i64(r, c->arrival, ops[last].ts -
		    o->ts);
		srec_set_i64(r, c->waited, cl[i].wait);
		ev[0] = '\0';
		for (k = cl[i].first; k < last && n + 1 < sizeof(ev); k++) {
			num_ratio(ms, ops[last].ts - ops[k].ts, 1000000, 6);
			n += (size_t)snprintf(ev + n, sizeof(ev) - n, "%srank %s "
			    "waited %s ms", n ? ", " : "", devs.v[ops[k].dev].name,
			    ms);
		}
		if (n >= sizeof(ev) && sizeof(ev) > 4)
			memcpy(ev + sizeof(ev) - 4, "...", 4);
		srec_set_str(r, c->evidence, ev);
		stage_put(st, r);
	}
	free(cl);
}

/*
 * Which time of a step is compared across ranks: the profiler's Stage
 * when every rank has it (one definition for all: a rank with only
 * communication data has no kernel to bound a window by), else the
 * step windows of prof-steps, the Stage standing in where a rank has no
 * window.
 */
static int use_stage;

static int64_t
step_time(const struct rstep *s)
{
	if (use_stage || s->window < 0)
		return s->pm[PM_STAGE];
	return s->window;
}

static void
choose_step_time(void)
{
	size_t i, j;
	const struct rstep *s;

	use_stage = 0;
	for (i = 0; i < devs.n; i++)
		for (j = 0; j < dev_at(i)->nsteps; j++) {
			s = &dev_at(i)->steps[j];
			if (s->pm[PM_STAGE] < 0 && s->window >= 0)
				return;
			if (s->pm[PM_STAGE] >= 0)
				use_stage = 1;
		}
}

/* One rank's time for one step, for the comparisons across ranks. */
struct sent {
	const char	*step;
	size_t		 dev;		/* index in devs */
	const struct rstep *s;
	int64_t		 t, min;	/* its time; the step's fastest */
	size_t		 ord;		/* rank by rank, steps in input order */
};

static int
by_step(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;
	int k = strcmp(x->step, y->step);

	if (k != 0)
		return k;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

/* By time, the first rank first among equals. */
static int
by_time(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;

	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	return x->dev < y->dev ? -1 : x->dev > y->dev;
}

static int
by_ord(const void *a, const void *b)
{
	const struct sent *x = a, *y = b;

	return x->ord < y->ord ? -1 : x->ord > y->ord;
}

/*
 * Every (rank, step) with a time, sorted by step, each knowing its step's
 * fastest time: one sort instead of every rank's steps against every
 * other's, which a job of many ranks cannot afford.  *N gets the count.
 */
static struct sent *
step_entries(size_t *n)
{
	struct sent *e = NULL;
	size_t i, j, k, m = 0;

	for (i = 0; i < devs.n; i++)
		for (j = 0; j < dev_at(i)->nsteps; j++)
			if (step_time(&dev_at(i)->steps[j]) >= 0) {
				e = xreallocarray(e, m + 1, sizeof(*e));
				e[m].step = dev_at(i)->steps[j].step;
				e[m].dev = i;
				e[m].s = &dev_at(i)->steps[j];
				e[m].ord = m;
				e[m++].t = step_time(&dev_at(i)->steps[j]);
			}
	if (m > 1)
		qsort(e, m, sizeof(*e), by_step);
	for (i = 0; i < m; i = j) {
		int64_t mn = e[i].t;

		for (j = i + 1; j < m && strcmp(e[j].step, e[i].step) == 0; j++)
			if (e[j].t < mn)
				mn = e[j].t;
		for (k = i; k < j; k++)
			e[k].min = mn;
	}
	*n = m;
	return e;
}

/* The steps found on two ranks or more, compared; E sorted by step. */
static void
steps(struct stage *st, struct sent *e, size_t ne, char *worst_step,
    size_t wcap, int64_t *worst_num, int64_t *worst_den,
    const char **worst_rank)
{
	const struct cluster_cols *c = stage_columns(st);
	size_t i, j, n;
	int64_t mn, mx;
	const char *slow, *fast;
	struct srec *r;

	for (i = 0; i < ne; i = j) {
		for (j = i + 1; j < ne && strcmp(e[j].step, e[i].step) == 0; j++)
			;
		n = j - i;
		if (n < 2 || e[i].min <= 0)
			continue;
		/* the slowest and fastest: the last and first rank of equals */
		qsort(e + i, n, sizeof(*e), by_time);
		mn = e[i].t;
		mx = e[j - 1].t;
		fast = devs.v[e[i].dev].name;
		slow = devs.v[e[j - 1].dev].name;
		for (; j - 1 > i && e[j - 2].t == mx; j--)
			slow = devs.v[e[j - 2].dev].name;
		j = i + n;
		r = rec(st, "step_skew", "", e[i].step);
		srec_set_str(r, c->step, e[i].step);
		srec_set_i64(r, c->ranks, (int64_t)n);
		srec_set_i64(r, c->min, mn);
		srec_set_i64(r, c->median, e[i + n / 2].t);
		srec_set_i64(r, c->max, mx);
		srec_set_ratio(r, c->skew, mx - mn, mn);
		srec_set_str(r, c->slow_rank, slow);
		srec_set_str(r, c->fast_rank, fast);
		if ((__int128)(mx - mn) * opt.skew_den >
		    (__int128)opt.skew_num * mn)
			srec_set_str(r, c->tags, "STEP_SKEW");
		stage_put(st, r);
		if ((__int128)(mx - mn) * *worst_den >
		    (__int128)*worst_num * mn) {
			*worst_num = mx - mn;
			*worst_den = mn;
			*worst_rank = slow;
			snprintf(worst_step, wcap, "%s", e[i].step);
		}
	}
}

/* Each rank's steps beside the fastest rank of the same step, by rank. */
static void
rank_steps(struct stage *st, struct sent *e, size_t ne)
{
	const struct cluster_cols *c = stage_columns(st);
	size_t i;
	struct srec *r;
	const struct rstep *s;

	if (ne > 1)
		qsort(e, ne, sizeof(*e), by_ord);
	for (i = 0; i < ne; i++) {
		s = e[i].s;
		r = rec(st, "rank_step", devs.v[e[i].dev].name, s->step);
		srec_set_str(r, c->step, s->step);
		srec_set_i64(r, c->step_ns, e[i].t);
		if (s->pm[PM_COMPUTING] >= 0)
			srec_set_i64(r, c->compute,
			    s->pm[PM_COMPUTING]);
		if (s->pm[PM_COMM_EXPOSED] >= 0)
			srec_set_i64(r, c->comm_exposed,
			    s->pm[PM_COMM_EXPOSED]);
		if (s->pm[PM_FREE] >= 0)
			srec_set_i64(r, c->idle,
			    s->pm[PM_FREE]);
		srec_set_ratio(r, c->skew, e[i].t - e[i].min, e[i].min);
		if (dev_at(e[i].dev)->nkernels == 0)
			srec_set_str(r, c->tags, "comm_only");
		stage_put(st, r);
	}
}

static void
rank_waits(struct stage *st, size_t *slow)
{
	const struct cluster_cols *c = stage_columns(st);
	size_t i;
	struct srec *r;
	struct rdev *d;

	*slow = SIZE_MAX;
	for (i = 0; i < devs.n; i++) {
		d = dev_at(i);
		if (d->matched == 0)
			continue;
		r = rec(st, "rank_wait", devs.v[i].name, "collectives");
		srec_set_i64(r, c->matched, d->matched);
		srec_set_i64(r, c->waited, d->waited);
		srec_set_i64(r, c->caused, d->caused);
		srec_set_i64(r, c->last_count, d->last_count);
		stage_put(st, r);
		if (d->caused > 0 && (*slow == SIZE_MAX ||
		    d->caused > dev_at(*slow)->caused))
			*slow = i;
	}
}

/* D's mean Computing per step, when the profiler measured some. */
static int
compute_mean(const struct rdev *d, int64_t *mean)
{
	__int128 acc = 0;	/* a sum of int64 values can pass int64 */
	size_t j, steps = 0;

	for (j = 0; j < d->nsteps; j++)
		if (d->steps[j].pm[PM_COMPUTING] >= 0) {
			acc += d->steps[j].pm[PM_COMPUTING];
			steps++;
		}
	if (steps == 0)
		return 0;
	*mean = (int64_t)(acc / (__int128)steps);	/* a mean fits */
	return 1;
}

/*
 * Pipeline-parallel stages, from profiler_metadata.json's pp groups (a
 * rank's stage is its place in its pp group): each stage's compute per
 * step is the mean over its ranks of their mean Computing; the slowest
 * stage sets the pace, and every other stage idles for the difference
 * each step, the bubble the imbalance forces (on top of the pipeline's
 * own fill and drain).  Written when two stages have measured ranks; a
 * pipeline whose stream holds one stage only is said to be so (tag
 * one_stage), as its imbalance cannot be seen from one side.
 */
/* Dev names in rank order: as numbers where both are, else as text. */
static int
rank_cmp(const char *a, const char *b)
{
	char *ea, *eb;
	long long x = strtoll(a, &ea, 10), y = strtoll(b, &eb, 10);

	if (*a != '\0' && *ea == '\0' && *b != '\0' && *eb == '\0')
		return (x > y) - (x < y);
	return strcmp(a, b);
}

/*
 * Without the profiler's pp groups, the pipeline from the send/receive
 * pairs prof-cluster matched: ranks joined by point-to-point ops are
 * one pipeline, and a rank's stage is its place among them in rank
 * order (Megatron's and MindSpeed's default layout puts the pipeline
 * outermost, so a later stage has higher ranks).  Returns the number of
 * stages, 0 when no pair was matched.
 */
static int64_t
infer_stages(void)
{
	size_t i, j;
	int64_t size = 0, place, members;

	for (i = 0; i < devs.n; i++) {
		size_t root = p2p_find(i);

		members = place = 0;
		for (j = 0; j < devs.n; j++) {
			if (p2p_find(j) != root)
				continue;
			members++;
			if (rank_cmp(devs.v[j].name, devs.v[i].name) < 0)
				place++;
		}
		if (members < 2)
			continue;
		dev_at(i)->pp_stage = place;
		if (members > size)
			size = members;
	}
	return size;
}

static void
stage_imbalance(struct stage *st)
{
	const struct cluster_cols *c = stage_columns(st);
	enum { MAXSTAGES = 64 };
	__int128 acc[MAXSTAGES] = { 0 };
	size_t nr[MAXSTAGES] = { 0 }, i, len = 0, nst = 0;
	int64_t mean, sm, mx = -1, mn = INT64_MAX, size = 0;
	int64_t s, slow = -1, fast = -1;
	char ev[1024], ms[NUM_BUFSIZE], buf[32];
	struct srec *r;
	int inferred = 0;

	for (i = 0; i < devs.n; i++)
		if (dev_at(i)->pp_size > size)
			size = dev_at(i)->pp_size;
	if (size < 2 && (size = infer_stages()) >= 2)
		inferred = 1;
	for (i = 0; i < devs.n; i++) {
		const struct rdev *d = dev_at(i);

		if (d->pp_stage < 0 || d->pp_stage >= MAXSTAGES ||
		    !compute_mean(d, &mean))
			continue;
		acc[d->pp_stage] += mean;
		nr[d->pp_stage]++;
	}
	if (size < 2)
		return;
	ev[0] = '\0';
	for (s = 0; s < MAXSTAGES; s++) {
		if (nr[s] == 0)
			continue;
		nst++;
		sm = (int64_t)(acc[s] / (__int128)nr[s]);
		if (sm > mx)
			mx = sm, slow = s;
		if (sm < mn)
			mn = sm, fast = s;
		num_ratio(ms, sm, 1000000, 3);
		if (len + 1 < sizeof(ev))
			len += (size_t)snprintf(ev + len, sizeof(ev) - len,
			    "%sstage %" PRId64 " %s ms (%zu rank%s)", len ?
			    ", " : "", s, ms, nr[s], nr[s] == 1 ? "" : "s");
	}
	if (nst == 0)
		return;
	r = rec(st, "cluster", "", "stage_imbalance");
	srec_set_i64(r, c->ranks, (int64_t)nst);
	if (nst < 2) {
		if (len + 1 < sizeof(ev))
			(void)snprintf(ev + len, sizeof(ev) - len, "; a "
			    "pipeline of %" PRId64 " stages, of which the stream "
			    "holds measured ranks of one: its imbalance cannot "
			    "be measured", size);
		srec_set_str(r, c->evidence, ev);
		srec_set_str(r, c->tags, inferred ?
		    "one_stage,stages_inferred" : "one_stage");
		stage_put(st, r);
		return;
	}
	if (inferred)
		srec_set_str(r, c->tags, "stages_inferred");
	srec_set_i64(r, c->min, mn);
	srec_set_i64(r, c->max, mx);
	srec_set_ratio(r, c->skew, mx - mn, mn);
	snprintf(buf, sizeof(buf), "stage %" PRId64, slow);
	srec_set_str(r, c->slow_rank, buf);
	snprintf(buf, sizeof(buf), "stage %" PRId64, fast);
	srec_set_str(r, c->fast_rank, buf);
	num_ratio(ms, mx - mn, 1000000, 3);
	if (len + 1 < sizeof(ev))
		len += (size_t)snprintf(ev + len, sizeof(ev) - len, "; stage %"
		    PRId64 " idles up to %s ms a step waiting for stage %"
		    PRId64, fast, ms, slow);
	if (inferred && len + 1 < sizeof(ev))
		(void)snprintf(ev + len, sizeof(ev) - len, "; stages inferred "
		    "from the send/receive pairs (no profiler_metadata.json pp "
		    "group): a rank's stage is its place in rank order among "
		    "the ranks it exchanges with");
	srec_set_str(r, c->evidence, ev);
	stage_put(st, r);
}

/*
 * The mean Computing per step of each rank that the profiler measured,
 * max over min: ranks that do unequal work (pipeline stages, uneven
 * shards) make the others wait at every step.
 */
static void
compute_imbalance(struct stage *st)
{
	const struct cluster_cols *c = stage_columns(st);
	size_t i, n = 0;
	int64_t sum, mx = -1, mn = INT64_MAX;
	const char *slow = NULL, *fast = NULL;
	char ev[1024], ms[NUM_BUFSIZE];
	size_t len = 0;
	struct srec *r;

	ev[0] = '\0';
	for (i = 0; i < devs.n; i++) {
		if (!compute_mean(dev_at(i), &sum))
			continue;
		n++;
		if (slow == NULL || sum > mx) {
			mx = sum;
			slow = devs.v[i].name;
		}
		if (fast == NULL || sum < mn) {
			mn = sum;
			fast = devs.v[i].name;
		}
		num_ratio(ms, sum, 1000000, 3);
		if (len + 1 < sizeof(ev))
			len += (size_t)snprintf(ev + len, sizeof(ev) - len,
			    "%srank %s %s ms", len ? ", " : "", devs.v[i].name,
			    ms);
	}
	if (n < 2 || mn <= 0)
		return;
	r = rec(st, "cluster", "", "compute_imbalance");
	srec_set_i64(r, c->ranks, (int64_t)n);
	srec_set_i64(r, c->min, mn);
	srec_set_i64(r, c->max, mx);
	srec_set_ratio(r, c->skew, mx - mn, mn);
	srec_set_str(r, c->slow_rank, slow);
	srec_set_str(r, c->fast_rank, fast);
	srec_set_str(r, c->evidence, ev);
	stage_put(st, r);
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Per rank and link, what its ops moved and how fast; then per link type
 * used by two ranks or more, the rank whose link was slowest (bytes over
 * transit time, as msprof-analyze computes Bandwidth(GB/s): 1 GB/s is a
 * byte per ns) against the median of the ranks, tagged SLOW_LINK below
 * 80 % of it.  No peak is assumed: the links' rated speeds depend on the
 * machine (HCCS generation, the RDMA NIC), which the trace does not say.
 */
static void
links(struct stage *st)
{
	const struct cluster_cols *c = stage_columns(st);
	char names[16][16], buf[NUM_BUFSIZE], mb[NUM_BUFSIZE], ev[512];
	size_t nn = 0, i, j, k, n, len;
	int64_t peak;
	int64_t *bw = xreallocarray(NULL, devs.n + 1, sizeof(*bw)), worst, med;
	const char *slow;
	struct srec *r;
	struct rlink *l;

	for (i = 0; i < devs.n; i++)
		for (j = 0; j < dev_at(i)->nlinks; j++) {
			l = &dev_at(i)->links[j];
			r = rec(st, "link", devs.v[i].name, l->name);
			srec_set_i64(r, c->bytes, l->bytes);
			srec_set_i64(r, c->transit,
			    l->transit_ns);
			if (l->transit_ns > 0)
				srec_set(r, c->gbps, buf,
				    num_ratio(buf, l->bytes, l->transit_ns,
				    3));
			if ((peak = peak_of(l->name)) > 0) {
				srec_set(r, c->peak_gbps, buf,
				    num_ratio(buf, peak, 1000, 3));
				if (l->transit_ns > 0)
					srec_set_ratio(r, c->peak_ratio,
					    (int64_t)((__int128)l->bytes *
					    1000000 / l->transit_ns),
					    peak * 1000);
			}
			stage_put(st, r);
			for (k = 0; k < nn && strcmp(names[k], l->name); k++)
				;
			if (k == nn && nn < 16)
				memcpy(names[nn++], l->name, 16);
		}
	for (k = 0; k < nn; k++) {
		/* bandwidth in bytes per ms (GB/s x 1e6), to compare exactly */
		worst = INT64_MAX;
		slow = NULL;
		for (i = 0, n = 0; i < devs.n; i++)
			for (j = 0; j < dev_at(i)->nlinks; j++) {
				l = &dev_at(i)->links[j];
				if (strcmp(l->name, names[k]) != 0 ||
				    l->transit_ns <= 0 || l->bytes <= 0)
					continue;
				bw[n] = (int64_t)((__int128)l->bytes * 1000000 /
				    l->transit_ns);
				if (bw[n] < worst) {
					worst = bw[n];
					slow = devs.v[i].name;
				}
				n++;
			}
		if (n < 2)
			continue;
		qsort(bw, n, sizeof(*bw), cmp_i64);
		med = bw[n / 2];	/* the upper median: of two, the other */
		r = rec(st, "cluster", "", "slow_link");
		srec_set_str(r, c->scope, names[k]);
		srec_set_i64(r, c->ranks, (int64_t)n);
		srec_set_str(r, c->slow_rank, slow);
		srec_set(r, c->gbps, buf, num_ratio(buf, worst,
		    1000000, 3));
		srec_set_ratio(r, c->skew, med - worst, worst);
		num_ratio(mb, med, 1000000, 3);
		len = (size_t)snprintf(ev, sizeof(ev), "%s: rank %s moved %s "
		    "GB/s against a median of %s GB/s over %zu ranks",
		    names[k], slow, buf, mb, n);
		if ((peak = peak_of(names[k])) > 0 && len < sizeof(ev)) {
			char pk[NUM_BUFSIZE], pc[NUM_BUFSIZE];

			/* worst is bytes per ms: GB/s x 1e6; peak GB/s x 1e3 */
			num_ratio(pk, peak, 1000, 3);
			num_ratio(pc, (int64_t)((__int128)worst / 10), peak, 1);
			(void)snprintf(ev + len, sizeof(ev) - len, "; %s %% of "
			    "the %s GB/s peak given with --link-peak", pc, pk);
		}
		srec_set_str(r, c->evidence, ev);
		if ((__int128)worst * 100 < (__int128)med * 80)
			srec_set_str(r, c->tags, "SLOW_LINK");
		stage_put(st, r);
	}
	free(bw);
}

static void
summarize(struct stage *st)
{
	const struct cluster_cols *c = stage_columns(st);
	char worst_step[256] = "", ev[512], ms[NUM_BUFSIZE], pct[NUM_BUFSIZE];
	int64_t wn = 0, wd = 1;
	const char *wrank = NULL;
	size_t slow, ne;
	struct srec *r;
	struct rdev *d;
	struct sent *e;

	drop_duplicate_sources();
	choose_step_time();
	e = step_entries(&ne);
	rank_steps(st, e, ne);
	if (ne > 1)	/* back in step order */
		qsort(e, ne, sizeof(*e), by_step);
	steps(st, e, ne, worst_step, sizeof(worst_step), &wn, &wd, &wrank);
	free(e);
	collectives(st, 20);
	rank_waits(st, &slow);
	if (slow != SIZE_MAX) {
		d = dev_at(slow);
		r = rec(st, "cluster", "", "slow_rank");
		srec_set_str(r, c->slow_rank, devs.v[slow].name);
		srec_set_i64(r, c->caused, d->caused);
		srec_set_i64(r, c->last_count, d->last_count);
		srec_set_i64(r, c->matched, d->matched);
		num_ratio(ms, d->caused, 1000000, 6);
		num_ratio(pct, d->last_count * 100, d->matched > 0 ?
		    d->matched : 1, 1);
		snprintf(ev, sizeof(ev), "rank %s arrived last at %" PRId64
		    " of its %" PRId64 " matched collectives (%s%%); the others "
		    "waited %s ms for it in all", devs.v[slow].name,
		    d->last_count, d->matched, pct, ms);
		srec_set_str(r, c->evidence, ev);
		stage_put(st, r);
	}
	if (wrank != NULL) {
		r = rec(st, "cluster", "", "step_skew");
		srec_set_str(r, c->step, worst_step);
		srec_set_ratio(r, c->skew, wn, wd);
		srec_set_str(r, c->slow_rank, wrank);
		if ((__int128)wn * opt.skew_den > (__int128)opt.skew_num * wd)
			srec_set_str(r, c->tags, "STEP_SKEW");
		stage_put(st, r);
	}
	compute_imbalance(st);
	stage_imbalance(st);
	links(st);
}

static void
run(const char *path, int argc, char *argv[])
{
	static struct stage *st;	/* reachable when a diagnostic exits */
	struct stage_column cols[sizeof(columns) / sizeof(columns[0])];
	struct cluster_cols c;
	size_t n = sizeof(columns) / sizeof(columns[0]), i, j;
	unsigned long seen;

	memcpy(cols, columns, sizeof(columns));
	if (opt.npeaks == 0)
		cols[n - 2].flags = cols[n - 1].flags = STAGE_READ;
	st = stage_open(path, argc, argv, cols, n, &c);
	if ((seen = stage_seen(st, "prof-cluster", "arrival_skew_ns")) != 0)
		diag_at_fatal(EXIT_BAD, stage_path(st), seen, "input already "
		    "annotated by prof-cluster: its records would be "
		    "repeated");
	devtab_init(&devs, sizeof(struct rdev));
	while (stage_next(st)) {
		on_record(st);
		stage_pass(st);
	}
	summarize(st);
	stage_close(st);
	for (i = 0; i < nops; i++)
		free(ops[i].key);
	free(ops);
	for (i = 0; i < devs.n; i++) {
		strtab_free(&dev_at(i)->lastop[0]);
		strtab_free(&dev_at(i)->lastop[1]);
		for (j = 0; j < dev_at(i)->nsteps; j++)
			free(dev_at(i)->steps[j].step);
		free(dev_at(i)->steps);
		free(dev_at(i)->links);
	}
	devtab_free(&devs);
}


int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "help",	no_argument,		NULL, 'h' },
		{ "link-peak",	required_argument,	NULL, 'P' },
		{ "skew",	required_argument,	NULL, 's' },
		{ "version",	no_argument,		NULL, 'V' },
		{ NULL,		0,			NULL, 0 }
	};
	int ch;

	cli_init("prof-cluster");
	while ((ch = getopt_long(argc, argv, "hV", longopts, NULL)) != -1)
		switch (ch) {
		case 'h':
			usage();
			break;
		case 'P':
			add_peak(optarg);
			break;
		case 's':	/* a decimal ratio, exactly */
			opt.skew_den = 1000000000;
			opt.skew_num = cli_parse_fixed(optarg, "--skew", 9, 0,
			    100 * opt.skew_den);
			break;
		case 'V':
			cli_version();
			break;
		default:
			cli_try_help();
		}
	if (argc - optind > 1)
		cli_usage_error("too many operands: one FILE at most");
	run(optind < argc ? argv[optind] : "-", argc, argv);
	return EXIT_OK;
}
