/*
 * The string hash shared by the tools; see hash.h.
 */
#include <config.h>

#include <string.h>

#include "hash.h"

uint64_t
hash_bytes(const void *p, size_t len, uint64_t seed)
{
	const char *s = p;
	uint64_t h = seed ^ (len * 0x9e3779b97f4a7c15ULL), w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, s, len);
	h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return h;
}
