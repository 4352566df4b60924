/*
 * shmem.h: the OpenSHMEM interface of libpvmshmem, for programs that
 * run as processing elements (PEs) on a PVM virtual machine.
 *
 * Programs compile unchanged against it: the names, argument lists and
 * meanings follow the OpenSHMEM documentation (1.4 names and the older
 * SGI/Cray names).  The values of the constants are ours; a program
 * built with another SHMEM's header must be rebuilt.  What is and is not
 * supported is listed in docs/shmem.md.
 *
 * The type families are declared from lists (the _PVMSHM_*_TYPES
 * macros below): one line per type, so a family never misses one.
 */
#ifndef PVMSHMEM_SHMEM_H
#define PVMSHMEM_SHMEM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- version ---- */

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 4
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 64
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "pvm4 libpvmshmem"
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

/* ---- work arrays of the collectives ----
 *
 * pSync arrays are counted in longs in C and default INTEGERs in
 * Fortran; the library uses only the first SYNC_SIZE 32-bit words of
 * either, so one size serves both.  pWrk is checked for symmetry but
 * not otherwise needed.
 */
#define SHMEM_SYNC_VALUE 0L
#define SHMEM_BARRIER_SYNC_SIZE 24
#define SHMEM_BCAST_SYNC_SIZE 24
#define SHMEM_COLLECT_SYNC_SIZE 24
#define SHMEM_REDUCE_SYNC_SIZE 24
#define SHMEM_ALLTOALL_SYNC_SIZE 24
#define SHMEM_SYNC_SIZE 24
#define SHMEM_REDUCE_MIN_WRKDATA_SIZE 8
#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE

/* ---- comparisons of the wait routines ---- */

#define SHMEM_CMP_EQ 0
#define SHMEM_CMP_NE 1
#define SHMEM_CMP_GT 2
#define SHMEM_CMP_LE 3
#define SHMEM_CMP_LT 4
#define SHMEM_CMP_GE 5
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_LE SHMEM_CMP_LE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_GE SHMEM_CMP_GE

/* ---- thread levels (the library is single-threaded) ---- */

#define SHMEM_THREAD_SINGLE 0
#define SHMEM_THREAD_FUNNELED 1
#define SHMEM_THREAD_SERIALIZED 2
#define SHMEM_THREAD_MULTIPLE 3

/* ---- type lists: X(NAME, C type) ---- */

/* Puts, gets, strided and single-element transfers. */
#define _PVMSHM_RMA_TYPES(X)                                             \
	X(float, float)                                                  \
	X(double, double)                                                \
	X(longdouble, long double)                                       \
	X(char, char)                                                    \
	X(schar, signed char)                                            \
	X(short, short)                                                  \
	X(int, int)                                                      \
	X(long, long)                                                    \
	X(longlong, long long)                                           \
	X(uchar, unsigned char)                                          \
	X(ushort, unsigned short)                                        \
	X(uint, unsigned int)                                            \
	X(ulong, unsigned long)                                          \
	X(ulonglong, unsigned long long)                                 \
	X(int8, int8_t)                                                  \
	X(int16, int16_t)                                                \
	X(int32, int32_t)                                                \
	X(int64, int64_t)                                                \
	X(uint8, uint8_t)                                                \
	X(uint16, uint16_t)                                              \
	X(uint32, uint32_t)                                              \
	X(uint64, uint64_t)                                              \
	X(size, size_t)                                                  \
	X(ptrdiff, ptrdiff_t)

/* Atomics that add, increment or compare: the integer types. */
#define _PVMSHM_AMO_INT_TYPES(X)                                         \
	X(int, int)                                                      \
	X(long, long)                                                    \
	X(longlong, long long)                                           \
	X(uint, unsigned int)                                            \
	X(ulong, unsigned long)                                          \
	X(ulonglong, unsigned long long)                                 \
	X(int32, int32_t)                                                \
	X(int64, int64_t)                                                \
	X(uint32, uint32_t)                                              \
	X(uint64, uint64_t)                                              \
	X(size, size_t)                                                  \
	X(ptrdiff, ptrdiff_t)

