/*
 * lock.c: shmem_set_lock and friends.  The lock is PE 0's copy of the
 * symmetric long, which holds 0 when free and the owner's PE number plus
 * one when taken; taking it is a compare-and-swap there (through PE 0's
 * agent when PE 0 is on another host).  No queue: the waiters yield and
 * then sleep a little longer each time.
 */
#include "shm.h"

#include "shmem.h"

/* PE 0's copy of the lock, or NULL when PE 0 is on another host. */
static long *
lock_word(long *lock, const char *call)
{
	long *w = shm_remote(lock, sizeof(long), 0, call);

	if (((uintptr_t)lock & (sizeof(long) - 1)) != 0)
		shm_fatal(call, "lock %p is not aligned", (void *)lock);
	return w;
}

/* Compare-and-swap on the lock: the value it held. */
static long
lock_cas(long *lock, long *w, long from, long to, const char *call)
{
	if (w == NULL)
		return (long)shm_net_amo(lock, sizeof(long), SHM_AMO_CSWAP,
		    (uint64_t)to, (uint64_t)from, 1, 0, call);
	__atomic_compare_exchange_n(
	    w, &from, to, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return from;
}

static int
lock_try(long *lock, long *w, const char *call)
{
	return lock_cas(lock, w, 0, (long)shm.mype + 1, call) == 0;
}

void
shmem_set_lock(long *lock)
{
	long *w = lock_word(lock, __func__);
	unsigned spins = 0;

	while (!lock_try(lock, w, __func__))
		shm_pause(&spins, __func__);
}

int
shmem_test_lock(long *lock)
{
	return lock_try(lock, lock_word(lock, __func__), __func__) ? 0 : 1;
}

void
shmem_clear_lock(long *lock)
{
	long *w = lock_word(lock, __func__);
	long me = (long)shm.mype + 1;

	shmem_quiet();
	if (lock_cas(lock, w, me, 0, __func__) != me)
		shm_fatal(__func__, "the lock is not held by PE %d", shm.mype);
}
