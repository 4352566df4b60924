/*
 * accept.c: the pvmd's listening socket for tasks.
 *
 * Out of descriptors (a small `ulimit -n`, or many tasks), accept(2)
 * fails with EMFILE while the connection waits in the backlog, and the
 * task would wait with it.  So the pvmd keeps one spare descriptor (an
 * open /dev/null): on EMFILE it closes the spare, accepts one waiting
 * connection into its place and marks it refused, so that the task's
 * TM_CONNECT is answered with PvmOutOfRes and pvm_mytid returns that
 * error instead of hanging.  Accepting then pauses for
 * ACCEPT_BACKOFF_MS, rather than spinning on a listening socket that
 * stays readable, and the spare is opened again as soon as a descriptor
 * is free.  When the tasks go, new ones are served as before.
 */
#include "pvmd.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/event.h>

#define ACCEPT_BACKOFF_MS 100 /* no accepting after EMFILE */
#define ACCEPT_BATCH 64       /* connections accepted per wake-up */

static struct event *accept_ev;
static struct event *accept_backoff_ev;
static int accept_spare = -1;

/* Hold the spare descriptor again if it was given up. */
static void
accept_spare_open(void)
{
	if (accept_spare < 0)
		accept_spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

/* One accept(2), non-blocking and close-on-exec; -1 with errno. */
static int
accept_one(int fd)
{
	int s;

#ifdef HAVE_ACCEPT4
	s = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
	s = accept(fd, NULL, NULL);
	if (s >= 0) {
		fcntl(s, F_SETFD, FD_CLOEXEC);
		fcntl(s, F_SETFL, fcntl(s, F_GETFL) | O_NONBLOCK);
	}
#endif
	return s;
}

/* Out of descriptors: refuse one waiting task in the spare's place. */
static void
accept_refuse_one(int fd)
{
	int s;

	if (accept_spare < 0)
		return;
	close(accept_spare);
	accept_spare = -1;
	if ((s = accept_one(fd)) < 0) {
		accept_spare_open();
		return;
	}
	log_warn("out of file descriptors: a new task is refused "
	         "(PvmOutOfRes)");
	conn_task_accepted(s, PvmOutOfRes);
}

/* Accept what is pending; on fd exhaustion refuse one and pause. */
static void
accept_cb(evutil_socket_t fd, short what, void *arg)
{
	struct timeval tv = {0, ACCEPT_BACKOFF_MS * 1000};
	int i, s;

	(void)what;
	(void)arg;
	accept_spare_open();
	for (i = 0; i < ACCEPT_BATCH; i++) {
		if ((s = accept_one(fd)) >= 0) {
			conn_task_accepted(s, 0);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return;
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM) {
			log_warn("accept: %s; pausing %d ms", strerror(errno),
			    ACCEPT_BACKOFF_MS);
			if (errno == EMFILE || errno == ENFILE)
				accept_refuse_one(fd);
			event_del(accept_ev);
			evtimer_add(accept_backoff_ev, &tv);
			return;
		}
		log_warn("accept: %s", strerror(errno));
		return;
	}
}

/* Accept again after a pause for fd exhaustion. */
static void
accept_backoff_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	(void)arg;
	if (accept_ev != NULL)
		event_add(accept_ev, NULL);
}

/* Start accepting task connections on the listening socket fd. */
int
accept_listen(int fd)
{
	accept_spare_open();
	accept_ev =
	    event_new(pvmd.base, fd, EV_READ | EV_PERSIST, accept_cb, NULL);
	accept_backoff_ev = evtimer_new(pvmd.base, accept_backoff_cb, NULL);
	if (accept_ev == NULL || accept_backoff_ev == NULL)
		return -1;
	return event_add(accept_ev, NULL);
}

/* Stop accepting (halt). */
void
accept_stop(void)
{
	if (accept_ev != NULL)
		event_del(accept_ev);
	if (accept_backoff_ev != NULL)
		evtimer_del(accept_backoff_ev);
}
