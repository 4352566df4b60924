/*
 * oshrun-pe.c: the PE processes of an oshrun job: start them, reap them,
 * judge how each ended, and stop the rest.
 *
 * The PEs of oshrun's host are its own children, so their exit status
 * comes from waitpid and never from the pvmd; those of other hosts are
 * their agent's children, and the agent tells (oshrun-host.c).  A PE whose program cannot be run is
 * told apart from a program that exits 127 by a close-on-exec pipe: the
 * child writes errno into it only when execvp fails.
 */
#define _GNU_SOURCE /* pipe2 */
#include "oshrun.h"

#include "bind.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Milliseconds on the monotonic clock. */
long long
osh_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Sleep for ms milliseconds (a signal may end it early). */
static void
osh_sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/*
 * PE pe's place among the PEs of oshrun's host, if they get a CPU each
 * (bind.c); else -1.
 */
static int
osh_pe_cpu_index(const struct osh_job *job, int pe)
{
	int i, nlocal = 0, index = 0;

	for (i = 0; i < job->npes; i++) {
		if (!job->pes[i].remote) {
			index += i < pe;
			nlocal++;
		}
	}
	return osh_bind_wanted(nlocal) ? index : -1;
}

/* In the child: PE pe's environment and stdin, then exec; never returns. */
static void
osh_pe_exec(const struct osh_job *job, int pe, int errfd, pid_t parent)
{
	char num[32];
	int fd, err, cpu = osh_pe_cpu_index(job, pe);

	/* If oshrun dies without stopping us (SIGKILL), end too: a PE
	 * alone would wait for its peers for ever. */
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0 || getppid() != parent) {
		_exit(OSH_EXIT_FAIL);
	}
	snprintf(num, sizeof(num), "%d", job->npes);
	err = setenv(SHM_ENV_NPES, num, 1);
	snprintf(num, sizeof(num), "%d", pe);
	err |= setenv(SHM_ENV_PE, num, 1);
	snprintf(num, sizeof(num), "%d", job->mytid);
	err |= setenv(SHM_ENV_LAUNCHER, num, 1);
	/* PVMEPID would make the PE claim to be a task the pvmd spawned. */
	err |= unsetenv("PVMEPID");
	err |= unsetenv(SHM_ENV_BOUND);
	(void)osh_bind_child(cpu); /* unbound, it just does not poll */
	if (err == 0 && pe != 0) {
		if ((fd = open("/dev/null", O_RDONLY)) < 0 || dup2(fd, 0) < 0) {
			err = -1;
		} else if (fd != 0) {
			close(fd);
		}
	}
	if (err == 0) {
		execvp(job->argv[0], job->argv);
	}
	err = errno;
	if (write(errfd, &err, sizeof(err)) < 0) {
		/* Nothing more to say: the exit status tells. */
	}
	_exit(OSH_EXIT_NOEXEC);
}

/*
 * Start PE pe.  Returns 0, OSH_EXIT_NOEXEC if the program could not be
 * run, or OSH_EXIT_FAIL; the reason is on stderr.
 */
int
osh_pe_start(struct osh_job *job, int pe)
{
	struct osh_pe *p = &job->pes[pe];
	int fds[2], err = 0;
	ssize_t n;
	pid_t pid, parent = getpid();

	if (p->remote) {
		return 0; /* its agent starts it */
	}
	if (pipe2(fds, O_CLOEXEC) != 0) {
		fprintf(stderr, "oshrun: pipe: %s\n", strerror(errno));
		return OSH_EXIT_FAIL;
	}
	if ((pid = fork()) < 0) {
		fprintf(stderr, "oshrun: fork for PE %d: %s\n", pe,
		    strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return OSH_EXIT_FAIL;
	}
	if (pid == 0) {
		close(fds[0]);
		osh_pe_exec(job, pe, fds[1], parent);
	}
	p->pid = pid;
	close(fds[1]);
	/* EOF: the exec succeeded (the pipe closed with it). */
	while ((n = read(fds[0], &err, sizeof(err))) < 0 && errno == EINTR) {
	}
	close(fds[0]);
	if (n == (ssize_t)sizeof(err)) {
		fprintf(stderr, "oshrun: cannot run %s for PE %d: %s\n",
		    job->argv[0], pe, strerror(err));
		return OSH_EXIT_NOEXEC;
	}
	return 0;
}

/* The PE of a pid, or NULL. */
static struct osh_pe *
osh_pe_by_pid(struct osh_job *job, pid_t pid)
{
	int i;

	for (i = 0; i < job->npes; i++) {
		if (job->pes[i].pid == pid && !job->pes[i].remote) {
			return &job->pes[i];
		}
	}
	return NULL;
}

/* Collect the exit status of every PE that has ended, without waiting. */
void
osh_pe_reap(struct osh_job *job)
{
	struct osh_pe *p;
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if ((p = osh_pe_by_pid(job, pid)) != NULL && !p->exited) {
			p->exited = 1;
			p->status = status;
		}
	}
}

