/*
 * wire.h: the protocol between tasks and pvmd (and, later, between pvmds).
 *
 * Every message, user data or control, travels as one or more frames.  A
 * frame is a fixed 40-byte header followed by `len` body bytes.  All header
 * words are big-endian.
 *
 *   0               8              16              24             31
 *   +---------------------------------------------------------------+
 *   |                    magic 0x50564d34 ("PVM4")                  |  0
 *   +-------------------------------+-------------------------------+
 *   |          version              |             flags             |  4
 *   +-------------------------------+-------------------------------+
 *   |               body length, high 32 bits                       |  8
 *   |               body length, low 32 bits                        | 12
 *   +---------------------------------------------------------------+
 *   |               dst  (destination tid)                          | 16
 *   |               src  (source tid; the pvmd checks it)           | 20
 *   |               tag  (message tag; negative = system)           | 24
 *   |               ctx  (message context)                          | 28
 *   |               enc  (body encoding: 0 XDR, 1 native)           | 32
 *   |               wid  (request id of an RPC, else 0)             | 36
 *   +---------------------------------------------------------------+
 *   |               body ...                                        |
 *
 * A message is a run of frames from one source: the first has WIRE_F_SOM,
 * the last WIRE_F_EOM (a one-frame message has both).  Frames of different
 * messages from the same source never interleave; frames from different
 * sources may, so a receiver reassembles per source.  Cutting messages into
 * frames of at most WIRE_FRAME_MAX bytes lets the pvmd pipeline large
 * messages and keep its buffering bounded.
 *
 * WIRE_F_TOTAL may be set on the first frame of a message of several
 * frames: the first 8 bytes of that frame's body (counted in its `len`)
 * are then the big-endian length of the whole message body, those 8 bytes
 * not included, so that a receiver allocates the message once instead of
 * growing (and copying) it frame by frame.  Tasks set it only on messages
 * to tasks (or to their multicast address); the pvmd forwards it
 * untouched and never sets it itself.  A
 * receiver treats the announced length as a hint: it still checks every
 * frame against its limits.
 *
 * The length is 64 bits wide so that an absurd announcement (2^63) is
 * visibly absurd; the decoder refuses anything over WIRE_FRAME_MAX before
 * a byte of body is buffered.
 *
 * Any change to this file's formats bumps WIRE_VERSION.  The first frame on
 * a task connection must be TM_CONNECT; the pvmd refuses anything else.
 */
#ifndef PVM_WIRE_H
#define PVM_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define WIRE_MAGIC 0x50564d34u
#define WIRE_VERSION 6
#define WIRE_HDR_LEN 40

#define WIRE_F_SOM 0x0001 /* first frame of a message */
#define WIRE_F_EOM 0x0002 /* last frame of a message */
#define WIRE_F_ALL (WIRE_F_SOM | WIRE_F_EOM)
#define WIRE_F_TOTAL 0x0004 /* body starts with the message length */
#define WIRE_F_KNOWN (WIRE_F_ALL | WIRE_F_TOTAL)
#define WIRE_TOTAL_LEN 8    /* bytes of that length */

/* Largest body of one frame; the decoder refuses more. */
#define WIRE_FRAME_MAX (1024 * 1024)
/* Default body size of the frames a task cuts a message into. */
#define WIRE_FRAG_DEFAULT (256 * 1024)
/* SO_SNDBUF and SO_RCVBUF of every task and pvmd socket end. */
#define WIRE_SOCKBUF (4 * 1024 * 1024)
/* Largest control message (reassembled) a pvmd accepts, e.g. a mailbox put. */
#define WIRE_CTL_MAX (64 * 1024 * 1024)

/* Body encodings carried in `enc`. */
#define WIRE_ENC_XDR 0    /* PvmDataDefault: big-endian, 4-byte units */
#define WIRE_ENC_NATIVE 1 /* PvmDataRaw and PvmDataInPlace */
#define WIRE_ENC_TRACE 2  /* PvmDataTrace: XDR, a trace record */

struct wire_hdr {
	uint16_t version;
	uint16_t flags;
	uint64_t len;
	int32_t dst;
	int32_t src;
	int32_t tag;
	int32_t ctx;
	int32_t enc;
	int32_t wid;
};

