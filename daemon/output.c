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
 */
#include "pvmd.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#define OUTPUT_READ 65536
#define OUTPUT_CHUNK 3999    /* PVM 3.4.6's largest output message */
#define OUTPUT_LINE_MAX 4096 /* flush a line this long without '\n' */
#define OUTPUT_RETRY_MS 50
#define OUTPUT_SPAWNED -2 /* counts of the announcements */
#define OUTPUT_BEGIN -1

/*
 * One output message of task tid to dst: count, then n bytes zero-padded
 * to 4 as pvm_pkbyte packs them, so receivers can use pvm_upkbyte
 * (wire.h, TC_OUTPUT); an announcement (count < 0) carries the parent.
 */
static void
output_send(int tid, int dst, int tag, int ctx, int count, const void *p,
    size_t n, int ptid)
{
	static const uint8_t zero[4];
	struct xdr_writer w;

	xdr_writer_init(&w);
	xdr_put_int(&w, tid);
	xdr_put_int(&w, count);
	if (count < 0)
		xdr_put_int(&w, ptid);
	xdr_put_bytes(&w, p, n);
	xdr_put_bytes(&w, zero, (4 - n % 4) % 4);
	if (w.failed)
		log_warn("out of memory: output of t%x lost", (unsigned)tid);
	else
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

/* One output message to the child's output tid. */
static void
output_msg(const struct child *ch, int count, const void *p, size_t n)
{
	output_send(
	    ch->tid, ch->outtid, ch->outtag, ch->outctx, count, p, n, 0);
}

/* An announcement (count < 0) to the child's output tid. */
static void
output_mark(const struct child *ch, int count)
{
	struct task *t = task_find(&pvmd.tasks, ch->tid);

	output_send(ch->tid, ch->outtid, ch->outtag, ch->outctx, count, NULL, 0,
	    t != NULL ? t->ptid : 0);
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
output_emit(const struct child *ch, const char *p, size_t n)
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
	return event_add(ch->ev, NULL);
}
