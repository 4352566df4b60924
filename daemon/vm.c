/*
 * vm.c: the hosts of the virtual machine once they are in it: the host
 * table on the wire (DM_WELCOME, DM_HOSTADD), hosts that leave or fail
 * (DM_HOSTDEL, and every pvmd fires its notifies about them), deleting
 * hosts, the DM_* messages, and a slave's side of joining.  Adding hosts
 * is addhost.c; requests waiting for other hosts are rpcwait.c.
 */
#include "pvmd.h"
#include "be.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int vm_welcomed; /* slave: the master sent the table */

static void
vm_put_host(struct xdr_writer *w, const struct host *hp)
{
	xdr_put_int(w, hp->index);
	xdr_put_str(w, hp->name);
	xdr_put_str(w, hp->arch);
	xdr_put_int(w, hp->speed);
	xdr_put_int(w, hp->dsig);
	xdr_put_str(w, hp->addr);
	xdr_put_int(w, hp->port);
}

/* Enter the hosts of a DM_WELCOME/DM_HOSTADD body; -1 if malformed. */
static int
vm_get_hosts(struct xdr_reader *r, int *tids, int *nt)
{
	const char *name, *arch, *addr;
	int32_t n, i, index, speed, dsig, port;
	struct host *hp;

	*nt = 0;
	if (xdr_get_int(r, &n) != 0 || n < 0 || n > TID_HOST_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		if (xdr_get_int(r, &index) != 0 ||
		    (name = xdr_get_str(r)) == NULL ||
		    (arch = xdr_get_str(r)) == NULL ||
		    xdr_get_int(r, &speed) != 0 ||
		    xdr_get_int(r, &dsig) != 0 ||
		    (addr = xdr_get_str(r)) == NULL ||
		    xdr_get_int(r, &port) != 0)
			return -1;
		if (index == pvmd.host)
			continue;
		if ((hp = host_add(index, name, arch, speed, dsig,
		         mesh_route(index))) == NULL)
			return -1;
		snprintf(hp->addr, sizeof(hp->addr), "%s", addr);
		hp->port = port > 0 && port <= 65535 ? port : 0;
		tids[(*nt)++] = tid_make(index, 0);
	}
	return 0;
}

/* Send DM_* to every slave but `except` (master). */
void
vm_broadcast(int tag, const void *body, size_t len, int except)
{
	int i;

	for (i = 1; i <= TID_HOST_MAX; i++) {
		if (i != except && i != pvmd.host && host_get(i) != NULL)
			pvmd_send_raw(tid_pvmd(i), tag, SYSCTX_TM, 0,
			    WIRE_ENC_XDR, body, len);
	}
}

/*
 * Master: host hp joined: it gets the whole table (DM_WELCOME), the other
 * slaves get it (DM_HOSTADD), and HostAdd notifies fire.
 */
void
vm_host_joined(const struct host *hp)
{
	struct xdr_writer w;
	int i, tid = tid_make(hp->index, 0);

	xdr_writer_init(&w);
	xdr_put_int(&w, host_count());
	for (i = 1; i <= TID_HOST_MAX; i++) {
		if (host_get(i) != NULL)
			vm_put_host(&w, host_get(i));
	}
	pvmd_send(tid_pvmd(hp->index), DM_WELCOME, SYSCTX_TM, 0, &w);
	xdr_writer_free(&w);
	xdr_writer_init(&w);
	xdr_put_int(&w, 1);
	vm_put_host(&w, hp);
	vm_broadcast(DM_HOSTADD, w.data, w.len, hp->index);
	xdr_writer_free(&w);
	tracer_tell_host(hp->index);
	sched_tell_host(hp->index);
	notify_host_add(&tid, 1);
}

/* Host `index` left or failed: forget it everywhere. */
static void
vm_host_gone(int index, const char *why)
{
	uint8_t b[4];
	struct host *hp = host_get(index);

	if (hp == NULL || index == pvmd.host)
		return;
	log_info("host %s (index %d) left the virtual machine: %s", hp->name,
	    index, why);
	host_del(index);
	mesh_forget(index);
	notify_host_down(index);
	sched_host_gone(index);
	vm_rpc_fail_host(index);
	if (!pvmd.master)
		return;
	mbox_tidy_host(&pvmd.mbox, index);
	halt_host_done(index);
	put32(b, (uint32_t)index);
	vm_broadcast(DM_HOSTDEL, b, sizeof(b), 0);
}

