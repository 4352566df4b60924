/*
 * agent.c: the agent's life (agent.h): take the job, start the PEs, then
 * one loop over PVM messages, the PEs' pipes and their ends until it is
 * told to stop, oshrun leaves, or the pvmd goes away.
 *
 * The loop serves at most AGENT_BURST messages between looks at the
 * pipes and the children, and sleeps in poll() on libpvm's sockets
 * (pvm_getfds) and the pipes when nothing is there: requests are served
 * as they come, output is passed on at once, and an idle agent costs
 * nothing.  Until the table has come only oshrun's messages are taken;
 * requests of PEs that already have it wait in libpvm's queue.
 *
 * oshrun's end comes as the pvmd's notify, which any task could imitate
 * by its tag: it counts only from a pvmd and naming oshrun.
 */
#define _GNU_SOURCE
#include "agent.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pvm3.h"
#include "bind.h"
#include "tid.h"

static volatile sig_atomic_t agent_signal;

static void
agent_on_signal(int sig)
{
	agent_signal = sig;
}

int
agent_tell(struct agent *a, int tag, const int *v, int nv, const char *bytes,
    int nbytes)
{
	int cc = pvm_initsend(PvmDataRaw);

	if (cc >= 0 && nv > 0)
		cc = pvm_pkint((int *)v, nv, 1);
	if (cc >= 0 && nbytes > 0)
		cc = pvm_pkbyte((char *)bytes, nbytes, 1);
	if (cc >= 0)
		cc = pvm_send(a->launcher, tag);
	return cc < 0 ? -1 : 0;
}

void
agent_drop(struct agent *a, int src, int tag, int len, const char *why)
{
	a->dropped++;
	if (a->dropped <= AGENT_DROP_LINES)
		fprintf(stderr,
		    "oshrun agent t%x: dropped a message from t%x (tag 0x%x, "
		    "%d bytes): %s\n",
		    (unsigned)a->mytid, (unsigned)src, (unsigned)tag, len, why);
	if (a->dropped == AGENT_DROP_LINES)
		fprintf(stderr,
		    "oshrun agent t%x: further dropped messages are only "
		    "counted\n",
		    (unsigned)a->mytid);
}

/* Whether the message in the receive buffer, of tag
 * AGENT_TAG_LAUNCHER_EXIT, is the pvmd's notify that oshrun left; a
 * forged one is dropped. */
static int
agent_launcher_left(struct agent *a, int src, int len)
{
	int tid;

	if (tid_is_pvmd(src) && pvm_upkint(&tid, 1, 1) >= 0 &&
	    tid == a->launcher)
		return 1;
	agent_drop(a, src, AGENT_TAG_LAUNCHER_EXIT, len,
	    "not the pvmd's notify that oshrun left");
	return 0;
}

