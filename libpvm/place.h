/*
 * place.h: where pvm_spawn's tasks go in a machine of several hosts, and
 * how the answers of the hosts' pvmds become pvm_spawn's tids array
 * (place.c).  Pure: no I/O and no library state, so the unit test
 * (tests/unit/check_place.c) calls it with any host table.  Private.
 *
 * The rule (docs/compat.md, "Several hosts"):
 *   PvmTaskHost, where = a host name ("." = our host; ":wd" after it is
 *     the working directory): all tasks on that host; a name that is no
 *     host of the machine ("", NULL and "localhost" included, as in PVM
 *     3.4.6) places none (each task is PvmNoHost).
 *   PvmTaskArch, where = an architecture: spread over the hosts of it.
 *   PvmHostCompl with either: spread over every other host.
 *   Neither: spread over all hosts.
 * Spreading, as PVM 3.4.6's pvmd does it (tests/diff/h_place.c): the
 * eligible hosts are taken in table order from a cursor, wrapping (the
 * cursor starts at the host after ours).  With ntask <= neligible the
 * first ntask of them get one task each; with more, task i goes to the
 * floor(i * neligible / ntask)th.  The cursor then moves to the eligible
 * host after the last one used.  The tasks of one host are one block of
 * slots; blocks follow that order.
 */
#ifndef LPVM_PLACE_H
#define LPVM_PLACE_H

#include <stddef.h>

struct pvmhostinfo;

/* What pvm_spawn was asked, and where we are. */
struct place_req {
	int flag;             /* pvm_spawn's flag */
	const char *where;    /* pvm_spawn's where, NULL = "" */
	int ntask;            /* >= 1 */
	int self;             /* index of our host in the table, -1 unknown */
	const char *selfname; /* our host's name as our pvmd says, or NULL */
	int start;            /* the cursor: index where spreading starts,
	                         -1: the host after ours */
};

/* One host's block of tasks. */
struct place_share {
	int host;  /* index in the host table */
	int count; /* > 0 */
};

/*
 * Plan the placement of req->ntask tasks on hosts[0..nhost): fill
 * share[] (room for nhost entries) in slot order and return how many
 * entries; 0 if no host qualifies.  *next (if not NULL, and a host
 * qualifies) gets the cursor for the next spread.
 */
int place_plan(const struct pvmhostinfo *hosts, int nhost,
    const struct place_req *req, struct place_share *share, int *next);

/*
 * The working directory part of where (after the first ':'), or NULL if
 * there is none or it is empty, as the pvmd reads it.
 */
const char *place_workdir(const char *where);

/*
 * pvm_spawn's answer from its slots (per slot a task tid, or an error
 * code): the tids first, then the errors, each kind in slot order, into
 * out[n] (not slots).  Returns the number of tids.
 */
int place_merge(const int *slots, int n, int *out);

#endif /* LPVM_PLACE_H */