/* Master: tell host `index` to exit, and forget it. */
static void
vm_remove(int index, const char *why)
{
	struct conn *c = host_get(index)->link;

	pvmd_send_raw(
	    tid_pvmd(index), DM_EXIT, SYSCTX_TM, 0, WIRE_ENC_XDR, NULL, 0);
	vm_host_gone(index, why);
	if (c != NULL)
		conn_close_after_flush(c);
}

/* Delete one host by name; 0 or an error code. */
static int
vm_del_one(const char *name)
{
	struct host *hp = host_find_name(name);

	if (hp == NULL)
		return PvmNoHost;
	if (hp == host_self())
		return PvmBadParam;
	vm_remove(hp->index, "deleted");
	return 0;
}

/*
 * Master: slave `from` lost its direct link to `index` after sending on
 * it (mesh.c), so frames may be lost: that host fails, as PVM deletes a
 * host that another pvmd cannot reach.
 */
static void
vm_on_hostfail(int from, int index)
{
	struct host *hp = host_get(from);
	char why[300];

	if (pvmd.halting || index == pvmd.host || host_get(index) == NULL ||
	    hp == NULL)
		return;
	snprintf(why, sizeof(why), "%s lost its link to it", hp->name);
	vm_remove(index, why);
}

/* Master: a task asks that a host fail (PVM's tickle 8); see pvmd.h. */
int
vm_fail_host(int dtid, int by)
{
	int index = tid_host(dtid);
	char why[64];

	if (index == 0 || host_get(index) == NULL)
		return PvmNoHost;
	if (index == pvmd.host)
		return PvmBadParam;
	if (!pvmd.master || pvmd.halting)
		return PvmNotImpl;
	snprintf(why, sizeof(why), "failed at the request of t%x",
	    (unsigned)by);
	vm_remove(index, why);
	return 0;
}

/* TM_DELHOST: int n, n x str name (master only). */
void
ctl_TM_DELHOST(struct ctlreq *q)
{
	struct xdr_writer w;
	const char *name;
	int32_t n, i;
	int *res, nok = 0;

	if (!pvmd.master) {
		ctl_reply_int(q, PvmNotImpl);
		return;
	}
	if (xdr_get_int(&q->r, &n) != 0 || n < 1 || n > TID_HOST_MAX ||
	    (size_t)n > xdr_left(&q->r) / 4 ||
	    (res = calloc((size_t)n, sizeof(*res))) == NULL) {
		ctl_bad(q);
		return;
	}
	for (i = 0; i < n; i++) {
		if ((name = xdr_get_str(&q->r)) == NULL) {
			free(res);
			ctl_bad(q);
			return;
		}
		res[i] = vm_del_one(name);
		nok += res[i] >= 0;
	}
	xdr_writer_init(&w);
	xdr_put_int(&w, nok);
	xdr_put_int(&w, n);
	for (i = 0; i < n; i++)
		xdr_put_int(&w, res[i]);
	ctl_reply(q, &w);
	xdr_writer_free(&w);
	free(res);
}

/* The link c closed: on a slave, the master is gone; on the master, the
 * host behind it (or one still starting). */
void
vm_link_lost(struct conn *c)
{
	int i;

	if (!pvmd.master) {
		if (c != pvmd.master_link) {
			mesh_lost(c);
			return;
		}
		pvmd.master_link = NULL;
		for (i = 1; i <= TID_HOST_MAX; i++) {
			if (i != pvmd.host)
				host_del(i);
		}
		if (!vm_welcomed)
			pvmd_startup_fail("the master closed the link before "
			                  "welcoming this host");
		if (pvmd.halting)
			halt_slave_exit();
		else
			pvmd_halt("lost the link to the master");
		return;
	}
	if (addhost_link_lost(c))
		return;
	for (i = 1; i <= TID_HOST_MAX; i++) {
		if (host_get(i) != NULL && host_get(i)->link == c) {
			vm_host_gone(i, "its link closed");
			return;
		}
	}
}

/* Slave: DM_WELCOME or DM_HOSTADD. */
static void
vm_on_hosts(struct xdr_reader *r, int welcome)
{
	static int tids[TID_HOST_MAX];
	int n;

	if (vm_get_hosts(r, tids, &n) != 0) {
		log_warn("malformed host table from the master");
		return;
	}
	if (welcome) {
		log_info("joined the virtual machine as host %d, %d host(s)",
		    pvmd.host, host_count());
		vm_welcomed = 1;
		pvmd_ready();
	} else {
		notify_host_add(tids, n);
	}
	mesh_start();
}

