/*
 * pvmd.h: private interfaces of the daemon, one section per file.
 *
 * The pvmd is one single-threaded libevent loop.  Objects and owners:
 *   struct conn   one per accepted socket; owned by conn.c, freed on the
 *                 loop turn after it was closed (never inside its own
 *                 callback stack).
 *   struct task   one per task id; owned by the task table (task.c).  A
 *                 task points at its conn (NULL while a spawned task has
 *                 not connected yet) and at its child record.
 *   struct child  one per process this pvmd forked; owned by reap.c, lives
 *                 until the process is reaped AND its output pipe hit EOF,
 *                 which may be long after the task left PVM.
 *
 * route.c, task.c, ctx.c and mbox.c are pure (no I/O, no logging, no
 * libevent) so the unit tests link them directly.
 */
#ifndef PVMD_H
#define PVMD_H

#include "config.h" /* first: feature macros (_GNU_SOURCE) */

#include <sys/resource.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "paths.h"
#include "pvm3.h"
#include "tid.h"
#include "wire.h"
#include "xdr.h"
#include "sdpro.h"

struct conn;
struct child;
struct output_held;
struct event_base;
struct evbuffer;
struct xdr_writer;

#ifndef PVM_ARCH
#define PVM_ARCH "LINUX64"
#endif

/* glibc's sys/queue.h lacks the _SAFE iterators of the BSDs. */
#ifndef TAILQ_FOREACH_SAFE
#define TAILQ_FOREACH_SAFE(var, head, field, tvar)                             \
	for ((var) = TAILQ_FIRST(head);                                        \
	     (var) != NULL && ((tvar) = TAILQ_NEXT(var, field), 1);            \
	     (var) = (tvar))
#endif

/*
 * Data signature handed to tasks (TM_CONNECT, TM_CONFIG).  It is the value
 * PVM 3.4.6 reports for x86-64 little-endian Linux (LINUX64), so programs
 * that compare hi_dsig values see what they saw under PVM.
 */
#define PVMD_DSIG 0x408c41
#define PVMD_SPEED 1000

/* ---- route.c: where a frame goes (pure) ---- */

enum route_kind {
	ROUTE_DROP = 0, /* no such address: discard */
	ROUTE_TASK,     /* a task on this host */
	ROUTE_PVMD,     /* this pvmd: a control message */
	ROUTE_PEER,     /* the pvmd or a task on another host (*hostp) */
	ROUTE_MCAST,    /* the sender's multicast address */
};

/*
 * Decide from the destination tid alone (and the sender, for multicast)
 * where a frame goes.  *hostp gets the host index for ROUTE_PEER.
 */
enum route_kind route_decide(int dst, int src, int myhost, int *hostp);
const char *route_kind_str(enum route_kind k);

/* ---- task.c: the task table (pure) ---- */

#define TASK_F_SPAWNED 2    /* forked by this pvmd (ti_flag bit) */
#define TASK_F_CONN 4       /* connected (ti_flag bit) */
#define TASK_F_SCHED 0x100  /* the resource manager (ti_flag, PVM's) */
#define TASK_F_TRACER 0x800 /* the tracer (ti_flag, PVM's) */
#define TASK_F_HOSTER 0x200 /* the registered hoster (PVM's bit) */
#define TASK_F_TASKER 0x400 /* the registered tasker (PVM's bit) */

struct task {
	int tid;
	int ptid; /* spawner, 0 for tasks started from a shell */
	pid_t pid;
	int flags;   /* TASK_F_* */
	int tasked;  /* the tasker that started it, or 0; pid is its
	              * PVMEPID cookie until it connects (tasker.c) */
	char *a_out; /* program name (spawned tasks), owned; "" else */
	/* Inherited from the spawn request, handed over at TM_CONNECT. */
	int outtid, outctx, outtag;
	int trctid, trcctx, trctag;
	int ctx;
	int sched; /* the resource manager told when it leaves, 0 = none */
	int bound; /* place.c bound it to CPU cpu */
	int cpu;
	struct conn *conn;   /* NULL until connected; not owned */
	struct child *child; /* NULL for anonymous tasks; not owned */
	/*
	 * Frames for a spawned task that has not connected yet, handed to
	 * its connection after the TM_CONNECT reply (conn.c owns it; the
	 * pure table code never touches it).
	 */
	struct evbuffer *held;
	struct task *hnext;   /* hash chain */
	struct task **hpprev; /* what points at us: O(1) removal */
	TAILQ_ENTRY(task) entry;
};