/* Results of wire_hdr_decode. */
enum wire_status {
	WIRE_OK = 0,
	WIRE_SHORT = 1,     /* fewer than WIRE_HDR_LEN bytes: wait for more */
	WIRE_BADMAGIC = -1, /* not our protocol */
	WIRE_BADVERSION = -2,
	WIRE_BADFLAGS = -3, /* unknown flag bits */
	WIRE_TOOBIG = -4,   /* len > WIRE_FRAME_MAX */
};

/* Write the header into out[WIRE_HDR_LEN].  Pure. */
void wire_hdr_encode(const struct wire_hdr *h, uint8_t *out);
/* Decode and validate a header from the first n bytes at p.  Pure. */
enum wire_status wire_hdr_decode(const uint8_t *p, size_t n,
    struct wire_hdr *h);
/* A short text for a wire_status, for logs. */
const char *wire_status_str(enum wire_status st);
/* The message length of a WIRE_F_TOTAL frame, out[WIRE_TOTAL_LEN]. */
void wire_total_encode(uint64_t total, uint8_t *out);
uint64_t wire_total_decode(const uint8_t *p);

/*
 * System message tags.  Requests to the pvmd (TM_*) travel in context
 * SYSCTX_TM to the pvmd's address; the reply has the same tag and wid and
 * comes back in SYSCTX_TM.  Task-control messages (TC_*) travel in
 * SYSCTX_TC between tasks (or from the pvmd to a task).  Tags are
 * negative, as in PVM, so they can never equal a user tag.
 *
 * Bodies are XDR-style, the same bytes pvm_pkint/pvm_pkstr produce in
 * PvmDataDefault: int = 4 bytes big-endian; str = int length including the
 * NUL, then the bytes and NUL, zero-padded to a multiple of 4.  "int[n]"
 * is n ints.  "bytes" is the rest of the body, raw.
 *
 * TM_CONNECT   req: int version, int pid, int epid (PVMEPID, or 0),
 *                   str name
 *              rep: int status (0 or a Pvm* error), int tid, int ptid,
 *                   int outtid, int outctx, int outtag,
 *                   int trctid, int trcctx, int trctag,
 *                   int ctx (context inherited from the spawner),
 *                   int fragsize, int dsig, int pvmdtid,
 *                   str hostname, str arch, str sockdir,
 *                   int schedtid (this pvmd's resource manager, 0 =
 *                   none), str tmask, int trcbuf, int trcopt (the
 *                   tracer's, for a task that got its trace destination
 *                   from the tracer; "" and 0 else)
 * TM_EXIT      req: -                       rep: int 0
 * TM_CONFIG    req: -
 *              rep: int nhost, int narch, nhost x {int tid, str name,
 *                   str arch, int speed, int dsig}, int cursor (the
 *                   host index where this pvmd's next spread of
 *                   pvm_spawn starts, 0 = the host after this one)
 * TM_TASKS     req: int where (0 all, pvmd tid, or task tid)
 *              rep: int n (or error), n x {int tid, int ptid, int pvmdtid,
 *                   int flag, str a_out, int pid}
 * TM_SPAWN     req: str file, int flag, str where, int count,
 *                   int nargs, nargs x str,
 *                   int nenv, nenv x str ("NAME=value"),
 *                   int outtid, int outctx, int outtag,
 *                   int trctid, int trcctx, int trctag, int ctx,
 *                   [int uflag: the flags the program gave pvm_spawn,
 *                   before the library placed the tasks; a tasker is
 *                   told these, as PVM 3.4.6's is]
 *              rep: int n (started, or error), int count,
 *                   count x int (tids first, then error codes)
 * TM_SENDSIG   req: int tid, int signum     rep: int status
 * TM_MSTAT     req: str host                rep: int status
 * TM_PSTAT     req: int tid                 rep: int status
 * TM_NOTIFY    req: int what (| PvmNotifyCancel), int tag, int ctx,
 *                   int cnt, int ntids, ntids x int
 *              rep: int status
 *              The event messages go to the requester with its tag and
 *              ctx, src = the pvmd, XDR body: TaskExit int tid;
 *              HostDelete int pvmdtid; HostAdd int n, n x int pvmdtid.
 * TM_HALT      req: -                       rep: int 0, then the pvmd
 *              ends every task and exits
 * TM_MB_PUT    req: str name, int index, int flags, int enc, bytes msg
 *              rep: int index (or error)
 * TM_MB_GET    req: str name, int index, int flags
 *              rep: int index (or error), int enc, int src (the task
 *                   that put it), bytes msg
 *              (PvmMboxWaitForInfo: the reply waits for the entry)
 * TM_MB_DEL    req: str name, int index, int flags   rep: int status
 * TM_MB_LIST   req: str pattern
 *              rep: int n, n x {str name, int nent,
 *                   nent x {int index, int owner, int flags}}
 * TM_CTX_NEW   req: -                       rep: int ctx (or error)
 * TM_CTX_FREE  req: int ctx                 rep: int status
 * TM_MCAST     req: int n, n x int tid; no reply.  The next message the
 *              task sends to (TID_MCAST_BIT | its tid) goes to each of
 *              these tids.
 * TM_SETOUT    req: int outtid, int outctx, int outtag; no reply.  Where
 *              the pvmd sends this task's own stdout/stderr.
 * TM_RESET     req: -                       rep: int status
 *              Kill every task but the caller and PvmNoReset tasks,
 *              and empty the mailbox except the entries of those tasks.
 * TM_HOSTSYNC  req: -                       rep: int sec, int usec
 * TM_ADDHOST   req: int n, n x str line (a hostfile line: "name opt=v..")
 *              rep: int nok (or error), int n, n x int (the new host's
 *                   pvmd tid, host part only as in hi_tid, or an error:
 *                   PvmDupHost, PvmCantStart, PvmNoHost, PvmBadParam)
 *                   then n x str (why a host failed: the launcher's
 *                   own words; "" for a host that was added)
 *              Only the master pvmd (host TID_MASTER_HOST) adds hosts;
 *              libpvm sends it to tid_pvmd(TID_MASTER_HOST).  The reply
 *              comes once every host is up or has failed.
 * TM_DELHOST   req: int n, n x str name
 *              rep: int nok (or error), int n, n x int (0 or PvmNoHost,
 *                   PvmBadParam for the master itself)
 *              To the master, like TM_ADDHOST.
 * TM_SPAWNCUR  req: int cursor (a host index)    rep: int 0
 *              The cursor TM_CONFIG returns, after a spread: PVM 3.4.6
 *              keeps one per pvmd, shared by the tasks of the host.
 * TM_TICKLE    req: int narg (1..WIRE_TICKLE_MAX), narg x int (how, then
 *                   its arguments)
 *              rep: int status, int nres (0..WIRE_TICKLE_MAX), nres x int
 *              PVM's pvmd debugging requests (pvm_tickle; daemon/tickle.c
 *              lists them).  An unknown `how` has no results.
 * TM_SCHED     req: -
 *              rep: int old (the RM before, 0 = none, or an error),
 *                   int tid, str name, str arch, int speed, int dsig
 *                   (the master host) (common/sdpro.h)
 *              The caller becomes this pvmd's resource manager.
 * TM_TRACER    req: int regme, then if regme: int trcctx, int trctag,
 *                   int outctx, int outtag, str tmask, int trcbuf,
 *                   int trcopt
 *              rep: int status (0, PvmAlready, PvmNoTask)
 *              To the master, which keeps the machine's one tracer and
 *              tells every pvmd (DM_TRACER).
 * TM_HOSTER    req: int regme (1: register, 0: unregister)
 *              rep: int status (0, PvmAlready: another task is the
 *                   hoster, PvmNoTask: unregistering what the caller
 *                   does not hold, PvmHostrNMstr: not the master)
 *              pvm_reg_hoster (daemon/hoster.c): the master then sends
 *              SM_STHOST (include/pvmsdpro.h) to this task instead of
 *              running the launcher.
 * TM_TASKER    req: int regme           rep: int status (as TM_HOSTER,
 *                   on any pvmd)
 *              pvm_reg_tasker (daemon/tasker.c): this pvmd then sends
 *              SM_STTASK to this task instead of fork/exec.
 * TM_RINGS     req: - (one frame, with a ring segment's memfd passed
 *                   along, SCM_RIGHTS: common/ringend.h, the task as
 *                   its opener)
 *              rep: int 1 (mapped) or 0 (not: the socket stays)
 *              After a 1, every frame of either side that follows goes
 *              through the rings, and the socket carries only wake-up
 *              bytes and the hangup: the pvmd switches its input when it
 *              reads the request and its output after the reply, the
 *              task both when it reads the reply (it sends nothing in
 *              between).
 *
 * Requests about another host go to that host's pvmd, dst =
 * tid_pvmd(host), through the daemons: TM_TASKS, TM_SPAWN, TM_SENDSIG,
 * TM_PSTAT, TM_HOSTSYNC; the mailbox (TM_MB_*) lives on the master, so
 * TM_MB_* go to tid_pvmd(TID_MASTER_HOST).  TM_CONFIG, TM_MSTAT,
 * TM_NOTIFY (the local pvmd relays TaskExit interest to the task's host),
 * TM_CTX_*, TM_MCAST, TM_SETOUT, TM_EXIT, TM_RESET, TM_TICKLE and TM_HALT
 * go to the local pvmd.  A request for a host that is not in the machine,
 * or whose host fails before it answers, is answered by the requester's
 * own pvmd with the single int PvmNoHost or PvmHostFail.
 *
 * TC_OUTPUT    body: int tid, int count, count bytes.  count > 0: output
 *              text (what one read of the pipe gave; whole lines only
 *              to a master's log); 0: the task's output ended (EOF);
 *              -2 then -1: the task was started (BEGIN), -1 then -2: the
 *              task made us its output destination; a negative count is
 *              followed by one int, the task's parent.  From the task's
 *              pvmd (TIDPVMD to a task of its host), except the -1 of a
 *              start when the spawner lives on another host: that one
 *              comes from the spawner's pvmd, as in PVM 3.4.6
 *              (DM_SPAWNED).  The same body goes to a
 *              user PvmOutputTid with that task's outctx/outtag.  The
 *              bytes are zero-padded to a multiple of 4, exactly as
 *              pvm_pkbyte packs them in XDR, so that a receiver (the
 *              console, any PVM 3.4 program) reads them with
 *              pvm_upkint(&tid), pvm_upkint(&count),
 *              pvm_upkbyte(buf, count, 1).
 * TC_SIBLINGS  body: int n, n x int tid (parent -> each spawned child)
 * TC_ROUTE     body: int marker (> 0).  Opens a direct route from task A
 *              to task B (libpvm/route.c): A connects to B's socket and
 *              writes a TC_ROUTE frame (the hello) on it, then sends
 *              TC_ROUTE with marker 0 (the knock: accept now) through the
 *              pvmd; B writes the hello back (the ack) or closes the
 *              connection to refuse; after the ack A sends TC_ROUTE with
 *              that marker through the pvmd, and B reads the route only
 *              once that message arrived.  B starts sending over A's
 *              route by sending TC_ROUTE with the negated marker through
 *              the pvmd first.  The pvmd forwards TC_ROUTE like any
 *              task-to-task message.
 * TC_BULK      An offer of a large message between two tasks on one host
 *              (libpvm/bulk.c): the receiver copies the body straight
 *              out of the sender's memory (process_vm_readv) and answers
 *              TC_BULKACK; the sender waits for that answer, so its memory
 *              stays valid.  Body: struct wire_bulk, encoded below.
 * TC_BULKACK   body: u64 cookie, int status (0: copied and delivered;
 *              < 0: not copied, the sender sends the message normally).
 * TC_ROUTEREQ  body: int marker (> 0).  Task A asks task B of another
 *              host, through the pvmds, for a direct route over TCP
 *              (libpvm/route_tcp.c); A keeps sending through the pvmds.
 * TC_ROUTEADDR body: int marker (A's), str host, int port, 16 bytes
 *              cookie (struct wire_routeaddr).  B's answer, through the
 *              pvmds: port 0 refuses (PvmDontRoute, or no listener; host
 *              and cookie then mean nothing).  Otherwise A connects to
 *              host:port and the TC_ROUTE exchange above follows, except
 *              that A's hello carries int marker then the 16-byte cookie
 *              (WIRE_ROUTEHELLO_LEN): B takes the route only from the
 *              task it gave that cookie to, for that marker, once, within
 *              its lifetime.  The cookie travels only through the
 *              pvmds' authenticated links.
 *
 * Between pvmds (daemon/link.c, daemon/vm.c, daemon/mesh.c), in
 * SYSCTX_TM, src and dst pvmd tids.  A link is a TCP connection from a
 * slave to the master, or from a slave to a slave that joined before it
 * (the master forwards between slaves that have none).  Nothing but the
 * three handshake frames passes before both sides proved they hold the
 * virtual machine's secret (daemon/auth.h has their bodies):
 * DM_HELLO     dialer -> acceptor: struct auth_hello
 * DM_CHALLENGE acceptor -> dialer: struct auth_challenge
 * DM_PROOF     dialer -> acceptor: struct auth_proof
 * DM_SEAL      master -> a slave a hoster started, right after its
 *              proof with its one-time key K: the machine's secret,
 *              sealed under a key derived from K and both nonces
 *              (auth_seal, AUTH_SEAL_LEN bytes)
 * DM_SLAVE     slave -> master, first after the proof: str arch,
 *              int speed, int dsig, int port (where it listens, 0: none)
 * DM_WELCOME   master -> the new slave: the host table as DM_HOSTADD's
 * DM_HOSTADD   master -> slaves: int n, n x {int index, str name,
 *              str arch, int speed, int dsig, str addr, int port}
 * DM_HOSTDEL   master -> slaves: int index (that host left or failed)
 * DM_HALT      slave -> master: halt the machine (a task asked);
 *              master -> slave: end your tasks, then send DM_HALTED
 * DM_HALTED    slave -> master: my tasks are gone
 * DM_EXIT      master -> slave: exit now
 * DM_PING      either way, no body: keeps an idle link's timer fed
 * DM_NOTIFY    pvmd -> the pvmd of a task's host: int tid; answer
 *              DM_TASKEXIT when that task is gone (at once if it is)
 * DM_TASKEXIT  int tid: that task left.  Also sent to the master for
 *              every task that leaves (its mailbox entries go).
 * DM_MESHMARK  slave -> slave through the master, no body: frames from
 *              me now come on our direct link (daemon/mesh.c)
 * DM_HOSTFAIL  slave -> master: int index; my direct link to that host
 *              broke after I sent on it
 * DM_SPAWNED   the pvmd that started tasks for a task of another host ->
 *              that task's pvmd, before the TM_SPAWN reply: int ptid (the
 *              parent the tasks were given), int outtid, int outctx,
 *              int outtag, int n, n x int tid.  Sent when outtid is set;
 *              the receiver sends each tid's -1 start record (TC_OUTPUT)
 *              to outtid.  If outtid lives on neither of the two hosts,
 *              the starting pvmd holds every output message for outtid
 *              back until DM_OUTGO, so the -1 comes first there too.
 * DM_TRACER    master -> slaves: the tracer (sdpro.h's struct sd_tracer:
 *              int tid (0 = none), int trcctx, int trctag, int outctx,
 *              int outtag, str tmask, int trcbuf, int trcopt)
 * DM_SCHED     master -> a slave that just joined: int tid, the master's
 *              resource manager (sent only if there is one), which the
 *              slave takes as its own, as PVM 3.4.6's DM_SLCONF does
 * DM_OUTGO     int n, n x int tid (tasks of one host): their -1 start
 *              records went out.  From the spawner's pvmd to outtid's,
 *              behind the records (to the tasks' pvmd if outtid's host
 *              is not in the machine); outtid's pvmd passes it on to the
 *              tasks' pvmd, or is that pvmd, which then sends what it
 *              held back.  It gives up waiting after 10 s.
 */
