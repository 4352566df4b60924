/*
 * amo.c: atomics.  The target is mapped here, so each is one CPU atomic
 * on it, atomic against every PE of the host at once, with no help from
 * the target PE.
 */
#include "shm.h"

#include "shmem.h"

/* The target of an atomic: symmetric and naturally aligned. */
static void *
amo_target(const void *addr, size_t w, int pe, const char *call)
{
	void *p = shm_remote(addr, w, pe, call);

	if (((uintptr_t)p & (w - 1)) != 0)
		shm_fatal(call, "%p is not aligned for an atomic of %zu bytes",
		    addr, w);
	return p;
}

#define AMO_SEQ __ATOMIC_SEQ_CST
#define AMO_AT(d, pe) ((T *)amo_target(d, sizeof(T), pe, __func__))

/* fetch, set and swap: any type, through the generic builtins. */
#define AMO_ALL(NAME, T_)                                                      \
	T_ shmem_##NAME##_atomic_fetch(const T_ *s, int pe)                    \
	{                                                                      \
		typedef T_ T;                                                  \
		T r;                                                           \
		__atomic_load(AMO_AT(s, pe), &r, AMO_SEQ);                     \
		return r;                                                      \
	}                                                                      \
	void shmem_##NAME##_atomic_set(T_ *d, T_ v, int pe)                    \
	{                                                                      \
		typedef T_ T;                                                  \
		__atomic_store(AMO_AT(d, pe), &v, AMO_SEQ);                    \
	}                                                                      \
	T_ shmem_##NAME##_atomic_swap(T_ *d, T_ v, int pe)                     \
	{                                                                      \
		typedef T_ T;                                                  \
		T r;                                                           \
		__atomic_exchange(AMO_AT(d, pe), &v, &r, AMO_SEQ);             \
		return r;                                                      \
	}
_PVMSHM_AMO_ALL_TYPES(AMO_ALL)

/* One fetch-and-op and its non-fetching form. */
#define AMO_FOP(NAME, T_, OP)                                                  \
	T_ shmem_##NAME##_atomic_fetch_##OP(T_ *d, T_ v, int pe)               \
	{                                                                      \
		typedef T_ T;                                                  \
		return __atomic_fetch_##OP(AMO_AT(d, pe), v, AMO_SEQ);         \
	}                                                                      \
	void shmem_##NAME##_atomic_##OP(T_ *d, T_ v, int pe)                   \
	{                                                                      \
		typedef T_ T;                                                  \
		(void)__atomic_fetch_##OP(AMO_AT(d, pe), v, AMO_SEQ);          \
	}

#define AMO_INT(NAME, T_)                                                      \
	AMO_FOP(NAME, T_, add)                                                 \
	AMO_FOP(NAME, T_, and)                                                 \
	AMO_FOP(NAME, T_, or)                                                  \
	AMO_FOP(NAME, T_, xor)                                                 \
	T_ shmem_##NAME##_atomic_compare_swap(T_ *d, T_ cond, T_ v, int pe)    \
	{                                                                      \
		typedef T_ T;                                                  \
		__atomic_compare_exchange_n(                                   \
		    AMO_AT(d, pe), &cond, v, 0, AMO_SEQ, AMO_SEQ);             \
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
