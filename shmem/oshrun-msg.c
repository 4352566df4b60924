/*
 * oshrun-msg.c: oshrun's side of the launch protocol (launch.h): take
 * the PEs' hellos, send the table, and hear DONE and ABORT.
 *
 * oshrun receives only the tags of launch.h and its own tags (oshrun.h;
 * a pvm_recvf matcher); anything else sent to it stays queued, unread.
 * What the agents of other hosts send goes to oshrun-host.c.
 */
#include "oshrun.h"

#include <stdio.h>
#include <stdlib.h>

#include "pvm3.h"

/* pvm_recvf matcher: the launch protocol's messages, oldest first. */
static int
osh_msg_match(int bufid, int tid, int tag)
{
	int len, mtag, src;

	(void)tid;
	(void)tag;
	if (pvm_bufinfo(bufid, &len, &mtag, &src) < 0) {
		return 0;
	}
	return (mtag >= SHM_TAG_HELLO && mtag <= SHM_TAG_LAST) ||
	       mtag == OSH_TAG_EXIT || mtag == OSH_TAG_AGENT_EXIT ||
	       mtag == OSH_TAG_HOST_DEL || mtag == OSH_TAG_OUTPUT;
}

/* The PE whose tid is tid, or -1. */
int
osh_msg_pe_of(const struct osh_job *job, int tid)
{
	int i;

	for (i = 0; i < job->npes; i++) {
		if (job->pes[i].hello && job->pes[i].tid == tid) {
			return i;
		}
	}
	return -1;
}

/* A hello that breaks the protocol ends the job. */
static int
osh_msg_bad_hello(int src, const char *why)
{
	fprintf(stderr, "oshrun: bad hello from task t%x: %s\n", (unsigned)src,
	    why);
	return OSH_EXIT_FAIL;
}

/* Take one SHM_TAG_HELLO; -1 or the status to end with. */
static int
osh_msg_hello(struct osh_job *job, int len, int src)
{
	struct shm_hello h;
	struct osh_pe *p;

	if (len != (int)sizeof(h)) {
		return osh_msg_bad_hello(src, "wrong size");
	}
	if (pvm_upkbyte((char *)&h, (int)sizeof(h), 1) < 0) {
		return osh_msg_bad_hello(src, "cannot unpack it");
	}
	if (h.magic == __builtin_bswap32(SHM_HELLO_MAGIC)) {
		return osh_msg_bad_hello(src,
		    "its host has another byte order than oshrun's (all PEs "
		    "must run on hosts of one byte order)");
	}
	if (h.magic != SHM_HELLO_MAGIC) {
		return osh_msg_bad_hello(src, "not a hello of this version");
	}
	if (h.pe < 0 || h.pe >= job->npes) {
		return osh_msg_bad_hello(src, "PE number out of range");
	}
	if (h.tid != src) {
		return osh_msg_bad_hello(src, "its tid is not the sender's");
	}
	p = &job->pes[h.pe];
	if (p->hello || osh_msg_pe_of(job, src) >= 0) {
		return osh_msg_bad_hello(src, "a second hello for that PE");
	}
	p->h = h;
	p->tid = src;
	p->hello = 1;
	if (p->remote) {
		p->pid = h.pid; /* to name it; only its agent may signal it */
	}
	job->nhello++;
	/* Its exit notify comes after all it sent through the pvmd. */
	if (pvm_notify(PvmTaskExit, OSH_TAG_EXIT, 1, &p->tid) < 0) {
		fprintf(stderr, "oshrun: cannot watch PE %d's exit\n", h.pe);
	}
	return -1;
}

/* Take one SHM_TAG_ABORT: the job ends with its status. */
static int
osh_msg_abort(struct osh_job *job, int pe)
{
	char name[320];
	int status = 1;

	if (pvm_upkint(&status, 1, 1) < 0) {
		status = 1;
	}
	fprintf(stderr,
	    "oshrun: %s ended the job with status %d (shmem_global_exit)\n",
	    osh_pe_name(job, pe, name, sizeof(name)), status);
	return status & 0xff;
}

