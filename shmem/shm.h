/*
 * shm.h: the inside of libpvmshmem.
 *
 * Layers, each calling only those above it in this list:
 *   segment.c   the symmetric regions: the program's data segment,
 *               remapped onto a memfd, and the symmetric heap (a memfd)
 *   init.c      start-up through oshrun (launch.h), peers' regions
 *               mapped, finalize, global exit
 *   xlate.c     a symmetric address of this PE -> the same object of
 *               another PE, as a pointer in this address space, or its
 *               region and offset for a PE of another host
 *   net.c       requests to the agent of another host (req.h)
 *   fatal.c     broken rules: a message naming the call, then the job
 *               ends (shmem_global_exit)
 *   sync.c      counting slots in pSync words, dissemination barriers
 *   heap.c, rma.c, amo.c, wait.c: the one-sided calls
 *   aset.c, barrier.c, bcast.c, collect.c, reduce*.c: the collectives
 *
 * The peers of this host have their regions mapped here, so a put to one
 * is a memcpy, an atomic a CPU atomic, a barrier a few shared counters.
 * A peer of another host is reached through the agent of its host
 * (net.c, req.h), which has that host's PEs mapped and does the same
 * there; shm_remote returns NULL for such a peer.
 */
#ifndef PVMSHMEM_SHM_H
#define PVMSHMEM_SHM_H

#include <stddef.h>
#include <stdint.h>

#include "req.h"

/* One PE's regions, mapped into this process. */
struct shm_peer {
	int tid;
	char *data;  /* its data segment, or ours for ourselves; NULL for a
	                PE of another host */
	char *heap;  /* its symmetric heap */
	int agent;   /* another host's PE: index in shm.agents */
};

/* The agent of another host, and whether requests await a quiet. */
struct shm_agent {
	int tid;
	int host; /* its pvmd's tid */
	int pe;   /* a PE of that host */
	int pending;
};

struct shm_state {
	int inited, finalized, aborting;
	int npes, mype;
	int launcher;               /* oshrun's tid, 0 when run alone */
	uintptr_t data_lo, data_hi; /* our data segment */
	char *heap;                 /* our symmetric heap */
	size_t heap_len;
	int data_fd, heap_fd;
	struct shm_peer *peers; /* npes of them */
	int spin; /* a CPU of our own (bind.c): poll before yielding */
	struct shm_agent *agents; /* of the hosts of the job */
	int nagents;
	int nremote; /* PEs of other hosts */
};
extern struct shm_state shm;

/* ---- segment.c ---- */

/* Put the data segment on a memfd and make the heap; 0 or -1 (errno). */
int shm_segment_setup(size_t heap_len);
/* Map a peer's region given its pid and memfd number; NULL on error
 * (peermap.c, shared with the agent). */
void *shm_segment_map_peer(int pid, int fd, size_t len);
/* Wake the PEs sleeping on a counting slot (peermap.c). */
void shm_slot_wake(int32_t *slot);
/* Bits of a counting slot (sync.c): its owner sleeps; the count. */
#define SHM_SLOT_SLEEP 0x40000000
#define SHM_SLOT_COUNT 0x3fffffff

/* ---- init.c ---- */

/* shmem_init unless done: every entry point that needs it calls this. */
void shm_need_init(const char *call);

/* ---- fatal.c ---- */

