/*
 * The formats prof-ingest knows: how a file is recognised, by its name
 * and then by its first bytes, which reader reads it, and which formats
 * of the same run have the better copy of its device tasks.
 *
 * Adding a format is a reader in its own file (with its matchers) and a
 * row here.  Order matters: the first row whose name matcher accepts a
 * file wins, and so does the first row whose content matcher accepts
 * its first bytes; op_summary's header contains kernel_details' column
 * names, and communication.json is JSON that is not a trace.  Rows with
 * no reader list files that are known but not read, with the reason
 * shown in the inventory; rows with no matcher are formats a reader
 * decides on from the content (the Chrome reader tells Kineto, Ascend
 * trace_view and the op simulator apart).
 */
#include <config.h>

#include <string.h>

#include "ingest.h"

static const char *const yield_to_kernel_tables[] = {
	"kernel_details", "op_summary", NULL
};

/* A run exported both as text and as databases: the text is read. */
static const char *const yield_to_text[] = {
	"kernel_details", "op_summary", "trace_view", NULL
};
static const char *const yield_to_step_trace[] = { "step_trace_time", NULL };
static const char *const yield_to_cluster_text[] = {
	"cluster_step_trace_time", "cluster_communication", NULL
};

static int
name_xplane(const char *base)
{
	return ingest_has_suffix(base, ".xplane.pb");
}

static int
name_riegeli(const char *base)
{
	return ingest_has_suffix(base, ".xplane.riegeli");
}

static int
name_profiler_info(const char *base)
{
	return ingest_has_prefix(base, "profiler_info") ||
	    (ingest_has_prefix(base, "profiler_metadata") &&
	    !ingest_name_metadata(base));
}

static int
name_cluster(const char *base)
{
	return ingest_has_prefix(base, "cluster_") ||
	    ingest_has_prefix(base, "communication_group") ||
	    ingest_has_prefix(base, "communication_matrix");
}

static int
name_other_csv(const char *base)
{
	return ingest_has_suffix(base, ".csv");
}

const struct ingest_format ingest_formats[] = {
	{ .name = "op_summary", .by_name = ingest_name_op_summary,
	    .by_content = ingest_content_op_summary,
	    .read = ingest_ascend_table },
	{ .name = "kernel_details", .by_name = ingest_name_kernel_details,
	    .by_content = ingest_content_kernel_details,
	    .read = ingest_ascend_table },
	{ .name = "cluster_step_trace_time",
	    .by_name = ingest_name_cluster_step,
	    .by_content = ingest_content_cluster_step,
	    .read = ingest_ascend_table },
	{ .name = "step_trace_time", .by_name = ingest_name_step_trace,
	    .by_content = ingest_content_step_trace,
	    .read = ingest_ascend_table },
	{ .name = "cluster_communication",
	    .by_name = ingest_name_cluster_comm,
	    .read = ingest_cluster_comm },
	{ .name = "communication", .by_name = ingest_name_comm_json,
	    .by_content = ingest_content_comm_json,
	    .read = ingest_comm_json },
	{ .name = "sqlite", .by_name = ingest_name_sqlite,
	    .by_content = ingest_content_sqlite, .read = ingest_sqlite,
	    .stray = ingest_stray_sqlite },
	{ .name = "xplane", .by_name = name_xplane,
	    .by_content = ingest_content_xplane, .read = ingest_xplane },
	{ .name = "xplane_riegeli", .by_name = name_riegeli,
	    .not_read = "Riegeli-chunked XPlane (.xplane.riegeli): not "
	    "supported; save the profile as .xplane.pb" },
	{ .name = "profiler_metadata", .by_name = ingest_name_metadata,
	    .read = ingest_metadata },
	{ .name = "metadata", .by_name = name_profiler_info,
	    .not_read = "profiler metadata: not ingested" },
	{ .name = "cluster", .by_name = name_cluster,
	    .not_read = "aggregated analysis output: not ingested" },
	{ .name = "instr_exe", .by_name = ingest_name_instr_exe,
	    .by_content = ingest_content_instr_exe,
	    .read = ingest_instr_exe },
	{ .name = "table", .by_name = name_other_csv,
	    .not_read = "table without per-task times: not ingested" },
	{ .name = "chrome", .by_name = ingest_name_chrome,
	    .by_content = ingest_content_chrome, .read = ingest_chrome,
	    .stray = ingest_stray_chrome },
	/* Decided by the Chrome reader from what the trace holds. */
	{ .name = "trace_view", .device_yields_to = yield_to_kernel_tables },
	{ .name = "kineto" },
	{ .name = "simulator" },
	/* Decided by the SQLite reader from the database's tables. */
	{ .name = "ascend_db", .yields_to = yield_to_text },
	{ .name = "ascend_analysis_db", .yields_to = yield_to_step_trace },
	{ .name = "ascend_cluster_db", .yields_to = yield_to_cluster_text },
	{ .name = "nsys" },
	{ .name = NULL }
};

const struct ingest_format *
ingest_format_by_name(const char *base)
{
	const struct ingest_format *f;

	for (f = ingest_formats; f->name != NULL; f++)
		if (f->by_name != NULL && f->by_name(base))
			return f;
	return NULL;
}

const struct ingest_format *
ingest_format_by_content(const char *head, size_t len)
{
	const struct ingest_format *f;
	size_t i = 0;

	/* A byte-order mark and blank lines say nothing about the format. */
	if (len >= 3 && memcmp(head, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && strchr(" \t\r\n", head[i]) != NULL)
		i++;
	for (f = ingest_formats; f->name != NULL; f++)
		if (f->read != NULL && f->by_content != NULL &&
		    f->by_content(head + i, len - i))
			return f;
	return NULL;
}

const struct ingest_format *
ingest_format_named(const char *name)
{
	const struct ingest_format *f;

	for (f = ingest_formats; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

int
ingest_yields_device(const struct ingest_format *f,
    const struct ingest_format *other)
{
	const char *const *y;

	if (f->device_yields_to == NULL)
		return 0;
	for (y = f->device_yields_to; *y != NULL; y++)
		if (strcmp(*y, other->name) == 0)
			return 1;
	return 0;
}

int
ingest_yields_all(const struct ingest_format *f,
    const struct ingest_format *other)
{
	const char *const *y;

	for (y = f->yields_to; y != NULL && *y != NULL; y++)
		if (strcmp(*y, other->name) == 0)
			return 1;
	return 0;
}

int
ingest_has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int
ingest_has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int
ingest_looks_json(const char *head, size_t len)
{
	return len > 0 && (head[0] == '{' || head[0] == '[');
}

int
ingest_head_has(const char *head, size_t len, const char *needle)
{
	size_t m = strlen(needle), i;

	for (i = 0; i + m <= len; i++)
		if (memcmp(head + i, needle, m) == 0)
			return 1;
	return 0;
}
