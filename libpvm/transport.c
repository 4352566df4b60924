/*
 * transport.c: the task's connection to its pvmd: enrolment (TM_CONNECT),
 * the connection list, disconnection, pvm_mytid and pvm_exit.
 *
 * The pvmd is found through $PVMSOCK (set for tasks it spawns) or the
 * socket in the per-user directory (paths.h).  No daemon is ever started
 * here: without one, enrolment fails with PvmSysErr, as in PVM.
 */
#define _GNU_SOURCE /* struct ucred, accept4, SOCK_* flags */
#include "pvm3.h"
#include "be.h"
#include "conn.h"
#include "fdpass.h"
#include "pvmtev.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct lpvm_state lpvm = {
    .fd = -1,
    .route = PvmAllowDirect,
    .autoerr = 1,
    .showtids = 1,
    .fragsize = WIRE_FRAG_DEFAULT,
    .noresetix = -1,
    .listenfd = -1,
};

struct lpvm_conn *lpvm_conns;
struct lpvm_conn *lpvm_pvmd;
unsigned lpvm_conn_gen;
unsigned lpvm_owed;

struct lpvm_conn *
lpvm_conn_new(int fd, int peer, enum lpvm_conn_state st)
{
	struct lpvm_conn *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->fd = fd;
	c->peer = peer;
	c->state = st;
	c->next = lpvm_conns;
	lpvm_conns = c;
	lpvm_conn_gen++;
	return c;
}

/* Free the partial messages of c. */
static void
conn_free_input(struct lpvm_conn *c)
{
	struct lpvm_asm *a, *next;

	for (a = c->asms; a != NULL; a = next) {
		next = a->next;
		free(a->data);
		free(a);
	}
	c->asms = NULL;
	c->cur = NULL;
	c->inframe = 0;
	free(c->ibuf);
	c->ibuf = NULL;
	c->ibeg = c->iend = 0;
}

void
lpvm_conn_close(struct lpvm_conn *c, enum lpvm_conn_state st)
{
	if (c != lpvm_pvmd && c->fd >= 0)
		lpvm_route_trace("t%x: closed (state %d%s%s)",
		    (unsigned)c->peer, (int)c->state, c->eof ? ", hung up" : "",
		    st == CONN_REFUSED ? ", refused" : "");
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	conn_free_input(c);
	free(c->addr);
	c->addr = NULL;
	ring_end_free(c->shm);
	ring_end_free(c->shm_offer);
	c->shm = c->shm_offer = NULL;
	c->eof = 0;
	c->state = st;
	c->pending = 0;
	lpvm_conn_gen++;
	if (st == CONN_DEAD)
		lpvm_owed |= LPVM_OWED_REAP;
	if (c == lpvm_pvmd) {
		lpvm_pvmd = NULL;
		lpvm.fd = -1;
	}
}

void
lpvm_conn_reap_owed(void)
{
	struct lpvm_conn **pp, *c;

	lpvm_owed &= ~LPVM_OWED_REAP;

	for (pp = &lpvm_conns; (c = *pp) != NULL;) {
		if (c->state == CONN_DEAD) {
			*pp = c->next;
			free(c->addr);
			free(c);
			lpvm_conn_gen++;
		} else
			pp = &c->next;
	}
}

void
lpvm_fd_bufs(int fd)
{
	int sz = WIRE_SOCKBUF;

	/* Bigger buffers mean fewer wakeups for bulk data; not fatal. */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof(sz));
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
}

int
lpvm_fd_setup(int fd, int nonblock)
{
	int fl;

	if ((fl = fcntl(fd, F_GETFL)) == -1)
		return -1;
	fl = nonblock ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	if (fcntl(fd, F_SETFL, fl) == -1 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) == -1)
		return -1;
	lpvm_fd_bufs(fd);
	return 0;
}

/* The credentials of Unix socket fd's peer.  0 or -1. */
static int
peer_cred(int fd, struct ucred *uc)
{
	socklen_t len = sizeof(*uc);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, uc, &len);
}

int
lpvm_peer_uid_ok(int fd)
{
	struct ucred uc;

	return peer_cred(fd, &uc) == 0 && uc.uid == getuid();
}

pid_t
lpvm_peer_pid(int fd)
{
	struct ucred uc;

	return peer_cred(fd, &uc) == 0 && uc.pid > 0 ? uc.pid : -1;
}

int
lpvm_fd_frame_send(struct lpvm_conn *c, const struct wire_hdr *h,
    const void *body, size_t len, int fd)
{
	uint8_t frame[WIRE_HDR_LEN + LPVM_FD_FRAME_MAX];
	struct wire_hdr fh = *h;
	struct iovec iov;

	if (len > LPVM_FD_FRAME_MAX)
		return -1;
	fh.flags = WIRE_F_ALL; /* one frame */
	fh.len = (uint32_t)len;
	wire_hdr_encode(&fh, frame);
	if (len > 0)
		memcpy(frame + WIRE_HDR_LEN, body, len);
	iov.iov_base = frame;
	iov.iov_len = WIRE_HDR_LEN + len;
	return fdpass_send(c->fd, &iov, 1, MSG_DONTWAIT, fd) ==
	               (ssize_t)iov.iov_len
	           ? 0
	           : -1;
}

