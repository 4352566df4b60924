/*
 * ctl.h: helpers shared by the task-control files of libpvm (ctl.c,
 * hosts.c, spawn.c, mbox.c, catchout.c, env.c, startd.c).  Private.
 *
 * Every call in these files is a request to a pvmd (lpvm_rpc) whose reply
 * is decoded with an xdr_reader; a reply that does not parse is
 * PvmBadMsg, never a crash.  A request is addressed by host index (see
 * ctl_pvmd): the local pvmd, the pvmd of the host a task or host tid
 * names, or the master's (the mailbox, adding hosts).
 */
#ifndef LPVM_CTL_H
#define LPVM_CTL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h> /* before pvm3.h: declares pvm_catchout */

#include "pvm3.h"
#include "pvmtev.h" /* Pvmtmask, pvm_gettmask, pvm_settmask */
#include "lpvm.h"

/* Exported by errors.c; PVM never declared it in pvm3.h. */
extern int pvm_errno;

/* Length of a PVM trace mask. */
#define CTL_TMASK_LEN TEV_MASK_LENGTH

/* ---- ctl.c ---- */

/* The host argument of ctl_rpc/ctl_status meaning "my own pvmd". */
#define CTL_LOCAL 0

/*
 * The address of the pvmd of host index `host`: our own pvmd's
 * (lpvm.pvmdtid) for CTL_LOCAL or our own host, else tid_pvmd(host),
 * which the daemons route to that host.
 */
int ctl_pvmd(int host);
/*
 * Send request w (freed here, also on error) with tag to the pvmd of host
 * index `host` (ctl_pvmd) and wait for the reply; on success *rep holds
 * the reply body (caller frees) and r reads it.  0 or a Pvm* error.  A
 * reply that is the single int PvmNoHost or PvmHostFail (the host is not
 * in the machine, or failed before it answered; our pvmd says so in place
 * of the normal reply) is returned as that error, whatever the request.
 */
int ctl_rpc(int host, int tag, struct xdr_writer *w, struct xdr_reader *r,
    uint8_t **rep);
/* A status from a reply: a non-negative value or a PVM error code as is,
 * any other negative number (not a code PVM defines) PvmBadMsg. */
int ctl_code(int32_t v);
/* Request to the pvmd of `host` (as ctl_rpc) whose reply is one int; that
 * int, or an error. */
int ctl_status(int host, int tag, struct xdr_writer *w);
/* Whether task tid exists: PvmOk, PvmNoTask or an error; sets nothing
 * (pvm_pstat and bulk.c's waits). */
int ctl_pstat(int tid);

/* ---- hosts.c ---- */

/* A private copy of the host table (does not touch pvm_config's). */
struct ctl_hosts {
	struct pvmhostinfo *h;
	int n;
	int narch;
	int cursor; /* the pvmd's spawn cursor: a host index, 0 = none */
};
/* Ask the pvmd for its host table.  0 or a Pvm* error. */
int ctl_hosts_fetch(struct ctl_hosts *hs);
void ctl_hosts_free(struct ctl_hosts *hs);
/* Index in hs of the host whose host index is host, or -1. */
int ctl_hosts_find(const struct ctl_hosts *hs, int host);

/* ---- catchout.c ---- */

/* True while children spawned now send their output to us. */
int ctl_catching(void);
/* A child started while catching: pvm_exit waits for its end of output. */
void ctl_catchout_expect(int tid);
/* Forget caught tasks and stop catching (pvm_exit). */
void ctl_catchout_reset(void);

/* ---- env.c: exported functions pvm3.h does not always declare ---- */
/* (pvm_gettmask and pvm_settmask: pvmtev.h) */

/* Declared by pvm3.h only under NOTMPNAM, exported always (as PVM does). */
char *pvmtmpnam(char *buf);

#endif /* LPVM_CTL_H */
