/*
 * bind.c: PEs pinned one to a CPU (see bind.h).
 *
 * A PE waiting at a barrier or for a collective's slot polls it with the
 * CPU's pause for a few microseconds before it yields (sync.c): on a
 * CPU of its own the PE it waits for is running, and the poll notices
 * its write a system call sooner.  Two PEs on one CPU would poll against
 * each other, so the poll is used only by PEs that oshrun (or an agent)
 * pinned, as Open MPI binds its ranks to cores when they fit.  The
 * binding stays for the PE's life; OSHRUN_BIND=none turns it off.
 *
 * The CPUs handed out are those the launcher (oshrun or an agent) had
 * when it started, saved before it enrolled: once its PEs enrol, the
 * pvmd may bind the launcher itself to one CPU (daemon/place.c), and a
 * PE forked after that would inherit that one CPU.
 */
#define _GNU_SOURCE
#include "bind.h"

#include <stdlib.h>
#include <string.h>

int
osh_bind_nth(const cpu_set_t *set, int index)
{
	int cpu, seen = 0;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, set) && seen++ == index)
			return cpu;
	}
	return -1;
}

static cpu_set_t osh_start_set;
static int osh_start_saved;

void
osh_bind_save(void)
{
	osh_start_saved =
	    sched_getaffinity(0, sizeof(osh_start_set), &osh_start_set) == 0;
}

/* The CPUs the launcher may give out: as saved, else its own now. */
static int
osh_bind_set(cpu_set_t *set)
{
	if (osh_start_saved) {
		*set = osh_start_set;
		return 0;
	}
	return sched_getaffinity(0, sizeof(*set), set);
}

int
osh_bind_wanted(int nlocal)
{
	const char *e = getenv("OSHRUN_BIND");
	cpu_set_t set;

	if (e != NULL && strcmp(e, "none") == 0)
		return 0;
	if (osh_bind_set(&set) != 0)
		return 0;
	return nlocal >= 1 && nlocal <= CPU_COUNT(&set);
}

int
osh_bind_child(int index)
{
	cpu_set_t set, one;
	int cpu;

	if (index < 0) {
		/* No CPU of its own: all those the launcher started with. */
		if (!osh_start_saved)
			return -1;
		return sched_setaffinity(
		    0, sizeof(osh_start_set), &osh_start_set);
	}
	if (osh_bind_set(&set) != 0 || (cpu = osh_bind_nth(&set, index)) < 0)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		return -1;
	return setenv(SHM_ENV_BOUND, "1", 1);
}
