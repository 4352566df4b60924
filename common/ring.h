/*
 * ring.h: the shared-memory segment of a direct route between two tasks
 * of one host (libpvm/shm.c), and the pure checks of what a reader finds
 * in it.
 *
 * A segment holds two single-producer/single-consumer byte rings: ring 0
 * carries the opener's frames to the acceptor, ring 1 the other way.  The
 * bytes are the frames of common/wire.h, exactly as on a socket; a ring
 * is a pipe, not a message queue, so everything above it (framing,
 * reassembly, order, the route handshake) is the socket's.
 *
 *   offset 0          struct ring_seg (magic, version, size), 64 bytes
 *   offset 64         struct ring_ctl of ring 0 (3 cache lines)
 *   offset 256        struct ring_ctl of ring 1
 *   offset 4096       ring 0's data, `size` bytes
 *   offset 4096+size  ring 1's data, `size` bytes
 *
 * Indices are free-running 64-bit byte counts: `tail` (bytes ever
 * written, stored by the producer) and `head` (bytes ever read, stored
 * by the consumer); byte i lies at data[i % size].  Each side keeps its
 * own index in private memory and only publishes it: the peer may be
 * hostile or dead, so the one index a side reads (the other's) is
 * checked by ring_used before it is trusted, and a bad one ends the
 * route.  The segment is a sealed memfd (it cannot shrink under a
 * reader), so a checked index never leads outside the mapping.
 *
 * Wake-ups: `rsleep` is set by a consumer about to block, `wwait` by a
 * producer that found the ring full; the other side clears the flag and
 * writes one byte to the route's socket, on which the sleeper polls.
 */
#ifndef PVM_RING_H
#define PVM_RING_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define RING_MAGIC 0x50564d52u /* "PVMR" */
#define RING_VERSION 1
#define RING_DATA_OFF 4096 /* first ring's data */
#define RING_MIN ((size_t)4096)
#define RING_MAX ((size_t)16 * 1024 * 1024)
#define RING_CACHELINE 64

/*
 * rsleep: RING_WAKE_ONCE, the consumer is about to block: the next
 * producer that sees it clears it and wakes the consumer.
 * RING_WAKE_ALWAYS, the consumer's socket is watched by a program
 * (pvm_getfds): every write wakes it, and the flag stays.
 */
#define RING_WAKE_ONCE 1u
#define RING_WAKE_ALWAYS 2u

/* Written once by the creator before the segment is passed on. */
struct ring_seg {
	uint32_t magic;
	uint32_t version;
	uint32_t size; /* data bytes of each ring: a power of two */
	uint32_t pad[13];
};

/* One ring's indices and flags, each on its own cache line. */
struct ring_ctl {
	_Atomic uint64_t tail; /* producer's */
	char pad0[RING_CACHELINE - 8];
	_Atomic uint64_t head; /* consumer's */
	char pad1[RING_CACHELINE - 8];
	_Atomic uint32_t rsleep; /* consumer blocks: RING_WAKE_* */
	_Atomic uint32_t wwait;  /* producer waits: wake it after a read */
	char pad2[RING_CACHELINE - 8];
};

/* Bytes of the segment for rings of `size` bytes. */
static inline size_t
ring_seg_len(size_t size)
{
	return RING_DATA_OFF + 2 * size;
}

/* The ring_ctl of ring i (0 or 1) at segment base. */
static inline struct ring_ctl *
ring_ctl_at(void *base, int i)
{
	return (struct ring_ctl *)((char *)base + RING_CACHELINE +
	                           (size_t)i * sizeof(struct ring_ctl));
}

/* The data of ring i at segment base. */
static inline uint8_t *
ring_data_at(void *base, size_t size, int i)
{
	return (uint8_t *)base + RING_DATA_OFF + (size_t)i * size;
}

/* Is size a ring size we make and accept (a power of two in range)? */
int ring_size_ok(size_t size);

/*
 * Check a segment's first bytes (seg, maplen bytes mapped) as its
 * acceptor finds them: magic, version, a good size, and a mapping that
 * covers both rings.  The size, or 0 if anything is wrong.
 */
size_t ring_seg_check(const struct ring_seg *seg, size_t maplen);

/*
 * Bytes in a ring of `size` whose consumer index is head and producer
 * index tail: 0..size, or -1 if the pair is impossible (tail behind
 * head, or more than size ahead: a broken or hostile peer).
 */
long long ring_used(uint64_t head, uint64_t tail, size_t size);

/*
 * What one read or write may move now: at most `want` bytes, limited by
 * what the ring holds (ring_readable: the consumer at head, the tail as
 * the producer published it) or by its free room (ring_writable: the
 * producer at tail, the head as the consumer published it).  -1 if the
 * peer's index is impossible (ring_used).
 */
long long ring_readable(uint64_t head, uint64_t tail, size_t size, size_t want);
long long ring_writable(uint64_t head, uint64_t tail, size_t size, size_t want);

/*
 * Copy n bytes starting at stream offset `at` out of (ring_get) or into
 * (ring_put) the ring data of `size` bytes, wrapping at its end.  The
 * caller has checked n against ring_used; n <= size is all these rely
 * on to stay inside data[0..size).
 */
void ring_get(
    const uint8_t *data, size_t size, uint64_t at, void *dst, size_t n);
void ring_put(
    uint8_t *data, size_t size, uint64_t at, const void *src, size_t n);

#endif /* PVM_RING_H */