#define WIRE_DM_BASE 0x80060000u
#define WIRE_DM_LIST(X)                                                       \
	X(DM_HELLO, 1, "hello")                                               \
	X(DM_CHALLENGE, 2, "challenge")                                       \
	X(DM_PROOF, 3, "proof")                                               \
	X(DM_SLAVE, 4, "slave")                                               \
	X(DM_WELCOME, 5, "welcome")                                           \
	X(DM_HOSTADD, 6, "hostadd")                                           \
	X(DM_HOSTDEL, 7, "hostdel")                                           \
	X(DM_HALT, 8, "dm-halt")                                              \
	X(DM_HALTED, 9, "halted")                                             \
	X(DM_EXIT, 10, "dm-exit")                                             \
	X(DM_PING, 11, "ping")                                                \
	X(DM_NOTIFY, 12, "dm-notify")                                         \
	X(DM_TASKEXIT, 13, "taskexit")                                        \
	X(DM_MESHMARK, 14, "meshmark")                                        \
	X(DM_HOSTFAIL, 15, "hostfail")                                        \
	X(DM_SPAWNED, 16, "spawned")                                          \
	X(DM_OUTGO, 17, "outgo")                                              \
	X(DM_TRACER, 18, "dm-tracer")                                        \
	X(DM_SEAL, 19, "seal")                                               \
	X(DM_SCHED, 20, "dm-sched")

