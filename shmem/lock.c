/*
 * lock.c: shmem_set_lock and friends.  The lock is PE 0's copy of the
 * symmetric long, which holds 0 when free and the owner's PE number plus
 * one when taken; taking it is a compare-and-swap there.  No queue: on
 * one host the waiters yield and then sleep a little longer each time.
 */
#include "shm.h"

#include "shmem.h"

static long *
lock_word(long *lock, const char *call)
{
	long *w = shm_remote(lock, sizeof(long), 0, call);

	if (((uintptr_t)w & (sizeof(long) - 1)) != 0)
		shm_fatal(call, "lock %p is not aligned", (void *)lock);
	return w;
}

static int
lock_try(long *w)
{
	long free_ = 0;

	return __atomic_compare_exchange_n(w, &free_, (long)shm.mype + 1, 0,
	    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void
shmem_set_lock(long *lock)
{
	long *w = lock_word(lock, __func__);
	unsigned spins = 0;

	while (!lock_try(w))
		shm_pause(&spins);
}

int
shmem_test_lock(long *lock)
{
	return lock_try(lock_word(lock, __func__)) ? 0 : 1;
}

void
shmem_clear_lock(long *lock)
{
	long *w = lock_word(lock, __func__);

	shmem_quiet();
	if (__atomic_load_n(w, __ATOMIC_RELAXED) != (long)shm.mype + 1)
		shm_fatal(__func__, "the lock is not held by PE %d", shm.mype);
	__atomic_store_n(w, 0, __ATOMIC_RELEASE);
}