/* Atomics that only read, write or swap: the integers and the reals. */
#define _PVMSHM_AMO_ALL_TYPES(X)                                         \
	_PVMSHM_AMO_INT_TYPES(X)                                         \
	X(float, float)                                                  \
	X(double, double)

/* Point-to-point synchronization. */
#define _PVMSHM_WAIT_TYPES(X)                                            \
	X(short, short)                                                  \
	X(int, int)                                                      \
	X(long, long)                                                    \
	X(longlong, long long)                                           \
	X(ushort, unsigned short)                                        \
	X(uint, unsigned int)                                            \
	X(ulong, unsigned long)                                          \
	X(ulonglong, unsigned long long)                                 \
	X(int32, int32_t)                                                \
	X(int64, int64_t)                                                \
	X(uint32, uint32_t)                                              \
	X(uint64, uint64_t)                                              \
	X(size, size_t)                                                  \
	X(ptrdiff, ptrdiff_t)

/* The to_all reductions: bitwise ones on the integers ... */
#define _PVMSHM_BIT_TYPES(X)                                             \
	X(short, short)                                                  \
	X(int, int)                                                      \
	X(long, long)                                                    \
	X(longlong, long long)
/* ... max and min on the integers and the reals ... */
#define _PVMSHM_CMP_TYPES(X)                                             \
	_PVMSHM_BIT_TYPES(X)                                             \
	X(float, float)                                                  \
	X(double, double)                                                \
	X(longdouble, long double)
/* ... sum and product also on the complex types. */
#define _PVMSHM_ARITH_TYPES(X)                                           \
	_PVMSHM_CMP_TYPES(X)                                             \
	X(complexf, float _Complex)                                      \
	X(complexd, double _Complex)

/* ---- setting up and querying ---- */

void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_my_pe(void);
int shmem_n_pes(void);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
void *shmem_ptr(const void *dest, int pe);
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);

/* The older names. */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);
int my_pe(void);
int num_pes(void);

/* ---- symmetric memory ---- */

void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmalloc(size_t size);
void *shmemalign(size_t alignment, size_t size);
void *shrealloc(void *ptr, size_t size);
void shfree(void *ptr);

/* ---- puts and gets ---- */

#define _PVMSHM_DECL_RMA(NAME, T)                                        \
	void shmem_##NAME##_put(T *dest, const T *source, size_t nelems, \
	    int pe);                                                     \
	void shmem_##NAME##_get(T *dest, const T *source, size_t nelems, \
	    int pe);                                                     \
	void shmem_##NAME##_put_nbi(T *dest, const T *source,            \
	    size_t nelems, int pe);                                      \
	void shmem_##NAME##_get_nbi(T *dest, const T *source,            \
	    size_t nelems, int pe);                                      \
	void shmem_##NAME##_p(T *dest, T value, int pe);                 \
	T shmem_##NAME##_g(const T *source, int pe);                     \
	void shmem_##NAME##_iput(T *dest, const T *source, ptrdiff_t dst, \
	    ptrdiff_t sst, size_t nelems, int pe);                       \
	void shmem_##NAME##_iget(T *dest, const T *source, ptrdiff_t dst, \
	    ptrdiff_t sst, size_t nelems, int pe);
_PVMSHM_RMA_TYPES(_PVMSHM_DECL_RMA)
#undef _PVMSHM_DECL_RMA

#define _PVMSHM_DECL_SIZED(BITS)                                         \
	void shmem_put##BITS(void *dest, const void *source, size_t nelems, \
	    int pe);                                                     \
	void shmem_get##BITS(void *dest, const void *source, size_t nelems, \
	    int pe);                                                     \
	void shmem_put##BITS##_nbi(void *dest, const void *source,       \
	    size_t nelems, int pe);                                      \
	void shmem_get##BITS##_nbi(void *dest, const void *source,       \
	    size_t nelems, int pe);                                      \
	void shmem_iput##BITS(void *dest, const void *source,            \
	    ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);        \
	void shmem_iget##BITS(void *dest, const void *source,            \
	    ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe);