/* Sleep for ms milliseconds (EINTR restarts the remainder). */
static void
transport_sleep(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * Connect to the pvmd's socket at path.  A socket file that exists but
 * refuses may belong to a pvmd that is just starting: retry a few times.
 * Returns the fd or -1.
 */
static int
transport_connect(const char *path)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd, try;

	if (strlen(path) >= sizeof(sun.sun_path))
		return -1;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, path);
	for (try = 0; try < 5; try++) {
		if (stat(path, &st) == -1 || !S_ISSOCK(st.st_mode))
			return -1;
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd == -1)
			return -1;
		if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0)
			return fd;
		close(fd);
		if (errno != ECONNREFUSED && errno != EAGAIN && errno != EINTR)
			return -1;
		transport_sleep(100);
	}
	return -1;
}

/* The name we tell the pvmd (for pvm_tasks / the console's ps). */
static const char *
transport_progname(void)
{
	extern char *program_invocation_short_name;

	return program_invocation_short_name != NULL
	           ? program_invocation_short_name
	           : "";
}

/* Decode the TM_CONNECT reply into lpvm.  0 or a Pvm* error. */
static int
transport_connect_reply(const uint8_t *rep, size_t len)
{
	struct xdr_reader r;
	int32_t v[13];
	const char *host, *arch, *dir, *tmask;
	int32_t sched = 0, tbuf = 0, topt = 0;
	size_t i;

	xdr_reader_init(&r, rep, len);
	for (i = 0; i < 13; i++)
		xdr_get_int(&r, &v[i]);
	host = xdr_get_str(&r);
	arch = xdr_get_str(&r);
	dir = xdr_get_str(&r);
	xdr_get_int(&r, &sched);
	tmask = xdr_get_str(&r);
	xdr_get_int(&r, &tbuf);
	xdr_get_int(&r, &topt);
	if (r.failed || tmask == NULL || strlen(tmask) >= TEV_MASK_LENGTH)
		return PvmSysErr;
	if (v[0] != 0)
		return v[0] < 0 ? v[0] : PvmSysErr;
	if (v[1] <= 0)
		return PvmSysErr;
	lpvm.mytid = v[1];
	lpvm.ptid = v[2];
	lpvm.outtid = lpvm.selfouttid = v[3];
	lpvm.outctx = lpvm.selfoutctx = v[4];
	lpvm.outtag = lpvm.selfouttag = v[5];
	lpvm.trctid = lpvm.selftrctid = v[6];
	lpvm.trcctx = lpvm.selftrcctx = v[7];
	lpvm.trctag = lpvm.selftrctag = v[8];
	lpvm.ctx = v[9];
	if (!lpvm.fragset && v[10] > 0)
		lpvm.fragsize = v[10] > WIRE_FRAME_MAX ? WIRE_FRAME_MAX : v[10];
	lpvm.dsig = v[11];
	lpvm.pvmdtid = v[12];
	snprintf(lpvm.hostname, sizeof(lpvm.hostname), "%s", host);
	snprintf(lpvm.arch, sizeof(lpvm.arch), "%s", arch);
	snprintf(lpvm.paths.dir, sizeof(lpvm.paths.dir), "%s", dir);
	/* A resource manager's tid is a task's, or nothing. */
	lpvm.schedtid = tid_is_task(sched) ? sched : 0;
	if (*tmask != '\0') {
		/* The tracer's settings (we make no trace records). */
		(void)pvm_settmask(PvmTaskSelf, (char *)tmask);
		lpvm.trcbuf = tbuf;
		lpvm.trcopt = topt;
	}
	return 0;
}

/* Send TM_CONNECT on the fresh pvmd connection and read the reply. */
static int
transport_handshake(void)
{
	struct xdr_writer w;
	const char *epid;
	uint8_t *rep = NULL;
	size_t replen = 0;
	int rc;

	epid = getenv("PVMEPID");
	xdr_writer_init(&w);
	xdr_put_int(&w, WIRE_VERSION);
	xdr_put_int(&w, (int32_t)getpid());
	xdr_put_int(&w, epid != NULL ? atoi(epid) : 0);
	xdr_put_str(&w, transport_progname());
	if (w.failed) {
		xdr_writer_free(&w);
		return PvmNoMem;
	}
	rc = lpvm_rpc(TID_LOCAL_PVMD, TM_CONNECT, &w, &rep, &replen);
	xdr_writer_free(&w);
	if (rc == 0)
		rc = transport_connect_reply(rep, replen);
	free(rep);
	return rc;
}

