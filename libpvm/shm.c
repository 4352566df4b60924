/*
 * shm.c: the shared-memory rings of a direct route between two tasks of
 * one host (layout and checks: common/ring.h).
 *
 * The opener of a route makes a memfd of two rings, seals its size (so
 * the peer can never shrink it under our reads: a read past the end of a
 * file mapping would be SIGBUS), maps it, and passes the fd with its
 * hello (SCM_RIGHTS, route.c).  The acceptor maps it if it is a sealed
 * segment of the expected shape and says so in its ack; from then on
 * each side writes its frames into its ring and reads the other, and the
 * socket carries only wake-ups and the hangup.  Nothing has a name, so
 * nothing can leak: the memory goes when the last mapping does.
 *
 * Ordering (C11 atomics): a producer copies the bytes, then stores its
 * tail with release; the consumer loads the tail with acquire before it
 * copies, and stores its head with release once done, which the
 * producer loads with acquire before it reuses the room.  Sleep and wake
 * are the store-then-load pattern on both sides, with a full fence
 * between: a consumer stores rsleep = 1, fences, and looks at the tail
 * once more before it blocks; a producer stores the tail, fences, and
 * looks at rsleep.  At least one of them sees the other's store, so a
 * wake-up is never lost.  The same holds for wwait and the head.
 *
 * pvm_getfds: a program that watches our sockets with select(2) must
 * see a readable socket whenever a message waits, so once it has asked
 * for them every ring asks for a wake-up after every write, for good
 * (lpvm_shm_watch): a system call per message, as over a socket.
 *
 * $PVM_SHM: unset or "1", PvmRouteDirect routes between tasks of one
 * host use rings; "all", PvmAllowDirect (the default route option) too:
 * a route with rings to every task of our host that we send to
 * (route.c); "0", no rings (direct routes on Unix sockets, as before
 * the rings).
 * $PVM_SHM_SIZE: bytes per ring (a power of two
 * from 4 KiB to 16 MiB; tests use small rings to exercise full ones).
 */
#define _GNU_SOURCE /* memfd_create, F_ADD_SEALS */
#include "pvm3.h"
#include "conn.h"
#include "ring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define SHM_RING_DEFAULT ((size_t)128 * 1024)
#define SHM_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

/* One route's segment, as this side sees it.  Owner: its conn. */
struct lpvm_shm {
	uint8_t *base;
	size_t maplen;
	size_t size;         /* of each ring; checked once, kept here */
	struct ring_ctl *tx; /* the ring we write */
	struct ring_ctl *rx; /* the ring we read */
	uint8_t *txdata, *rxdata;
	uint64_t tail; /* our producer index of tx (the truth; tx->tail is
	                  only its publication) */
	uint64_t head; /* our consumer index of rx */
	/*
	 * The peer's head of tx as we last loaded it.  It only grows, so
	 * room reckoned from it is never more than there is; a write loads
	 * the head again only when that room is too small.  Not loading it
	 * every time keeps its cache line with the reader, which stores it
	 * after every read (one line fewer crossing between the CPUs per
	 * message).
	 */
	uint64_t head_seen;
};

static int shm_state; /* 0 unknown, 1 on, 2 on for every route, -1 off */
static size_t shm_ringsize;
static int shm_watched; /* pvm_getfds was called */

/* Read $PVM_SHM and $PVM_SHM_SIZE once. */
static void
shm_env(void)
{
	const char *e = getenv("PVM_SHM"), *z = getenv("PVM_SHM_SIZE");
	size_t v;

	/* On for PvmRouteDirect unless PVM_SHM=0; "all" adds PvmAllowDirect,
	 * which is not the default because pvm_getfds would show its routes. */
	shm_state = 1;
	if (e != NULL && strcmp(e, "0") == 0)
		shm_state = -1;
	else if (e != NULL && strcmp(e, "all") == 0)
		shm_state = 2;
	shm_ringsize = SHM_RING_DEFAULT;
	if (z != NULL && *z != '\0') {
		v = (size_t)strtoull(z, NULL, 0);
		if (ring_size_ok(v))
			shm_ringsize = v;
	}
}

int
lpvm_shm_enabled(void)
{
	if (shm_state == 0)
		shm_env();
	return shm_state > 0;
}

int
lpvm_shm_default(void)
{
	return lpvm_shm_enabled() && shm_state == 2;
}

void
lpvm_shm_watch(struct lpvm_shm *s)
{
	shm_watched = 1;
	if (s != NULL)
		atomic_store(&s->rx->rsleep, 1);
}

/* Point s's ring pointers at base: the opener writes ring 0. */
static void
shm_bind(struct lpvm_shm *s, int opener)
{
	s->tx = ring_ctl_at(s->base, opener ? 0 : 1);
	s->rx = ring_ctl_at(s->base, opener ? 1 : 0);
	s->txdata = ring_data_at(s->base, s->size, opener ? 0 : 1);
	s->rxdata = ring_data_at(s->base, s->size, opener ? 1 : 0);
	s->tail = 0;
	s->head = 0;
	s->head_seen = 0;
}

