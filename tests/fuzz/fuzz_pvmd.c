/*
 * fuzz_pvmd.c: the whole pvmd, in process, fed a hostile byte stream on
 * one connection: every frame and control-request decoder a task reaches
 * (TM_*, messages, multicast, the mailbox, notify, contexts), or, on a
 * link from another host's pvmd that has passed the handshake, every
 * DM_* decoder and the requests other hosts forward.
 *
 * The daemon's own files run unchanged, on their own event loop.  The
 * connection is one end of a socketpair, accepted as the pvmd accepts a
 * task (or set up as a link from host 2); the input is written to the
 * other end and the loop is run until it is quiet; then that end is
 * closed and the loop runs again, so the pvmd sees the peer go.  After
 * each input nothing of the peer may be left: no task, no connection,
 * no host but this one.
 *
 * What would leave the process is stood in for through the linker
 * (--wrap, see fuzz.am): fork fails (so TM_SPAWN and TM_ADDHOST answer
 * with errors), kill and connect do nothing, and a halt is only counted.
 *
 * Input: a choice byte (bit 0: a link from host 2 rather than a task),
 * then the bytes the peer sends.  Seeds (mkcorpus.py) begin with a valid
 * TM_CONNECT, so the fuzzer starts past the greeting.
 */
#include "config.h" /* first: pvmd.c, included below, needs _GNU_SOURCE */

#include "fuzz.h"

#include <errno.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

int pvmd_main(int argc, char **argv);
#define main pvmd_main
#include "pvmd.c"
#undef main

#define FZ_PEER_HOST 2

/* ---- stand-ins, reached through -Wl,--wrap ---- */

pid_t __wrap_fork(void);
int __wrap_kill(pid_t pid, int sig);
int __wrap_connect(int fd, const struct sockaddr *sa, socklen_t len);
void __wrap_pvmd_halt(const char *why);
void __wrap_halt_machine(int spare, const char *why);
void __wrap_halt_slave(void);
void __wrap_halt_slave_exit(void);

static int fz_halts;

pid_t
__wrap_fork(void)
{
	errno = EAGAIN;
	return -1;
}

int
__wrap_kill(pid_t pid, int sig)
{
	(void)pid;
	(void)sig;
	return 0;
}

int
__wrap_connect(int fd, const struct sockaddr *sa, socklen_t len)
{
	(void)fd;
	(void)sa;
	(void)len;
	errno = ECONNREFUSED;
	return -1;
}

void
__wrap_pvmd_halt(const char *why)
{
	(void)why;
	fz_halts++;
}

void
__wrap_halt_machine(int spare, const char *why)
{
	(void)spare;
	(void)why;
	fz_halts++;
}

void
__wrap_halt_slave(void)
{
	fz_halts++;
}

void
__wrap_halt_slave_exit(void)
{
	fz_halts++;
}

/* ---- the daemon, set up once as setup_loop would, without sockets ---- */

static int
fz_setup(void)
{
	static char dir[] = "/tmp/fuzz_pvmd.XXXXXX";

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(dir) == NULL || setenv("PVM_TMP", dir, 1) != 0)
		return -1;
	unsetenv("PVM_VMID");
	if (paths_from_env(&pvmd.paths) != 0 || mkdir(pvmd.paths.dir, 0700))
		return -1;
	log_open("/dev/null");
	snprintf(pvmd.hostname, sizeof(pvmd.hostname), "fuzzhost");
	snprintf(pvmd.home, sizeof(pvmd.home), "%s", dir);
	pvmd.hs_timeout = PVMD_HS_TIMEOUT;
	pvmd.host_timeout = PVMD_HOST_TIMEOUT;
	pvmd.mbox_max = 1 << 20;
	if ((pvmd.base = event_base_new()) == NULL)
		return -1;
	pvmd.host = TID_MASTER_HOST;
	pvmd.master = 1;
	pvmd.mytid = tid_pvmd(pvmd.host);
	host_init(pvmd.hostname, PVM_ARCH);
	task_table_init(&pvmd.tasks, pvmd.host);
	ctx_table_init(&pvmd.ctxs, tid_make(pvmd.host, 0));
	mbox_init(&pvmd.mbox);
	return conn_init();
}

/* Run the loop until a turn finds nothing to do, draining `peer`. */
static void
fz_run(int peer)
{
	char buf[65536];
	int i;

	for (i = 0; i < 64; i++) {
		while (peer >= 0 && read(peer, buf, sizeof(buf)) > 0)
			;
		if (event_base_loop(pvmd.base, EVLOOP_NONBLOCK) != 0)
			break;
	}
}

/* Write as much of the input as the socket takes, running the loop. */
static void
fz_feed(int peer, const uint8_t *p, size_t n)
{
	ssize_t k;
	int idle = 0;

	while (n > 0 && idle < 8) {
		k = write(peer, p, n);
		if (k > 0) {
			p += k;
			n -= (size_t)k;
			idle = 0;
		} else {
			idle++;
		}
		fz_run(peer);
	}
}

/* The peer's end of a new connection of the chosen kind, or -1. */
static int
fz_connect(int link)
{
	struct conn *c;
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
	        sv) != 0)
		return -1;
	if (!link) {
		conn_task_accepted(sv[0], 0);
		return sv[1];
	}
	if ((c = conn_link_accepted(sv[0])) == NULL) {
		close(sv[1]);
		return -1;
	}
	conn_link_up(c, FZ_PEER_HOST);
	if (host_add(FZ_PEER_HOST, "fuzzpeer", PVM_ARCH, PVMD_SPEED, PVMD_DSIG,
	        c) == NULL)
		abort();
	return sv[1];
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	struct fz f;
	int peer, link;

	if (!ready) {
		if (fz_setup() != 0)
			abort();
		ready = 1;
	}
	fz_init(&f, data, size);
	link = fz_byte(&f) & 1;
	/* The first task is t40001 on every input (the table is empty). */
	pvmd.tasks.next = 1;
	if ((peer = fz_connect(link)) < 0)
		abort();
	fz_feed(peer, f.p, f.n);
	close(peer);
	fz_run(-1);
	fz_run(-1);
	/* Nothing of the peer is left. */
	FZ_CHECK(pvmd.tasks.count == 0);
	FZ_CHECK(host_count() == 1);
	/* The mailbox's persistent entries would pile up: start afresh. */
	mbox_fini(&pvmd.mbox);
	mbox_init(&pvmd.mbox);
	return 0;
}
