/*
 * prof-render: the "Across ranks" section, from prof-cluster's records.
 * They are kept while the stream is read (ranks_record, a render_hook),
 * in their kinds' order, with the columns the section shows; the
 * writers of the Markdown report, the terminal summary and the JSON
 * object read them through ranks_get.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"
#include "tsv.h"
#include "xalloc.h"

static const char *const rcol[RK_NCOL] = {
	"dev", "name", "step", "ranks", "step_ns", "min_ns", "median_ns",
	"max_ns", "skew_ratio", "slow_rank", "fast_rank", "last_rank",
	"arrival_skew_ns", "waited_ns", "caused_ns", "matched", "last_count",
	"evidence", "tags", "compute_ns"
};
static const char *const rkind[RK_NKIND] = {
	"rank_step", "step_skew", "collective", "rank_wait", "cluster"
};

struct rrow {
	char	*f[RK_NCOL];
};

struct ranks {
	int		 col[RK_NCOL];
	int		 init;
	struct rrow	*rows[RK_NKIND];
	size_t		 n[RK_NKIND];
};

struct ranks *
ranks_open(void)
{
	return xcalloc(1, sizeof(struct ranks));
}

void
ranks_close(struct ranks *r)
{
	size_t k, i, c;

	if (r == NULL)
		return;
	for (k = 0; k < RK_NKIND; k++) {
		for (i = 0; i < r->n[k]; i++)
			for (c = 0; c < RK_NCOL; c++)
				free(r->rows[k][i].f[c]);
		free(r->rows[k]);
	}
	free(r);
}

/* The kind of KIND among prof-cluster's, or -1. */
int
ranks_kind(const char *kind)
{
	int k;

	for (k = 0; k < RK_NKIND; k++)
		if (strcmp(kind, rkind[k]) == 0)
			return k;
	return -1;
}

void
ranks_record(const struct tsvr *in, void *arg)
{
	struct ranks *r = arg;
	struct rrow *w;
	const char *s;
	size_t n, c;
	int k;

	if (!r->init) {
		for (c = 0; c < RK_NCOL; c++)
			r->col[c] = tsvr_col(in, rcol[c]);
		r->init = 1;
	}
	if ((k = ranks_kind(tsvr_field(in, 0, &n))) < 0)
		return;
	r->rows[k] = xreallocarray(r->rows[k], r->n[k] + 1,
	    sizeof(*r->rows[k]));
	w = &r->rows[k][r->n[k]++];
	for (c = 0; c < RK_NCOL; c++) {
		if (r->col[c] < 0) {
			w->f[c] = xstrdup("");
			continue;
		}
		s = tsvr_field(in, (size_t)r->col[c], &n);
		w->f[c] = xstrndup(s, n);
	}
}

size_t
ranks_count(const struct ranks *r, int kind)
{
	return r == NULL ? 0 : r->n[kind];
}

const char *
ranks_get(const struct ranks *r, int kind, size_t i, int col)
{
	return r->rows[kind][i].f[col];
}

/* The cluster record named NAME, or -1. */
static long
finding(const struct ranks *r, const char *name)
{
	size_t i;

	for (i = 0; i < ranks_count(r, RK_CLUSTER); i++)
		if (strcmp(ranks_get(r, RK_CLUSTER, i, RC_NAME), name) == 0)
			return (long)i;
	return -1;
}

static void
ms(FILE *f, const char *ns)
{
	put_dec(f, ns, 6, 3);
}

