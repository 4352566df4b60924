/*
 * output.c: a spawned task's stdout and stderr (one pipe).  Text goes
 * either to the log ("[t<tid>] line", whole lines, when the task's
 * output tid is 0) or as messages to the output tid in its (ctx, tag),
 * from TIDPVMD as in PVM 3.4.6: body int tid, int count, count bytes
 * (an output tid that is not positive means the log, as 0 does).
 * As PVM 3.4.6 does, a message carries what one read of the pipe gave
 * (at most OUTPUT_CHUNK bytes, partial lines included); count -2 then -1
 * announce a new task and 0 its EOF; both negative counts carry one more
 * int, the task's parent.  When a task changes its own output destination
 * the old one gets EOF and the new one -1 then -2 (output_redirect).
 * The pipe is drained to EOF even after the task left PVM.  When the
 * receiving task is backed up, the pipe is not read for a while, so the
 * child blocks on its writes instead of the pvmd growing.
 *
 * A task spawned for a task of another host gets its -1 start record
 * from the spawner's pvmd (spawnout.c).  When the output tid lives on a
 * third host, the messages for it wait here (output_hold) until that
 * pvmd says the -1 went out (DM_OUTGO), and the pipe is not read
 * meanwhile; a timer gives up on a DM_OUTGO that never comes.
 */
#include "pvmd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#define OUTPUT_READ 65536
#define OUTPUT_CHUNK 3999    /* PVM 3.4.6's largest output message */
#define OUTPUT_LINE_MAX 4096 /* flush a line this long without '\n' */
#define OUTPUT_RETRY_MS 50
#define OUTPUT_LEFT_READS 16 /* pipe reads when a task leaves */
#define OUTPUT_SPAWNED -2 /* counts of the announcements */
#define OUTPUT_BEGIN -1
#define OUTPUT_HOLD_MS 10000 /* longest wait for DM_OUTGO */

/* A message for the held destination, waiting (struct child's held). */
struct output_held {
	struct output_held *next;
	int dst, tag, ctx;
	size_t len;
	uint8_t body[];
};

/*
 * The body of an output message of task tid into w: count, then n bytes
 * zero-padded to 4 as pvm_pkbyte packs them, so receivers can use
 * pvm_upkbyte (wire.h, TC_OUTPUT); an announcement (count < 0) carries
 * the parent.  0, or -1 (logged) when out of memory.
 */
static int
output_body(
    struct xdr_writer *w, int tid, int count, const void *p, size_t n, int ptid)
{
	static const uint8_t zero[4];

	xdr_writer_init(w);
	xdr_put_int(w, tid);
	xdr_put_int(w, count);
	if (count < 0)
		xdr_put_int(w, ptid);
	xdr_put_bytes(w, p, n);
	xdr_put_bytes(w, zero, (4 - n % 4) % 4);
	if (!w->failed)
		return 0;
	log_warn("out of memory: output of t%x lost", (unsigned)tid);
	return -1;
}

/* One output message of task tid to dst, from this pvmd. */
static void
output_send(int tid, int dst, int tag, int ctx, int count, const void *p,
    size_t n, int ptid)
{
	struct xdr_writer w;

	if (output_body(&w, tid, count, p, n, ptid) == 0)
		pvmd_send_from(TID_LOCAL_PVMD, dst, tag, ctx, 0, WIRE_ENC_XDR,
		    w.data, w.len);
	xdr_writer_free(&w);
}

/*
 * Where output for `tid` goes: PVM 3.4.6 sends it as messages only to a
 * positive tid; any other (the -1 of its console, a pvmd's address)
 * means the log, as 0 does [observed].
 */
int
output_dest(int tid)
{
	return tid > 0 ? tid : 0;
}

/* Do messages to the child's output tid wait (output_hold)? */
static int
output_held_now(const struct child *ch)
{
	return ch->hold_tid != 0 && ch->outtid == ch->hold_tid;
}