#define TASK_HASH 4096

struct task_table {
	struct task *hash[TASK_HASH];
	TAILQ_HEAD(, task) list; /* in order of creation */
	int host;                /* host index of this pvmd */
	int next;                /* next local part to try, 1..TID_LOCAL_MAX */
	int count;
};

void task_table_init(struct task_table *tt, int host);
/* The next free tid (sequential, wraps, skips live ones), or 0 if full. */
int task_alloc_tid(struct task_table *tt);
/* A zeroed task with `tid`, inserted; NULL if out of memory. */
struct task *task_new(struct task_table *tt, int tid);
struct task *task_find(const struct task_table *tt, int tid);
/* A spawned task with this pid (or tasker cookie) not connected yet. */
struct task *task_find_pending(const struct task_table *tt, pid_t pid);
/* Unlink and free. */
void task_remove(struct task_table *tt, struct task *t);

/* ---- ctx.c: message contexts handed out by TM_CTX_NEW (pure) ---- */

struct ctx_ent {
	int ctx;
	int owner;
};

struct ctx_table {
	struct ctx_ent *v;
	size_t n, cap;
	int hostpart;
	int next; /* next counter value to try */
};

/* Counter values stay below the system contexts (SYSCTX_*). */
#define CTX_COUNTER_MAX 0x3fff0

void ctx_table_init(struct ctx_table *ct, int hostpart);
void ctx_table_fini(struct ctx_table *ct);
/* A new context owned by `owner`, or PvmOutOfRes / PvmNoMem. */
int ctx_new(struct ctx_table *ct, int owner);
/* 0, or PvmNotFound if `ctx` is not one of owner's. */
int ctx_free(struct ctx_table *ct, int owner, int ctx);
/* Free all of owner's contexts (it exited). */
void ctx_free_owner(struct ctx_table *ct, int owner);

/* ---- mbox.c: the mailbox (pure) ---- */

/* A stored message; shared by reference between the store and replies. */
struct mbox_msg {
	int refs;
	int src; /* the task that put it: recvinfo's buffer source */
	int enc;
	size_t len;
	uint8_t data[];
};

struct mbox_entry {
	int index;
	int owner; /* 0 once a persistent entry's owner exited */
	int flags; /* PvmMbox* bits the entry was put with */
	struct mbox_msg *msg;
	TAILQ_ENTRY(mbox_entry) entry; /* ascending index */
};

struct mbox_class {
	char *name;
	TAILQ_HEAD(, mbox_entry) entries;
	TAILQ_ENTRY(mbox_class) entry;
};

/* A TM_MB_GET with PvmMboxWaitForInfo parked until a put. */
struct mbox_waiter {
	int tid, wid;
	char *name;
	int index, flags;
	TAILQ_ENTRY(mbox_waiter) entry;
};

struct mbox {
	TAILQ_HEAD(, mbox_class) classes; /* in order of creation */
	TAILQ_HEAD(, mbox_waiter) waiters;
};

#define MBOX_CLASS_NORESET "###_PVM_NO_RESET_###"
#define MBOX_CLASS_PVMGS "pvmgs"

void mbox_init(struct mbox *mb);
void mbox_fini(struct mbox *mb);
struct mbox_msg *mbox_msg_new(const void *p, size_t len, int enc);
void mbox_msg_unref(struct mbox_msg *m);
size_t mbox_bytes(void);
/*
 * Store (takes a reference on m); index -1 = the direct index in flags or
 * 0.  The index used, or PvmDenied / PvmBadParam / PvmNoMem.
 */
int mbox_put(struct mbox *mb, int tid, const char *name, int index, int flags,
    struct mbox_msg *m);
/*
 * Look up; on success the index, and *mp gets a reference the caller
 * must drop.  PvmNotFound or PvmDenied (ReadAndDelete not allowed).
 */
int mbox_get(struct mbox *mb, int tid, const char *name, int index, int flags,
    struct mbox_msg **mp);