/* A str of the job message (agent.h), or NULL. */
static char *
agent_upkstr(void)
{
	char *s;
	int n;

	if (pvm_upkint(&n, 1, 1) < 0 || n < 0 || n > AGENT_MAX_STR ||
	    (s = malloc((size_t)n + 1)) == NULL)
		return NULL;
	if (n > 0 && pvm_upkbyte(s, n, 1) < 0) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

/* n strs into a new NULL-terminated vector; NULL on error. */
static char **
agent_upkvec(int min)
{
	char **v;
	int n, i;

	if (pvm_upkint(&n, 1, 1) < 0 || n < min || n > AGENT_MAX_ARGS ||
	    (v = calloc((size_t)n + 1, sizeof(*v))) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		if ((v[i] = agent_upkstr()) == NULL)
			return NULL; /* the agent exits: no need to free */
	return v;
}

/* Wait for SHM_TAG_JOB, or oshrun's end: 0, or -1. */
static int
agent_wait_job(struct agent *a)
{
	int bufid, len, tag, src;

	for (;;) {
		if ((bufid = pvm_recv(-1, -1)) < 0 ||
		    pvm_bufinfo(bufid, &len, &tag, &src) < 0)
			return -1;
		if (tag == AGENT_TAG_LAUNCHER_EXIT &&
		    agent_launcher_left(a, src, len))
			return -1;
		if (tag == SHM_TAG_JOB && src == a->launcher)
			return 0;
		if (tag != AGENT_TAG_LAUNCHER_EXIT)
			agent_drop(a, src, tag, len, "not oshrun's job");
	}
}

/* Take the job (agent.h); 0 or -1 (said). */
static int
agent_job(struct agent *a)
{
	int v[3];

	if (agent_wait_job(a) < 0)
		return -1;
	if (pvm_upkint(v, 3, 1) < 0 || v[0] < 1 || v[0] > (1 << 16) ||
	    v[1] < 0 || v[2] < 0 || v[2] > v[0] - v[1] ||
	    (a->cwd = agent_upkstr()) == NULL ||
	    (a->argv = agent_upkvec(1)) == NULL ||
	    (a->env = agent_upkvec(0)) == NULL) {
		fprintf(stderr, "oshrun agent: a bad job from t%x\n",
		    (unsigned)a->launcher);
		return -1;
	}
	a->npes = v[0];
	a->first = v[1];
	a->count = v[2];
	if (a->count > 0 &&
	    (a->pes = calloc((size_t)a->count, sizeof(*a->pes))) == NULL)
		return -1;
	if (a->cwd[0] != '\0' && chdir(a->cwd) != 0) {
		/* The PEs start in the pvmd's directory then: said in
		 * docs/shmem.md. */
	}
	return 0;
}

/* Take one message; -1 when the agent must stop. */
static int
agent_take(struct agent *a, int bufid)
{
	int len, tag, src;

	if (pvm_bufinfo(bufid, &len, &tag, &src) < 0)
		return 0;
	if (tag == AGENT_TAG_LAUNCHER_EXIT)
		return agent_launcher_left(a, src, len) ? -1 : 0;
	if (tag == SHM_TAG_REQ && a->have_table) {
		agent_req_serve(a, len, src);
		return 0;
	}
	if (src != a->launcher) {
		agent_drop(a, src, tag, len, "not from oshrun");
		return 0;
	}
	if (tag == SHM_TAG_TABLE && !a->have_table)
		return agent_req_table(a);
	if (tag == SHM_TAG_STOP)
		return -1;
	return 0;
}

/* Serve up to AGENT_BURST messages: the count, or -1 to stop.  Before
 * the table only oshrun's messages and the pvmd's notify that oshrun
 * left are taken (the notify comes from the pvmd, not from oshrun). */
static int
agent_drain(struct agent *a)
{
	int n, bufid;

	if (!a->have_table &&
	    (bufid = pvm_nrecv(-1, AGENT_TAG_LAUNCHER_EXIT)) != 0) {
		if (bufid < 0)
			fprintf(stderr, "oshrun agent t%x: lost the pvmd\n",
			    (unsigned)a->mytid);
		if (bufid < 0 || agent_take(a, bufid) < 0)
			return -1;
	}
	for (n = 0; n < AGENT_BURST; n++) {
		bufid = pvm_nrecv(a->have_table ? -1 : a->launcher, -1);
		if (bufid < 0) {
			fprintf(stderr, "oshrun agent t%x: lost the pvmd\n",
			    (unsigned)a->mytid);
			return -1;
		}
		if (bufid == 0)
			break;
		if (agent_take(a, bufid) < 0)
			return -1;
	}
	return n;
}

/* Sleep until a socket or a pipe has something, AGENT_POLL_MS at most. */
static void
agent_sleep(struct agent *a)
{
	struct pollfd p[256];
	int *fds, n, i, k = 0;

	n = pvm_getfds(&fds);
	for (i = 0; i < n && k < 128; i++) {
		p[k].fd = fds[i];
		p[k++].events = POLLIN;
	}
	k += agent_pe_pollfds(a, p + k, 256 - k);
	poll(p, (nfds_t)k, AGENT_POLL_MS);
}

static void
agent_loop(struct agent *a)
{
	int n;

	while (agent_signal == 0) {
		if ((n = agent_drain(a)) < 0)
			return;
		n += agent_pe_io(a);
		agent_pe_reap(a);
		if (n == 0)
			agent_sleep(a);
	}
}

static void
agent_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = agent_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int
agent_main(void)
{
	struct agent a;

	memset(&a, 0, sizeof(a));
	agent_signals();
	osh_bind_save(); /* before the pvmd may bind us */
	pvm_setopt(PvmAutoErr, 0);
	if ((a.mytid = pvm_mytid()) < 0 || (a.launcher = pvm_parent()) <= 0) {
		fprintf(stderr, "oshrun agent: not started by oshrun\n");
		return 1;
	}
	if (pvm_notify(PvmTaskExit, AGENT_TAG_LAUNCHER_EXIT, 1, &a.launcher) <
	        0 ||
	    agent_job(&a) < 0 || agent_pe_start_all(&a) < 0) {
		agent_pe_stop(&a);
		pvm_exit();
		return 1;
	}
	agent_loop(&a);
	agent_pe_stop(&a);
	if (a.dropped > AGENT_DROP_LINES)
		fprintf(stderr,
		    "oshrun agent t%x: dropped %ld messages in all\n",
		    (unsigned)a.mytid, a.dropped);
	pvm_exit();
	return 0;
}