/* Queue a message behind the others held; 0, or -1 if out of memory. */
static int
output_keep(struct child *ch, const struct xdr_writer *w)
{
	struct output_held *m;

	if ((m = malloc(sizeof(*m) + w->len)) == NULL)
		return -1;
	m->next = NULL;
	m->dst = ch->outtid;
	m->tag = ch->outtag;
	m->ctx = ch->outctx;
	m->len = w->len;
	memcpy(m->body, w->data, w->len);
	*ch->held_tail = m;
	ch->held_tail = &m->next;
	return 0;
}

/* One message to the child's output tid, now or once it is released. */
static void
output_to(struct child *ch, int count, const void *p, size_t n, int ptid)
{
	struct xdr_writer w;

	if (output_body(&w, ch->tid, count, p, n, ptid) != 0) {
		xdr_writer_free(&w);
		return;
	}
	if (output_held_now(ch) && output_keep(ch, &w) == 0) {
		xdr_writer_free(&w);
		return;
	}
	/* Not held, or no memory to hold it: late is better than lost. */
	pvmd_send_from(TID_LOCAL_PVMD, ch->outtid, ch->outtag, ch->outctx, 0,
	    WIRE_ENC_XDR, w.data, w.len);
	xdr_writer_free(&w);
}

/* One output message to the child's output tid. */
static void
output_msg(struct child *ch, int count, const void *p, size_t n)
{
	output_to(ch, count, p, n, 0);
}

/* An announcement (count < 0) to the child's output tid. */
static void
output_mark(struct child *ch, int count)
{
	struct task *t = task_find(&pvmd.tasks, ch->tid);

	output_to(ch, count, NULL, 0, t != NULL ? t->ptid : 0);
}

/* The -1 start record of a task of another host (spawnout.c). */
void
output_announce(int tid, int dst, int ctx, int tag, int ptid)
{
	output_send(tid, dst, tag, ctx, OUTPUT_BEGIN, NULL, 0, ptid);
}

/* Task tid's text into our log, a line at a time. */
static void
output_log(int tid, const char *p, size_t n)
{
	const char *nl;
	size_t len;

	while (n > 0) {
		nl = memchr(p, '\n', n);
		len = nl != NULL ? (size_t)(nl - p) + 1 : n;
		log_task_output(tid, p, len);
		p += len;
		n -= len;
	}
}

/* Master: a slave's task output for the log (TC_OUTPUT's body). */
void
output_remote_log(int src, const uint8_t *body, size_t len)
{
	struct xdr_reader r;
	int32_t tid, n;

	xdr_reader_init(&r, body, len);
	if (xdr_get_int(&r, &tid) != 0 || xdr_get_int(&r, &n) != 0 || n < 0 ||
	    (size_t)n > xdr_left(&r) || tid_host(tid) != tid_host(src)) {
		log_warn("host %d: malformed task output", tid_host(src));
		return;
	}
	output_log(tid, (const char *)body + (len - xdr_left(&r)), (size_t)n);
}

/*
 * Hand text (whole lines, or a final fragment) to its destination: the
 * output tid, else the log, the master's for a slave's tasks as in PVM.
 */
static void
output_emit(struct child *ch, const char *p, size_t n)
{
	if (n == 0)
		return;
	if (ch->outtid != 0)
		output_msg(ch, (int)n, p, n);
	else if (pvmd.master_link != NULL)
		output_send(ch->tid, tid_pvmd(TID_MASTER_HOST), TC_OUTPUT,
		    SYSCTX_TC, (int)n, p, n, 0);
	else
		output_log(ch->tid, p, n);
}

/* Bytes to read at once: one message's worth when the text goes to a
 * task (PVM 3.4.6's message boundaries), more for the log. */
static int
output_readsize(const struct child *ch)
{
	return ch->outtid != 0 ? OUTPUT_CHUNK : OUTPUT_READ;
}

/* Announce a new task to its output tid (counts -2, then -1). */
void
output_begin(struct child *ch)
{
	if (ch->outtid != 0) {
		output_mark(ch, OUTPUT_SPAWNED);
		output_mark(ch, OUTPUT_BEGIN);
	}
}

/* A child whose output goes to the tracer: -2 only, as PVM 3.4.6 (no
 * spawner asked for it, so no -1). */
void
output_begin_traced(struct child *ch)
{
	if (ch->outtid != 0)
		output_mark(ch, OUTPUT_SPAWNED);
}

