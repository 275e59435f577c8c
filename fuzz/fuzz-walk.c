/*
 * libFuzzer harness for prof-ingest's directory walk (tools/prof-ingest.c,
 * included here so that its static walk can be called and its state
 * reset between inputs): the input is a little program that builds a
 * tree in a scratch directory (directories, files with profile names and
 * bytes of the input as content, symbolic links to an ancestor, to
 * itself or to another directory, hard links) that is then walked, named
 * once and twice.  A loop must end (run.sh's 10 s limit catches one
 * that does not), and no file may become a source twice: a source read
 * twice is a record counted twice.
 */
#define main	prof_ingest_main
#define ingest_lenient	ingest_lenient_walk
#include "../tools/prof-ingest.c"
#undef main
#undef ingest_lenient

#include <ftw.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define MAXSRC	512

static char	 root[256];
static struct {
	dev_t	 dev;
	ino_t	 ino;
} got[MAXSRC];
static size_t	 ngot;

/* Every source begun must be a file no source was before. */
static void
on_begin(const char *path)
{
	struct stat st;
	size_t i;

	if (strchr(path, '(') != NULL || stat(path, &st) != 0)
		return;		/* an archive member, or gone */
	for (i = 0; i < ngot; i++)
		if (got[i].dev == st.st_dev && got[i].ino == st.st_ino)
			abort();
	if (ngot < MAXSRC) {
		got[ngot].dev = st.st_dev;
		got[ngot++].ino = st.st_ino;
	}
}

static int
rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(p);
}

static void
remove_tree(void)
{
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Forget what the last walk saw: the scratch tree's inodes come again. */
static void
reset(void)
{
	struct seen *e, *next;
	size_t i;

	for (i = 0; i < SEEN_BUCKETS; i++) {
		for (e = seen[i]; e != NULL; e = next) {
			next = e->next;
			free(e->path);
			free(e);
		}
		seen[i] = NULL;
	}
	free(last_run);
	last_run = NULL;
	exit_status = EXIT_OK;
	ngot = 0;
}

static const char *const names[] = {
	"kernel_details.csv", "trace_view.json", "communication.json",
	"step_trace_time.csv", "rank0.pt.trace.json", "profiler_info_1.json",
	"op_summary_0.csv", "x.db", "notes.txt", "t.json.gz"
};

/* Build the tree the input describes under ROOT. */
static void
build(const uint8_t *d, size_t n)
{
	char cur[4096], p[4096], last[4096] = "", lastdir[4096] = "";
	size_t i = 0, k = 0, len, depth = 0;
	int fd, up;

	snprintf(cur, sizeof(cur), "%s", root);
	mkdir(cur, 0755);
	while (i < n && k < 64) {
		uint8_t op = d[i++], arg = i < n ? d[i++] : 0;

		k++;
		switch (op % 8) {
		case 0:		/* a directory, entered */
			if (depth >= 8)
				break;
			snprintf(p, sizeof(p), "%s/d%zu", cur, k);
			if (mkdir(p, 0755) == 0) {
				snprintf(cur, sizeof(cur), "%s", p);
				snprintf(lastdir, sizeof(lastdir), "%s", p);
				depth++;
			}
			break;
		case 1:		/* back up */
			if (depth > 0 && strrchr(cur, '/') != NULL) {
				*strrchr(cur, '/') = '\0';
				depth--;
			}
			break;
		case 2:		/* a file with a profile's name */
		case 3:
			snprintf(p, sizeof(p), "%s/%s%s", cur, op % 8 == 3 ?
			    "rank_1_" : "", names[arg % 10]);
			len = (size_t)(arg % 64) * 4;
			if (len > n - i)
				len = n - i;
			if ((fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644)) >= 0) {
				if (write(fd, d + i, len) < 0)
					abort();
				close(fd);
				snprintf(last, sizeof(last), "%s", p);
			}
			i += len;
			break;
		case 4:		/* a link to an ancestor: a loop */
			snprintf(p, sizeof(p), "%s/up%zu", cur, k);
			up = arg % (depth + 1);
			{
				char t[64] = ".";
				int j;

				for (j = 0; j < up; j++)
					snprintf(t + (j == 0 ? 0 : strlen(t)),
					    sizeof(t) - strlen(t), j == 0 ? ".." :
					    "/..");
				(void)symlink(t, p);
			}
			break;
		case 5:		/* a link to itself */
			snprintf(p, sizeof(p), "%s/self%zu", cur, k);
			(void)symlink(".", p);
			break;
		case 6:		/* a second name for the last file */
			if (last[0] == '\0')
				break;
			snprintf(p, sizeof(p), "%s/h%zu_%s", cur, k,
			    names[arg % 10]);
			if (arg & 1)
				(void)link(last, p);
			else
				(void)symlink(last, p);
			break;
		case 7:		/* a link to the last directory made */
			if (lastdir[0] == '\0')
				break;
			snprintf(p, sizeof(p), "%s/alias%zu", cur, k);
			(void)symlink(lastdir, p);
			break;
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char sub[300];

	fuzz_quiet();
	if (!init) {
		const char *t = getenv("TMPDIR");

		init = 1;
		snprintf(root, sizeof(root), "%s/prof-walk.%ld",
		    t != NULL && *t != '\0' ? t : "/tmp", (long)getpid());
		sink_stub_begin_hook = on_begin;
		diag_setprogname("prof-ingest");
		atexit(remove_tree);
	}
	remove_tree();
	build(data, size);
	reset();
	ingest_operand(root);
	/* Named twice, and a part of it after the whole: read once. */
	ingest_operand(root);
	snprintf(sub, sizeof(sub), "%s/d1", root);
	ingest_operand(sub);
	reset();
	return 0;
}