#define WIRE_TM_BASE 0x80010000u
#define WIRE_TC_BASE 0x80030000u

/* Most ints in a TM_TICKLE request or reply (PVM 3.4.6's pvm_tickle). */
#define WIRE_TICKLE_MAX 10

#define WIRE_TM_LIST(X)                                                       \
	X(TM_CONNECT, 1, "connect")                                           \
	X(TM_EXIT, 2, "exit")                                                 \
	X(TM_CONFIG, 3, "config")                                             \
	X(TM_TASKS, 4, "tasks")                                               \
	X(TM_SPAWN, 5, "spawn")                                               \
	X(TM_SENDSIG, 6, "sendsig")                                           \
	X(TM_MSTAT, 7, "mstat")                                               \
	X(TM_PSTAT, 8, "pstat")                                               \
	X(TM_NOTIFY, 9, "notify")                                             \
	X(TM_HALT, 10, "halt")                                                \
	X(TM_MB_PUT, 11, "mbox-put")                                          \
	X(TM_MB_GET, 12, "mbox-get")                                          \
	X(TM_MB_DEL, 13, "mbox-del")                                          \
	X(TM_MB_LIST, 14, "mbox-list")                                        \
	X(TM_CTX_NEW, 15, "ctx-new")                                          \
	X(TM_CTX_FREE, 16, "ctx-free")                                        \
	X(TM_MCAST, 17, "mcast")                                              \
	X(TM_SETOUT, 18, "setout")                                            \
	X(TM_RESET, 19, "reset")                                              \
	X(TM_HOSTSYNC, 20, "hostsync")                                       \
	X(TM_ADDHOST, 21, "addhost")                                         \
	X(TM_DELHOST, 22, "delhost")                                         \
	X(TM_SPAWNCUR, 23, "spawn-cursor")                                   \
	X(TM_TICKLE, 24, "tickle")                                           \
	X(TM_SCHED, 25, "sched")                                             \
	X(TM_TRACER, 26, "tracer")                                           \
	X(TM_HOSTER, 27, "hoster")                                           \
	X(TM_TASKER, 28, "tasker")                                           \
	X(TM_RINGS, 29, "rings")