/* Read the pipe when readable, unless paused, held or closed. */
static void
output_arm(struct child *ch)
{
	if (ch->fd < 0 || ch->ev == NULL || ch->paused)
		return;
	if (output_held_now(ch))
		event_del(ch->ev);
	else
		event_add(ch->ev, NULL);
}

/* Send what was held, in order; reading resumes.  May free ch. */
static void
output_unhold(struct child *ch)
{
	struct output_held *m;

	while ((m = ch->held) != NULL) {
		ch->held = m->next;
		pvmd_send_from(TID_LOCAL_PVMD, m->dst, m->tag, m->ctx, 0,
		    WIRE_ENC_XDR, m->body, m->len);
		free(m);
	}
	ch->held_tail = &ch->held;
	ch->hold_tid = 0;
	if (ch->hold_ev != NULL)
		event_free(ch->hold_ev);
	ch->hold_ev = NULL;
	if (ch->fd < 0)
		child_maybe_free(ch);
	else
		output_arm(ch);
}

/* No DM_OUTGO in time (a host failed, a malformed spawn): give up. */
static void
output_hold_cb(evutil_socket_t fd, short what, void *arg)
{
	struct child *ch = arg;

	log_info(
	    "t%x: no DM_OUTGO in time, output released", (unsigned)ch->tid);
	output_unhold(ch);
}

/* Hold the messages to the output tid back until output_release. */
static void
output_hold(struct child *ch)
{
	struct timeval tv = {
	    OUTPUT_HOLD_MS / 1000, (OUTPUT_HOLD_MS % 1000) * 1000};

	ch->hold_ev = evtimer_new(pvmd.base, output_hold_cb, ch);
	if (ch->hold_ev == NULL || evtimer_add(ch->hold_ev, &tv) != 0) {
		/* Unordered output rather than none. */
		log_warn("t%x: cannot hold its output back", (unsigned)ch->tid);
		if (ch->hold_ev != NULL)
			event_free(ch->hold_ev);
		ch->hold_ev = NULL;
		return;
	}
	ch->hold_tid = ch->outtid;
	ch->held = NULL;
	ch->held_tail = &ch->held;
}

/*
 * A task started for a task of host `spawner` (another): only -2 here,
 * the spawner's pvmd sends the -1 (spawnout.c).  If the output tid lives
 * on neither host, its messages wait for that -1 (output_hold).
 */
void
output_begin_remote(struct child *ch, int spawner)
{
	if (ch->outtid == 0)
		return;
	output_mark(ch, OUTPUT_SPAWNED);
	if (tid_host(ch->outtid) != spawner)
		output_hold(ch);
}

/* DM_OUTGO for task tid: its -1 went out. */
void
output_release(int tid)
{
	struct child *ch = child_find(tid);

	if (ch != NULL && ch->hold_tid != 0)
		output_unhold(ch);
}

/* Emit the complete lines buffered (everything if `all`). */
static void
output_flush(struct child *ch, int all)
{
	size_t len = evbuffer_get_length(ch->buf), n;
	const char *p, *nl;

	if (len == 0)
		return;
	if ((p = (const char *)evbuffer_pullup(ch->buf, -1)) == NULL)
		return;
	n = len;
	if (!all && len < OUTPUT_LINE_MAX) {
		for (nl = NULL; n > 0; n--) {
			if (p[n - 1] == '\n') {
				nl = p + n - 1;
				break;
			}
		}
		if (nl == NULL)
			return;
	}
	output_emit(ch, p, n);
	evbuffer_drain(ch->buf, n);
}

/* The pipe hit EOF: flush the last fragment, announce the end. */
static void
output_eof(struct child *ch)
{
	output_flush(ch, 1);
	if (ch->outtid != 0)
		output_msg(ch, 0, NULL, 0);
	event_del(ch->ev);
	close(ch->fd);
	ch->fd = -1;
	log_debug("t%x: output closed", (unsigned)ch->tid);
	child_maybe_free(ch);
}

