/*
 * place.c: which CPU the tasks of this host run on.
 *
 * Two unbound tasks that hand work to each other (a ping-pong, a
 * two-member barrier or reduce) often end up on one CPU: a task woken
 * from a sleep is placed beside its waker, and two tasks that spin with
 * sched_yield then stay there, so every hand-over costs a context switch
 * (1.4 us and more here) instead of a cache-line transfer (0.1 us).
 * Open MPI avoids it by binding: with no more ranks than cores (2 on a
 * 2-core machine), each rank is bound to a core of its own.
 *
 * The pvmd does the same for its tasks: while the host has from 2 to as
 * many tasks as the pvmd may use CPUs, each runs on a CPU of its own
 * (sched_setaffinity); when a task more arrives, all are let go again,
 * and when tasks leave, those that remain are placed again.  The group
 * server (the owner of mailbox class "pvmgs"), which mostly sleeps,
 * does not count and is never bound.  A task whose affinity is not the
 * one we gave it (it bound itself, or was bound before it enrolled) is
 * left alone.  PVM_BIND=none in the pvmd's environment turns it off
 * (docs/compat.md): a task that starts threads after it enrolled would
 * have them all on its one CPU.
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_* */
#include "pvmd.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct {
	int on;
	int ncpus;      /* CPUs in mask */
	cpu_set_t mask; /* the pvmd's own affinity at start */
	cpu_set_t used; /* CPUs a task of ours is bound to */
} place;

void
place_init(void)
{
	const char *s = getenv("PVM_BIND");

	memset(&place, 0, sizeof(place));
	if (s != NULL && (strcmp(s, "none") == 0 || strcmp(s, "0") == 0))
		return;
	if (sched_getaffinity(0, sizeof(place.mask), &place.mask) != 0)
		return;
	place.ncpus = CPU_COUNT(&place.mask);
	place.on = place.ncpus >= 2;
}

/* Whether t counts: a connected task with a pid, not the group server. */
static int
place_counts(const struct task *t)
{
	return t->conn != NULL && t->pid > 0 &&
	    !mbox_owns_class(&pvmd.mbox, MBOX_CLASS_PVMGS, t->tid);
}

/* Whether pid's affinity is exactly *set. */
static int
place_has(pid_t pid, const cpu_set_t *set)
{
	cpu_set_t cur;

	return sched_getaffinity(pid, sizeof(cur), &cur) == 0 &&
	    CPU_EQUAL(&cur, set);
}

/* The CPU pid last ran on (/proc/<pid>/stat, field 39), or -1. */
static int
place_last_cpu(pid_t pid)
{
	char path[64], buf[1024], *p;
	int field, cpu = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	if (fgets(buf, sizeof(buf), f) != NULL &&
	    (p = strrchr(buf, ')')) != NULL) {
		/* Each step moves p to the space before the next field:
		 * from field 3 (after ")") to field 39. */
		for (field = 2; p != NULL && field < 39; field++)
			p = strchr(p + 1, ' ');
		if (p != NULL)
			cpu = atoi(p + 1);
	}
	fclose(f);
	return cpu >= 0 && cpu < CPU_SETSIZE ? cpu : -1;
}

/*
 * A CPU of the mask no task of ours is bound to, or -1: the one pid ran
 * on last if it is free, else the next free one after it.  Starting from
 * where the kernel put the task keeps the tasks of several pvmds (other
 * users, other virtual machines) from all crowding onto the first CPUs.
 */
static int
place_free_cpu(pid_t pid)
{
	int last = place_last_cpu(pid), i, cpu;

	if (last < 0)
		last = 0;
	for (i = 0; i < CPU_SETSIZE; i++) {
		cpu = (last + i) % CPU_SETSIZE;
		if (CPU_ISSET(cpu, &place.mask) && !CPU_ISSET(cpu, &place.used))
			return cpu;
	}
	return -1;
}

/* Bind t to a free CPU, if its affinity is still the one it started with. */
static void
place_pin(struct task *t)
{
	cpu_set_t one;
	int cpu = place_free_cpu(t->pid);

	if (cpu < 0 || !place_has(t->pid, &place.mask))
		return;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(t->pid, sizeof(one), &one) != 0) {
		log_debug("t%x: cannot bind to CPU %d: %s", (unsigned)t->tid,
		    cpu, strerror(errno));
		return;
	}
	t->cpu = cpu;
	t->bound = 1;
	CPU_SET(cpu, &place.used);
	log_info("t%x bound to CPU %d", (unsigned)t->tid, cpu);
}

/* Let t run anywhere again (if nobody changed its binding meanwhile). */
void
place_unpin(struct task *t)
{
	cpu_set_t one;

	if (!t->bound)
		return;
	t->bound = 0;
	CPU_CLR(t->cpu, &place.used);
	CPU_ZERO(&one);
	CPU_SET(t->cpu, &one);
	if (t->pid > 0 && place_has(t->pid, &one))
		(void)sched_setaffinity(
		    t->pid, sizeof(place.mask), &place.mask);
}

/* After a task came, went or became the group server: bind or let go. */
void
place_update(void)
{
	struct task *t;
	int n = 0, want, none_bound;

	if (!place.on)
		return;
	none_bound = CPU_COUNT(&place.used) == 0;
	TAILQ_FOREACH(t, &pvmd.tasks.list, entry) {
		n += place_counts(t);
		if (n > place.ncpus && none_bound)
			return; /* more tasks than CPUs, and nobody bound */
	}
	want = n >= 2 && n <= place.ncpus;
	TAILQ_FOREACH(t, &pvmd.tasks.list, entry) {
		if (!want || !place_counts(t))
			place_unpin(t);
	}
	TAILQ_FOREACH(t, &pvmd.tasks.list, entry) {
		if (want && place_counts(t) && !t->bound)
			place_pin(t);
	}
}
