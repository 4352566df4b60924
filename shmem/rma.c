/*
 * rma.c: puts and gets.  To a PE of this host (its regions are mapped
 * here) a transfer is a copy between mappings, complete when it returns.
 * To a PE of another host it is a request to that host's agent (net.c):
 * a get returns with the data, a put returns once its bytes are on the
 * way (quiet waits for them to land).  The _nbi forms are the same
 * calls.
 */
#include "shm.h"

#include "shmem.h"

#include <string.h>

static void
rma_put(void *dest, const void *src, size_t len, int pe, const char *call)
{
	void *d;

	if (len == 0)
		return;
	d = shm_remote(dest, len, pe, call);
	if (d == NULL)
		shm_net_put(dest, src, len, pe, call);
	else if (d != src)
		memmove(d, src, len);
}

static void
rma_get(void *dest, const void *src, size_t len, int pe, const char *call)
{
	const void *s;

	if (len == 0)
		return;
	s = shm_remote(src, len, pe, call);
	if (s == NULL)
		shm_net_get(dest, src, len, pe, call);
	else if (s != dest)
		memmove(dest, s, len);
}

/* Bytes from the first to the end of the last of n elements of w bytes
 * stride elements apart; fatal if that does not fit in a size_t, where
 * it would wrap round to a small span that passes the symmetric check
 * while the elements land anywhere. */
static size_t
rma_span(size_t n, ptrdiff_t stride, size_t w, const char *call)
{
	size_t last;

	if (__builtin_mul_overflow(n - 1, (size_t)stride, &last) ||
	    __builtin_add_overflow(last, 1, &last) ||
	    __builtin_mul_overflow(last, w, &last))
		shm_fatal(call,
		    "%zu elements of %zu bytes at a stride of %td overflow "
		    "the address space",
		    n, w, stride);
	return last;
}

/* Strided: element i at dest[i * dst] and source[i * sst]. */
static void
rma_strided(char *dest, const char *src, ptrdiff_t dst, ptrdiff_t sst, size_t n,
    size_t w, int pe, int put, const char *call)
{
	char *remote;
	size_t i;

	if (n == 0)
		return;
	if (dst < 1 || sst < 1)
		shm_fatal(
		    call, "strides must be at least 1 (%td, %td)", dst, sst);
	/* The local side need not be symmetric, but its offsets are
	 * computed the same way. */
	(void)rma_span(n, put ? sst : dst, w, call);
	if (put)
		remote = shm_remote(dest, rma_span(n, dst, w, call), pe, call);
	else
		remote = shm_remote(src, rma_span(n, sst, w, call), pe, call);
	if (remote == NULL && put)
		shm_net_iput(dest, src, dst, sst, n, w, pe, call);
	else if (remote == NULL)
		shm_net_iget(dest, src, dst, sst, n, w, pe, call);
	for (i = 0; remote != NULL && i < n; i++) {
		if (put)
			memcpy(remote + i * (size_t)dst * w,
			    src + i * (size_t)sst * w, w);
		else
			memcpy(dest + i * (size_t)dst * w,
			    remote + i * (size_t)sst * w, w);
	}
}

