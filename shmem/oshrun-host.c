/*
 * oshrun-host.c: the agents of a job with PEs on other hosts than
 * oshrun's (docs/shmem.md, "Several hosts"; agent.h).
 *
 * oshrun starts one agent on each host of the job through the pvmds
 * (pvm_spawn of its own binary, which must be at the same path there,
 * as pvm4 must), watches it (PvmTaskExit) and its host (PvmHostDelete),
 * and sends it its block of PEs.  The agent of oshrun's host starts no
 * PE (oshrun forks those itself, as on one host) but serves the other
 * hosts' requests for them.  What the agents pass on (their PEs' output
 * and ends) comes back here; an agent or a host that leaves before the
 * job has ended ends the job, with a line that names the host.
 */
#define _GNU_SOURCE
#include "oshrun.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvm3.h"

extern char **environ;

/* path made absolute against cwd; -1 if it does not fit. */
static int
osh_host_abs(const char *cwd, const char *path, char *out, size_t len)
{
	int n = snprintf(out, len, "%s%s%s", path[0] == '/' ? "" : cwd,
	    path[0] == '/' ? "" : "/", path);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* prog as an absolute path, found along $PATH as execvp would. */
static int
osh_host_prog(const char *prog, char *out, size_t len)
{
	char cwd[PATH_MAX], cand[PATH_MAX];
	const char *path = getenv("PATH"), *p, *end;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return -1;
	if (strchr(prog, '/') != NULL)
		return osh_host_abs(cwd, prog, out, len);
	for (p = path != NULL ? path : "/bin:/usr/bin"; p != NULL;
	     p = end != NULL ? end + 1 : NULL) {
		size_t n;

		end = strchr(p, ':');
		n = end != NULL ? (size_t)(end - p) : strlen(p);
		if (snprintf(cand, sizeof(cand), "%.*s%s/%s", (int)n, p,
		        n == 0 ? "." : "", prog) >= (int)sizeof(cand))
			continue;
		if (access(cand, X_OK) == 0)
			return osh_host_abs(cwd, cand, out, len);
	}
	return -1;
}

/* A str of the job message: int length, then the bytes. */
static int
osh_host_pkstr(const char *s)
{
	int n = (int)strlen(s);

	if (pvm_pkint(&n, 1, 1) < 0)
		return -1;
	return n > 0 ? pvm_pkbyte((char *)s, n, 1) : 0;
}

/* The variables a PE of another host gets from oshrun's environment. */
static int
osh_host_env_wanted(const char *e)
{
	return strncmp(e, "SHMEM_", 6) == 0 || strncmp(e, "PVMSHMEM_", 9) == 0;
}

static int
osh_host_pkenv(void)
{
	int n = 0, i, cc = 0;

	for (i = 0; environ[i] != NULL; i++)
		n += osh_host_env_wanted(environ[i]);
	if (pvm_pkint(&n, 1, 1) < 0)
		return -1;
	for (i = 0; environ[i] != NULL && cc >= 0; i++)
		if (osh_host_env_wanted(environ[i]))
			cc = osh_host_pkstr(environ[i]);
	return cc;
}

/* Send host h's agent its job (agent.h). */
static int
osh_host_job(struct osh_job *job, const struct osh_host *h, const char *prog)
{
	char cwd[PATH_MAX];
	int v[3], argc, i, cc;

	v[0] = job->npes;
	v[1] = h->first;
	v[2] = h->local ? 0 : h->count;
	for (argc = 0; job->argv[argc] != NULL; argc++) {
	}
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		cwd[0] = '\0';
	cc = pvm_initsend(PvmDataDefault) < 0 || pvm_pkint(v, 3, 1) < 0 ||
	     osh_host_pkstr(cwd) < 0 || pvm_pkint(&argc, 1, 1) < 0 ||
	     osh_host_pkstr(prog) < 0;
	for (i = 1; i < argc && cc == 0; i++)
		cc = osh_host_pkstr(job->argv[i]) < 0;
	if (cc == 0 && (osh_host_pkenv() < 0 || pvm_send(h->agent, SHM_TAG_JOB) < 0))
		cc = 1;
	if (cc != 0)
		fprintf(stderr, "oshrun: cannot send the agent on %s its job\n",
		    h->name);
	return cc != 0 ? -1 : 0;
}

/* Start host h's agent and watch it and its host. */
static int
osh_host_spawn(struct osh_host *h, const char *self)
{
	char *args[] = {(char *)SHM_AGENT_ARG, NULL};
	int tid = 0;

	if (pvm_spawn((char *)self, args, PvmTaskHost, h->name, 1, &tid) != 1) {
		fprintf(stderr,
		    "oshrun: cannot start the agent (%s) on host %s: error "
		    "%d\n",
		    self, h->name, tid);
		return -1;
	}
	h->agent = tid;
	if (pvm_notify(PvmTaskExit, OSH_TAG_AGENT_EXIT, 1, &h->agent) < 0 ||
	    (!h->local &&
	        pvm_notify(PvmHostDelete, OSH_TAG_HOST_DEL, 1, &h->tid) < 0)) {
		fprintf(stderr, "oshrun: cannot watch host %s\n", h->name);
		return -1;
	}
	return 0;
}

int
osh_host_start(struct osh_job *job)
{
	char prog[PATH_MAX], self[PATH_MAX];
	ssize_t n;
	int i, pe;

	if (!job->far)
		return -1;
	if (osh_host_prog(job->argv[0], prog, sizeof(prog)) < 0) {
		fprintf(stderr, "oshrun: cannot run %s: not found\n",
		    job->argv[0]);
		return OSH_EXIT_NOEXEC;
	}
	if ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0) {
		fprintf(stderr, "oshrun: cannot find its own program\n");
		return OSH_EXIT_FAIL;
	}
	self[n] = '\0';
	pvm_setopt(PvmOutputTid, job->mytid);
	pvm_setopt(PvmOutputCode, OSH_TAG_OUTPUT);
	if (getenv("LD_LIBRARY_PATH") != NULL)
		pvm_export("LD_LIBRARY_PATH");
	for (i = 0; i < job->nhosts; i++) {
		struct osh_host *h = &job->hosts[i];

		if (osh_host_spawn(h, self) < 0 || osh_host_job(job, h, prog) < 0)
			return OSH_EXIT_FAIL;
		for (pe = h->first; pe < h->first + h->count; pe++)
			job->pes[pe].remote = !h->local;
	}
	return -1;
}

