/*
 * clock.h: the monotonic clock in the units the waits use.  Deadlines in
 * pvmd, libpvm and libgpvm are all computed from these.
 */
#ifndef PVM_CLOCK_H
#define PVM_CLOCK_H

#include <time.h>

/* Milliseconds on the monotonic clock. */
static inline long long
mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Microseconds on the monotonic clock. */
static inline long long
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

#endif /* PVM_CLOCK_H */