/* Delete; the deleted index, PvmNotFound or PvmDenied. */
int mbox_del(struct mbox *mb, int tid, const char *name, int index);
struct mbox_class *mbox_class_find(const struct mbox *mb, const char *name);
/* Task `tid` exited: drop its entries, orphan its persistent ones. */
void mbox_tidy(struct mbox *mb, int tid);
/* Whether tid owns an entry of class name. */
int mbox_owns_class(const struct mbox *mb, const char *name, int tid);
/* Every task of `host` left: drop their entries and parked gets. */
void mbox_tidy_host(struct mbox *mb, int host);
/* Remove every entry except those of the reserved classes named. */
void mbox_reset(struct mbox *mb, const char *const *keep, int nkeep);
/* True if `tid` registered under MBOX_CLASS_NORESET. */
int mbox_is_noreset(const struct mbox *mb, int tid);
/* Park a waiting get; 0 or -1 (no memory). */
int mbox_wait_add(
    struct mbox *mb, int tid, int wid, const char *name, int index, int flags);
/* Drop the waits of task `tid`. */
void mbox_wait_drop(struct mbox *mb, int tid);
void mbox_waiter_free(struct mbox_waiter *w);

/* ---- log.c ---- */

extern unsigned log_debugmask;

/* Log rotation ($PVMDLOGMAX bytes); task output lines in pieces. */
#define LOG_MAX_DEFAULT (16LL * 1024 * 1024)
#define LOG_MAX_MIN 4096LL
#define LOG_OUTPUT_CHUNK 1900
void log_open(const char *path);
void log_reopen(void);
void log_set_max(long long bytes);
void log_to_stderr(int on);
int log_is_open(void);
void log_close(void);
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* One line of a task's output, "[t<tid>] text". */
void log_task_output(int tid, const char *line, size_t len);

/* ---- host.c: the host table ---- */

struct host {
	int index; /* 1 .. TID_HOST_MAX */
	char name[256];
	char arch[32];
	int speed;
	int dsig;
	struct conn *link; /* the link frames for it go on; NULL: this host */
	char addr[64];     /* slave: where its pvmd listens (mesh.c) */
	int port;          /* 0: it takes no direct links */
};

void host_init(const char *name, const char *arch);
struct host *host_get(int index);
/* This pvmd's host entry. */
struct host *host_self(void);
/* True if `name` designates this host ("", ".", "localhost", its names). */
int host_is_self(const char *name);
/* Number of hosts in the table. */
int host_count(void);
int host_narch(void);
/* Enter or update another host; NULL if out of memory or a bad index. */
struct host *host_add(int index, const char *name, const char *arch, int speed,
    int dsig, struct conn *link);
void host_del(int index);
/* The host called `name` (this one too), or NULL. */
struct host *host_find_name(const char *name);

/* ---- accept.c: the listening socket for tasks ---- */

/* Start accepting task connections on the listening socket fd. */
int accept_listen(int fd);
/* Stop accepting (halt). */
void accept_stop(void);

/* ---- conn.c: connections, framing, back-pressure ---- */

#define CONN_HIGH_WATER (8 * 1024 * 1024)
#define CONN_LOW_WATER (2 * 1024 * 1024)

/* The file's own loop events; before any connection. */
int conn_init(void);
/* A task's connection accepted (accept.c); refusal: see conn.c. */
void conn_task_accepted(int s, int refusal);
/* The Pvm* error c's TM_CONNECT is to be refused with, or 0. */
int conn_refusal(const struct conn *c);
/* Close a connection (logged with `why`); freed on the next loop turn. */
void conn_close(struct conn *c, const char *why);
/* Close once everything queued to it has been written. */
void conn_close_after_flush(struct conn *c);
/* True if frames can still be queued to c. */
int conn_usable(const struct conn *c);
/*
 * Queue a message from this pvmd (or relayed text) to c, cut into frames
 * of WIRE_FRAG_DEFAULT.  Daemon messages are small and may exceed the
 * high-water mark.
 */
void conn_send(struct conn *c, int src, int dst, int tag, int ctx, int wid,
    int enc, const void *body, size_t len);
/* True if more than CONN_HIGH_WATER is queued to c. */
int conn_backed_up(const struct conn *c);
/* Bind a connection to a task (TM_CONNECT done). */
void conn_set_task(struct conn *c, struct task *t);
/* The task left PVM (TM_EXIT): the connection no longer stands for it. */
void conn_forget_task(struct conn *c);
/* After the TM_CONNECT reply: deliver what was held for the task. */
void conn_release_held(struct conn *c, struct task *t);
/* A pending task is gone: drop what was held for it. */
void conn_drop_held(struct task *t);
/* Queue a message from this pvmd to task t (connected or pending). */
void conn_send_task(struct task *t, int src, int tag, int ctx, int wid, int enc,
    const void *body, size_t len);