/* The host whose agent is tid, or NULL. */
static struct osh_host *
osh_host_of_agent(struct osh_job *job, int tid)
{
	int i;

	for (i = 0; i < job->nhosts; i++)
		if (job->hosts[i].agent == tid && tid != 0)
			return &job->hosts[i];
	return NULL;
}

/* Write all of buf to fd (the PEs' output is the user's). */
static void
osh_host_write(int fd, const char *buf, int n)
{
	ssize_t w;

	while (n > 0 && (w = write(fd, buf, (size_t)n)) > 0) {
		buf += w;
		n -= (int)w;
	}
}

/* SHM_TAG_OUT or _ERR: int pe, then the bytes. */
static void
osh_host_output(int fd, int len)
{
	char buf[8192];
	int pe, n = len - (int)sizeof(int);

	if (n < 0 || n > (int)sizeof(buf) || pvm_upkint(&pe, 1, 1) < 0 ||
	    (n > 0 && pvm_upkbyte(buf, n, 1) < 0))
		return;
	osh_host_write(fd, buf, n);
}

/* The pvmd's output of an agent itself: int tid, int count, bytes. */
static void
osh_host_agent_output(int len)
{
	char buf[8192];
	int v[2];

	if (pvm_upkint(v, 2, 1) < 0 || v[1] <= 0 || v[1] > (int)sizeof(buf) ||
	    v[1] > len || pvm_upkbyte(buf, v[1], 1) < 0)
		return;
	osh_host_write(2, buf, v[1]);
}