/* Print "libpvmshmem: call: message" and end the job with status 1. */
void shm_fatal(const char *call, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
/* End the job: tell oshrun, leave without running atexit. */
void shm_global_exit(int status) __attribute__((noreturn));

/*
 * The library's own messages (to oshrun, to agents, their replies) go in
 * PVM's base context, whatever context the program has set with
 * pvm_setcontext: oshrun and the agents receive in that one.  Returns
 * the program's context, to give back with pvm_setcontext.
 */
int shm_ctx_base(void);

/* ---- xlate.c ---- */

/* The object at addr (len bytes) on PE pe, or NULL if not symmetric or
 * pe is on another host. */
void *shm_xlate(const void *addr, size_t len, int pe);
/* Like shm_xlate, but a bad pe or address is fatal for `call`; NULL
 * means pe is on another host (use net.c). */
void *shm_remote(const void *addr, size_t len, int pe, const char *call);
/* Whether [addr, addr+len) lies in a symmetric region. */
int shm_is_symmetric(const void *addr, size_t len);
/* The region (SHM_REGION_*, 0 if none) and offset of [addr, addr+len). */
void shm_where(const void *addr, size_t len, int *region, uint64_t *off);
/* PE pe's copy of addr for reading: mapped, or got into buf (len bytes). */
const void *shm_fetch(
    const void *addr, size_t len, int pe, const char *call, void *buf);
/* Copy PE pe's len bytes at symmetric addr into dst. */
void shm_read(void *dst, const void *addr, size_t len, int pe, const char *call);
/* Whether PE pe's memory is mapped here (same host). */
static inline int
shm_mapped(int pe)
{
	return pe >= 0 && pe < shm.npes && shm.peers[pe].data != NULL;
}

/* ---- net.c: requests to the agent of another host's PE ----
 * Addresses are symmetric ones of this PE, already checked. */

void shm_net_put(
    void *dest, const void *src, size_t len, int pe, const char *call);
void shm_net_get(
    void *dest, const void *src, size_t len, int pe, const char *call);
/* Strided: dst/sst element strides, n elements of w bytes. */
void shm_net_iput(char *dest, const char *src, ptrdiff_t dst, ptrdiff_t sst,
    size_t n, size_t w, int pe, const char *call);
void shm_net_iget(char *dest, const char *src, ptrdiff_t dst, ptrdiff_t sst,
    size_t n, size_t w, int pe, const char *call);
/* An atomic (req.h's SHM_AMO_*) of w (4 or 8) bytes; the old value if
 * fetch, else 0 at once. */
uint64_t shm_net_amo(void *dest, size_t w, int amo, uint64_t a, uint64_t b,
    int fetch, int pe, const char *call);
/* Add one to PE pe's counting slot at symmetric address slot. */
void shm_net_slot(const int32_t *slot, int pe, const char *call);
/* Wait until every request sent so far is done. */
void shm_net_quiet(void);
/* If an agent has refused a request of ours, end the job saying so
 * (net.c); for the waits, which otherwise never hear from an agent. */
void shm_net_check(const char *call);
/* Many gets at once (pipelined): items of this host are copied, the
 * others' requests all sent before the first answer is taken. */
struct shm_getv {
	void *dest;
	const void *src; /* symmetric */
	size_t len;
	int pe;
};
void shm_getv(const struct shm_getv *v, int n, const char *call);

/* ---- heap.c ---- */

/* Bytes at the start of every heap kept for the library's own slots. */
#define SHM_HEAP_RESERVED 4096
/* Offsets of the library's slots inside the reserved bytes. */
#define SHM_RES_BARRIER_ALL 0 /* pSync of shmem_barrier_all */

/* ---- sync.c ---- */

/*
 * pSync as 32-bit words (Fortran passes INTEGERs, C longs; only the
 * first SHMEM_*_SYNC_SIZE words are used, which fit in either):
 *   word 0       the caller's signature of the current collective
 *   words 1, 2   collect: this PE's element count (low, high)
 *   words 3..18  one counting slot per dissemination round
 */
#define SHM_SYNC_SIG 0
#define SHM_SYNC_COUNT 1
#define SHM_SYNC_ROUND 3
#define SHM_SYNC_ROUNDS 16 /* so at most 65536 PEs in an active set */
#define SHM_SYNC_WORDS (SHM_SYNC_ROUND + SHM_SYNC_ROUNDS)

/* An active set and this PE's rank in it. */
struct shm_aset {
	int start, stride, size, rank;
};

/* A collective call in progress, for the checks made while waiting. */
struct shm_coll {
	const char *call;
	struct shm_aset as;
	int32_t *psync; /* ours */
	uint32_t sig;   /* 0: no signature check */
};

/* The PE of rank r in the set. */
static inline int
shm_aset_pe(const struct shm_aset *as, int r)
{
	return as->start + r * as->stride;
}

/* Add one to a peer's slot (a pointer from shm_remote). */
void shm_slot_give(int32_t *slot);
/* Wait for a count in our slot and take it; checks c while waiting. */
void shm_slot_take(int32_t *slot, const struct shm_coll *c);
/* A dissemination barrier over c's set on c's pSync rounds. */
void shm_dissemination(const struct shm_coll *c);
/* Wait with a growing pause; `spins` counts calls (start at 0).  Now
 * and then looks for a refusal from an agent (shm_net_check). */
void shm_pause(unsigned *spins, const char *call);

/* ---- aset.c: the checks every collective makes on entry ---- */

/* Check the triplet and that we are in it; fill as (fatal if not). */
void shm_aset_check(
    const char *call, int start, int logstride, int size, struct shm_aset *as);
/* Check pSync: symmetric, SYNC_SIZE words, idle; returns our words. */
int32_t *shm_psync_check(const char *call, void *psync, size_t bytes);
/* Check a symmetric argument of len bytes (fatal if not). */
void shm_sym_check(
    const char *call, const char *what, const void *p, size_t len);
/* Start a collective that has a signature: publish it, barrier, compare
 * every member's. */
void shm_coll_begin(struct shm_coll *c);
/* End it: barrier, then clear our signature. */
void shm_coll_end(struct shm_coll *c);
/* The same for collectives with a single barrier: begin (a member that
 * has already left passes the comparison), and leave (no barrier). */
void shm_coll_begin_once(struct shm_coll *c);
void shm_coll_leave(struct shm_coll *c);
/* A signature of a call's arguments (never 0). */
uint32_t shm_sig(
    uint32_t kind, uint64_t a, uint64_t b, const struct shm_aset *as);

/* ---- the collectives, for the C and the Fortran entry points ----
 * psync_bytes is the size of the caller's pSync: SYNC_SIZE longs in C,
 * SYNC_SIZE INTEGERs in Fortran. */

void shm_barrier(const char *call, int start, int logstride, int size,
    void *psync, size_t psync_bytes);
/* root: the ordinal of the root inside the active set. */
void shm_broadcast(const char *call, void *dest, const void *src, size_t nbytes,
    int root, int start, int logstride, int size, void *psync,
    size_t psync_bytes);
/* fixed: fcollect (every member gives nbytes); else collect. */
void shm_collect(const char *call, void *dest, const void *src, size_t nbytes,
    size_t width, int fixed, int start, int logstride, int size, void *psync,
    size_t psync_bytes);

/* A to_all reduction: op and type are common/optab.h's codes. */
struct shm_reduce {
	const char *call;
	int op, type;
	void *dest;
	const void *src;
	int nreduce;
	int start, logstride, size;
	void *pwrk;
	void *psync;
	size_t psync_bytes;
};
void shm_to_all(const struct shm_reduce *r);

/* The two algorithms (reduce_fold.c, reduce_rsag.c), called between
 * shm_coll_begin and the end of the collective. */
struct shm_fold {
	struct shm_coll coll;
	void (*kernel)(void *x, const void *y, size_t n);
	size_t esize, n; /* element size and count */
	char *dest;
	const char *src;
	char *wrk; /* pWrk, wrk_bytes long */
	size_t wrk_bytes;
};
/* Arrays that fit in pWrk, which holds a copy of the source made before
 * shm_coll_begin_once: every member folds every member's copy.  One
 * barrier.  Leaves the collective. */
void shm_reduce_wrk(struct shm_fold *f);
/* Every member folds every source: small arrays.  Ends the collective. */
void shm_reduce_fold(struct shm_fold *f);
/* Reduce-scatter, then allgather: large arrays.  Ends the collective. */
void shm_reduce_rsag(struct shm_fold *f);

#endif /* PVMSHMEM_SHM_H */
