/*
 * Communication kernels by name and core (kclass.h).
 */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "kclass.h"

/*
 * One pass over the name, keeping its last four bytes folded to lower
 * case in a word: Kineto kernel names run to hundreds of bytes, and this
 * runs once per kernel record.
 */
int
kclass_comm_name(const char *s, size_t n)
{
	size_t i;
	uint32_t w = 0;

	for (i = 0; i < n; i++) {
		w = w << 8 | (uint32_t)(unsigned char)(s[i] | 0x20);
		if (i >= 3 && (w == 0x68636f6d || w == 0x6863636c ||
		    w == 0x6e63636c || w == 0x7263636c))
			return 1;	/* hcom, hccl, nccl, rccl */
	}
	return 0;
}

int
kclass_comm_core(const char *core, size_t n)
{
#define CORE_IS(s)	(n == sizeof(s) - 1 && memcmp(core, s, n) == 0)
	return CORE_IS("HCCL") || CORE_IS("COMMUNICATION");
#undef CORE_IS
}
