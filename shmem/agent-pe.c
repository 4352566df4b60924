/*
 * agent-pe.c: the PEs an agent starts on its host (agent.h): fork and
 * exec, pass their output on, reap them, stop them.
 *
 * As on oshrun's host, the PEs are the agent's own children, so their
 * exit status comes from waitpid, exactly.  Their stdout and stderr are
 * two pipes the agent reads and passes on to oshrun, which writes each
 * to its own stdout or stderr: the streams stay apart, which the pvmd's
 * one output pipe per task would not do.  Before a PE's end is told
 * (SHM_TAG_EXITED) its pipes are read to their end, so oshrun prints a
 * PE's last words before it judges its end.
 */
#define _GNU_SOURCE /* pipe2 */
#include "agent.h"
#include "bind.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pvm3.h"

#define AGENT_READ 4000 /* bytes passed on per message */

/* In the child: set up PE pe, exec; never returns. */
static void
agent_pe_exec(const struct agent *a, int pe, const int *out, const int *err,
    int errfd, pid_t parent)
{
	char num[32];
	int fd, e = 0, i;

	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent)
		_exit(1);
	for (i = 0; a->env[i] != NULL && e == 0; i++)
		e = putenv(a->env[i]);
	snprintf(num, sizeof(num), "%d", a->npes);
	e |= setenv(SHM_ENV_NPES, num, 1);
	snprintf(num, sizeof(num), "%d", pe);
	e |= setenv(SHM_ENV_PE, num, 1);
	snprintf(num, sizeof(num), "%d", a->launcher);
	e |= setenv(SHM_ENV_LAUNCHER, num, 1);
	/* Spawned by the pvmd, the agent has these; a PE must not. */
	e |= unsetenv("PVMEPID");
	e |= unsetenv("PVMSOCK");
	e |= unsetenv(SHM_ENV_BOUND);
	/* Unbound (-1), a PE just does not poll. */
	(void)osh_bind_child(osh_bind_wanted(a->count) ? pe - a->first : -1);
	if ((fd = open("/dev/null", O_RDONLY)) < 0 || dup2(fd, 0) < 0 ||
	    dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
		e = -1;
	if (e == 0)
		execv(a->argv[0], a->argv);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0) {
		/* the exit status says it */
	}
	_exit(127);
}

/* The parent's side of a fork: errno of a failed exec, or 0. */
static int
agent_pe_execed(int fd)
{
	ssize_t n;
	int e = 0;

	while ((n = read(fd, &e, sizeof(e))) < 0 && errno == EINTR) {
	}
	close(fd);
	return n == (ssize_t)sizeof(e) ? e : 0;
}

/* Start PE p->pe; 0, or -1 after telling oshrun why. */
static int
agent_pe_start(struct agent *a, struct agent_pe *p)
{
	int out[2], err[2], ex[2], v[2];
	pid_t parent = getpid();

	if (pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0 ||
	    pipe2(ex, O_CLOEXEC) != 0 || (p->pid = fork()) < 0) {
		v[0] = p->pe;
		v[1] = errno;
		agent_tell(a, SHM_TAG_NOEXEC, v, 2, NULL, 0);
		p->pid = 0;
		return -1;
	}
	if (p->pid == 0)
		agent_pe_exec(a, p->pe, out, err, ex[1], parent);
	close(out[1]);
	close(err[1]);
	close(ex[1]);
	p->out = out[0];
	p->err = err[0];
	fcntl(p->out, F_SETFL, O_NONBLOCK);
	fcntl(p->err, F_SETFL, O_NONBLOCK);
	if ((v[1] = agent_pe_execed(ex[0])) != 0) {
		v[0] = p->pe;
		agent_tell(a, SHM_TAG_NOEXEC, v, 2, NULL, 0);
		return -1;
	}
	return 0;
}

int
agent_pe_start_all(struct agent *a)
{
	int i;

	for (i = 0; i < a->count; i++) {
		a->pes[i].pe = a->first + i;
		a->pes[i].out = a->pes[i].err = -1;
	}
	for (i = 0; i < a->count; i++)
		if (agent_pe_start(a, &a->pes[i]) < 0)
			return -1;
	return 0;
}

/* Pass on what one pipe has: bytes moved (0 when none or closed). */
static int
agent_pe_pipe(struct agent *a, int pe, int *fd, int tag)
{
	char buf[AGENT_READ];
	ssize_t n;

	if (*fd < 0)
		return 0;
	while ((n = read(*fd, buf, sizeof(buf))) < 0 && errno == EINTR) {
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		return 0;
	if (n <= 0) {
		close(*fd);
		*fd = -1;
		return 0;
	}
	agent_tell(a, tag, &pe, 1, buf, (int)n);
	return (int)n;
}

int
agent_pe_io(struct agent *a)
{
	int i, n = 0;

	for (i = 0; i < a->count; i++) {
		n += agent_pe_pipe(a, a->pes[i].pe, &a->pes[i].out, SHM_TAG_OUT);
		n += agent_pe_pipe(a, a->pes[i].pe, &a->pes[i].err, SHM_TAG_ERR);
	}
	return n;
}

int
agent_pe_pollfds(const struct agent *a, struct pollfd *p, int max)
{
	int i, k = 0;

	for (i = 0; i < a->count && k + 2 <= max; i++) {
		if (a->pes[i].out >= 0) {
			p[k].fd = a->pes[i].out;
			p[k++].events = POLLIN;
		}
		if (a->pes[i].err >= 0) {
			p[k].fd = a->pes[i].err;
			p[k++].events = POLLIN;
		}
	}
	return k;
}

/* PE p ended: its last output, then its end, to oshrun. */
static void
agent_pe_ended(struct agent *a, struct agent_pe *p, int status)
{
	int v[3];

	p->exited = 1;
	p->status = status;
	while (agent_pe_pipe(a, p->pe, &p->out, SHM_TAG_OUT) > 0) {
	}
	while (agent_pe_pipe(a, p->pe, &p->err, SHM_TAG_ERR) > 0) {
	}
	v[0] = p->pe;
	v[1] = (int)p->pid;
	v[2] = status;
	agent_tell(a, SHM_TAG_EXITED, v, 3, NULL, 0);
}

void
agent_pe_reap(struct agent *a)
{
	int status, i;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		for (i = 0; i < a->count; i++)
			if (a->pes[i].pid == pid && !a->pes[i].exited)
				agent_pe_ended(a, &a->pes[i], status);
}

int
agent_pe_running(const struct agent *a)
{
	int i, n = 0;

	for (i = 0; i < a->count; i++)
		n += a->pes[i].pid > 0 && !a->pes[i].exited;
	return n;
}

static void
agent_pe_signal(struct agent *a, int sig)
{
	int i;

	for (i = 0; i < a->count; i++)
		if (a->pes[i].pid > 0 && !a->pes[i].exited)
			kill(a->pes[i].pid, sig);
}

static long long
agent_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* SIGTERM, SIGKILL after AGENT_TERM_MS; every end told.  Bounded. */
void
agent_pe_stop(struct agent *a)
{
	long long end = agent_now_ms() + AGENT_TERM_MS;
	struct timespec ts = {0, AGENT_POLL_MS * 1000000L};

	agent_pe_signal(a, SIGTERM);
	while (agent_pe_running(a) > 0) {
		agent_pe_io(a);
		agent_pe_reap(a);
		if (agent_now_ms() >= end) {
			agent_pe_signal(a, SIGKILL);
			end = agent_now_ms() + 60 * 1000;
		}
		nanosleep(&ts, NULL);
	}
}
