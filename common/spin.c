/*
 * spin.c: the one part of spin.h that needs a system call: whether this
 * process is bound to one CPU, for the shared window.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <sched.h>

#include "clock.h"
#include "spin.h"

/* How often the binding is asked again (it changes when tasks come and
 * go: daemon/place.c). */
#define SPIN_BOUND_CHECK_MS 100

int
spin_bound_alone(void)
{
	static long long next;
	static int bound;
	long long now = mono_ms();
	cpu_set_t mine;

	if (now < next)
		return bound;
	next = now + SPIN_BOUND_CHECK_MS;
	bound = sched_getaffinity(0, sizeof(mine), &mine) == 0 &&
	    CPU_COUNT(&mine) == 1;
	return bound;
}
