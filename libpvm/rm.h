/*
 * rm.h: requests to a resource manager (rm.c, rmreq.c).  Private.
 *
 * Each lpvm_rm_* call returns LPVM_RM_NONE when there is no resource
 * manager to ask (none registered, or it has gone): the caller then
 * does what it does without one.
 */
#ifndef LPVM_RM_H
#define LPVM_RM_H

#include "ctl.h"

/* Not a Pvm* code: "no resource manager, do it yourself". */
#define LPVM_RM_NONE 1000

/* Send w to the RM with tag (context 0) and wait for its answer (same
 * tag, from the RM): 0 with *rep (free with lpvm_msg_free), an error,
 * or LPVM_RM_NONE. */
int lpvm_rm_call(int tag, const struct xdr_writer *w, struct lpvm_msg **rep);
/* The same without an answer (SM_NOTIFY). */
int lpvm_rm_post(int tag, const struct xdr_writer *w);
/* A decoder's result as a Pvm* code. */
int lpvm_rm_code(int v);

/* pvm_spawn through the RM: the number started (tids first in out[],
 * then error codes), an error, or LPVM_RM_NONE. */
int lpvm_rm_spawn(const char *file, char **argv, int flag, const char *where,
    int ntask, int *out);
/* pvm_config through the RM into hs. */
int lpvm_rm_config(struct ctl_hosts *hs);
/* pvm_tasks through the RM: a new array in *tasks, *n entries. */
int lpvm_rm_tasks(int where, struct pvmtaskinfo **tasks, int *n);
/* pvm_addhosts (add 1) / pvm_delhosts through the RM: the number of
 * successes, codes[n] each. */
int lpvm_rm_hosts(int add, char **names, int n, int *codes);
/* pvm_notify through the RM (no answer). */
int lpvm_rm_notify(int what, int tag, int cnt, const int *tids);

/* spawn.c: the PVM_EXPORT environment, packed as int n, n x str. */
void lpvm_spawn_env(struct xdr_writer *w);
/* What PVM's TM_SPAWN, its SM_SPAWN and our TM_SPAWN begin with: file,
 * flag, where, count, nargs, args (spawn.c). */
void lpvm_spawn_head(struct xdr_writer *w, const char *file, char **argv,
    int flag, const char *where, int ntask);

#endif /* LPVM_RM_H */