void conn_set_mcast(struct conn *c, int *tids, int n);
pid_t conn_peer_pid(const struct conn *c);
/* Best-effort write of everything queued, then close all (halt). */
void conn_flush_all(void);
/* Links to other pvmds (link.c drives them). */
struct conn *conn_link_accepted(int s);
struct conn *conn_link_open(int s, int host);
void conn_link_up(struct conn *c, int host);
int conn_link_host(const struct conn *c);
void **conn_link_auth(struct conn *c);
long long conn_last_rx(const struct conn *c);
/* Stop (on) or resume handling a link's input (mesh.c's switch-over). */
void conn_hold(struct conn *c, int on);
/* The peer's numeric address ("" if unknown). */
void conn_peer_addr(const struct conn *c, char *buf, size_t len);

/* ---- connring.c: a task's connection on shared-memory rings ---- */

/* TM_RINGS: map the segment that came with it; 1 if c now reads its
 * frames from the ring, 0 if not (the socket stays). */
int conn_ring_attach(struct conn *c);
/* After the TM_RINGS reply is queued: what is queued so far still goes
 * to the socket, everything after it to the ring. */
void conn_ring_output(struct conn *c);
/* Handle what every ring holds (no system call unless there is). */
void conn_rings_poll(void);
/* About to block: ask every ring's task for a wake-up; 1 if a ring
 * turned out to hold bytes meanwhile (then do not block). */
int conn_rings_sleep(void);
/* Awake again: withdraw those requests. */
void conn_rings_awake(void);

/* ---- link.c: TCP links between pvmds, their handshake and liveness ---- */

/* Listen for other pvmds (once); 0 or -1.  *port gets the port. */
int link_listen(int *port);
/*
 * Connect to the pvmd at "host:port" ("[v6]:port" too) within
 * timeout_ms, prove the secret in both directions, claim host `index`
 * under `name`.  The socket, or -1 with the reason in err.
 */
int link_dial(const char *addr, int index, const char *name, const uint8_t *key,
    int timeout_ms, char *err, size_t errlen);
/*
 * A slave a hoster started: dial, prove the one-time key k (again while
 * the master does not know it yet, for ms at most), and take the
 * machine's secret (AUTH_KEY_LEN bytes) from the master.  The socket,
 * or -1 with the reason in err.
 */
int link_dial_onetime(const char *addr, int index, const char *name,
    const uint8_t *k, int ms, uint8_t *secret, char *err, size_t errlen);
/* A handshake frame arrived on an unauthenticated link. */
void link_auth_frame(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len);
void link_auth_free(void *auth);
/* A link closed (either state). */
void link_closed(struct conn *c);
/* A reassembled control message from a link. */
void link_ctl_dispatch(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len);
/* Start the liveness timer (pings, and the host timeout). */
int link_timer_start(void);

/* ---- mesh.c: direct links between slaves ---- */

/* Slave: the table grew; dial the new slaves of lower index. */
void mesh_start(void);
/* Slave: a link from another slave proved the secret; 0 = taken. */
int mesh_accepted(int index);
/* Slave: a direct link to host `index` is up (we dialed, or accepted). */
void mesh_link_up(struct conn *c, int index, int dialed);
/* Slave: DM_MESHMARK from host `index`, through the master. */
void mesh_on_mark(int index);
/* Slave: the link frames for host `index` go on. */
struct conn *mesh_route(int index);
/* Slave: link c closed; 1 if it was a direct link. */
int mesh_lost(struct conn *c);
/* Slave: host `index` left: close our direct link to it. */
void mesh_forget(int index);

/* ---- slave.c: a slave's start-up (-S) ---- */

struct pvmd_slave {
	int on;
	int index;
	char name[256];
	char ep[PATHS_MAX]; /* -e: PVM_PATH for spawns here */
	char wd[PATHS_MAX]; /* -w: working directory of spawns */
	int fd;             /* the authenticated link, until the loop */
	int onetime;        /* -K: a hoster started us (one-time key) */
};
extern struct pvmd_slave slave;

/* -S's options checked, $NAME expanded; 0 or -1 (said on stderr). */
int slave_check_opts(void);
/* Read the secret, dial the master, prove it (exits on failure). */
void slave_dial(void);
/* The link becomes a connection of the loop. */
void slave_link_start(void);

/* ---- vm.c: hosts in the machine; addhost.c: adding them ---- */

