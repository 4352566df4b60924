/*
 * peermap.c: what a PE and an agent both do to the memory of another PE
 * of their host: map its regions, and wake it from a counting slot.
 * Built into libpvmshmem and into oshrun (the agent).
 *
 * A region is a memfd of the PE; /proc/PID/fd/N opens it again for a
 * process of the same user, and MAP_SHARED makes both see one memory.
 * The slots are futex words in that shared memory, so a wake is a
 * shared (not private) futex wake.
 */
#define _GNU_SOURCE
#include "shm.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

void *
shm_segment_map_peer(int pid, int fd, size_t len)
{
	char path[64];
	void *p;
	int pfd;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", pid, fd);
	if ((pfd = open(path, O_RDWR | O_CLOEXEC)) == -1)
		return NULL;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0);
	close(pfd);
	return p == MAP_FAILED ? NULL : p;
}

void
shm_slot_wake(int32_t *slot)
{
	syscall(SYS_futex, slot, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}
