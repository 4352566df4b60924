/*
 * lpvm.h: libpvm private interfaces, one section per file.
 *
 * libpvm is blocking and single-threaded, like PVM's: a task makes progress
 * (reads frames, runs message handlers, answers direct-route requests) only
 * while it is inside a libpvm call.  No libevent, no threads, no signals.
 */
#ifndef LPVM_H
#define LPVM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "msg.h"
#include "paths.h"
#include "tid.h"
#include "wire.h"
#include "xdr.h"

/* Everything the task knows about itself; one instance, `lpvm`. */
struct lpvm_state {
	int mytid;   /* 0 until enrolled */
	int ptid;    /* parent tid; 0 = none */
	int pvmdtid; /* my pvmd's address (S bit | host part) */
	int fd;      /* socket to the pvmd, -1 when not connected */
	int ctx;     /* current message context */

	/* Inherited from the spawner at connect; used for our children. */
	int outtid, outctx, outtag;
	int trctid, trcctx, trctag;
	/* Where our own output goes (PvmSelfOutput*). */
	int selfouttid, selfoutctx, selfouttag;

	int fragsize; /* frame body size used when sending */
	int dsig;
	char hostname[256];
	char arch[32];
	struct pvm_paths paths; /* sockdir etc. as told by the pvmd */

	/* pvm_setopt values */
	int route;     /* PvmDontRoute / PvmAllowDirect / PvmRouteDirect */
	int autoerr;   /* 0..3 */
	int showtids;
	int resvtids;
	int noreset;
	int debugmask;

	int nextwid; /* RPC request ids */
	int schedtid; /* the resource manager (rm.c), 0 = none */

	/* Added by the transport (core) engineer; stored option values. */
	int trcbuf, trcopt;              /* PvmTraceBuffer / PvmTraceOptions */
	int selftrctid, selftrcctx, selftrctag; /* PvmSelfTrace* */
	int selftrcbuf, selftrcopt;
	int fragset;   /* PvmFragSize was set by the user: keep it */
	int noresetix; /* our PVMNORESETCLASS mailbox index, or -1 */
	int listenfd;  /* direct-route listening socket, -1 if none */
	char listenpath[PATHS_MAX];
};
extern struct lpvm_state lpvm;

/* ---- errors.c ---- */

/* Set pvm_errno, report per PvmAutoErr (naming the call), return code.
 * Use for every negative return of a public function: return
 * lpvm_err("pvm_send", PvmBadParam); */
int lpvm_err(const char *call, int code);
/* Text for an error code ("Bad parameter"), or "Unknown error". */
const char *lpvm_errtext(int code);
/* Name of an error code ("PvmBadParam"), or NULL. */
const char *lpvm_errname(int code);
/* Set pvm_errno and return code without any PvmAutoErr report (for the
 * codes PVM never prints: PvmNoParent, PvmNotFound from recvinfo, ...). */
int lpvm_err_quiet(int code);
/* PVM exports these without declaring them in pvm3.h. */
extern int pvm_errno;
extern char *pvm_errlist[];
extern int pvm_nerr;

/* ---- transport.c: the connection to the pvmd ---- */

/* Connect and enrol if not yet done.  0 or PvmSysErr (no pvmd). */
int lpvm_enrol(void);
/* Drop the connection and all task state (pvm_exit, daemon lost). */
void lpvm_disconnect(void);

/*
 * Send one message to `dst` (a task, a pvmd, or a multicast address), cut
 * into frames of lpvm.fragsize.  The body is `pieces` (see lpvm_msg_pieces).
 * Uses a direct route when one exists or PvmRouteDirect asks for one.
 * While a write blocks, incoming frames are read and queued, so two tasks
 * sending to each other never deadlock.  0 or a Pvm* error.
 */
int lpvm_send_pieces(int dst, int tag, int ctx, int wid, int wire_enc,
    const struct lpvm_seg *pieces, size_t npieces);
/* Send a buffer (any encoding) the same way. */
int lpvm_send_msg(int dst, int tag, int ctx, struct lpvm_msg *m);

/*
 * Read what is available, waiting at most timeout_ms (-1 = forever, 0 = just
 * poll) for at least one more complete message.  Complete messages are
 * passed to handlers or appended to the receive queue.  Returns 1 if a
 * message arrived, 0 on timeout, or PvmSysErr if the pvmd went away.
 */
int lpvm_pump(int timeout_ms);
/*
 * lpvm_pump for a receive waiting for a message match(m, arg) accepts:
 * the first such message that arrives meanwhile is handed over in *got
 * (registered, never queued) instead of being queued, and with every
 * connection that may deliver on rings a blocking wait first spins on
 * the rings alone, taking whole messages from them as they come
 * (rx.c).  Same returns as lpvm_pump; *got is NULL if nothing matched.
 */
int lpvm_pump_for(int timeout_ms, int (*match)(const struct lpvm_msg *, void *),
    void *arg, struct lpvm_msg **got);

/* ---- rpc.c: requests to the pvmd ---- */

/*
 * Send a control message whose body is the writer's bytes (XDR) and expect
 * no reply: TM_MCAST, TM_SETOUT, TC_SIBLINGS.  PvmNoMem if the writer
 * failed, else what lpvm_send_pieces says.  The writer is not freed.
 */
int lpvm_send_xdr(int dst, int tag, int ctx, const struct xdr_writer *w);

/*
 * Send a TM_* request with body req (may be NULL) to pvmd `dst` (usually
 * lpvm.pvmdtid) and wait for the reply with the same wid.  On success the
 * reply body is malloc'd into *rep / *replen (caller frees).  Other
 * messages that arrive meanwhile are queued as usual.  0 or PvmSysErr.
 */
int lpvm_rpc(int dst, int tag, const struct xdr_writer *req, uint8_t **rep,
    size_t *replen);

/* ---- recv.c: the receive queue ---- */

/* Append a complete incoming message (from transport). */
void lpvm_queue_add(struct lpvm_msg *m);
/*
 * Find, unlink and return the first queued message for which match()
 * returns true, waiting up to timeout_ms (-1 forever, 0 poll).  NULL on
 * timeout; *err is set to PvmSysErr if the connection died.
 */
struct lpvm_msg *lpvm_queue_wait(int (*match)(const struct lpvm_msg *,
    void *), void *arg, int timeout_ms, int *err);
/* Drop every queued message (pvm_exit). */
void lpvm_queue_clear(void);
/* Take m out of the queue if it is there (safe for any message; msgbuf.c
 * should call it before freeing a buffer, e.g. one found by pvm_probe). */
void lpvm_queue_unlink(struct lpvm_msg *m);

/* ---- task control hooks (ctl.c, catchout.c, siblings) ---- */

/* A TC_OUTPUT message for pvm_catchout arrived (m is freed by the caller). */
void lpvm_catchout_input(const struct lpvm_msg *m);
/* pvm_exit: wait until every child whose output we catch has ended. */
void lpvm_catchout_drain(void);
/* A TC_SIBLINGS message arrived (m is freed by the caller). */
void lpvm_siblings_input(const struct lpvm_msg *m);
/* Forget spawn-related state (pvm_exit). */
void lpvm_ctl_reset(void);

#endif /* LPVM_H */