/* Is the destination task backed up? */
static int
output_blocked(const struct child *ch)
{
	struct task *t;

	if (ch->outtid == 0)
		return pvmd.master_link != NULL &&
		       conn_backed_up(pvmd.master_link);
	if (tid_host(ch->outtid) != pvmd.host)
		return host_get(tid_host(ch->outtid)) != NULL &&
		       conn_backed_up(host_get(tid_host(ch->outtid))->link);
	t = task_find(&pvmd.tasks, ch->outtid);
	return t != NULL && t->conn != NULL && conn_backed_up(t->conn);
}

/* Pipe readable (or the back-off timer fired). */
void
output_read(struct child *ch)
{
	struct timeval tv = {0, OUTPUT_RETRY_MS * 1000};
	int n;

	if (ch->fd < 0)
		return;
	if (output_held_now(ch)) {
		event_del(ch->ev);
		return;
	}
	if (output_blocked(ch)) {
		event_del(ch->ev);
		event_base_once(
		    pvmd.base, -1, EV_TIMEOUT, output_retry_cb, ch, &tv);
		ch->paused = 1;
		return;
	}
	n = evbuffer_read(ch->buf, ch->fd, output_readsize(ch));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		output_eof(ch);
		return;
	}
	/* Messages carry each read whole; the log takes whole lines. */
	output_flush(ch, ch->outtid != 0);
}

/*
 * The task changed its own output destination (TM_SETOUT).  What it
 * wrote before asking is in the pipe already: that still goes to the
 * old destination, then EOF there; the new one gets -1 and -2 (PVM
 * 3.4.6's order here).  EOF of the pipe is left to output_read, which
 * may free ch.
 */
void
output_redirect(struct child *ch, int tid, int ctx, int tag)
{
	tid = output_dest(tid);
	if (tid == ch->outtid && ctx == ch->outctx && tag == ch->outtag)
		return;
	if (ch->fd >= 0) {
		while (evbuffer_read(ch->buf, ch->fd, output_readsize(ch)) > 0)
			output_flush(ch, ch->outtid != 0);
		output_flush(ch, 1);
		if (ch->outtid != 0)
			output_msg(ch, 0, NULL, 0);
	}
	ch->outtid = tid;
	ch->outctx = ctx;
	ch->outtag = tag;
	if (ch->fd >= 0 && ch->outtid != 0) {
		output_mark(ch, OUTPUT_BEGIN);
		output_mark(ch, OUTPUT_SPAWNED);
	}
	/* Away from a held destination, or back to it. */
	output_arm(ch);
}

/*
 * Task tid left (TM_EXIT, or its connection closed).  What it wrote
 * before is in its pipe already: pass it on now, before the notify of
 * its exit, so that a parent that stops on that notify still gets its
 * last lines (with the connection on rings the pvmd may read TM_EXIT
 * before it polls the pipe).  Not past a hold or a backed-up
 * destination, and a few reads at most: a child process that inherited
 * the pipe may keep writing.
 */
void
output_task_left(int tid)
{
	struct child *ch = child_find(tid);
	int i;

	if (ch == NULL || ch->fd < 0 || ch->paused || output_held_now(ch) ||
	    output_blocked(ch))
		return;
	for (i = 0; i < OUTPUT_LEFT_READS; i++) {
		if (evbuffer_read(ch->buf, ch->fd, output_readsize(ch)) <= 0)
			break;
		output_flush(ch, ch->outtid != 0);
	}
}

/* The pipe is readable. */
static void
output_cb(evutil_socket_t fd, short what, void *arg)
{
	output_read(arg);
}

/* Back-off over: read again (unless the child went away meanwhile). */
void
output_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	struct child *ch = arg;

	ch->paused = 0;
	if (ch->fd < 0) {
		child_maybe_free(ch);
		return;
	}
	event_add(ch->ev, NULL);
	output_read(ch);
}

/* Start reading the child's pipe. */
int
output_start(struct child *ch)
{
	ch->ev =
	    event_new(pvmd.base, ch->fd, EV_READ | EV_PERSIST, output_cb, ch);
	if (ch->ev == NULL)
		return -1;
	if (output_held_now(ch))
		return 0; /* output_unhold starts reading */
	return event_add(ch->ev, NULL);
}
