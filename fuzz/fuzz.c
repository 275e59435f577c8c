/* Helpers shared by the harnesses: see fuzz.h. */
#include <config.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char	 path[256];

const char *
fuzz_file(const uint8_t *data, size_t len)
{
	int fd;

	if (path[0] == '\0') {
		const char *dir = getenv("TMPDIR");

		if (dir == NULL || *dir == '\0')
			dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(path, sizeof(path), "%s/prof-fuzz.%ld", dir,
		    (long)getpid());
	}
	/* O_TRUNC, not unlink: the path stays one file for the whole run. */
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) == -1) {
		perror(path);
		abort();
	}
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n <= 0) {
			perror(path);
			abort();
		}
		data += n;
		len -= (size_t)n;
	}
	close(fd);
	return path;
}

static volatile unsigned char sink;

void
fuzz_touch(const char *s, size_t len)
{
	unsigned char h = 0;
	size_t i;

	for (i = 0; i < len; i++)
		h ^= (unsigned char)s[i];
	sink = h;
}

static void
remove_file(void)
{
	if (path[0] != '\0')
		unlink(path);
}

void
fuzz_quiet(void)
{
	static int done;
	int fd;

	if (done++)
		return;
	atexit(remove_file);
	if (getenv("FUZZ_VERBOSE") != NULL)
		return;
	/*
	 * Records go to stdout: throw them away.  Diagnostics go to stderr,
	 * which run.sh silences with libFuzzer's -close_fd_mask=2 (that
	 * keeps a copy of it for libFuzzer's and the sanitizers' reports).
	 */
	if ((fd = open("/dev/null", O_WRONLY)) != -1) {
		dup2(fd, 1);
		close(fd);
	}
}