/* Master: a link proved the secret claiming `index`; 0 = expected. */
int vm_link_authenticated(struct conn *c, int index, const char *name);
/* A DM_* message from the pvmd src. */
void vm_dm_dispatch(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len);
/* The link c closed: its host (or, on a slave, the master) is gone. */
void vm_link_lost(struct conn *c);
/* Master: host hp joined; tell it and everyone. */
void vm_host_joined(const struct host *hp);
/* Send DM_* to every slave but `except` (master). */
void vm_broadcast(int tag, const void *body, size_t len, int except);
/* A task of this host left: tell the master (its mailbox entries). */
void vm_task_left(int tid);
/* Slave: DM_SLAVE, our description, first thing on the new link. */
void vm_slave_hello(int port);
/* Master: DM_SLAVE from the link c of a host being added. */
void addhost_on_slave(struct conn *c, struct xdr_reader *r);
/* Master: SM_ADD from resource manager tid, answered by sched_addack. */
void vm_add_for_rm(int tid, int ctx, int wid, const char *const *lines,
    int n);
/* Master: link c closed; 1 if it was a host still starting. */
int addhost_link_lost(struct conn *c);
/* Master: add the hosts of a hostfile (at start-up); 0 or -1. */
int vm_add_hostfile(const char *path);
/* Master: add the hosts of the batch allocation (-b); 0 or -1. */
int vm_add_batch(void);
/* True while hosts of the start-up hostfile are still being added. */
int vm_starting(void);
/* Master: fail the host of pvmd tid dtid as task `by` asks (tickle);
 * 0, PvmNoHost, PvmBadParam (this host) or PvmNotImpl (a slave). */
int vm_fail_host(int dtid, int by);
/* Master: the machine halts; hosts still starting fail now. */
void vm_halt_pending(void);
/* Master: the hoster's result line for host tid of start wid. */
void addhost_hoster_result(int wid, int tid, const char *result);
/* Master: the hoster answered start wid; hosts it left out fail. */
void addhost_hoster_end(int wid, const char *why);
/* Master: the hoster is gone; hosts it still owes fail. */
void addhost_hoster_gone(void);
/*
 * Master: the key a link claiming host `index` called `name` proves:
 * 0 (the machine's secret), 1 (the one-time key of a host a hoster
 * started, copied into key), or -1 (such a host, its key not come yet).
 */
int addhost_link_key(int index, const char *name, uint8_t *key);
/* Master: the host's one-time key was used; forget it. */
void addhost_link_key_used(int index);

/* ---- rpcwait.c: requests from our tasks to other hosts' pvmds ---- */

void vm_rpc_sent(int tid, int wid, int tag, int host);
void vm_rpc_answered(int tid, int wid);
/* Answer a task's request with the single int `code`. */
void vm_rpc_fail(int tid, int tag, int wid, int code);
void vm_rpc_forget(int tid);
/* Host `host` is gone: every request waiting for it fails. */
void vm_rpc_fail_host(int host);

/* ---- launch.c: starting a slave pvmd through ssh or $PVM_RSH ---- */

struct launch;
/*
 * Run argv with the secret line on its stdin, collecting its output,
 * after looking up `name` (unless NULL).  done(arg, status, text) runs
 * once it exited and its output ended (status as from waitpid, or
 * LAUNCH_NOHOST if the name did not resolve and argv never ran).
 */
#define LAUNCH_NOHOST (-2)
struct launch *launch_start(char *const *argv, const char *name,
    const char *secret, void (*done)(void *arg, int status, const char *text),
    void *arg);
/* Stop caring (and end it if `kill`); done is not called. */
void launch_cancel(struct launch *l, int kill);
/* From reap.c: pid ended; 1 if it was a launcher. */
int launch_reaped(pid_t pid, int status);

/* ---- halt.c: ending this pvmd, or the whole machine ---- */

/* The whole machine (master: now; slave: ask the master). */
void halt_machine(int halter, const char *why);
/* Slave: the master says halt. */
void halt_slave(void);
/* Master: host `index` reported its tasks gone, or its link closed. */
void halt_host_done(int index);
/* Slave: the master says exit now, or its link closed while halting. */
void halt_slave_exit(void);
int halt_halter(void);

/* ---- ctl.c: control messages to this pvmd ---- */

struct ctlreq {
	struct conn *c;
	struct task *t; /* NULL before TM_CONNECT completed */
	int src;        /* requester tid (0 during the handshake) */
	int tag, wid;
	struct xdr_reader r;
};

/* One control message (reassembled) from c. */
void ctl_dispatch(struct conn *c, struct task *t, const struct wire_hdr *h,
    const uint8_t *body, size_t len);
