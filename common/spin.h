/*
 * spin.h: adaptive spin-then-block for waits on a socket or a futex.
 *
 * Waking a process that sleeps in poll(2), recv(2) or epoll_wait(2)
 * costs more than the message itself on the virtual machines we measure:
 * a sleeping vCPU must be woken by the host, 20-25 us a hop.  So a waiter
 * first looks again without blocking for a while.
 *
 * Every look ends in spin_pause(), which yields the CPU.  Without it a
 * spinner holds a CPU that the process it waits for may need: with the
 * pvmd and two tasks on 2 cores, pure spinning made the 8-byte round
 * trip through the pvmd slower (medians of 53-136 us against 42-51
 * blocking), and 8 tasks reducing on 2 cores went from about 130 to 220
 * us a call.  A yielding spinner gives way at once to anything runnable
 * on its CPU, and keeps the CPU awake for a cheap wake-up otherwise: the
 * same round trip fell to 15-36 us (docs/performance.md).
 *
 * Each waiter keeps a budget.  A spin that the data ended ("hit")
 * restores the full budget; one that ran out ("miss") halves it, and at
 * zero the waiter blocks at once, trying one full spin every
 * SPIN_PROBE_EVERY waits to notice that spinning pays again.  A
 * ping-pong hits every time; a waiter whose peers are busy misses and
 * soon stops spinning.
 *
 * Used by libpvm (every wait for input), libgpvm's barrier and pvmd's
 * loop (after a turn that read from a task).  The budget is pure and
 * clock-free (check_spin drives it by hand); spin_wait is the loop that
 * spends it.
 */
#ifndef PVM_SPIN_H
#define PVM_SPIN_H

#include <sched.h>
#include <unistd.h>

#include "clock.h"

#define SPIN_MAX_US 50
/*
 * The pvmd's spin after a frame (daemon/pvmd.c).  A round trip through
 * the daemons across hosts takes 30 to 60 us here, longer than 50: with
 * 50 the pvmds slept between the messages of a ping-pong, and the 8-byte
 * round trip h2-h3 of bench/run-hosts.sh's hosts took 35 to 124 us (10
 * runs, median 57); with 200, 28 to 40 (8 runs, median 31;
 * docs/performance.md, "Rings between a task and its pvmd").
 */
#define SPIN_PVMD_MAX_US 200
/*
 * The yielding spin of the group collectives' waits (libgpvm's barrier,
 * reduce and gather in shared memory).  Their members are often more
 * than the CPUs, and a peer that another process preempted is back
 * within a time slice: with 50 us such waits missed, slept, and paid a
 * wake-up behind the other load.  Measured on 2 CPUs at a load of 29 to
 * 44 (docs/performance-reduce.md, "The collectives' spin"): 1 double at
 * 2, 4, 8 and 16 tasks took 109, 7 to 62, 74 to 128 and 165 to 193 us
 * with 50, and 8.2, 15, 35 to 37 and 74 with 300.
 */
#define SPIN_COLL_MAX_US 300
/* The memory-only spin before the yielding one (spin_hot). */
#define SPIN_HOT_US 10
#define SPIN_PROBE_EVERY 32
/*
 * A window on the monotonic clock, the same for every process of the
 * host: its first SPIN_WINDOW_US of every SPIN_PERIOD_US.  A waiter whose
 * budget is at zero spins with the full budget while it is open, if the
 * budget has the window (while the task is bound to a CPU of its own:
 * spin_window_update).  Probes counted per waiter are not enough: two
 * peers of a ping-pong whose budgets ran out (a slow start) make one
 * wait each per round, so their counts may stay out of step, and then
 * each probe finds the other asleep.  Its answer
 * needs a wake-up, which outlasts the probe on these VMs (20 to 70 us),
 * so the probe misses and both stay asleep: a 1-byte one-way time of 37
 * to 74 us instead of 0.5 until chance ends it.  In the window both spin,
 * and the first exchange there restores both budgets.  bench/stuck.c,
 * 6 runs each alternated (docs/performance.md): the longest run of round
 * trips over 20 us in a row was 14 to 126 without the window (median
 * 69), 1 to 56 with it (median 23.5).
 * A waiter that misses spins at most once per wait begun in the window.
 * Where tasks share CPUs it costs: with the window on every budget, a
 * 1-double reduce of 16 members on 2 CPUs took 63 to 68 us instead of
 * 46 to 52, and pvm_bcast to 8 slowed too; so a wait uses it only while
 * its task is bound to a CPU of its own (spin_window_update).
 */
#define SPIN_PERIOD_US 4096
#define SPIN_WINDOW_US 512

struct spin_budget {
	int max;           /* full budget, us */
	int us;            /* current budget, 0..max */
	unsigned int idle; /* waits since the budget reached 0 */
	int window;        /* at 0, spin in the shared window (above) */
};

