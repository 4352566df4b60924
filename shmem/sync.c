/*
 * sync.c: counting slots and the dissemination barrier.
 *
 * A slot is a 32-bit word of a pSync array.  A peer adds one to it; its
 * owner waits for a count and takes one.  Counting, not flags, lets the
 * same pSync serve barriers back to back: a fast peer's add for the next
 * barrier simply waits in the count.  The owner spins first (yielding,
 * since PEs often outnumber CPUs), then sleeps on a futex after setting
 * SLOT_SLEEP, a bit the giver clears by waking it; the pSync words are
 * shared memory, so the futex is a shared one.
 *
 * A peer of another host adds through the agent of our host (net.c),
 * which does the same add and wake on its mapping of our pSync.
 *
 * While it waits, a collective with a signature keeps comparing the
 * signatures its members have published (aset.c), so members that
 * disagree about the arguments meet an error, not a hang; and every
 * wait looks now and then for an agent's refusal of an earlier request
 * (net.c), whose effect may be what it waits for.
 */
#define _GNU_SOURCE
#include "shm.h"

#include <limits.h>
#include <time.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SLOT_SLEEP SHM_SLOT_SLEEP
#define SLOT_COUNT SHM_SLOT_COUNT
/* Yields before sleeping: a few microseconds each when others run. */
#define SLOT_SPINS 2000
/*
 * When the job has PEs on other hosts, a count may come from our host's
 * agent, which must first get a CPU to do the add: a waiter that keeps
 * yielding competes with it and, once the count is there, waits its turn
 * behind everything else runnable.  Sleeping on the futex soon lets the
 * agent run and makes the waiter a freshly woken task that runs at once
 * (bench/run-shmem-hosts.sh, four namespace hosts on one loaded 2-CPU
 * machine: shmem_barrier_all of 4 PEs, one per host, went from 3.5 ms
 * to 0.4 ms, of 8 PEs from 10 ms to 1.3 ms).
 */
#define SLOT_SPINS_FAR 20

void shm_coll_watch(const struct shm_coll *c); /* aset.c */

static void
slot_futex_wait(int32_t *slot, int32_t val)
{
	struct timespec ts = {0, 10 * 1000 * 1000};

	syscall(SYS_futex, slot, FUTEX_WAIT, val, &ts, NULL, 0);
}

void
shm_slot_give(int32_t *slot)
{
	int32_t old = __atomic_fetch_add(slot, 1, __ATOMIC_SEQ_CST);

	if (old & SLOT_SLEEP)
		shm_slot_wake(slot);
}

/* Take one if there is one: 1, else 0. */
static int
slot_try(int32_t *slot)
{
	int32_t v = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	while (v & SLOT_COUNT) {
		if (__atomic_compare_exchange_n(slot, &v, (v - 1) & ~SLOT_SLEEP,
		        0, __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
			return 1;
	}
	return 0;
}

/*
 * A PE pinned to a CPU of its own (oshrun binds the PEs when they fit,
 * bind.c) polls with the CPU's pause for up to SLOT_POLL_NS before the
 * first yield, which costs a system call per look: the giver is running
 * on another CPU, so its add is seen at once.  The bound keeps the loss
 * small when the CPU is shared with another job anyway; unpinned PEs
 * (more PEs than CPUs, OSHRUN_BIND=none) never poll.
 */
#define SLOT_POLL_NS 4000

#if defined(__x86_64__) || defined(__i386__)
#define slot_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define slot_relax() __asm__ __volatile__("yield")
#else
#define slot_relax() ((void)0)
#endif

static int
slot_poll(int32_t *slot)
{
	struct timespec t0, t;
	unsigned i;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (i = 0; i < 64; i++) {
			if (__atomic_load_n(slot, __ATOMIC_ACQUIRE) &
			    SLOT_COUNT)
				return 1;
			slot_relax();
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000000000L +
		        (t.tv_nsec - t0.tv_nsec) >
		    SLOT_POLL_NS)
			return 0;
	}
}

void
shm_slot_take(int32_t *slot, const struct shm_coll *c)
{
	unsigned n, spins = shm.nremote > 0 ? SLOT_SPINS_FAR : SLOT_SPINS;

	if (shm.spin) {
		if (slot_try(slot))
			return;
		slot_poll(slot);
	}
	for (n = 0;; n++) {
		if (slot_try(slot))
			return;
		if (c != NULL && (n & 63) == 0) {
			shm_coll_watch(c);
			shm_net_check(c->call);
		}
		if (n < spins) {
			sched_yield();
			continue;
		}
		int32_t v = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

		if (v & SLOT_COUNT)
			continue;
		if (!(v & SLOT_SLEEP) &&
		    !__atomic_compare_exchange_n(slot, &v, v | SLOT_SLEEP, 0,
		        __ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
			continue;
		slot_futex_wait(slot, v | SLOT_SLEEP);
		if (c != NULL) {
			shm_coll_watch(c);
			shm_net_check(c->call);
		}
	}
}

void
shm_dissemination(const struct shm_coll *c)
{
	const struct shm_aset *as = &c->as;
	int j, dist;

	for (j = 0, dist = 1; dist < as->size; j++, dist <<= 1) {
		int peer = shm_aset_pe(as, (as->rank + dist) % as->size);
		int32_t *mine = &c->psync[SHM_SYNC_ROUND + j];
		int32_t *theirs = shm_remote(mine, sizeof(*mine), peer, c->call);

		if (theirs != NULL)
			shm_slot_give(theirs);
		else
			shm_net_slot(mine, peer, c->call);
		shm_slot_take(mine, c);
	}
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

void
shm_pause(unsigned *spins, const char *call)
{
	struct timespec ts = {0, 0};

	/* What we wait for may be the work of a put an agent refused. */
	if (*spins >= SLOT_SPINS || (*spins & 63) == 0)
		shm_net_check(call);
	if (*spins < SLOT_SPINS) {
		(*spins)++;
		sched_yield();
		return;
	}
	/* Then sleep, doubling from 1 us to 1 ms. */
	ts.tv_nsec =
	    1000L << (*spins - SLOT_SPINS < 10 ? *spins - SLOT_SPINS : 10);
	if (*spins - SLOT_SPINS < 10)
		(*spins)++;
	nanosleep(&ts, NULL);
}