struct lpvm_shm *
lpvm_shm_create(int *fdp)
{
	struct lpvm_shm *s;
	struct ring_seg *seg;
	int fd;

	*fdp = -1;
	if (!lpvm_shm_enabled() || (s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->size = shm_ringsize;
	s->maplen = ring_seg_len(s->size);
	fd = memfd_create("pvm-route", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd == -1)
		goto fail;
	if (ftruncate(fd, (off_t)s->maplen) == -1 ||
	    fcntl(fd, F_ADD_SEALS, SHM_SEALS) == -1)
		goto fail;
	s->base =
	    mmap(NULL, s->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->base == MAP_FAILED)
		goto fail;
	seg = (struct ring_seg *)s->base;
	seg->magic = RING_MAGIC;
	seg->version = RING_VERSION;
	seg->size = (uint32_t)s->size;
	shm_bind(s, 1);
	*fdp = fd;
	return s;
fail:
	if (fd != -1)
		close(fd);
	free(s);
	return NULL;
}

struct lpvm_shm *
lpvm_shm_attach(int fd)
{
	struct lpvm_shm *s;
	struct stat st;
	int seals;

	if (!lpvm_shm_enabled() || fstat(fd, &st) == -1 ||
	    !S_ISREG(st.st_mode) || st.st_size < RING_DATA_OFF ||
	    (size_t)st.st_size > ring_seg_len(RING_MAX))
		return NULL;
	/* Unsealed, the peer could shrink it and make our reads fault. */
	seals = fcntl(fd, F_GET_SEALS);
	if (seals == -1 || (seals & SHM_SEALS) != SHM_SEALS)
		return NULL;
	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	s->maplen = (size_t)st.st_size;
	s->base =
	    mmap(NULL, s->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (s->base == MAP_FAILED) {
		free(s);
		return NULL;
	}
	s->size = ring_seg_check((const struct ring_seg *)s->base, s->maplen);
	if (s->size == 0) {
		lpvm_shm_free(s);
		return NULL;
	}
	shm_bind(s, 0);
	return s;
}

void
lpvm_shm_free(struct lpvm_shm *s)
{
	if (s == NULL)
		return;
	if (s->base != NULL && s->base != MAP_FAILED)
		(void)munmap(s->base, s->maplen);
	free(s);
}

/* One byte on the route's socket: the peer polls it while it sleeps.
 * A full socket already holds a wake-up, so EAGAIN is fine. */
static void
shm_kick(int fd)
{
	static const char b = 'w';

	if (fd >= 0)
		(void)send(fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL);
}

long long
lpvm_shm_writev(struct lpvm_shm *s, const struct iovec *iov, size_t n)
{
	long long room = ring_writable(s->head_seen, s->tail, s->size, s->size);
	size_t i, k, done = 0, want = 0;

	for (i = 0; i < n; i++)
		want += iov[i].iov_len;
	if (room < 0 || (size_t)room < want) {
		s->head_seen =
		    atomic_load_explicit(&s->tx->head, memory_order_acquire);
		room = ring_writable(s->head_seen, s->tail, s->size, s->size);
	}
	if (room < 0)
		return -1; /* the peer broke its index */
	for (i = 0; i < n && done < (size_t)room; i++) {
		k = iov[i].iov_len;
		if (k > (size_t)room - done)
			k = (size_t)room - done;
		ring_put(
		    s->txdata, s->size, s->tail + done, iov[i].iov_base, k);
		done += k;
	}
	if (done > 0) {
		s->tail += done;
		atomic_store_explicit(
		    &s->tx->tail, s->tail, memory_order_release);
	}
	return (long long)done;
}

void
lpvm_shm_wake_reader(struct lpvm_shm *s, int fd)
{
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&s->tx->rsleep, memory_order_relaxed) &&
	    atomic_exchange(&s->tx->rsleep, 0))
		shm_kick(fd);
}

long long
lpvm_shm_read(struct lpvm_shm *s, void *dst, size_t want, int fd)
{
	uint64_t tail =
	    atomic_load_explicit(&s->rx->tail, memory_order_acquire);
	long long k = ring_readable(s->head, tail, s->size, want);

	if (k <= 0)
		return k;
	ring_get(s->rxdata, s->size, s->head, dst, (size_t)k);
	s->head += (uint64_t)k;
	atomic_store_explicit(&s->rx->head, s->head, memory_order_release);
	/* A producer that found the ring full waits for this room. */
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&s->rx->wwait, memory_order_relaxed) &&
	    atomic_exchange(&s->rx->wwait, 0))
		shm_kick(fd);
	return k;
}

int
lpvm_shm_rx_ready(const struct lpvm_shm *s)
{
	return atomic_load_explicit(&s->rx->tail, memory_order_acquire) !=
	       s->head;
}

int
lpvm_shm_rx_unused(const struct lpvm_shm *s)
{
	return atomic_load_explicit(&s->rx->tail, memory_order_acquire) == 0;
}

int
lpvm_shm_tx_room(const struct lpvm_shm *s)
{
	uint64_t head =
	    atomic_load_explicit(&s->tx->head, memory_order_acquire);

	/* A broken index counts as room: the write then finds it. */
	return ring_writable(head, s->tail, s->size, 1) != 0;
}

int
lpvm_shm_rx_sleep(struct lpvm_shm *s)
{
	atomic_store(&s->rx->rsleep, 1);
	atomic_thread_fence(memory_order_seq_cst);
	return lpvm_shm_rx_ready(s);
}

void
lpvm_shm_rx_awake(struct lpvm_shm *s)
{
	if (shm_watched)
		return; /* every write wakes, for pvm_getfds's watcher */
	atomic_store_explicit(&s->rx->rsleep, 0, memory_order_relaxed);
}

int
lpvm_shm_tx_sleep(struct lpvm_shm *s)
{
	atomic_store(&s->tx->wwait, 1);
	atomic_thread_fence(memory_order_seq_cst);
	return lpvm_shm_tx_room(s);
}