_PVMSHM_DECL_SIZED(8)
_PVMSHM_DECL_SIZED(16)
_PVMSHM_DECL_SIZED(32)
_PVMSHM_DECL_SIZED(64)
_PVMSHM_DECL_SIZED(128)
#undef _PVMSHM_DECL_SIZED

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems,
    int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems,
    int pe);

/* ---- ordering ---- */

void shmem_quiet(void);
void shmem_fence(void);

/* ---- atomics (1.4 names, then the older ones) ---- */

#define _PVMSHM_DECL_AMO_ALL(NAME, T)                                    \
	T shmem_##NAME##_atomic_fetch(const T *source, int pe);          \
	void shmem_##NAME##_atomic_set(T *dest, T value, int pe);        \
	T shmem_##NAME##_atomic_swap(T *dest, T value, int pe);
_PVMSHM_AMO_ALL_TYPES(_PVMSHM_DECL_AMO_ALL)
#undef _PVMSHM_DECL_AMO_ALL

#define _PVMSHM_DECL_AMO_INT(NAME, T)                                    \
	T shmem_##NAME##_atomic_compare_swap(T *dest, T cond, T value,   \
	    int pe);                                                     \
	T shmem_##NAME##_atomic_fetch_add(T *dest, T value, int pe);     \
	T shmem_##NAME##_atomic_fetch_inc(T *dest, int pe);              \
	void shmem_##NAME##_atomic_add(T *dest, T value, int pe);        \
	void shmem_##NAME##_atomic_inc(T *dest, int pe);                 \
	T shmem_##NAME##_atomic_fetch_and(T *dest, T value, int pe);     \
	T shmem_##NAME##_atomic_fetch_or(T *dest, T value, int pe);      \
	T shmem_##NAME##_atomic_fetch_xor(T *dest, T value, int pe);     \
	void shmem_##NAME##_atomic_and(T *dest, T value, int pe);        \
	void shmem_##NAME##_atomic_or(T *dest, T value, int pe);         \
	void shmem_##NAME##_atomic_xor(T *dest, T value, int pe);
_PVMSHM_AMO_INT_TYPES(_PVMSHM_DECL_AMO_INT)
#undef _PVMSHM_DECL_AMO_INT

/* The older names: int, long, long long; fetch/set/swap also the reals. */
#define _PVMSHM_OLD_INT_TYPES(X)                                         \
	X(int, int)                                                      \
	X(long, long)                                                    \
	X(longlong, long long)
#define _PVMSHM_DECL_OLD_INT(NAME, T)                                    \
	T shmem_##NAME##_cswap(T *dest, T cond, T value, int pe);        \
	T shmem_##NAME##_fadd(T *dest, T value, int pe);                 \
	T shmem_##NAME##_finc(T *dest, int pe);                          \
	void shmem_##NAME##_add(T *dest, T value, int pe);               \
	void shmem_##NAME##_inc(T *dest, int pe);
_PVMSHM_OLD_INT_TYPES(_PVMSHM_DECL_OLD_INT)
#undef _PVMSHM_DECL_OLD_INT
#define _PVMSHM_OLD_ALL_TYPES(X)                                         \
	_PVMSHM_OLD_INT_TYPES(X)                                         \
	X(float, float)                                                  \
	X(double, double)
#define _PVMSHM_DECL_OLD_ALL(NAME, T)                                    \
	T shmem_##NAME##_fetch(const T *source, int pe);                 \
	void shmem_##NAME##_set(T *dest, T value, int pe);               \
	T shmem_##NAME##_swap(T *dest, T value, int pe);
_PVMSHM_OLD_ALL_TYPES(_PVMSHM_DECL_OLD_ALL)
#undef _PVMSHM_DECL_OLD_ALL
long shmem_swap(long *dest, long value, int pe);

/* ---- waiting for a variable ---- */

#define _PVMSHM_DECL_WAIT(NAME, T)                                       \
	void shmem_##NAME##_wait_until(T *ivar, int cmp, T value);       \
	int shmem_##NAME##_test(T *ivar, int cmp, T value);              \
	void shmem_##NAME##_wait(T *ivar, T value);