#define WIRE_TC_LIST(X)                                                       \
	X(TC_BULKACK, 1, "bulk-ack")                                          \
	X(TC_SIBLINGS, 2, "siblings")                                         \
	X(TC_ROUTE, 3, "route")                                               \
	X(TC_BULK, 4, "bulk")                                                 \
	X(TC_OUTPUT, 5, "output")                                             \
	X(TC_ROUTEREQ, 6, "route-req")                                        \
	X(TC_ROUTEADDR, 7, "route-addr")

/* The lists number their tags 1..n without gaps; n is counted here. */
#define WIRE_COUNT_ONE(name, num, text) +1
enum {
	WIRE_TM_COUNT = 0 WIRE_TM_LIST(WIRE_COUNT_ONE),
	WIRE_DM_COUNT = 0 WIRE_DM_LIST(WIRE_COUNT_ONE)
};
#undef WIRE_COUNT_ONE

#define WIRE_ENUM_TM(name, num, text) name = (int32_t)(WIRE_TM_BASE | (num)),
#define WIRE_ENUM_TC(name, num, text) name = (int32_t)(WIRE_TC_BASE | (num)),
enum wire_tm { WIRE_TM_LIST(WIRE_ENUM_TM) };
enum wire_tc { WIRE_TC_LIST(WIRE_ENUM_TC) };
#define WIRE_ENUM_DM(name, num, text) name = (int32_t)(WIRE_DM_BASE | (num)),
enum wire_dm { WIRE_DM_LIST(WIRE_ENUM_DM) };
#undef WIRE_ENUM_DM
#undef WIRE_ENUM_TM
#undef WIRE_ENUM_TC

