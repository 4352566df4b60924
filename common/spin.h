/*
 * spin.h: adaptive spin-then-block for waits on a socket.
 *
 * Waking a process that sleeps in poll(2) or epoll_wait(2) costs more
 * than the message itself on the virtual machines we measure (an 8-byte
 * round trip between two tasks over a direct route: about 22-25 us when
 * both block, 6-8 us when the waiter polls for up to 20 us first).  But
 * spinning takes a CPU that, with more processes than cores, the sender
 * may need: 8 tasks reducing on 2 cores went from about 130 to 220 us a
 * call with a fixed 20 us spin.
 *
 * So each waiter keeps a budget.  A spin that the data ended ("hit")
 * restores the full budget; one that ran out ("miss") halves it, and at
 * zero the waiter blocks at once, trying one full spin every
 * SPIN_PROBE_EVERY waits to notice that spinning pays again.  A
 * ping-pong hits every time; a waiter whose peers are descheduled or
 * busy misses and soon stops spinning.
 *
 * Used by libpvm (waits that involve a direct route) and by pvmd's loop
 * (after a turn that read from a task).  Pure and clock-free: the caller
 * measures and reports.
 */
#ifndef PVM_SPIN_H
#define PVM_SPIN_H

#define SPIN_MAX_US 20
#define SPIN_PROBE_EVERY 32

struct spin_budget {
	int max;           /* full budget, us */
	int us;            /* current budget, 0..max */
	unsigned int idle; /* waits since the budget reached 0 */
};

#define SPIN_BUDGET_INIT(max) { (max), (max), 0 }

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

#endif /* PVM_SPIN_H */