#define SPIN_BUDGET_INIT(max)                                                  \
	{                                                                      \
		(max), (max), 0, 0                                             \
	}

/* How long to spin before blocking in this wait (0: block at once). */
static inline int
spin_budget_next(struct spin_budget *b)
{
	if (b->us > 0)
		return b->us;
	if (++b->idle >= SPIN_PROBE_EVERY) {
		b->idle = 0;
		return b->max;
	}
	return 0;
}

/* Whether the shared window (above) is open at now_us. */
static inline int
spin_window_open(long long now_us)
{
	return (now_us & (SPIN_PERIOD_US - 1)) < SPIN_WINDOW_US;
}

/* How long to spin in a wait begun at now_us: the budget's answer, or
 * for a windowed budget the full one while the window is open. */
static inline int
spin_budget_at(struct spin_budget *b, long long now_us)
{
	int us = spin_budget_next(b);

	return us == 0 && b->window && spin_window_open(now_us) ? b->max : us;
}

/*
 * Whether this process may run on one CPU only (spin.c): the pvmd binds
 * its tasks while they fit the CPUs (daemon/place.c), and a spin then
 * takes the CPU from nobody.  A system call at most every 100 ms; the
 * last answer in between.
 */
int spin_bound_alone(void);

/* Before a wait: budgets a and b (a wait's memory-only and yielding
 * spins) that ran out use the window only while spin_bound_alone. */
static inline void
spin_window_update(struct spin_budget *a, struct spin_budget *b)
{
	if (a->us == 0 || b->us == 0)
		a->window = b->window = spin_bound_alone();
}

/* The spin just tried ended with the data (hit) or ran out (miss). */
static inline void
spin_budget_update(struct spin_budget *b, int hit)
{
	if (hit)
		b->us = b->max;
	else
		b->us /= 2;
	if (b->us > 0)
		b->idle = 0;
}

/* Between two looks of a spin: let anything runnable on this CPU go
 * first (the pvmd or the peer we wait for may be that process). */
static inline void
spin_pause(void)
{
	sched_yield();
}

/* Between looks at memory alone (a ring in shared memory): tell the CPU
 * we spin, without a system call.  On this project's AMD EPYC VMs one
 * PAUSE takes 28 ns, a look at a ring a few: spin_hot pauses after every
 * 8th look, so that a message is seen within a few ns of its arrival
 * (NetPIPE's 1-byte one-way time, 9 runs alternated, median 0.23 us with
 * a pause after every look, 0.19 with one every 8th). */
static inline void
spin_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

/*
 * Spend one wait's budget: call look(arg) until it returns non-zero or
 * the budget's time is out, yielding between looks, and report hit or
 * miss.  Returns look's last result, or 0 when the budget says block at
 * once.
 */
static inline int
spin_wait(struct spin_budget *b, int (*look)(void *), void *arg)
{
	long long end = mono_us();
	int us = spin_budget_at(b, end), r;

	if (us == 0)
		return 0;
	end += us;
	while ((r = look(arg)) == 0 && mono_us() < end)
		spin_pause();
	spin_budget_update(b, r != 0);
	return r;
}

/*
 * A wait among n processes of this host (its group's members) that all
 * fit the online CPUs may first spin on memory alone, without a system
 * call: each sched_yield costs about a microsecond, and may hand the CPU
 * to an unrelated process, while a peer on another CPU answers within
 * that.  With more processes than CPUs one of them may need our CPU, so
 * there is no such spin (0).  The CPU count is read once.
 */
static inline int
spin_hot_us(int n)
{
	static long ncpu;

	if (ncpu == 0) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		if (ncpu < 1)
			ncpu = 1;
	}
	return n <= ncpu ? SPIN_HOT_US : 0;
}

/*
 * Call look(arg) until it returns non-zero or the budget's time is out,
 * relaxing (no system call) after every 8th look, when `allowed` (spin_hot_us
 * said so); report hit or miss to the budget (max SPIN_HOT_US).  The
 * budget matters when the processes, though no more than the CPUs, share
 * one (other load on the host): the peer then runs only once we yield,
 * the hot spin misses, and after a few misses it is skipped.  Returns
 * look's last result, or 0 without looking.
 */
static inline int
spin_hot(struct spin_budget *b, int (*look)(void *), void *arg, int allowed)
{
	long long end;
	int us, r, i;

	if (!allowed || (us = spin_budget_at(b, end = mono_us())) == 0)
		return 0;
	end += us;
	for (;;) {
		for (i = 0; i < 64; i++) {
			if ((r = look(arg)) != 0) {
				spin_budget_update(b, 1);
				return r;
			}
			if ((i & 7) == 7)
				spin_relax();
		}
		if (mono_us() >= end) {
			spin_budget_update(b, 0);
			return 0;
		}
	}
}

#endif /* PVM_SPIN_H */
