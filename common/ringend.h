/*
 * ringend.h: one side of a segment of two rings (ring.h), as libpvm's
 * routes between tasks (libpvm/shm.c) and a pvmd's connections to its
 * tasks (daemon/conn.c) both use it.
 *
 * The opener makes a memfd of two rings, seals its size (so the peer can
 * never shrink it under our reads: a read past the end of a file mapping
 * would be SIGBUS) and passes the fd over a Unix socket (SCM_RIGHTS).
 * The acceptor maps it only if it is a sealed segment of the expected
 * shape.  The opener writes ring 0 and reads ring 1.  From then on each
 * side writes its frames into its ring and reads the other, and the
 * socket carries only wake-up bytes and the hangup.
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
 */
#ifndef PVM_RINGEND_H
#define PVM_RINGEND_H

#include "ring.h"

#include <stddef.h>
#include <stdint.h>

struct iovec;

/* One side of a segment.  Owner: the connection that uses it. */
struct ring_end {
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

/* A new segment with rings of `size` bytes (ring_size_ok), mapped as
 * its opener; *fdp to pass to the peer (the caller closes it once
 * sent).  name: the memfd's, as /proc/PID/maps shows it.  NULL on
 * failure. */
struct ring_end *ring_end_create(const char *name, size_t size, int *fdp);
/* Map a segment the opener passed, if it is a sealed one of the right
 * shape.  NULL if not. */
struct ring_end *ring_end_attach(int fd);
void ring_end_free(struct ring_end *e);

/* Copy what fits of iov[0..n) into our ring and publish it: bytes
 * copied (0: full), or -1 if the peer broke the ring. */
long long ring_end_writev(
    struct ring_end *e, const struct iovec *iov, size_t n);
/* Copy all n bytes at p into our ring and publish them, or nothing:
 * n, 0 if there is not room for all, -1 if the peer broke the ring. */
long long ring_end_write(struct ring_end *e, const void *p, size_t n);
/*
 * Where n bytes may be written straight into our ring, one run without
 * its wrap, or NULL (no room for all of them now, they would wrap, or
 * the peer broke its index: ring_end_write then says which).  Nothing
 * is published until ring_end_commit(e, k) for the first k <= n.
 */
uint8_t *ring_end_reserve(struct ring_end *e, size_t n);
void ring_end_commit(struct ring_end *e, size_t k);
/* After a write: wake the peer (a byte on fd) if it sleeps. */
void ring_end_wake_reader(struct ring_end *e, int fd);
/* Copy up to want bytes out of the peer's ring, wake the peer if it
 * waits for room: bytes copied, or -1 if the peer broke the ring. */
long long ring_end_read(struct ring_end *e, void *dst, size_t want, int fd);
/* Copy the n bytes that lie `at` bytes past our place in the peer's
 * ring, without taking them: n, 0 if they are not all there yet, or -1
 * if the peer broke the ring.  ring_end_skip then takes n bytes (which
 * the caller has seen there) as ring_end_read would. */
long long ring_end_peek(
    const struct ring_end *e, size_t at, void *dst, size_t n);
void ring_end_skip(struct ring_end *e, size_t n, int fd);
/* Copy what lies at our place in the peer's ring, max bytes at most,
 * without taking it: bytes copied, or -1 if the peer broke the ring. */
long long ring_end_peek_some(const struct ring_end *e, void *dst, size_t max);

/* Bytes waiting in the peer's ring, or -1 if its index cannot be. */
long long ring_end_rx_used(const struct ring_end *e);
/* Bytes wait in the peer's ring / our ring has room (no side effects). */
int ring_end_rx_ready(const struct ring_end *e);
int ring_end_tx_room(const struct ring_end *e);
/* The peer never wrote to its ring (so closing loses nothing). */
int ring_end_rx_unused(const struct ring_end *e);
/* About to block: ask for a wake-up, then look once more (true: no need
 * to block); ring_end_rx_awake withdraws the request.  The same for
 * room in our ring: ring_end_tx_sleep. */
int ring_end_rx_sleep(struct ring_end *e);
void ring_end_rx_awake(struct ring_end *e);
/* Every write wakes us from now on, for good (pvm_getfds: a program
 * waits in select(2) on the socket).  Then neither of the two above may
 * be called again.  True if, at the first call, bytes written before
 * wait in the ring: no wake-up will come for them. */
int ring_end_rx_watch(struct ring_end *e);
int ring_end_tx_sleep(struct ring_end *e);

#endif /* PVM_RINGEND_H */