#define RMA_TYPED(NAME, T)                                                     \
	void shmem_##NAME##_put(T *d, const T *s, size_t n, int pe)            \
	{                                                                      \
		rma_put(d, s, n * sizeof(T), pe, __func__);                    \
	}                                                                      \
	void shmem_##NAME##_get(T *d, const T *s, size_t n, int pe)            \
	{                                                                      \
		rma_get(d, s, n * sizeof(T), pe, __func__);                    \
	}                                                                      \
	void shmem_##NAME##_put_nbi(T *d, const T *s, size_t n, int pe)        \
	{                                                                      \
		rma_put(d, s, n * sizeof(T), pe, __func__);                    \
	}                                                                      \
	void shmem_##NAME##_get_nbi(T *d, const T *s, size_t n, int pe)        \
	{                                                                      \
		rma_get(d, s, n * sizeof(T), pe, __func__);                    \
	}                                                                      \
	void shmem_##NAME##_p(T *d, T v, int pe)                               \
	{                                                                      \
		T *p = shm_remote(d, sizeof(T), pe, __func__);                 \
		if (p != NULL)                                                 \
			*p = v;                                                \
		else                                                           \
			shm_net_put(d, &v, sizeof(T), pe, __func__);           \
	}                                                                      \
	T shmem_##NAME##_g(const T *s, int pe)                                 \
	{                                                                      \
		const T *p = shm_remote(s, sizeof(T), pe, __func__);           \
		T v;                                                           \
		if (p != NULL)                                                 \
			return *p;                                             \
		shm_net_get(&v, s, sizeof(T), pe, __func__);                   \
		return v;                                                      \
	}                                                                      \
	void shmem_##NAME##_iput(                                              \
	    T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)  \
	{                                                                      \
		rma_strided((char *)d, (const char *)s, dst, sst, n,           \
		    sizeof(T), pe, 1, __func__);                               \
	}                                                                      \
	void shmem_##NAME##_iget(                                              \
	    T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe)  \
	{                                                                      \
		rma_strided((char *)d, (const char *)s, dst, sst, n,           \
		    sizeof(T), pe, 0, __func__);                               \
	}
_PVMSHM_RMA_TYPES(RMA_TYPED)

#define RMA_SIZED(BITS)                                                        \
	void shmem_put##BITS(void *d, const void *s, size_t n, int pe)         \
	{                                                                      \
		rma_put(d, s, n *(BITS / 8), pe, __func__);                    \
	}                                                                      \
	void shmem_get##BITS(void *d, const void *s, size_t n, int pe)         \
	{                                                                      \
		rma_get(d, s, n *(BITS / 8), pe, __func__);                    \
	}                                                                      \
	void shmem_put##BITS##_nbi(void *d, const void *s, size_t n, int pe)   \
	{                                                                      \
		rma_put(d, s, n *(BITS / 8), pe, __func__);                    \
	}                                                                      \
	void shmem_get##BITS##_nbi(void *d, const void *s, size_t n, int pe)   \
	{                                                                      \
		rma_get(d, s, n *(BITS / 8), pe, __func__);                    \
	}                                                                      \
	void shmem_iput##BITS(void *d, const void *s, ptrdiff_t dst,           \
	    ptrdiff_t sst, size_t n, int pe)                                   \
	{                                                                      \
		rma_strided(d, s, dst, sst, n, BITS / 8, pe, 1, __func__);     \
	}                                                                      \
	void shmem_iget##BITS(void *d, const void *s, ptrdiff_t dst,           \
	    ptrdiff_t sst, size_t n, int pe)                                   \
	{                                                                      \
		rma_strided(d, s, dst, sst, n, BITS / 8, pe, 0, __func__);     \
	}
RMA_SIZED(8)
RMA_SIZED(16)
RMA_SIZED(32)
RMA_SIZED(64)
RMA_SIZED(128)

void
shmem_putmem(void *d, const void *s, size_t n, int pe)
{
	rma_put(d, s, n, pe, __func__);
}

void
shmem_getmem(void *d, const void *s, size_t n, int pe)
{
	rma_get(d, s, n, pe, __func__);
}

void
shmem_putmem_nbi(void *d, const void *s, size_t n, int pe)
{
	rma_put(d, s, n, pe, __func__);
}

void
shmem_getmem_nbi(void *d, const void *s, size_t n, int pe)
{
	rma_get(d, s, n, pe, __func__);
}

/* Stores reach this host's PEs directly: ordering is a fence.  The
 * agents of other hosts are flushed. */
void
shmem_quiet(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (shm.nagents > 0)
		shm_net_quiet();
}

/* Requests to one agent are done in order (req.h): only a fence. */
void
shmem_fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void
shmem_clear_cache_inv(void)
{
}
void
shmem_set_cache_inv(void)
{
}
void
shmem_clear_cache_line_inv(void *dest)
{
	(void)dest;
}
void
shmem_set_cache_line_inv(void *dest)
{
	(void)dest;
}
void
shmem_udcflush(void)
{
}
void
shmem_udcflush_line(void *dest)
{
	(void)dest;
}