/*
 * A bulk offer (TC_BULK).  On the wire, big-endian: int tag, ctx, enc,
 * wid (the offered message's own header fields), u32 pid, u64 cookie,
 * u64 ticket, u64 total, u32 nseg, then nseg x (u64 addr, u64 len): the
 * body's pieces in the sender's address space.  The ticket is the address
 * of 8 bytes in the sender holding the cookie, so the receiver can tell
 * that pid is the process that made the offer.
 */
#define WIRE_BULK_FIXED 48
#define WIRE_BULK_SEGLEN 16
#define WIRE_BULK_MAXSEG 65536
#define WIRE_BULKACK_LEN 12
struct wire_bulk {
	int32_t tag, ctx, enc, wid;
	uint32_t pid;
	uint64_t cookie;
	uint64_t ticket;
	uint64_t total;
	uint32_t nseg;
	const uint8_t *segs; /* decode: nseg encoded pieces (wire_bulk_seg) */
};
/* Encoded size of an offer of nseg pieces. */
size_t wire_bulk_len(uint32_t nseg);
/* Encode b's fixed part and n pieces (addr[i], len[i]) into out. */
void wire_bulk_encode(const struct wire_bulk *b, const uint64_t *addr,
    const uint64_t *len, uint8_t *out);
/*
 * Decode and check an offer (pure): the length matches nseg, nseg <=
 * WIRE_BULK_MAXSEG, the pieces add up to total without overflow, total
 * <= max.  0, or -1 for a malformed offer.
 */
