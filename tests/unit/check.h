/*
 * A minimal assertion macro for the libcommon unit tests: no framework,
 * one program per module, exit 1 on the first failed check.
 */
#ifndef PROF_CHECK_H
#define PROF_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_count;

#define CHECK(expr) do {						\
	check_count++;							\
	if (!(expr)) {							\
		fprintf(stderr, "%s:%d: check failed: %s\n",		\
		    __FILE__, __LINE__, #expr);				\
		exit(1);						\
	}								\
} while (0)

#define CHECK_STR(got, want) do {					\
	const char *check_g_ = (got), *check_w_ = (want);		\
	check_count++;							\
	if (strcmp(check_g_, check_w_) != 0) {				\
		fprintf(stderr, "%s:%d: got '%s', want '%s'\n",		\
		    __FILE__, __LINE__, check_g_, check_w_);		\
		exit(1);						\
	}								\
} while (0)

#define CHECK_DONE() do {						\
	printf("%d checks passed\n", check_count);			\
	return 0;							\
} while (0)

#endif