/* Take the pvmd's exit notify for a PE. */
static void
osh_msg_gone(struct osh_job *job)
{
	int tid, pe;

	if (pvm_upkint(&tid, 1, 1) >= 0 &&
	    (pe = osh_msg_pe_of(job, tid)) >= 0) {
		job->pes[pe].gone = 1;
	}
}

/* Act on the received message bufid; -1 or the status to end with. */
static int
osh_msg_take(struct osh_job *job, int bufid)
{
	int len, tag, src, pe;

	if (pvm_bufinfo(bufid, &len, &tag, &src) < 0) {
		return -1;
	}
	if (tag == SHM_TAG_HELLO) {
		return osh_msg_hello(job, len, src);
	}
	if (tag == OSH_TAG_EXIT) {
		osh_msg_gone(job);
		return -1;
	}
	if (tag >= SHM_TAG_JOB || tag == OSH_TAG_AGENT_EXIT ||
	    tag == OSH_TAG_HOST_DEL || tag == OSH_TAG_OUTPUT) {
		return osh_host_take(job, tag, src, len);
	}
	/* DONE and ABORT count only from a PE that said hello. */
	if ((pe = osh_msg_pe_of(job, src)) < 0) {
		return -1;
	}
	if (tag == SHM_TAG_DONE) {
		job->pes[pe].done = 1;
	} else if (tag == SHM_TAG_ABORT) {
		return osh_msg_abort(job, pe);
	}
	return -1;
}

/*
 * Wait up to ms milliseconds for a protocol message and act on it.
 * Returns -1 while the job goes on, or the status to end with.
 */
int
osh_msg_wait(struct osh_job *job, int ms)
{
	struct timeval tmo = {ms / 1000, (ms % 1000) * 1000};
	int (*old)(int, int, int);
	int bufid;

	old = (int (*)(int, int, int))(void (*)(void))pvm_recvf(osh_msg_match);
	bufid = pvm_trecv(-1, -1, &tmo);
	pvm_recvf(old);
	if (bufid < 0) {
		fprintf(stderr, "oshrun: lost the pvmd (%d)\n", bufid);
		job->lost_pvmd = 1;
		return OSH_EXIT_FAIL;
	}
	return bufid > 0 ? osh_msg_take(job, bufid) : -1;
}

/* Pack the table: npes, the agents, then the N hellos in PE order. */
static int
osh_msg_pack_table(const struct osh_job *job)
{
	struct shm_agent_ent e;
	int i, n = 0, npes = job->npes, cc;

	for (i = 0; i < job->nhosts; i++)
		n += job->hosts[i].agent != 0;
	cc = pvm_initsend(PvmDataRaw) < 0 || pvm_pkint(&npes, 1, 1) < 0 ||
	     pvm_pkint(&n, 1, 1) < 0;
	for (i = 0; i < job->nhosts && cc == 0; i++) {
		if (job->hosts[i].agent == 0) {
			continue;
		}
		e.host = job->hosts[i].tid;
		e.tid = job->hosts[i].agent;
		cc = pvm_pkbyte((char *)&e, (int)sizeof(e), 1) < 0;
	}
	for (i = 0; i < npes && cc == 0; i++) {
		cc = pvm_pkbyte((char *)&job->pes[i].h,
		         (int)sizeof(job->pes[i].h), 1) < 0;
	}
	return cc;
}

/* Send every PE and every agent the table. */
int
osh_msg_table(struct osh_job *job)
{
	int *tids, i, n = 0, cc;

	tids = calloc((size_t)(job->npes + job->nhosts), sizeof(*tids));
	if (tids == NULL) {
		fprintf(stderr, "oshrun: out of memory for the table\n");
		return OSH_EXIT_FAIL;
	}
	for (i = 0; i < job->npes; i++) {
		tids[n++] = job->pes[i].tid;
	}
	for (i = 0; i < job->nhosts; i++) {
		if (job->hosts[i].agent != 0) {
			tids[n++] = job->hosts[i].agent;
		}
	}
	cc = osh_msg_pack_table(job);
	if (cc == 0 && pvm_mcast(tids, n, SHM_TAG_TABLE) < 0) {
		cc = 1;
	}
	free(tids);
	if (cc != 0) {
		fprintf(stderr, "oshrun: cannot send the PE table\n");
		return OSH_EXIT_FAIL;
	}
	job->table_sent = 1;
	return -1;
}
