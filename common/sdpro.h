/*
 * sdpro.h: the bodies of the messages between tasks, a resource manager
 * (RM, pvm_reg_rm) and the pvmds, and of the tracer registration
 * (pvm_reg_tracer).  The tags are PVM 3.4.6's (include/pvmsdpro.h), and
 * so are the bodies, so that an RM written for PVM reads and writes them
 * with pvm_upk and pvm_pk unchanged.  All ints are XDR (PvmDataDefault).
 *
 * Task -> RM (in context 0; the RM answers with the same tag):
 *   SM_SPAWN   str file, int flags, str where, int count, int nargs,
 *              nargs x str, int outtid, outctx, outtag, trctid, trcctx,
 *              trctag, int nenv, nenv x str ("NAME=value")
 *              answer: int n (an error < 0, or count), then if n is
 *              count: count x int (a tid or an error code each)
 *   SM_CONFIG  -; answer: int nhost, int narch, nhost x {int tid,
 *              str name, str arch, int speed, int dsig}
 *   SM_TASK    int where; answer: int status (< 0: error), then until
 *              the end {int tid, ptid, host, flag, str a_out, int pid}
 *   SM_ADDHOST int count, count x str; answer: int n (error, or count),
 *              int narch, count x {int tid (or error), str name,
 *              str arch, int speed, int dsig}
 *   SM_DELHOST int count, count x str; answer: int n (error, or
 *              count), count x int (0 or an error)
 *   SM_NOTIFY  int what, int ctx, int tag, int count, k x int (k =
 *              count, 0 for PvmHostAdd); no answer
 * RM -> pvmd (any context; the answer has the request's ctx and wid):
 *   SM_EXEC    int ptid, str file, int flags, int count, int nargs,
 *              nargs x str, int outtid, outctx, outtag, trctid, trcctx,
 *              trctag, int nenv, nenv x str [, int instance, int outof]
 *              answer SM_EXECACK: int count, count x int
 *   SM_ADD     int count, count x str; answer SM_ADDACK as SM_ADDHOST's
 *   SM_HANDOFF int tid: the pvmd's RM is that task from now on
 * pvmd -> RM:
 *   SM_EXECACK also unasked: int 1, int tid, a task enrolled that no
 *              pvmd spawned
 *   SM_TASKX   int tid, int status, int utime s, us, int stime s, us
 *   SM_HOSTX   int pvmd tid: that host is gone
 *
 * Our own requests (common/wire.h lists them): TM_SCHED, TM_TRACER,
 * DM_TRACER.
 *
 * The decoders are pure: they read only the bytes given, refuse
 * anything malformed (-1) and never crash on any input.
 */
#ifndef PVM_SDPRO_H
#define PVM_SDPRO_H

#include <stddef.h>
#include <stdint.h>

#include "xdr.h"

/* Most tasks one SM_EXEC, SM_SPAWN or SM_TASK may describe. */
#define SD_COUNT_MAX 262143
/* Most hosts an SM_CONFIG answer may list. */
#define SD_HOSTS_MAX 4095
/* Length of a trace mask, its NUL included (pvmtev.h's TEV_MASK_LENGTH). */
#define SD_TMASK_LEN 36

/* An SM_EXEC request.  Strings point into the body; args and env are
 * arrays (NULL-terminated) the caller frees with sd_exec_free. */
struct sd_exec {
	int32_t ptid;
	const char *file;
	int32_t flags, count;
	int32_t nargs;
	const char **args;
	int32_t outtid, outctx, outtag;
	int32_t trctid, trcctx, trctag;
	int32_t nenv;
	const char **env;
	int32_t instance, outof;
};
int sd_exec_decode(const uint8_t *p, size_t n, struct sd_exec *e);
void sd_exec_free(struct sd_exec *e);

/* One host as SM_CONFIG, SM_ADDHOST and TM_SCHED carry it; strings
 * malloc'd (sd_host_free). */
struct sd_host {
	int32_t tid;
	char *name, *arch;
	int32_t speed, dsig;
};
void sd_host_free(struct sd_host *h);

/* A TM_SCHED answer: the RM before us and the master host. */
struct sd_sched {
	int32_t old;
	struct sd_host master;
};
void sd_sched_encode(struct xdr_writer *w, int32_t old, int32_t tid,
    const char *name, const char *arch, int32_t speed, int32_t dsig);
/* 0, -1 (malformed) or the error code the pvmd sent (old < 0). */
int sd_sched_decode(const uint8_t *p, size_t n, struct sd_sched *s);

/* An answer of the RM to SM_CONFIG: hosts malloc'd (sd_hosts_free). */
int sd_config_decode(
    const uint8_t *p, size_t n, struct sd_host **hosts, int *nhost, int *narch);
void sd_hosts_free(struct sd_host *hosts, int n);

/*
 * The RM's answer to SM_SPAWN for count tasks: the number started (tids
 * in slots[0..count)), or an error code (< 0) or -1000 for a malformed
 * answer (SD_MALFORMED).
 */
#define SD_MALFORMED (-1000)
int sd_spawn_reply_decode(
    const uint8_t *p, size_t n, int count, int32_t *slots);

/* One task of an SM_TASK answer; a_out malloc'd. */
struct sd_task {
	int32_t tid, ptid, host, flag;
	char *a_out;
	int32_t pid;
};
/* The tasks (malloc'd, sd_tasks_free), or the RM's error (< 0), or
 * SD_MALFORMED. */
int sd_tasks_decode(
    const uint8_t *p, size_t n, struct sd_task **tasks, int *ntask);
void sd_tasks_free(struct sd_task *tasks, int n);

/* The RM's answer to SM_ADDHOST (add 1) or SM_DELHOST (add 0) for count
 * names: codes[i] a host tid (add) / 0 or an error each; returns count or
 * the RM's error or SD_MALFORMED. */
int sd_hostchange_decode(
    const uint8_t *p, size_t n, int add, int count, int32_t *codes);

/* An SM_ADD request: int count (1..SD_HOSTS_MAX), count x str (hostfile
 * lines).  *names: a malloc'd array (free() it) of count pointers into
 * p.  0, or -1 for a malformed body. */
int sd_add_decode(
    const uint8_t *p, size_t n, const char ***names, int *count);

/* A tracer: who gets trace records and output of new tasks. */
struct sd_tracer {
	int32_t tid; /* 0: none */
	int32_t trcctx, trctag;
	int32_t outctx, outtag;
	char tmask[SD_TMASK_LEN];
	int32_t trcbuf, trcopt;
};
/* DM_TRACER (and the part of TM_TRACER after int regme). */
void sd_tracer_encode(struct xdr_writer *w, const struct sd_tracer *t);
int sd_tracer_decode(struct xdr_reader *r, struct sd_tracer *t);
/* TM_TRACER: int regme, then the tracer's settings if regme.  0 or -1. */
int sd_tracer_req_decode(
    const uint8_t *p, size_t n, int *regme, struct sd_tracer *t);

#endif /* PVM_SDPRO_H */