/* SHM_TAG_EXITED or _NOEXEC from the agent of host h; -1 or a status. */
static int
osh_host_pe_end(struct osh_job *job, const struct osh_host *h, int tag)
{
	int v[3] = {-1, 0, 0};
	struct osh_pe *p;

	if (pvm_upkint(v, tag == SHM_TAG_EXITED ? 3 : 2, 1) < 0 ||
	    v[0] < h->first || v[0] >= h->first + h->count)
		return -1;
	p = &job->pes[v[0]];
	if (tag == SHM_TAG_NOEXEC) {
		fprintf(stderr, "oshrun: cannot run %s for PE %d on %s: %s\n",
		    job->argv[0], v[0], h->name, strerror(v[1]));
		return OSH_EXIT_NOEXEC;
	}
	if (!p->exited) {
		p->pid = v[1];
		p->exited = 1;
		p->status = v[2];
	}
	return -1;
}

/* A host or its agent left: the job ends unless it is ending anyway. */
static int
osh_host_lost(struct osh_job *job, struct osh_host *h, const char *what)
{
	h->agent_gone = 1;
	if (job->ended)
		return -1;
	fprintf(stderr, "oshrun: %s %s (PEs %d..%d): ending the job\n", what,
	    h->name, h->first, h->first + h->count - 1);
	return OSH_EXIT_FAIL;
}

/* A notify: int tid of the agent or host that left. */
static int
osh_host_notify(struct osh_job *job, int tag)
{
	int tid, i;

	if (pvm_upkint(&tid, 1, 1) < 0)
		return -1;
	for (i = 0; i < job->nhosts; i++) {
		struct osh_host *h = &job->hosts[i];

		if (tag == OSH_TAG_HOST_DEL && h->tid == tid && !h->local)
			return osh_host_lost(job, h,
			    "the virtual machine lost host");
		if (tag == OSH_TAG_AGENT_EXIT && h->agent == tid)
			return osh_host_lost(job, h, "the agent left, on host");
	}
	return -1;
}

int
osh_host_take(struct osh_job *job, int tag, int src, int len)
{
	struct osh_host *h;

	if (tag == OSH_TAG_OUTPUT) {
		osh_host_agent_output(len);
		return -1;
	}
	if (tag == OSH_TAG_AGENT_EXIT || tag == OSH_TAG_HOST_DEL)
		return osh_host_notify(job, tag);
	if ((h = osh_host_of_agent(job, src)) == NULL)
		return -1;
	if (tag == SHM_TAG_OUT || tag == SHM_TAG_ERR) {
		osh_host_output(tag == SHM_TAG_OUT ? 1 : 2, len);
		return -1;
	}
	if (tag == SHM_TAG_EXITED || tag == SHM_TAG_NOEXEC)
		return osh_host_pe_end(job, h, tag);
	return -1;
}

/* Whether an agent is still there. */
static int
osh_host_agents_left(const struct osh_job *job)
{
	int i, n = 0;

	for (i = 0; i < job->nhosts; i++)
		n += job->hosts[i].agent != 0 && !job->hosts[i].agent_gone;
	return n;
}

void
osh_host_stop(struct osh_job *job)
{
	int i;

	job->ended = 1;
	for (i = 0; i < job->nhosts; i++) {
		struct osh_host *h = &job->hosts[i];

		if (h->agent != 0 && !h->agent_gone &&
		    pvm_initsend(PvmDataDefault) >= 0)
			pvm_send(h->agent, SHM_TAG_STOP);
	}
}

/* Until every agent has left (it stops its PEs first, passing their
 * output on), bounded: an agent's PEs get SIGKILL after OSH_TERM_MS. */
void
osh_host_wait(struct osh_job *job)
{
	long long end = osh_now_ms() + OSH_TERM_MS + OSH_AGENT_MS;

	while (osh_host_agents_left(job) > 0 && osh_now_ms() < end &&
	       !job->lost_pvmd)
		(void)osh_msg_wait(job, OSH_POLL_MS); /* the job has ended */
	if (osh_host_agents_left(job) > 0)
		fprintf(stderr, "oshrun: %d agents did not leave in time\n",
		    osh_host_agents_left(job));
}
