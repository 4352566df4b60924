/*
 * amo.c: atomics.  On a PE of this host (mapped here) each is one CPU
 * atomic on its memory, atomic against every PE of the host at once,
 * with no help from the target PE.  On a PE of another host it is a
 * request to that host's agent (net.c), which does the same CPU atomic
 * on its mapping: every PE's atomics on one target meet in one memory,
 * so they stay exact under contention from any number of hosts.
 */
#include "shm.h"

#include "shmem.h"

#include <string.h>

/* The target of an atomic: symmetric and naturally aligned; NULL for a
 * PE of another host. */
static void *
amo_target(const void *addr, size_t w, int pe, const char *call)
{
	void *p = shm_remote(addr, w, pe, call);

	/* Regions are page aligned: the address's alignment is the
	 * target's on every PE. */
	if (((uintptr_t)addr & (w - 1)) != 0)
		shm_fatal(call, "%p is not aligned for an atomic of %zu bytes",
		    addr, w);
	return p;
}

/* The bits of a 4- or 8-byte value, and back. */
static uint64_t
amo_bits(const void *v, size_t w)
{
	uint32_t x;
	uint64_t y;

	if (w == 4) {
		memcpy(&x, v, 4);
		return x;
	}
	memcpy(&y, v, 8);
	return y;
}

static void
amo_unbits(void *v, size_t w, uint64_t bits)
{
	uint32_t x = (uint32_t)bits;

	if (w == 4)
		memcpy(v, &x, 4);
	else
		memcpy(v, &bits, 8);
}

/* A remote atomic on values of w bytes: a and b may be NULL, the old
 * value goes to old unless it is NULL. */
static void
amo_net(void *d, size_t w, int op, const void *a, const void *b, void *old,
    int pe, const char *call)
{
	uint64_t r = shm_net_amo(d, w, op, a != NULL ? amo_bits(a, w) : 0,
	    b != NULL ? amo_bits(b, w) : 0, old != NULL, pe, call);

	if (old != NULL)
		amo_unbits(old, w, r);
}

#define AMO_SEQ __ATOMIC_SEQ_CST
#define AMO_AT(d, pe) ((T *)amo_target(d, sizeof(T), pe, __func__))
#define AMO_NET(d, op, a, b, old)                                              \
	amo_net((void *)(d), sizeof(T), op, a, b, old, pe, __func__)

/* fetch, set and swap: any type, through the generic builtins. */
#define AMO_ALL(NAME, T_)                                                      \
	T_ shmem_##NAME##_atomic_fetch(const T_ *s, int pe)                    \
	{                                                                      \
		typedef T_ T;                                                  \
		T r, *p = AMO_AT(s, pe);                                       \
		if (p == NULL)                                                 \
			AMO_NET(s, SHM_AMO_FETCH, NULL, NULL, &r);             \
		else                                                           \
			__atomic_load(p, &r, AMO_SEQ);                         \
		return r;                                                      \
	}                                                                      \
	void shmem_##NAME##_atomic_set(T_ *d, T_ v, int pe)                    \
	{                                                                      \
		typedef T_ T;                                                  \
		T *p = AMO_AT(d, pe);                                          \
		if (p == NULL)                                                 \
			AMO_NET(d, SHM_AMO_SET, &v, NULL, NULL);               \
		else                                                           \
			__atomic_store(p, &v, AMO_SEQ);                        \
	}                                                                      \
	T_ shmem_##NAME##_atomic_swap(T_ *d, T_ v, int pe)                     \
	{                                                                      \
		typedef T_ T;                                                  \
		T r, *p = AMO_AT(d, pe);                                       \
		if (p == NULL)                                                 \
			AMO_NET(d, SHM_AMO_SWAP, &v, NULL, &r);                \
		else                                                           \
			__atomic_exchange(p, &v, &r, AMO_SEQ);                 \
		return r;                                                      \
	}
_PVMSHM_AMO_ALL_TYPES(AMO_ALL)