/* Signal every PE still running. */
static int
osh_pe_signal_all(struct osh_job *job, int sig)
{
	int i, left = 0;

	for (i = 0; i < job->npes; i++) {
		if (job->pes[i].pid > 0 && !job->pes[i].exited &&
		    !job->pes[i].remote) {
			kill(job->pes[i].pid, sig);
			left++;
		}
	}
	return left;
}

/*
 * Stop every PE still running: SIGTERM, SIGKILL to those still there
 * after OSH_TERM_MS, and reap them all.  Bounded: a SIGKILLed child
 * cannot refuse to die.
 */
void
osh_pe_stop(struct osh_job *job)
{
	long long end = osh_now_ms() + OSH_TERM_MS;
	int i, status;

	if (osh_pe_signal_all(job, SIGTERM) == 0) {
		return;
	}
	for (;;) {
		osh_pe_reap(job);
		if (osh_pe_signal_all(job, 0) == 0) {
			return;
		}
		if (osh_now_ms() >= end) {
			break;
		}
		osh_sleep_ms(OSH_POLL_MS);
	}
	osh_pe_signal_all(job, SIGKILL);
	for (i = 0; i < job->npes; i++) {
		struct osh_pe *p = &job->pes[i];

		while (p->pid > 0 && !p->exited && !p->remote) {
			if (waitpid(p->pid, &status, 0) == p->pid) {
				p->exited = 1;
				p->status = status;
			} else if (errno != EINTR) {
				p->exited = 1; /* not ours any more */
			}
		}
	}
}

const char *
osh_pe_name(const struct osh_job *job, int pe, char *buf, size_t len)
{
	const struct osh_pe *p = &job->pes[pe];

	if (p->remote) {
		snprintf(buf, len, "PE %d (pid %ld on %s)", pe, (long)p->pid,
		    job->hosts[p->host].name);
	} else {
		snprintf(buf, len, "PE %d (pid %ld)", pe, (long)p->pid);
	}
	return buf;
}

/* Exit status of oshrun for a PE killed by a signal, with its line. */
static int
osh_pe_killed(const struct osh_job *job, int pe)
{
	int sig = WTERMSIG(job->pes[pe].status);
	char name[320];

	fprintf(stderr, "oshrun: %s was killed by signal %d (%s)\n",
	    osh_pe_name(job, pe, name, sizeof(name)), sig, strsignal(sig));
	return 128 + sig;
}

/*
 * Judge PE pe once it has exited.  Returns -1 while the job goes on, or
 * the status oshrun must end with.
 */
static int
osh_pe_judge_one(struct osh_job *job, int pe, long long now)
{
	struct osh_pe *p = &job->pes[pe];
	char name[320];
	int st;

	if (!p->exited || p->judged) {
		return -1;
	}
	osh_pe_name(job, pe, name, sizeof(name));
	if (WIFSIGNALED(p->status)) {
		p->judged = 1;
		return osh_pe_killed(job, pe);
	}
	st = WIFEXITED(p->status) ? WEXITSTATUS(p->status) : 1;
	if (p->done) {
		p->judged = 1;
		if (st != 0) {
			fprintf(stderr, "oshrun: %s exited with status %d\n",
			    name, st);
			if (job->first_status == 0) {
				job->first_status = st;
			}
		}
		return -1;
	}
	/* No DONE yet: it may still be on its way. */
	if (p->due == 0) {
		p->due = now + OSH_GRACE_MS;
	}
	if (!p->gone && now < p->due) {
		return -1;
	}
	p->judged = 1;
	fprintf(stderr,
	    "oshrun: %s exited with status %d before shmem_finalize\n", name,
	    st);
	return st != 0 ? st : 1;
}

/* Judge every PE that has exited; -1 or the status to end with. */
int
osh_pe_judge(struct osh_job *job, long long now)
{
	int i, rc;

	for (i = 0; i < job->npes; i++) {
		if ((rc = osh_pe_judge_one(job, i, now)) >= 0) {
			return rc;
		}
	}
	return -1;
}

/* True once every PE has ended and been judged. */
int
osh_pe_all_judged(const struct osh_job *job)
{
	int i;

	for (i = 0; i < job->npes; i++) {
		if (!job->pes[i].judged) {
			return 0;
		}
	}
	return 1;
}