/* One control message from a task of another host, through link c. */
void ctl_dispatch_remote(
    struct conn *c, const struct wire_hdr *h, const uint8_t *body, size_t len);
/* Reply with the body in w (same tag and wid, SYSCTX_TM). */
void ctl_reply(const struct ctlreq *q, const struct xdr_writer *w);
void ctl_reply_int(const struct ctlreq *q, int v);
/* A malformed body: log it and answer PvmBadMsg so the caller never hangs. */
void ctl_bad(const struct ctlreq *q);

#define CTL_PROTO(name, num, text) void ctl_##name(struct ctlreq *q);
WIRE_TM_LIST(CTL_PROTO)
#undef CTL_PROTO

/* Send a message from this pvmd to a task tid (dropped if not reachable). */
void pvmd_send(int dst, int tag, int ctx, int wid, const struct xdr_writer *w);
/* A message whose XDR body is one int. */
void pvmd_send_int(int dst, int tag, int ctx, int wid, int v);
/* The same with raw bytes. */
void pvmd_send_raw(
    int dst, int tag, int ctx, int wid, int enc, const void *body, size_t len);
void pvmd_send_from(int src, int dst, int tag, int ctx, int wid, int enc,
    const void *body, size_t len);
void pvmd_send_int_from(int src, int dst, int tag, int ctx, int wid, int v);

/* ---- tasker.c: a task that starts this pvmd's tasks (pvm_reg_tasker) ---- */

/* The registered tasker's tid, or 0. */
int tasker_tid(void);
/*
 * Have the tasker start task t (pending, tid allocated): SM_STTASK with
 * path, args (argv[1..]), env; t gets its PVMEPID cookie as pid.  inst,
 * ntask: its place in this pvmd's share of the spawn.  0 or a Pvm* error.
 */
int tasker_start(struct task *t, int flags, const char *path,
    const char *const *args, int nargs, const char *const *env, int nenv,
    int inst, int ntask);
/* SM_TASKX from task src (the tasker, or it is ignored). */
void tasker_on_taskx(int src, const uint8_t *body, size_t len);
/* Task tid left: if it was the tasker, later spawns fork/exec again. */
void tasker_task_left(int tid);

/* ---- hoster.c: a task that starts slave pvmds (pvm_reg_hoster) ---- */

/* The registered hoster's tid, or 0 (master only). */
int hoster_tid(void);
/* One host for the hoster to start (strings not owned). */
struct hoster_host {
	int index;
	const char *so;    /* the hostfile's so= options */
	const char *login; /* "[user@]host" */
	const char *cmd;   /* the slave's command line (pvmd -S -K ...) */
};
/* Send SM_STHOST for n hosts; the wait id, or a Pvm* error. */
int hoster_start(const struct hoster_host *v, int n);
/* SM_STHOSTACK from task src with wait id wid. */
void hoster_on_ack(int src, int wid, const uint8_t *body, size_t len);
/* Task tid left: if it was the hoster, its starts in flight fail. */
void hoster_task_left(int tid);

/* ---- sm.c: SM_* messages from a hoster or tasker to this pvmd ---- */

/* True if tag is one of include/pvmsdpro.h's SM_* tags. */
int sm_is_tag(int32_t tag);
/* One SM_* message from task t (on its own connection). */
void sm_dispatch(struct conn *c, struct task *t, const struct wire_hdr *h,
    const uint8_t *body, size_t len);

/* ---- depart.c: a task leaves the virtual machine ---- */

/* Exit notifies, mailbox and context clean-up, then remove from table. */
void depart_task(struct task *t);

/* ---- notify.c ---- */

/* Fire TaskExit notifies on tid and drop the ones tid requested. */
void notify_task_exit(int tid);
/* Host `index` left: fire HostDelete, and TaskExit for its tasks. */
void notify_host_down(int index);
/* Hosts were added: fire HostAdd with their pvmd tids. */
void notify_host_add(const int *tids, int n);
/* The pvmd `pvmdtid` wants DM_TASKEXIT when task tid leaves. */
void notify_watch_for_pvmd(int pvmdtid, int tid);
void notify_fini(void);

/* ---- spawn.c / exec.c ---- */

/*
 * Resolve a program name: '/' in it -> as is; else along $PVM_PATH, else
 * $HOME/pvm3/bin/$PVM_ARCH then $PVM_ROOT/bin/$PVM_ARCH.  0 and the path in
 * out, or PvmNoFile.
 */