/* One fetch-and-op and its non-fetching form. */
#define AMO_FOP(NAME, T_, OP, CODE)                                            \
	T_ shmem_##NAME##_atomic_fetch_##OP(T_ *d, T_ v, int pe)               \
	{                                                                      \
		typedef T_ T;                                                  \
		T r, *p = AMO_AT(d, pe);                                       \
		if (p != NULL)                                                 \
			return __atomic_fetch_##OP(p, v, AMO_SEQ);             \
		AMO_NET(d, CODE, &v, NULL, &r);                                \
		return r;                                                      \
	}                                                                      \
	void shmem_##NAME##_atomic_##OP(T_ *d, T_ v, int pe)                   \
	{                                                                      \
		typedef T_ T;                                                  \
		T *p = AMO_AT(d, pe);                                          \
		if (p != NULL)                                                 \
			(void)__atomic_fetch_##OP(p, v, AMO_SEQ);              \
		else                                                           \
			AMO_NET(d, CODE, &v, NULL, NULL);                      \
	}

#define AMO_INT(NAME, T_)                                                      \
	AMO_FOP(NAME, T_, add, SHM_AMO_ADD)                                    \
	AMO_FOP(NAME, T_, and, SHM_AMO_AND)                                    \
	AMO_FOP(NAME, T_, or, SHM_AMO_OR)                                      \
	AMO_FOP(NAME, T_, xor, SHM_AMO_XOR)                                    \
	T_ shmem_##NAME##_atomic_compare_swap(T_ *d, T_ cond, T_ v, int pe)    \
	{                                                                      \
		typedef T_ T;                                                  \
		T r, *p = AMO_AT(d, pe);                                       \
		if (p == NULL) {                                               \
			AMO_NET(d, SHM_AMO_CSWAP, &v, &cond, &r);              \
			return r;                                              \
		}                                                              \
		__atomic_compare_exchange_n(                                   \
		    p, &cond, v, 0, AMO_SEQ, AMO_SEQ);                         \
		return cond;                                                   \
	}                                                                      \
	T_ shmem_##NAME##_atomic_fetch_inc(T_ *d, int pe)                      \
	{                                                                      \
		return shmem_##NAME##_atomic_fetch_add(d, 1, pe);              \
	}                                                                      \
	void shmem_##NAME##_atomic_inc(T_ *d, int pe)                          \
	{                                                                      \
		shmem_##NAME##_atomic_add(d, 1, pe);                           \
	}
_PVMSHM_AMO_INT_TYPES(AMO_INT)

/* The older names. */
#define AMO_OLD_INT(NAME, T)                                                   \
	T shmem_##NAME##_cswap(T *d, T cond, T v, int pe)                      \
	{                                                                      \
		return shmem_##NAME##_atomic_compare_swap(d, cond, v, pe);     \
	}                                                                      \
	T shmem_##NAME##_fadd(T *d, T v, int pe)                               \
	{                                                                      \
		return shmem_##NAME##_atomic_fetch_add(d, v, pe);              \
	}                                                                      \
	T shmem_##NAME##_finc(T *d, int pe)                                    \
	{                                                                      \
		return shmem_##NAME##_atomic_fetch_inc(d, pe);                 \
	}                                                                      \
	void shmem_##NAME##_add(T *d, T v, int pe)                             \
	{                                                                      \
		shmem_##NAME##_atomic_add(d, v, pe);                           \
	}                                                                      \
	void shmem_##NAME##_inc(T *d, int pe)                                  \
	{                                                                      \
		shmem_##NAME##_atomic_inc(d, pe);                              \
	}
_PVMSHM_OLD_INT_TYPES(AMO_OLD_INT)

#define AMO_OLD_ALL(NAME, T)                                                   \
	T shmem_##NAME##_fetch(const T *s, int pe)                             \
	{                                                                      \
		return shmem_##NAME##_atomic_fetch(s, pe);                     \
	}                                                                      \
	void shmem_##NAME##_set(T *d, T v, int pe)                             \
	{                                                                      \
		shmem_##NAME##_atomic_set(d, v, pe);                           \
	}                                                                      \
	T shmem_##NAME##_swap(T *d, T v, int pe)                               \
	{                                                                      \
		return shmem_##NAME##_atomic_swap(d, v, pe);                   \
	}
_PVMSHM_OLD_ALL_TYPES(AMO_OLD_ALL)

long
shmem_swap(long *d, long v, int pe)
{
	return shmem_long_atomic_swap(d, v, pe);
}
