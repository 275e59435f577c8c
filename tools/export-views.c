/*
 * prof-export -f sqlite: one view per section of prof-render's report,
 * so that the report's tables are a SELECT away: the verdict, the time
 * budget, the recommendations, the steps, the bubbles and their causes,
 * the ops, the layers, the roofline and the ranks side by side.
 *
 * A view names only the columns its table has: a kind's table leaves
 * out the columns that the capture never filled, and a view that named
 * one would not be created.  A section whose kind the stream lacks (no
 * prof-verdict in the pipeline) has no view.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "diag.h"
#include "export.h"
#include "xalloc.h"

struct exview {
	const char	*name, *table;
	const char	*cols;		/* wanted, in order, space-separated */
	const char	*where;		/* or NULL */
	const char	*order;		/* after the rank order; or NULL */
};

/*
 * The device order of every report: ranks by value (a run of digits: by
 * length, then as text), then the other names as text.  Not CAST(dev AS
 * INTEGER): SQLite makes 'TPU:0' 0, but DuckDB, which runs these views'
 * SQL as written when it attaches the file, refuses the cast, and the
 * view could not be read there.
 */
#define DEVNUM		"ltrim(dev, '0123456789') = ''"
#define DEVORDER	"NOT " DEVNUM ", CASE WHEN " DEVNUM " THEN length(dev) END, dev"

static const struct exview views[] = {
	{ "report_verdict", "verdict", "dev name scope step_group steps "
	    "share_ratio stake_ns window_ns confidence second second_ratio "
	    "mfu_ratio mfu_cov_ratio chip pipe evidence tags",
	    "scope = 'run'", NULL },
	{ "report_verdict_groups", "verdict", "dev step_group name steps "
	    "share_ratio stake_ns window_ns confidence second second_ratio "
	    "evidence tags", "scope = 'group'", "step_group" },
	{ "report_budget", "budget", "dev name steps budget_ns per_step_ns "
	    "share_ratio window_ns tags", "scope = 'run'", "budget_ns DESC" },
	{ "report_advice", "advice", "dev order prio name scope target_id "
	    "stake_ns share_ratio text evidence followup", NULL, "\"order\"" },
	{ "report_steps", "window", "dev step step_group ts_ns dur_ns name "
	    "cat tags", NULL, "ts_ns" },
	{ "report_step_metrics", "metric", "dev step step_group name value "
	    "tags", "step IS NOT NULL", "step, name" },
	{ "report_bubbles", "bubble", "dev step ts_ns dur_ns name labels "
	    "idle_sync_ns idle_input_ns idle_launch_ns idle_host_ns "
	    "idle_untraced_ns host_top prev_name next_name bubble_id", NULL,
	    "dur_ns DESC" },
	{ "report_causes", "cause", "dev scope step_group step name value "
	    "confidence target_id evidence followup tags", NULL, NULL },
	{ "report_ops", "op", "dev name calls dur_avg_ns wait_avg_ns "
	    "cost_avg_ns cost_total_ns dur_total_ns wait_ratio rank_cost "
	    "masked_ratio tags", NULL, "rank_cost" },
	{ "report_opgroups", "opgroup", "dev key rank name calls "
	    "dur_total_ns dur_avg_ns dur_median_ns share_ratio "
	    "wall_share_ratio category tags", NULL, "rank" },
	{ "report_layers", "layer", "dev pass layer name phase ts_ns dur_ns "
	    "busy_ns kernel_sum_ns cost_total_ns idle_ns gap_ns task_mix "
	    "tags", NULL, "ts_ns" },
	{ "report_roofline", "roof", "dev scope name step calls dur_total_ns "
	    "flops bytes ai bound mfu_ratio bw_ratio chip tags", NULL,
	    "dur_total_ns DESC" },
	{ "report_bottleneck", "bottleneck", "dev step name value evidence",
	    NULL, "step" },
	{ "report_rank_steps", "rank_step", "dev step step_ns compute_ns "
	    "comm_exposed_ns idle_ns skew_ratio tags", NULL, "step" },
	{ "report_collectives", "collective", "name step seq ranks "
	    "last_rank arrival_skew_ns waited_ns evidence", NULL,
	    "waited_ns DESC" },
	{ "report_rank_wait", "rank_wait", "dev waited_ns caused_ns matched "
	    "last_count", NULL, NULL },
	{ "report_cluster", "cluster", "name value slow_rank fast_rank "
	    "skew_ratio evidence tags", NULL, NULL },
};
#define NVIEWS	(sizeof(views) / sizeof(views[0]))

