/*
 * wait.c: waiting for a symmetric variable that other PEs write.  The
 * writes land straight in this PE's memory, so a wait is a loop of
 * atomic loads, yielding, then sleeping a little longer each time
 * (shm_pause).
 */
#include "shm.h"

#include "shmem.h"

#define WAIT_CMP(a, cmp, b)                                                    \
	((cmp) == SHMEM_CMP_EQ      ? (a) == (b)                               \
	    : (cmp) == SHMEM_CMP_NE ? (a) != (b)                               \
	    : (cmp) == SHMEM_CMP_GT ? (a) > (b)                                \
	    : (cmp) == SHMEM_CMP_LE ? (a) <= (b)                               \
	    : (cmp) == SHMEM_CMP_LT ? (a) < (b)                                \
	                            : (a) >= (b))

static void
wait_check_cmp(int cmp, const char *call)
{
	if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_GE)
		shm_fatal(call, "unknown comparison %d", cmp);
}

#define WAIT_TYPED(NAME, T)                                                    \
	int shmem_##NAME##_test(T *ivar, int cmp, T value)                     \
	{                                                                      \
		T v;                                                           \
		wait_check_cmp(cmp, __func__);                                 \
		__atomic_load(ivar, &v, __ATOMIC_ACQUIRE);                     \
		return WAIT_CMP(v, cmp, value);                                \
	}                                                                      \
	void shmem_##NAME##_wait_until(T *ivar, int cmp, T value)              \
	{                                                                      \
		unsigned spins = 0;                                            \
		wait_check_cmp(cmp, __func__);                                 \
		while (!shmem_##NAME##_test(ivar, cmp, value))                 \
			shm_pause(&spins, __func__);                           \
	}                                                                      \
	void shmem_##NAME##_wait(T *ivar, T value)                             \
	{                                                                      \
		shmem_##NAME##_wait_until(ivar, SHMEM_CMP_NE, value);          \
	}
_PVMSHM_WAIT_TYPES(WAIT_TYPED)

void
shmem_wait_until(long *ivar, int cmp, long value)
{
	shmem_long_wait_until(ivar, cmp, value);
}

void
shmem_wait(long *ivar, long value)
{
	shmem_long_wait_until(ivar, SHMEM_CMP_NE, value);
}
