/*
 * trim.c: give the heap's freed pages back to the system once traffic
 * has passed.  glibc keeps freed chunks below the top of its heap, and
 * with its sliding mmap threshold even 4 MiB frames come from the heap
 * after the first, so a pvmd that queued many large frames at once (8 MiB
 * per destination before back-pressure, and a pvmd has many destinations)
 * kept that peak resident after the frames were gone: 12.5 MiB more than
 * before a 45 s soak on a loaded 4-host run, 17 MiB after t-flood.sh.
 *
 * A check costs two comparisons per loop turn (trim_poll): after
 * a turn that read something, a one-shot timer is armed; when it fires,
 * the heap is trimmed if it holds more than TRIM_SLACK free.  An idle
 * pvmd arms nothing and never wakes for this.
 */
#include "pvmd.h"

#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif

#include <event2/event.h>

#define TRIM_PERIOD_S 1          /* at most one trim per period */
#define TRIM_SLACK (1024 * 1024) /* free heap below this stays */

static struct event *trim_ev;
static int trim_armed; /* not evtimer_pending: a flag on the hot path */
static unsigned long trim_seen; /* pvmd.nreads when last armed */

/* Free bytes the heap holds, or 0 if the allocator cannot say. */
static size_t
trim_heap_free(void)
{
#if defined(HAVE_MALLINFO2)
	struct mallinfo2 mi = mallinfo2();

	return mi.fordblks;
#else
	return 0;
#endif
}

static void
trim_cb(evutil_socket_t fd, short what, void *arg)
{
	size_t before = trim_heap_free();

	(void)fd;
	(void)what;
	(void)arg;
	trim_armed = 0;
	if (before <= TRIM_SLACK)
		return;
#if defined(HAVE_MALLOC_TRIM)
	malloc_trim(0);
	if (log_debugmask != 0)
		log_debug("trim: heap had %zu KiB free, %zu KiB after",
		    before / 1024, trim_heap_free() / 1024);
#endif
}

/* Set up the timer (setup_loop: the pvmd does not start without it). */
int
trim_init(void)
{
	trim_ev = evtimer_new(pvmd.base, trim_cb, NULL);
	return trim_ev != NULL ? 0 : -1;
}

/* After a loop turn: arm the timer if something was read since. */
void
trim_poll(void)
{
	struct timeval tv = {TRIM_PERIOD_S, 0};

	if (trim_armed || pvmd.nreads == trim_seen)
		return;
	trim_seen = pvmd.nreads;
	if (evtimer_add(trim_ev, &tv) == 0)
		trim_armed = 1;
}