/*
 * Whether a slave takes this DM_* from h->src through c: what changes
 * the machine comes from the master only, and a mark only through the
 * master's link (it says that what came that way before it is all).
 */
static int
vm_dm_from_ok(const struct conn *c, const struct wire_hdr *h)
{
	if (pvmd.master)
		return 1;
	switch (h->tag) {
	case DM_WELCOME:
	case DM_HOSTADD:
	case DM_HOSTDEL:
	case DM_HALT:
	case DM_EXIT:
	case DM_TRACER:
	case DM_SCHED:
		return tid_host(h->src) == TID_MASTER_HOST;
	case DM_MESHMARK:
		return c == pvmd.master_link;
	default:
		return 1;
	}
}

/* A DM_* message from the pvmd h->src through link c. */
void
vm_dm_dispatch(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len)
{
	struct xdr_reader r;
	int32_t v = 0;

	xdr_reader_init(&r, body, len);
	if (!tid_is_pvmd(h->src) || !vm_dm_from_ok(c, h)) {
		log_warn("t%x: %s from there ignored", (unsigned)h->src,
		    wire_tag_name(h->tag));
		return;
	}
	switch (h->tag) {
	case DM_PING:
		return;
	case DM_MESHMARK:
		if (!pvmd.master)
			mesh_on_mark(tid_host(h->src));
		return;
	case DM_HOSTFAIL:
		if (pvmd.master && xdr_get_int(&r, &v) == 0)
			vm_on_hostfail(tid_host(h->src), v);
		return;
	case DM_NOTIFY:
	case DM_TASKEXIT:
	case DM_HOSTDEL:
		if (xdr_get_int(&r, &v) != 0)
			break;
		if (h->tag == DM_NOTIFY)
			notify_watch_for_pvmd(h->src, v);
		else if (h->tag == DM_HOSTDEL && !pvmd.master)
			vm_host_gone(v, "the master says so");
		else if (h->tag == DM_TASKEXIT) {
			notify_task_exit(v);
			if (pvmd.master && tid_host(v) == tid_host(h->src)) {
				tracer_task_left(v);
				mbox_tidy(&pvmd.mbox, v);
				mbox_wait_drop(&pvmd.mbox, v);
			}
		}
		return;
	case DM_SPAWNED:
		spawnout_on_spawned(h->src, body, len);
		return;
	case DM_OUTGO:
		spawnout_on_go(h->src, body, len);
		return;
	case DM_TRACER:
		if (!pvmd.master)
			tracer_on_dm(body, len);
		return;
	case DM_SCHED:
		if (!pvmd.master && xdr_get_int(&r, &v) == 0 &&
		    xdr_left(&r) == 0)
			sched_on_dm(v);
		return;
	case DM_SLAVE:
		if (pvmd.master)
			addhost_on_slave(c, &r);
		return;
	case DM_WELCOME:
	case DM_HOSTADD:
		if (!pvmd.master)
			vm_on_hosts(&r, h->tag == DM_WELCOME);
		return;
	case DM_HALT:
		if (pvmd.master)
			halt_machine(-tid_host(h->src), "halt asked by a host");
		else
			halt_slave();
		return;
	case DM_HALTED:
		if (pvmd.master)
			halt_host_done(tid_host(h->src));
		return;
	case DM_EXIT:
		if (!pvmd.master)
			halt_slave_exit();
		return;
	default:
		break;
	}
	log_warn("host %d: malformed or unexpected %s", tid_host(h->src),
	    wire_tag_name(h->tag));
}

/* A task of this host left: the master drops its mailbox entries. */
void
vm_task_left(int tid)
{
	if (!pvmd.master && pvmd.master_link != NULL)
		pvmd_send_int(
		    tid_pvmd(TID_MASTER_HOST), DM_TASKEXIT, SYSCTX_TM, 0, tid);
}

/* Slave: tell the master who we are, and the port other slaves dial. */
void
vm_slave_hello(int port)
{
	struct xdr_writer w;

	xdr_writer_init(&w);
	xdr_put_str(&w, host_self()->arch);
	xdr_put_int(&w, host_self()->speed);
	xdr_put_int(&w, host_self()->dsig);
	xdr_put_int(&w, port);
	pvmd_send(tid_pvmd(TID_MASTER_HOST), DM_SLAVE, SYSCTX_TM, 0, &w);
	xdr_writer_free(&w);
}
