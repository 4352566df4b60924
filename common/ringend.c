/*
 * ringend.c: one side of a segment of two rings (ringend.h).  The checks
 * of what the peer wrote are ring.c's pure functions.
 */
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#include "ringend.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define RING_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

/* Point e's ring pointers at base: the opener writes ring 0. */
static void
ring_end_bind(struct ring_end *e, int opener)
{
	e->tx = ring_ctl_at(e->base, opener ? 0 : 1);
	e->rx = ring_ctl_at(e->base, opener ? 1 : 0);
	e->txdata = ring_data_at(e->base, e->size, opener ? 0 : 1);
	e->rxdata = ring_data_at(e->base, e->size, opener ? 1 : 0);
	e->tail = 0;
	e->head = 0;
	e->head_seen = 0;
}

struct ring_end *
ring_end_create(const char *name, size_t size, int *fdp)
{
	struct ring_end *e;
	struct ring_seg *seg;
	int fd;

	*fdp = -1;
	if (!ring_size_ok(size) || (e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	e->size = size;
	e->maplen = ring_seg_len(size);
	fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd == -1)
		goto fail;
	if (ftruncate(fd, (off_t)e->maplen) == -1 ||
	    fcntl(fd, F_ADD_SEALS, RING_SEALS) == -1)
		goto fail;
	e->base =
	    mmap(NULL, e->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (e->base == MAP_FAILED)
		goto fail;
	seg = (struct ring_seg *)e->base;
	seg->magic = RING_MAGIC;
	seg->version = RING_VERSION;
	seg->size = (uint32_t)size;
	ring_end_bind(e, 1);
	*fdp = fd;
	return e;
fail:
	if (fd != -1)
		close(fd);
	free(e);
	return NULL;
}

struct ring_end *
ring_end_attach(int fd)
{
	struct ring_end *e;
	struct stat st;
	int seals;

	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) ||
	    st.st_size < RING_DATA_OFF ||
	    (size_t)st.st_size > ring_seg_len(RING_MAX))
		return NULL;
	/* Unsealed, the peer could shrink it and make our reads fault. */
	seals = fcntl(fd, F_GET_SEALS);
	if (seals == -1 || (seals & RING_SEALS) != RING_SEALS)
		return NULL;
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return NULL;
	e->maplen = (size_t)st.st_size;
	e->base =
	    mmap(NULL, e->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (e->base == MAP_FAILED) {
		free(e);
		return NULL;
	}
	e->size = ring_seg_check((const struct ring_seg *)e->base, e->maplen);
	if (e->size == 0) {
		ring_end_free(e);
		return NULL;
	}
	ring_end_bind(e, 0);
	return e;
}

void
ring_end_free(struct ring_end *e)
{
	if (e == NULL)
		return;
	if (e->base != NULL && e->base != MAP_FAILED)
		(void)munmap(e->base, e->maplen);
	free(e);
}

/* One byte on the socket: the peer polls it while it sleeps.  A full
 * socket already holds a wake-up, so EAGAIN is fine. */
static void
ring_end_kick(int fd)
{
	static const char b = 'w';

	if (fd >= 0)
		(void)send(fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/*
 * Free room in our ring for want bytes, from the head last seen, loaded
 * again only when that leaves too little (it only grows, so room reckoned
 * from it is never more than there is).  -1 if the peer broke its index.
 */
static long long
ring_end_room(struct ring_end *e, size_t want)
{
	long long room = ring_writable(e->head_seen, e->tail, e->size, e->size);

	if (room < 0 || (size_t)room < want) {
		e->head_seen =
		    atomic_load_explicit(&e->tx->head, memory_order_acquire);
		room = ring_writable(e->head_seen, e->tail, e->size, e->size);
	}
	return room;
}

long long
ring_end_writev(struct ring_end *e, const struct iovec *iov, size_t n)
{
	long long room;
	size_t i, k, done = 0, want = 0;

	for (i = 0; i < n; i++)
		want += iov[i].iov_len;
	if ((room = ring_end_room(e, want)) < 0)
		return -1; /* the peer broke its index */
	for (i = 0; i < n && done < (size_t)room; i++) {
		k = iov[i].iov_len;
		if (k > (size_t)room - done)
			k = (size_t)room - done;
		ring_put(
		    e->txdata, e->size, e->tail + done, iov[i].iov_base, k);
		done += k;
	}
	if (done > 0)
		ring_end_commit(e, done);
	return (long long)done;
}

long long
ring_end_write(struct ring_end *e, const void *p, size_t n)
{
	long long room = ring_end_room(e, n);

	if (room < 0)
		return -1; /* the peer broke its index */
	if ((size_t)room < n)
		return 0;
	ring_put(e->txdata, e->size, e->tail, p, n);
	ring_end_commit(e, n);
	return (long long)n;
}

uint8_t *
ring_end_reserve(struct ring_end *e, size_t n)
{
	size_t at = (size_t)(e->tail & (e->size - 1));
	long long room;

	if (n > e->size - at || (room = ring_end_room(e, n)) < 0 ||
	    (size_t)room < n)
		return NULL;
	return e->txdata + at;
}

void
ring_end_commit(struct ring_end *e, size_t k)
{
	e->tail += k;
	atomic_store_explicit(&e->tx->tail, e->tail, memory_order_release);
}

void
ring_end_wake_reader(struct ring_end *e, int fd)
{
	uint32_t v;

	atomic_thread_fence(memory_order_seq_cst);
	v = atomic_load_explicit(&e->tx->rsleep, memory_order_relaxed);
	if (v == RING_WAKE_ONCE &&
	    !atomic_compare_exchange_strong(&e->tx->rsleep, &v, 0) &&
	    v != RING_WAKE_ALWAYS)
		return; /* another writer took it, or it was withdrawn */
	if (v == RING_WAKE_ONCE || v == RING_WAKE_ALWAYS)
		ring_end_kick(fd);
}

long long
ring_end_peek(const struct ring_end *e, size_t at, void *dst, size_t n)
{
	uint64_t tail =
	    atomic_load_explicit(&e->rx->tail, memory_order_acquire);
	long long used = ring_used(e->head, tail, e->size);

	if (used < 0)
		return -1;
	if ((size_t)used < at || (size_t)used - at < n)
		return 0;
	ring_get(e->rxdata, e->size, e->head + at, dst, n);
	return (long long)n;
}

long long
ring_end_peek_some(const struct ring_end *e, void *dst, size_t max)
{
	uint64_t tail =
	    atomic_load_explicit(&e->rx->tail, memory_order_acquire);
	long long k = ring_readable(e->head, tail, e->size, max);

	if (k > 0)
		ring_get(e->rxdata, e->size, e->head, dst, (size_t)k);
	return k;
}

void
ring_end_skip(struct ring_end *e, size_t n, int fd)
{
	e->head += (uint64_t)n;
	atomic_store_explicit(&e->rx->head, e->head, memory_order_release);
	/* A producer that found the ring full waits for this room. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&e->rx->wwait, memory_order_relaxed) &&
	    atomic_exchange(&e->rx->wwait, 0))
		ring_end_kick(fd);
}

long long
ring_end_read(struct ring_end *e, void *dst, size_t want, int fd)
{
	long long k = ring_end_peek_some(e, dst, want);

	if (k > 0)
		ring_end_skip(e, (size_t)k, fd);
	return k;
}

long long
ring_end_rx_used(const struct ring_end *e)
{
	return ring_used(e->head,
	    atomic_load_explicit(&e->rx->tail, memory_order_acquire), e->size);
}

int
ring_end_rx_ready(const struct ring_end *e)
{
	return atomic_load_explicit(&e->rx->tail, memory_order_acquire) !=
	       e->head;
}

int
ring_end_rx_unused(const struct ring_end *e)
{
	return atomic_load_explicit(&e->rx->tail, memory_order_acquire) == 0;
}

int
ring_end_tx_room(const struct ring_end *e)
{
	uint64_t head =
	    atomic_load_explicit(&e->tx->head, memory_order_acquire);

	/* A broken index counts as room: the write then finds it. */
	return ring_writable(head, e->tail, e->size, 1) != 0;
}

int
ring_end_rx_sleep(struct ring_end *e)
{
	atomic_store(&e->rx->rsleep, RING_WAKE_ONCE);
	atomic_thread_fence(memory_order_seq_cst);
	return ring_end_rx_ready(e);
}

int
ring_end_rx_watch(struct ring_end *e)
{
	if (atomic_exchange(&e->rx->rsleep, RING_WAKE_ALWAYS) ==
	    RING_WAKE_ALWAYS)
		return 0; /* watched already: every write since woke us */
	atomic_thread_fence(memory_order_seq_cst);
	return ring_end_rx_ready(e);
}

void
ring_end_rx_awake(struct ring_end *e)
{
	atomic_store_explicit(&e->rx->rsleep, 0, memory_order_relaxed);
}

int
ring_end_tx_sleep(struct ring_end *e)
{
	atomic_store(&e->tx->wwait, 1);
	atomic_thread_fence(memory_order_seq_cst);
	return ring_end_tx_room(e);
}
