/*
 * barrier.c: shmem_barrier_all, shmem_barrier and the sync forms.
 * Puts complete when they return here, so a barrier is a quiet and a
 * dissemination barrier over counting slots (sync.c); barrier_all uses
 * slots the library keeps at the start of every heap.
 */
#include "shm.h"

#include "shmem.h"

void
shmem_barrier_all(void)
{
	struct shm_coll c;

	shm_need_init("shmem_barrier_all");
	c.call = "shmem_barrier_all";
	c.as.start = 0;
	c.as.stride = 1;
	c.as.size = shm.npes;
	c.as.rank = shm.mype;
	c.psync = (int32_t *)(shm.heap + SHM_RES_BARRIER_ALL);
	c.sig = 0;
	shmem_quiet();
	shm_dissemination(&c);
}

void
shmem_sync_all(void)
{
	shmem_barrier_all();
}

void
shm_barrier(const char *call, int start, int logstride, int size, void *psync,
    size_t psync_bytes)
{
	struct shm_coll c;

	c.call = call;
	shm_aset_check(call, start, logstride, size, &c.as);
	c.psync = shm_psync_check(call, psync, psync_bytes);
	c.sig = 0;
	shmem_quiet();
	shm_dissemination(&c);
}

void
shmem_barrier(int start, int logstride, int size, long *psync)
{
	shm_barrier(__func__, start, logstride, size, psync,
	    SHMEM_BARRIER_SYNC_SIZE * sizeof(long));
}

void
shmem_sync(int start, int logstride, int size, long *psync)
{
	shm_barrier(__func__, start, logstride, size, psync,
	    SHMEM_BARRIER_SYNC_SIZE * sizeof(long));
}
