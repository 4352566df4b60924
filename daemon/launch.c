/*
 * launch.c: start a slave pvmd through a launcher (ssh, or $PVM_RSH such
 * as Slurm's srun).  The launcher gets the virtual machine's secret on
 * its standard input, never on a command line or in an environment, and
 * its output is kept (at most LAUNCH_TEXT bytes) so that a host that
 * cannot be started says why, in the log and to whoever added it.
 *
 * The child, not the pvmd, looks the host's name up before it runs the
 * launcher: a slow or dead name server then delays that one host, not
 * every message the master routes meanwhile.  A failed lookup is told
 * back through a close-on-exec pipe, so it cannot be confused with
 * whatever the launcher itself prints or the status it exits with.
 */
#include "pvmd.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include <unistd.h>

#include <event2/event.h>

#define LAUNCH_TEXT 2048

struct launch {
	pid_t pid;
	int fd;     /* its stdout and stderr; -1 after end of file */
	int nohost; /* close-on-exec pipe: a byte if the lookup failed */
	struct event *ev;
	char text[LAUNCH_TEXT];
	size_t ntext;
	int reaped, status;
	void (*done)(void *arg, int status, const char *text);
	void *arg;
	TAILQ_ENTRY(launch) entry;
};

static TAILQ_HEAD(, launch) launch_list = TAILQ_HEAD_INITIALIZER(launch_list);

/* Report once the launcher exited and its output ended; then free. */
static void
launch_maybe_done(struct launch *l)
{
	char c;

	if (!l->reaped || l->fd >= 0)
		return;
	TAILQ_REMOVE(&launch_list, l, entry);
	while (l->ntext > 0 &&
	       (l->text[l->ntext - 1] == '\n' || l->text[l->ntext - 1] == '\r'))
		l->ntext--;
	l->text[l->ntext] = '\0';
	/* The child has exited, so what it wrote is in the pipe already. */
	if (read(l->nohost, &c, 1) == 1)
		l->status = LAUNCH_NOHOST;
	close(l->nohost);
	if (l->done != NULL)
		l->done(l->arg, l->status, l->text);
	free(l);
}

/* Output from the launcher: keep the first LAUNCH_TEXT - 1 bytes. */
static void
launch_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct launch *l = arg;
	char buf[1024];
	ssize_t n;
	size_t k;

	(void)what;
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n > 0) {
		k = (size_t)n;
		if (k > LAUNCH_TEXT - 1 - l->ntext)
			k = LAUNCH_TEXT - 1 - l->ntext;
		memcpy(l->text + l->ntext, buf, k);
		l->ntext += k;
		return;
	}
	event_free(l->ev);
	l->ev = NULL;
	close(l->fd);
	l->fd = -1;
	launch_maybe_done(l);
}

/* In the child: a name that does not resolve ends it before the exec. */
static void
launch_lookup(const char *name, int nohost)
{
	struct addrinfo hints, *res;
	int rc;

	if (name == NULL)
		return;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(name, NULL, &hints, &res)) == 0) {
		freeaddrinfo(res);
		return;
	}
	dprintf(2, "%s: %s\n", name, gai_strerror(rc));
	if (write(nohost, "n", 1) != 1)
		dprintf(2, "(and cannot tell the pvmd so)\n");
	_exit(126);
}

/* In the child: stdin from the secret pipe, output to the text pipe. */
static void __attribute__((noreturn))
launch_child(char *const *argv, const char *name, int in, int out, int nohost)
{
	sigset_t none;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	setpgid(0, 0);
	dup2(in, 0);
	dup2(out, 1);
	dup2(out, 2);
	launch_lookup(name, nohost);
	execvp(argv[0], argv);
	dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Start argv; see pvmd.h. */
struct launch *
launch_start(char *const *argv, const char *name, const char *secret,
    void (*done)(void *, int, const char *), void *arg)
{
	int in[2] = {-1, -1}, out[2] = {-1, -1}, nohost[2] = {-1, -1};
	struct launch *l;
	sigset_t all, old;
	size_t len = strlen(secret);

	if ((l = calloc(1, sizeof(*l))) == NULL)
		return NULL;
	if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
	    pipe2(nohost, O_CLOEXEC | O_NONBLOCK) != 0)
		goto fail;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	l->pid = fork();
	if (l->pid == 0)
		launch_child(argv, name, in[0], out[1], nohost[1]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (l->pid < 0)
		goto fail;
	close(in[0]);
	close(out[1]);
	close(nohost[1]);
	l->nohost = nohost[0];
	/* A pipe holds 64 KiB: the short secret line never blocks. */
	if (write(in[1], secret, len) != (ssize_t)len)
		log_warn("launcher %s: could not hand it the secret: %s",
		    argv[0], strerror(errno));
	close(in[1]);
	fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
	l->fd = out[0];
	l->done = done;
	l->arg = arg;
	l->ev = event_new(
	    pvmd.base, l->fd, EV_READ | EV_PERSIST, launch_read_cb, l);
	if (l->ev == NULL || event_add(l->ev, NULL) != 0)
		log_warn("launcher %s: its output will not be read", argv[0]);
	TAILQ_INSERT_TAIL(&launch_list, l, entry);
	return l;
fail:
	log_warn("cannot start %s: %s", argv[0], strerror(errno));
	if (in[0] >= 0) {
		close(in[0]);
		close(in[1]);
	}
	if (out[0] >= 0) {
		close(out[0]);
		close(out[1]);
	}
	if (nohost[0] >= 0) {
		close(nohost[0]);
		close(nohost[1]);
	}
	free(l);
	return NULL;
}

/*
 * Forget a launcher; end it if `end` and it still runs.  A launcher whose
 * host came up is left alone: it exits when the new pvmd lets go of its
 * output.
 */
void
launch_cancel(struct launch *l, int end)
{
	l->done = NULL;
	if (end && !l->reaped && kill(-l->pid, SIGTERM) != 0)
		kill(l->pid, SIGTERM);
}

/* reap.c found pid ended. */
int
launch_reaped(pid_t pid, int status)
{
	struct launch *l;

	TAILQ_FOREACH(l, &launch_list, entry)
	{
		if (l->pid == pid && !l->reaped) {
			l->reaped = 1;
			l->status = status;
			launch_maybe_done(l);
			return 1;
		}
	}
	return 0;
}