int wire_bulk_decode(const uint8_t *p, size_t n, uint64_t max,
    struct wire_bulk *b);
/* Piece i of a decoded offer. */
void wire_bulk_seg(const struct wire_bulk *b, uint32_t i, uint64_t *addr,
    uint64_t *len);
void wire_bulkack_encode(uint64_t cookie, int32_t status, uint8_t *out);
/* 0, or -1 if n is not WIRE_BULKACK_LEN. */
int wire_bulkack_decode(const uint8_t *p, size_t n, uint64_t *cookie,
    int32_t *status);

/*
 * Direct routes between hosts (TC_ROUTEREQ, TC_ROUTEADDR, the TCP hello).
 * The host name is at most WIRE_ROUTE_HOSTMAX bytes, its NUL not counted.
 */
#define WIRE_ROUTE_COOKIE 16
#define WIRE_ROUTE_HOSTMAX 255
#define WIRE_ROUTEREQ_LEN 4
#define WIRE_ROUTEHELLO_LEN (4 + WIRE_ROUTE_COOKIE)
/* Longest TC_ROUTEADDR body: marker, str (length, bytes, NUL, padding),
 * port, cookie. */
#define WIRE_ROUTEADDR_MAX                                                    \
	(4 + 4 + ((WIRE_ROUTE_HOSTMAX + 4) & ~3) + 4 + WIRE_ROUTE_COOKIE)
struct wire_routeaddr {
	int32_t marker;
	char host[WIRE_ROUTE_HOSTMAX + 1];
	int32_t port; /* 1..65535, or 0: refused */
	uint8_t cookie[WIRE_ROUTE_COOKIE];
};
void wire_routereq_encode(int32_t marker, uint8_t *out);
/* 0 with *marker > 0, or -1 (not exactly 4 bytes, marker <= 0).  Pure. */
int wire_routereq_decode(const uint8_t *p, size_t n, int32_t *marker);
/* Encode a into out[WIRE_ROUTEADDR_MAX]: its length, or 0 if a's host
 * is too long or a's fields are out of range. */
size_t wire_routeaddr_encode(const struct wire_routeaddr *a, uint8_t *out);
/*
 * Decode a TC_ROUTEADDR body (pure): the length is exact, marker > 0,
 * the host is 0..WIRE_ROUTE_HOSTMAX bytes without NUL and padded with
 * zeros, port 0..65535, and a port > 0 comes with a host.  0, or -1.
 */
int wire_routeaddr_decode(const uint8_t *p, size_t n,
    struct wire_routeaddr *a);
void wire_routehello_encode(int32_t marker, const uint8_t *cookie,
    uint8_t *out);
/* 0 with *marker > 0 and the cookie, or -1 (wrong length, marker <= 0). */
int wire_routehello_decode(const uint8_t *p, size_t n, int32_t *marker,
    uint8_t *cookie);

/* Index 1..WIRE_TM_COUNT of a TM tag, or 0 if `tag` is not one. */
int wire_tm_index(int32_t tag);
/* Index 1..WIRE_DM_COUNT of a DM tag, or 0 if `tag` is not one. */
int wire_dm_index(int32_t tag);
/* Name of a system tag for logs ("spawn", "output", ...), or NULL. */
const char *wire_tag_name(int32_t tag);

#endif /* PVM_WIRE_H */
