/*
 * One string hash for every tool's tables (op names, threads, streams,
 * shape multisets): eight bytes at a time, since Kineto kernel names run
 * to hundreds of bytes, with a final mix so that the low bits can index
 * a table and sums of hashes do not cancel.
 */
#ifndef PROF_HASH_H
#define PROF_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Hash LEN bytes at S, starting from SEED (chain seeds to hash tuples). */
uint64_t	 hash_bytes(const void *, size_t, uint64_t);

#endif