/* Whether TABLE has column COL (the catalogue of export-sqlite.c). */
static int
has_col(sqlite3 *db, const char *table, const char *col, size_t len)
{
	sqlite3_stmt *st;
	int r;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM columns WHERE tbl = ? "
	    "AND col = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, col, (int)len, SQLITE_STATIC);
	r = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return r;
}

/* Append S (N bytes) to the SQL text at *B of *LEN bytes. */
static void
add(char **b, size_t *len, const char *s, size_t n)
{
	*b = xrealloc(*b, *len + n + 1);
	memcpy(*b + *len, s, n);
	*len += n;
	(*b)[*len] = '\0';
}

#define ADDS(b, len, s)	add(b, len, s, strlen(s))

static void
make_view(sqlite3 *db, const char *path, const struct exview *v)
{
	const char *c = v->cols;
	char *sql = NULL, *err = NULL;
	size_t len = 0, n, any = 0;

	if (!has_col(db, v->table, "_line", 5))
		return;		/* no such kind in the stream */
	ADDS(&sql, &len, "CREATE VIEW ");
	ADDS(&sql, &len, v->name);
	ADDS(&sql, &len, " AS SELECT ");
	for (; *c != '\0'; c += n + (c[n] == ' ')) {
		n = strcspn(c, " ");
		if (!has_col(db, v->table, c, n))
			continue;
		if (any++)
			ADDS(&sql, &len, ", ");
		ADDS(&sql, &len, "\"");
		add(&sql, &len, c, n);
		ADDS(&sql, &len, "\"");
	}
	ADDS(&sql, &len, " FROM \"");
	ADDS(&sql, &len, v->table);
	ADDS(&sql, &len, "\"");
	if (v->where != NULL) {
		/* A filter on a column the table lacks selects nothing. */
		if (!has_col(db, v->table, v->where, strcspn(v->where, " ")))
			ADDS(&sql, &len, " WHERE 0");
		else {
			ADDS(&sql, &len, " WHERE ");
			ADDS(&sql, &len, v->where);
		}
	}
	ADDS(&sql, &len, " ORDER BY " DEVORDER);
	if (v->order != NULL && has_col(db, v->table, v->order +
	    (*v->order == '"'), strcspn(v->order + (*v->order == '"'),
	    " ,\""))) {
		ADDS(&sql, &len, ", ");
		ADDS(&sql, &len, v->order);
	}
	ADDS(&sql, &len, ", _line");
	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK)
		diag_err(EXIT_BAD, "%s: view %s: %s", diag_path(path), v->name,
		    err != NULL ? err : sqlite3_errmsg(db));
	free(sql);
}

void
export_views(sqlite3 *db, const char *path)
{
	size_t i;
	char *err = NULL;

	for (i = 0; i < NVIEWS; i++)
		make_view(db, path, &views[i]);
	/* The question users ask first: device time per device. */
	if (has_col(db, "kernel", "_line", 5) &&
	    sqlite3_exec(db, "CREATE VIEW report_kernel_time AS SELECT dev, "
	    "COUNT(*) AS kernels, SUM(dur_ns) AS kernel_ns FROM kernel "
	    "GROUP BY dev ORDER BY " DEVORDER, NULL, NULL, &err) !=
	    SQLITE_OK)
		diag_err(EXIT_BAD, "%s: view report_kernel_time: %s",
		    diag_path(path), err != NULL ? err : sqlite3_errmsg(db));
}