int exec_resolve(const char *file, char *out, size_t outlen);
struct exec_req {
	const char *path;  /* resolved executable */
	char *const *argv; /* argv[0] = what to run (debugger or path) */
	char *const *env;  /* extra NAME=value from the request */
	int nenv;
	const char *workdir; /* NULL = $HOME */
};
/*
 * fork/exec one child with its output on a pipe.  0 with *pidp and
 * *outfd, or PvmNoFile / PvmOutOfRes.
 */
int exec_start(const struct exec_req *er, pid_t *pidp, int *outfd);

/* ---- output.c / reap.c: child processes ---- */

struct child {
	pid_t pid;
	int tid;
	int fd;               /* output pipe, -1 after EOF */
	struct event *ev;     /* read event on fd */
	struct evbuffer *buf; /* partial line */
	int outtid, outctx, outtag;
	int reaped;
	int status;             /* as wait4 gave it */
	struct timeval utime;   /* user and system time, from wait4 */
	struct timeval stime;
	int sched; /* RM owed an SM_TASKX once reaped (sched.c), 0 = none */
	int paused; /* a back-off timer refers to this record */
	/*
	 * Output held back (output_hold): messages for hold_tid wait in
	 * held until the spawner's pvmd sent the -1 start record there.
	 */
	int hold_tid;             /* 0: nothing held */
	struct output_held *held; /* FIFO of waiting messages */
	struct output_held **held_tail;
	struct event *hold_ev; /* the give-up timer */
	TAILQ_ENTRY(child) entry;
};

/* Register a forked child (owns fd).  NULL if out of memory. */
struct child *child_new(
    pid_t pid, int tid, int fd, int outtid, int outctx, int outtag);
/* The output tid output goes to: tid if positive, else 0 (the log). */
int output_dest(int tid);
/* Announce a new child to its output tid (counts -2 and -1). */
void output_begin(struct child *ch);
/* The same for a child whose output goes to the tracer: -2 only. */
void output_begin_traced(struct child *ch);
/* The same for a child spawned for a task of host `spawner`: -2 only. */
void output_begin_remote(struct child *ch, int spawner);
/* A -1 start record of task tid from this pvmd (the spawner's). */
void output_announce(int tid, int dst, int ctx, int tag, int ptid);
/* DM_OUTGO reached the child of task tid: send what waited. */
void output_release(int tid);
/* The task set its own output destination (TM_SETOUT). */
void output_redirect(struct child *ch, int tid, int ctx, int tag);
/* Start reading the child's pipe. */
int output_start(struct child *ch);
/* Master: a slave's task output for our log. */
void output_remote_log(int src, const uint8_t *body, size_t len);
/* Read what the pipe has (output.c). */
void output_read(struct child *ch);
/* Task tid left: pass on what its pipe holds now, before its notify. */
void output_task_left(int tid);
void output_retry_cb(int fd, short what, void *arg);
int reap_init(void);
/* trim.c: freed heap back to the system after traffic. */
int trim_init(void);
void trim_poll(void);
/* spawnout.c: the -1 start record of a task spawned from another host. */
/* Tell the spawner's pvmd what started (res > 0); out: tid, ctx, tag. */
void spawnout_tell(
    int spawner, int ptid, const int *out, const int *res, int count);
void spawnout_on_spawned(int src, const uint8_t *body, size_t len);
void spawnout_on_go(int src, const uint8_t *body, size_t len);

/* spawn.c: a spawn request, decoded (TM_SPAWN, or SM_EXEC in sched.c). */
struct spawn_req {
	const char *file;
	int flag;
	const char *where;
	int count;
	int nargs;
	const char **args;
	int nenv;
	const char **env;
	int outtid, outctx, outtag;
	int trctid, trcctx, trctag;
	int ctx;
	int sched;      /* the resource manager the new tasks report to */
	int out_traced; /* outtid is the tracer's (tracer_spawn_defaults) */
	int uflag;      /* the caller's own pvm_spawn flags (for a tasker) */
};
/* Start s->count tasks for spawner src into res[] (tids or errors), or
 * fill res with err if that is already an error. */
void spawn_start(
    int src, const struct spawn_req *s, int err, const char *workdir, int *res);

/* ---- sched.c: a resource manager (pvm_reg_rm) ---- */

/* An SM_* message (tag in SM_FIRST..SM_LAST) to this pvmd from src,
 * through c (a task's connection or a link). */
