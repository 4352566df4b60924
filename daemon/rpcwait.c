/*
 * rpcwait.c: requests from our tasks to other hosts' pvmds, remembered
 * until the answer passes back (conn.c sees both), so that a host that
 * is not there or fails first costs the task an error (PvmNoHost,
 * PvmHostFail), not a hang.
 */
#include "pvmd.h"

#include <stdlib.h>
#include <string.h>

#define VM_RPC_MAX 4096 /* past it, the oldest is forgotten */

struct rpc_wait {
	int tid, wid, tag, host;
};

static struct rpc_wait *rpc_v;
static int rpc_n;

void
vm_rpc_sent(int tid, int wid, int tag, int host)
{
	struct rpc_wait *v;

	if (rpc_n >= VM_RPC_MAX) {
		memmove(rpc_v, rpc_v + 1, sizeof(*rpc_v) * (size_t)--rpc_n);
	} else if ((v = realloc(rpc_v, sizeof(*v) * (size_t)(rpc_n + 1))) ==
	           NULL) {
		return;
	} else {
		rpc_v = v;
	}
	rpc_v[rpc_n++] = (struct rpc_wait){tid, wid, tag, host};
}

void
vm_rpc_answered(int tid, int wid)
{
	int i;

	for (i = 0; i < rpc_n; i++) {
		if (rpc_v[i].tid == tid && rpc_v[i].wid == wid) {
			rpc_v[i] = rpc_v[--rpc_n];
			return;
		}
	}
}

/* Answer a task's request with the single int `code`. */
void
vm_rpc_fail(int tid, int tag, int wid, int code)
{
	pvmd_send_int(tid, tag, SYSCTX_TM, wid, code);
}

void
vm_rpc_forget(int tid)
{
	int i;

	for (i = 0; i < rpc_n; i++) {
		if (rpc_v[i].tid == tid)
			rpc_v[i--] = rpc_v[--rpc_n];
	}
}

/* Host `host` is gone: every request waiting for it fails. */
void
vm_rpc_fail_host(int host)
{
	struct rpc_wait r;
	int i;

	for (i = 0; i < rpc_n; i++) {
		if (rpc_v[i].host != host)
			continue;
		r = rpc_v[i];
		rpc_v[i--] = rpc_v[--rpc_n];
		vm_rpc_fail(r.tid, r.tag, r.wid, PvmHostFail);
	}
}