/* The Markdown section; nothing when prof-cluster did not run. */
void
md_ranks(struct rctx *rc)
{
	const struct ranks *r = rc->ranks;
	FILE *f = rc->out;
	long i;
	size_t j, n;

	if (ranks_count(r, RK_RANK_WAIT) + ranks_count(r, RK_STEP_SKEW) +
	    ranks_count(r, RK_CLUSTER) == 0)
		return;
	fputs("## Across ranks\n\n", f);
	if ((i = finding(r, "slow_rank")) >= 0)
		fprintf(f, "- **Slow rank: %s.**  %s.\n", ranks_get(r,
		    RK_CLUSTER, (size_t)i, RC_SLOW), ranks_get(r, RK_CLUSTER,
		    (size_t)i, RC_EVIDENCE));
	else
		fputs("- No slow rank: no collective was matched on two ranks "
		    "or more, or none made another wait.\n", f);
	if ((i = finding(r, "step_skew")) >= 0) {
		fprintf(f, "- Most skewed step: %s, its slowest rank (%s) ",
		    ranks_get(r, RK_CLUSTER, (size_t)i, RC_STEP), ranks_get(r,
		    RK_CLUSTER, (size_t)i, RC_SLOW));
		put_pct(f, ranks_get(r, RK_CLUSTER, (size_t)i, RC_SKEW));
		fprintf(f, " longer than its fastest%s.\n", strstr(ranks_get(r,
		    RK_CLUSTER, (size_t)i, RC_TAGS), "STEP_SKEW") != NULL ?
		    " (**STEP_SKEW**)" : "");
	}
	if ((i = finding(r, "compute_imbalance")) >= 0) {
		fputs("- Compute per step (the profiler's Computing): ", f);
		fputs(ranks_get(r, RK_CLUSTER, (size_t)i, RC_EVIDENCE), f);
		fputs("; the most over the least ", f);
		put_pct(f, ranks_get(r, RK_CLUSTER, (size_t)i, RC_SKEW));
		fputs(".\n", f);
	}
	if ((i = finding(r, "stage_imbalance")) >= 0) {
		fputs(strstr(ranks_get(r, RK_CLUSTER, (size_t)i, RC_TAGS),
		    "stages_inferred") != NULL ? "- Pipeline stages (compute "
		    "per step): " :
		    "- Pipeline stages (compute per step, from the profiler's "
		    "pp groups): ", f);
		fputs(ranks_get(r, RK_CLUSTER, (size_t)i, RC_EVIDENCE), f);
		if (*ranks_get(r, RK_CLUSTER, (size_t)i, RC_SKEW) != '\0') {
			fputs("; the slowest over the fastest ", f);
			put_pct(f, ranks_get(r, RK_CLUSTER, (size_t)i, RC_SKEW));
		}
		fputs(".\n", f);
	}
	for (j = 0; j < ranks_count(r, RK_CLUSTER); j++) {
		int slow;

		if (strcmp(ranks_get(r, RK_CLUSTER, j, RC_NAME),
		    "slow_link") != 0)
			continue;
		/* a link is only called slow where the ranks' differ */
		slow = strstr(ranks_get(r, RK_CLUSTER, j, RC_TAGS),
		    "SLOW_LINK") != NULL;
		fprintf(f, "- %s, %s (communication.json's bytes over transit "
		    "time): %s under 80 %% of the median.\n", slow ?
		    "**Slow link (SLOW_LINK)**" : "Links", ranks_get(r,
		    RK_CLUSTER, j, RC_EVIDENCE), slow ? "its slowest rank is" :
		    "no rank is");
	}
	if ((n = ranks_count(r, RK_RANK_WAIT)) > 0) {
		fputs("\n| rank | collectives matched | arrived last at | "
		    "waited for others (ms) | others waited for it (ms) |\n"
		    "|---|---:|---:|---:|---:|\n", f);
		for (j = 0; j < n; j++) {
			fprintf(f, "| %s | %s | %s | ", ranks_get(r,
			    RK_RANK_WAIT, j, RC_DEV), ranks_get(r,
			    RK_RANK_WAIT, j, RC_MATCHED), ranks_get(r,
			    RK_RANK_WAIT, j, RC_LAST_COUNT));
			ms(f, ranks_get(r, RK_RANK_WAIT, j, RC_WAITED));
			fputs(" | ", f);
			ms(f, ranks_get(r, RK_RANK_WAIT, j, RC_CAUSED));
			fputs(" |\n", f);
		}
	}
	if ((n = ranks_count(r, RK_COLLECTIVE)) > 0) {
		fputs("\nThe collectives with the most waiting (the others "
		    "wait from their own start to the last rank's):\n\n"
		    "| step | op | ranks | last to arrive | arrival skew (ms) "
		    "| waited, all ranks (ms) |\n|---|---|---:|---|---:|---:|\n",
		    f);
		for (j = 0; j < n && j < 5; j++) {
			fprintf(f, "| %s | ", ranks_get(r, RK_COLLECTIVE, j,
			    RC_STEP));
			put_md_name(f, ranks_get(r, RK_COLLECTIVE, j, RC_NAME));
			fprintf(f, " | %s | %s | ", ranks_get(r, RK_COLLECTIVE,
			    j, RC_RANKS), ranks_get(r, RK_COLLECTIVE, j,
			    RC_LAST));
			ms(f, ranks_get(r, RK_COLLECTIVE, j, RC_ARRIVAL));
			fputs(" | ", f);
			ms(f, ranks_get(r, RK_COLLECTIVE, j, RC_WAITED));
			fputs(" |\n", f);
		}
	}
	fputs("\nFrom prof-cluster(1): the arrival skew needs the ranks' "
	    "clocks to agree.\n\n", f);
}