void sched_dispatch(struct conn *c, int src, const struct wire_hdr *h,
    const uint8_t *body, size_t len);
/* A task enrolled that no pvmd spawned: tell the resource manager. */
void sched_task_enrolled(struct task *t);
/* Child ch was reaped: the SM_TASKX its task's manager is owed, if any. */
void sched_child_reaped(struct child *ch);
/* Task t is leaving: SM_TASKX to its manager; a manager that leaves is
 * forgotten. */
void sched_task_left(const struct task *t);
/* Host index `index` left the machine: SM_HOSTX to the manager. */
void sched_host_gone(int index);
/* Master: host `index` just joined; it learns our manager (DM_SCHED). */
void sched_tell_host(int index);
/* Slave: DM_SCHED from the master named tid as our manager. */
void sched_on_dm(int tid);
/* Master: the SM_ADD of tid (ctx, wid) is done; res[i] a host's pvmd tid
 * (host part) or an error each: SM_ADDACK (addhost.c calls it); n < 0:
 * that error alone. */
void sched_addack(int tid, int ctx, int wid, int n, const int *res);

/* ---- place.c: binding the host's tasks to CPUs of their own ---- */

/* Read the pvmd's CPUs and $PVM_BIND. */
void place_init(void);
/* After a task connected or left, or the group server registered: bind
 * each task to a CPU of its own while there are 2 to ncpus of them,
 * else let them go. */
void place_update(void);
/* t is leaving: its CPU is free again. */
void place_unpin(struct task *t);

/* ---- tracer.c: the machine's tracer (pvm_reg_tracer) ---- */

/* A spawn without output/trace destinations gets the tracer's. */
void tracer_spawn_defaults(struct spawn_req *s);
/* The same for a task that enrolled without being spawned. */
void tracer_task_defaults(struct task *t);
/* Task tid left (master: any host's): a tracer that leaves ends. */
void tracer_task_left(int tid);
/* Master: a new slave gets the tracer (DM_TRACER). */
void tracer_tell_host(int index);
/* Slave: DM_TRACER from the master. */
void tracer_on_dm(const uint8_t *body, size_t len);
/* The child is reaped and drained: forget it. */
void child_maybe_free(struct child *ch);
/* The child record of task tid, or NULL. */
struct child *child_find(int tid);
/* Signal every live child but the process `spare` (0: none). */
void child_signal_all(int sig, pid_t spare);
/* Number of children not yet reaped. */
int child_live_count(void);
/* Reap synchronously (halt). */
void reap_now(void);

/* ---- pvmd.c ---- */

struct pvmd_state {
	struct event_base *base;
	struct pvm_paths paths;
	char hostname[256];
	char altname[256]; /* -n */
	char home[PATHS_MAX];
	int host;        /* host index: 1 on the master */
	int mytid;       /* tid_pvmd(host) */
	int master;      /* this pvmd is the master */
	uint8_t key[32]; /* the virtual machine's secret (auth.h) */
	int have_key;
	char master_addr[300];    /* slave: where the master listens */
	struct conn *master_link; /* slave: the link to the master */
	int host_timeout;   /* s without a byte from a link: host failed */
	long long mbox_max; /* bytes the mailbox may hold ($PVMD_MBOX_MAX) */
	struct rlimit task_nofile; /* RLIMIT_NOFILE as we got it, for tasks */
	int task_nofile_set;
	int foreground;
	int halting;
	int listen_fd;
	int lock_fd;
	int hs_timeout;       /* seconds */
	unsigned long nreads; /* reads from tasks so far (run_loop's spin) */
	int spawn_cursor;     /* TM_SPAWNCUR: a host index, 0 = none yet */
	struct task_table tasks;
	struct ctx_table ctxs;
	struct mbox mbox;
	int sched_tid;           /* this pvmd's resource manager, 0 = none */
	struct sd_tracer tracer; /* the machine's tracer (tid 0 = none) */
};
extern struct pvmd_state pvmd;

/* Orderly halt of this pvmd: end every task, remove the files, exit 0. */
void pvmd_halt(const char *why);
/* Remove our files and exit 0 (the end of every halt). */
void pvmd_exit(void) __attribute__((noreturn));
/* Tell the waiting parent we are ready (once). */
void pvmd_ready(void);
/* Start-up failed after the loop started: tell the parent, exit 1. */
void pvmd_startup_fail(const char *msg) __attribute__((noreturn));

#endif /* PVMD_H */
