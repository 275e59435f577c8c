/*
 * Whether the byte scans use SSE2 (PROF_SSE2) or 64-bit words.  SSE2 is
 * used where the compiler targets it (every x86-64); elsewhere, aarch64
 * hosts of Ascend NPUs among them, the word code runs.  Building with
 * -DPROF_NO_SIMD forces the word code, so that the tests cover it here
 * too (.ci/run does).
 */
#ifndef PROF_SIMD_H
#define PROF_SIMD_H

#if defined(__SSE2__) && !defined(PROF_NO_SIMD)
#define PROF_SSE2	1
#include <emmintrin.h>
#endif

#endif
