/*
 * What kind of device work a kernel record is, by its name and core, for
 * every stage that splits communication from compute.  One home, so that
 * prof-roofline's communication bound and prof-verdict's exposed
 * communication agree on which kernels communicate.
 */
#ifndef PROF_KCLASS_H
#define PROF_KCLASS_H

#include <stddef.h>

/*
 * Whether NAME (LEN bytes) holds hcom, hccl, nccl or rccl in any case:
 * Ascend's hcom_allReduce_..., NVIDIA's ncclDevKernel_..., ROCm's rccl.
 */
int	 kclass_comm_name(const char *, size_t);
/* Whether CORE (LEN bytes) is a communication core (HCCL, COMMUNICATION). */
int	 kclass_comm_core(const char *, size_t);

#endif