_PVMSHM_WAIT_TYPES(_PVMSHM_DECL_WAIT)
#undef _PVMSHM_DECL_WAIT
void shmem_wait_until(long *ivar, int cmp, long value);
void shmem_wait(long *ivar, long value);

/* ---- collectives ---- */

void shmem_barrier_all(void);
void shmem_sync_all(void);
void shmem_barrier(int PE_start, int logPE_stride, int PE_size,
    long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);

#define _PVMSHM_DECL_BITS(BITS)                                          \
	void shmem_broadcast##BITS(void *dest, const void *source,       \
	    size_t nelems, int PE_root, int PE_start, int logPE_stride,  \
	    int PE_size, long *pSync);                                   \
	void shmem_collect##BITS(void *dest, const void *source,         \
	    size_t nelems, int PE_start, int logPE_stride, int PE_size,  \
	    long *pSync);                                                \
	void shmem_fcollect##BITS(void *dest, const void *source,        \
	    size_t nelems, int PE_start, int logPE_stride, int PE_size,  \
	    long *pSync);
_PVMSHM_DECL_BITS(32)
_PVMSHM_DECL_BITS(64)
#undef _PVMSHM_DECL_BITS
void shmem_alltoall32(void *dest, const void *source, size_t nelems,
    int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems,
    int PE_start, int logPE_stride, int PE_size, long *pSync);

#define _PVMSHM_DECL_REDUCE(OP, NAME, T)                                 \
	void shmem_##NAME##_##OP##_to_all(T *dest, const T *source,      \
	    int nreduce, int PE_start, int logPE_stride, int PE_size,    \
	    T *pWrk, long *pSync);
#define _PVMSHM_DECL_AND(NAME, T) _PVMSHM_DECL_REDUCE(and, NAME, T)
#define _PVMSHM_DECL_OR(NAME, T) _PVMSHM_DECL_REDUCE(or, NAME, T)
#define _PVMSHM_DECL_XOR(NAME, T) _PVMSHM_DECL_REDUCE(xor, NAME, T)
#define _PVMSHM_DECL_MAX(NAME, T) _PVMSHM_DECL_REDUCE(max, NAME, T)
#define _PVMSHM_DECL_MIN(NAME, T) _PVMSHM_DECL_REDUCE(min, NAME, T)
#define _PVMSHM_DECL_SUM(NAME, T) _PVMSHM_DECL_REDUCE(sum, NAME, T)
#define _PVMSHM_DECL_PROD(NAME, T) _PVMSHM_DECL_REDUCE(prod, NAME, T)
_PVMSHM_BIT_TYPES(_PVMSHM_DECL_AND)
_PVMSHM_BIT_TYPES(_PVMSHM_DECL_OR)
_PVMSHM_BIT_TYPES(_PVMSHM_DECL_XOR)
_PVMSHM_CMP_TYPES(_PVMSHM_DECL_MAX)
_PVMSHM_CMP_TYPES(_PVMSHM_DECL_MIN)
_PVMSHM_ARITH_TYPES(_PVMSHM_DECL_SUM)
_PVMSHM_ARITH_TYPES(_PVMSHM_DECL_PROD)
#undef _PVMSHM_DECL_AND
#undef _PVMSHM_DECL_OR
#undef _PVMSHM_DECL_XOR
#undef _PVMSHM_DECL_MAX
#undef _PVMSHM_DECL_MIN
#undef _PVMSHM_DECL_SUM
#undef _PVMSHM_DECL_PROD
#undef _PVMSHM_DECL_REDUCE

/* ---- distributed locks (a symmetric long, 0 when free) ---- */

void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

/* ---- cache routines of the old Cray interface: no-ops here ---- */

void shmem_clear_cache_inv(void);
void shmem_set_cache_inv(void);
void shmem_clear_cache_line_inv(void *dest);
void shmem_set_cache_line_inv(void *dest);
void shmem_udcflush(void);
void shmem_udcflush_line(void *dest);

#ifdef __cplusplus
}
#endif

#endif /* PVMSHMEM_SHMEM_H */