/*
 * PVM 3.4.6's enrolment of a task no pvmd started (no trace settings in
 * its environment) looks for a tracer in the mailbox, finds none and
 * leaves pvm_errno PvmNotFound; a program may print it.  Ours has no
 * tracer to look for, only the same pvm_errno to leave.
 */
static void
transport_enrol_errno(void)
{
	static int by_pvmd = -1;

	if (by_pvmd < 0)
		by_pvmd = getenv("PVMEPID") != NULL;
	if (!by_pvmd)
		lpvm_err_quiet(PvmNotFound);
}

/*
 * Move the connection to the pvmd onto rings (TM_RINGS, wire.h) unless
 * they are off.  If the pvmd does not take them, the socket stays: that
 * is not an error.  From the reply on, whatever the socket brings is
 * wake-ups (the pvmd wrote its last frame there before the reply).
 */
static void
transport_rings(void)
{
	struct ring_end *e;
	uint8_t *rep = NULL;
	size_t replen = 0;
	int fd, rc;

	if ((e = lpvm_shm_create_pvmd(&fd)) == NULL)
		return;
	rc = lpvm_rpc_fd(TM_RINGS, fd, &rep, &replen);
	close(fd);
	if (rc == 0 && replen == 4 && get32(rep) == 1 && lpvm_pvmd != NULL) {
		lpvm_pvmd->shm = e;
		lpvm_conn_gen++;
		e = NULL;
	}
	free(rep);
	ring_end_free(e);
}

/* Connect to the pvmd and enrol.  Kept out of line: lpvm_enrol runs at
 * the start of every call, and this frame's set-up cost it 30
 * instructions each time (callgrind). */
static int __attribute__((noinline))
transport_enrol(void)
{
	struct pvm_paths p;
	const char *sock;
	int fd, rc;

	if (paths_from_env(&p) != 0)
		return PvmSysErr;
	sock = getenv("PVMSOCK");
	if (sock == NULL || *sock == '\0')
		sock = p.sock;
	if ((fd = transport_connect(sock)) == -1)
		return PvmSysErr;
	/* Blocking mode: rx.c may wait in a read on it (every other call
	 * on it passes MSG_DONTWAIT). */
	if (!lpvm_peer_uid_ok(fd) || lpvm_fd_setup(fd, 0) == -1 ||
	    (lpvm_pvmd = lpvm_conn_new(fd, 0, CONN_PVMD)) == NULL) {
		close(fd);
		return PvmSysErr;
	}
	lpvm.fd = fd;
	lpvm.paths = p;
	lpvm.mytid = 0;
	if ((rc = transport_handshake()) != 0) {
		lpvm_disconnect();
		return rc;
	}
	transport_rings();
	transport_enrol_errno();
	/* Our PVMEPID slot is taken; children we start get their own. */
	unsetenv("PVMEPID");
	/* Bulk offers and route requests that came with the answer are
	 * owed one now. */
	lpvm_bulk_flush();
	lpvm_route_flush();
	/* Without a listener, peers simply route through the pvmd. */
	(void)lpvm_route_listen();
	return 0;
}

int
lpvm_enrol(void)
{
	if (lpvm.mytid > 0 && lpvm_pvmd != NULL)
		return 0;
	return transport_enrol();
}

void
lpvm_disconnect(void)
{
	lpvm_rx_trace_counts();
	lpvm_route_closeall();
	if (lpvm_pvmd != NULL)
		lpvm_conn_close(lpvm_pvmd, CONN_DEAD);
	if (lpvm_tx_depth == 0)
		lpvm_conn_reap();
	lpvm_rpc_reset();
	lpvm_mhf_reset();
	lpvm_queue_clear();
	lpvm.mytid = 0;
	lpvm.ptid = 0;
	lpvm.fd = -1;
	lpvm.noresetix = -1;
}

/* Enrol if needed and return our tid. */
int
pvm_mytid(void)
{
	int rc;

	if ((rc = lpvm_enrol()) < 0)
		return lpvm_err("pvm_mytid", rc);
	return lpvm.mytid;
}

/*
 * Leave the virtual machine.  Wait for children whose output we catch,
 * tell the pvmd, drop queued messages and routes.  Message buffers the
 * program still holds stay valid (their ids too); any later PVM call
 * enrols again under a new tid.
 */
int
pvm_exit(void)
{
	uint8_t *rep = NULL;
	size_t replen;

	if (lpvm.mytid <= 0 || lpvm_pvmd == NULL)
		return 0;
	lpvm_catchout_drain();
	/* Lent large messages must be taken before we go (bulk.c). */
	lpvm_bulk_drain();
	if (lpvm_pvmd != NULL)
		(void)lpvm_rpc(lpvm.pvmdtid, TM_EXIT, NULL, &rep, &replen);
	free(rep);
	lpvm_disconnect();
	lpvm_ctl_reset();
	return 0;
}
