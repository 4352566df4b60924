/*
 * t_shm.c: messages between tasks of one host over shared-memory rings
 * (libpvm/shm.c), and the old socket paths with PVM_SHM=0.  Every task
 * sets PvmRouteDirect (as NetPIPE's PVM module does), unless
 * $T_SHM_ALLOW is set: then the route option stays PvmAllowDirect, and
 * the rings come from PVM_SHM=all.
 *
 *   t_shm direct rings|norings|refuse PVMDPID
 *       a round trip with one child; the rings are mapped (or not); with
 *       rings, 1,000 round trips finish while the pvmd is stopped (the
 *       data does not pass through it); "refuse": the child sets
 *       PvmDontRoute, so no rings, and messages still arrive
 *   t_shm storm NSEND NMSG
 *       NSEND children send NMSG messages each, of random sizes and
 *       tags, at random pauses; the parent receives with every kind of
 *       matching and checks each message's bytes and that no message
 *       overtook an earlier one that the receive would have matched
 *   t_shm kill ROUNDS
 *       a child floods the parent with large messages and is killed
 *       with SIGKILL at a random moment: every message delivered is
 *       whole and in order, none comes after the exit notify, and the
 *       route's segment is gone
 *   t_shm pairs NPAIRS ROUNDS
 *       2 x NPAIRS children ping-pong 8 bytes in pairs
 *   t_shm ring N
 *       N children each send to their right neighbour
 *   t_shm ringbig
 *       1 MiB, 2 MiB, 4 MiB - 1 and 4 MiB echoed over a ring route
 *       between two tasks the pvmd bound apart (t-shm.sh checks that
 *       only the 4 MiB one was a bulk offer)
 *   t_shm bulkack
 *       a bulk offer read from a ring by a receive that then returns
 *       at once is answered before the receive returns: the offerer's
 *       pvm_send returns while the receiver sleeps outside libpvm (a
 *       barrier in the soak)
 *   t_shm mcastroute
 *       a multicast whose copy to one peer goes through the pvmd while
 *       a route to that peer opens during the multicast (an answer owed
 *       to it goes out over the route): the copy still comes before
 *       the next message, sent over the route
 *   t_shm handover
 *       a blocking receive for one tag among messages of others, and a
 *       handler's message between two it takes: the first match comes
 *       out (straight from the ring), the handler runs when PVM runs
 *       it, the others stay queued in order
 *   t_shm takes accept|open N
 *       N round trips over a route the child opened (accept) or the
 *       parent did (open); the parent's route trace ($PVM_ROUTE_TRACE)
 *       says at pvm_exit how its blocking receives began (t-shm.sh
 *       wants them taken from the ring, not refused its spin)
 *   t_shm stopcont N
 *       N round trips (small, and every 8th a 2 MiB body) with a
 *       child that is stopped (SIGSTOP) while the message is sent and
 *       continued, and interrupted by a signal (a handler without
 *       SA_RESTART: poll and read fail with EINTR) while it waits: no
 *       wake-up is lost, every answer comes within 10 s
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "tcheck.h"

#include <sched.h>

#include <signal.h>
#include <sys/select.h>
#include <sys/wait.h>

#define TAG_ARGS 50
#define TAG_PING 51
#define TAG_PONG 52
#define TAG_DONE 53
#define TAG_EXIT 54
#define TAG_PID 55
#define TAG_DATA 60 /* .. TAG_DATA + NTAGS - 1 */
#define NTAGS 4
#define MAXSEND 64
#define MAXKIDS 1100

/* The memfd mappings named name (libpvm: pvm-route for a route's
 * segment, pvm-pvmd for the one of the connection to the pvmd). */
static int
memfd_maps(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int n = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, name) != NULL)
			n++;
	}
	fclose(f);
	return n;
}

/* The mappings of our routes' segments. */
static int
ring_maps(void)
{
	return memfd_maps("memfd:pvm-route");
}

/* Routes between tasks of one host get rings (not PVM_SHM=0). */
static int
rings_on(void)
{
	const char *e = getenv("PVM_SHM");

	return e == NULL || strcmp(e, "0") != 0;
}

/* Up to 20 round trips of 8 bytes that open a route to peer (as many as
 * came back): ping_rounds pings, answer_rounds answers. */
static int
ping_rounds(int peer)
{
	char pp[8] = "pingpong";
	int i;

	for (i = 0; i < 20; i++) {
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(pp, 8, 1);
		pvm_send(peer, TAG_PING);
		if (tc_trecv(peer, TAG_PONG, 30) == 0)
			break;
	}
	return i;
}

static int
answer_rounds(int peer)
{
	char pp[8];
	int i;

	for (i = 0; i < 20; i++) {
		if (tc_trecv(peer, TAG_PING, 30) == 0)
			break;
		pvm_upkbyte(pp, 8, 1);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(pp, 8, 1);
		pvm_send(peer, TAG_PONG);
	}
	return i;
}

/* The byte at offset i of message seq from sender k. */
static unsigned char
pattern(int k, int seq, size_t i)
{
	return (unsigned char)(k * 31 + seq * 7 + (int)(i % 251));
}

/* ---- direct ---- */

/*
 * A program that waits in select(2) on pvm_getfds's sockets must wake
 * when a message comes, rings or not: ping, wait in select, then the
 * pong must be there.  1 if so.
 */
/* rd := the n descriptors of fds; the highest of them. */
static int
fds_set(fd_set *rd, const int *fds, int n)
{
	int i, maxfd = -1;

	FD_ZERO(rd);
	for (i = 0; i < n; i++) {
		FD_SET(fds[i], rd);
		if (fds[i] > maxfd)
			maxfd = fds[i];
	}
	return maxfd;
}

static int
select_wakes(int peer)
{
	int *fds, n, maxfd, k;
	struct timeval tv = {10, 0};
	char b[8] = "selectme";
	fd_set rd;

	/* Once, as a program does (the routes are open by now). */
	n = pvm_getfds(&fds);
	for (k = 0; k < 20; k++) {
		maxfd = fds_set(&rd, fds, n);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(b, 8, 1);
		pvm_send(peer, TAG_PING);
		if (select(maxfd + 1, &rd, NULL, NULL, &tv) <= 0)
			return 0;
		/* The wake-up may come before the whole message: wait. */
		if (tc_trecv(peer, TAG_PONG, 10) == 0)
			return 0;
	}
	return 1;
}

static int early_pongs;

static int
count_early_pong(int mid)
{
	(void)mid;
	early_pongs++;
	return 0;
}

/*
 * A message that reached our ring before the first pvm_getfds made no
 * socket readable: pvm_getfds must read it (its handler runs), else a
 * select(2) on the fds waits for a wake-up that never comes (libgpvm's
 * push of a new group view was lost so, and Debian's bwtest looped in
 * pvm_gettid).  1 if the pong was read by pvm_getfds or woke select.
 */
static int
early_message_seen(int peer)
{
	char b[8] = "earlyone";
	int *fds, n, maxfd, woke, mhf, k;
	struct timeval tv = {2, 0};
	fd_set rd;

	mhf = pvm_addmhf(peer, TAG_PONG, pvm_getcontext(), count_early_pong);
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte(b, 8, 1);
	pvm_send(peer, TAG_PING);
	usleep(300000); /* the pong arrives while we are outside libpvm */
	n = pvm_getfds(&fds);
	maxfd = fds_set(&rd, fds, n);
	woke = early_pongs > 0 || select(maxfd + 1, &rd, NULL, NULL, &tv) > 0;
	for (k = 0; k < 100 && early_pongs == 0; k++)
		pvm_trecv(peer, TAG_PONG + 1000, &(struct timeval){0, 100000});
	pvm_delmhf(mhf);
	return woke && early_pongs == 1;
}

/* Answer each ping from parent with a pong of its bytes, until any
 * other message comes; then leave. */
static int
echo_pings(int parent)
{
	int bufid, tag, len;
	char buf[64];

	for (;;) {
		if ((bufid = pvm_recv(parent, -1)) < 0)
			break;
		pvm_bufinfo(bufid, &len, &tag, NULL);
		if (tag != TAG_PING || len > (int)sizeof(buf))
			break;
		pvm_upkbyte(buf, len, 1);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, len, 1);
		pvm_send(parent, TAG_PONG);
	}
	pvm_exit();
	return 0;
}

static int
echo_child(int refuse)
{
	int parent = pvm_parent(), pid = (int)getppid();

	if (refuse)
		pvm_setopt(PvmRoute, PvmDontRoute);
	tc_send_ints(parent, TAG_PID, &pid, 1);
	return echo_pings(parent);
}

/* n round trips of 8 bytes, each within secs; how many came back. */
static int
round_trips(int peer, int n, double secs)
{
	char buf[8] = "pingpong", got[8];
	int i;

	for (i = 0; i < n; i++) {
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, 8, 1);
		pvm_send(peer, TAG_PING);
		if (tc_trecv(peer, TAG_PONG, secs) == 0)
			break;
		pvm_upkbyte(got, 8, 1);
		if (memcmp(got, buf, 8) != 0)
			break;
	}
	return i;
}

static int
direct(const char *mode, int pvmd)
{
	int refuse = strcmp(mode, "refuse") == 0, kid, pid, n;
	char *args[] = {"direct-child", (char *)mode, NULL};

	if (tc_spawn_self(args, 1, &kid) != 1)
		tc_fatal("spawn the echo child");
	tc_check(tc_recv_ints(kid, TAG_PID, &pid, 1, 30) == kid,
	    "the child reports in");
	tc_eq(round_trips(kid, 100, 30), 100, "round trips through whatever");
	n = ring_maps();
	if (strcmp(mode, "rings") == 0) {
		tc_check(n >= 1, "a ring segment is mapped (%d)", n);
		/* The pvmd stopped: data between us must not need it. */
		kill(pvmd, SIGSTOP);
		n = round_trips(kid, 1000, 10);
		kill(pvmd, SIGCONT);
		tc_eq(n, 1000, "round trips while the pvmd is stopped");
	} else
		tc_eq(n, 0, "no ring segment (%s)", mode);
	if (strcmp(mode, "norings") == 0 && getenv("T_SHM_ALLOW") == NULL) {
		/* PvmRouteDirect over a Unix socket: no pvmd either. */
		kill(pvmd, SIGSTOP);
		n = round_trips(kid, 1000, 10);
		kill(pvmd, SIGCONT);
		tc_eq(n, 1000, "socket route: round trips, the pvmd stopped");
	}
	if (refuse)
		tc_eq(
		    round_trips(kid, 10, 30), 10, "round trips after refusal");
	tc_check(select_wakes(kid), "select(2) on pvm_getfds wakes for a pong");
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_DONE);
	return tc_done();
}

/* ---- through the pvmd ---- */

/* Send back every message from the parent whole, with route option
 * `route`: a TAG_PING as a TAG_PONG, a TAG_DATA as a TAG_DATA; stop at
 * any other tag. */
static int
echo_whole(int route)
{
	int parent = pvm_parent(), bufid, tag;

	pvm_setopt(PvmRoute, route);
	while ((bufid = pvm_recv(parent, -1)) >= 0) {
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		if (tag != TAG_PING && tag != TAG_DATA)
			break;
		pvm_setsbuf(pvm_setrbuf(0));
		pvm_send(parent, tag == TAG_PING ? TAG_PONG : TAG_DATA);
		pvm_freebuf(pvm_setsbuf(0));
	}
	return pvm_exit();
}

static int
bigecho_child(void)
{
	return echo_whole(PvmDontRoute);
}
/*
 * The connection to the pvmd is on rings unless PVM_SHM_PVMD=0 or
 * PVM_SHM=0 (mode "rings" or "norings"), and messages through it keep
 * their bytes and order: PvmDontRoute round trips of sizes up to just
 * below a bulk offer's, so large ones pass through full rings in pieces.
 * The pvmd is stopped and continued during one of them.  Then a
 * message that came before the first pvm_getfds is not lost to select,
 * and a program waiting in select(2) on pvm_getfds wakes for each one.
 */
static int
via_pvmd(const char *mode, int pvmd)
{
	static unsigned char out[1024 * 1024], in[1024 * 1024];
	char *args[] = {"bigecho-child", NULL};
	int kid, i, ok = 0, len, tag, bufid;
	unsigned seed = 7;
	size_t n, j;

	pvm_setopt(PvmRoute, PvmDontRoute);
	if (pvm_mytid() < 0)
		tc_fatal("enrol");
	tc_eq(memfd_maps("memfd:pvm-pvmd"), strcmp(mode, "rings") == 0,
	    "segments of the connection to the pvmd (%s)", mode);
	if (tc_spawn_self(args, 1, &kid) != 1)
		tc_fatal("spawn the echo child");
	for (i = 0; i < 300; i++) {
		n = i % 10 == 9 ? sizeof(out) - 64 - (size_t)(rand_r(&seed) % 4096)
		    : i % 3 == 0 ? (size_t)(rand_r(&seed) % 300000)
		                 : (size_t)(rand_r(&seed) % 200);
		for (j = 0; j < n; j++)
			out[j] = pattern(3, i, j);
		pvm_initsend(i % 2 ? PvmDataRaw : PvmDataInPlace);
		pvm_pkbyte((char *)out, (int)n, 1);
		/* A small one: a large one would wait for the stopped pvmd
		 * to make room in the ring. */
		if (i == 151)
			kill(pvmd, SIGSTOP);
		pvm_send(kid, TAG_PING);
		if (i == 151) {
			usleep(20000);
			kill(pvmd, SIGCONT);
		}
		if ((bufid = tc_trecv(kid, TAG_PONG, 30)) <= 0)
			break;
		pvm_bufinfo(bufid, &len, &tag, NULL);
		if (len != (int)n || pvm_upkbyte((char *)in, len, 1) < 0 ||
		    memcmp(in, out, n) != 0)
			break;
		ok++;
	}
	tc_eq(ok, 300, "round trips through the pvmd, bytes intact");
	tc_check(early_message_seen(kid), "a pong that came before pvm_getfds "
	    "is read by it or wakes select(2)");
	tc_check(select_wakes(kid), "select(2) on pvm_getfds wakes for a pong");
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_DONE);
	return tc_done();
}

/* ---- storm ---- */

static int
storm_child(void)
{
	int parent = pvm_parent(), hdr[4], k, n, i, tagseq[NTAGS] = {0};
	unsigned seed = (unsigned)pvm_mytid();
	static unsigned char buf[2 * 1024 * 1024];
	size_t len, j;

	if (tc_recv_ints(parent, TAG_ARGS, hdr, 2, 60) != parent)
		return pvm_exit();
	k = hdr[0];
	n = hdr[1];
	for (i = 0; i < n; i++) {
		int r = rand_r(&seed) % 100, tag = rand_r(&seed) % NTAGS;

		if (r < 80)
			len = (size_t)(rand_r(&seed) % 300);
		else if (r < 98)
			len = (size_t)(rand_r(&seed) % (300 * 1024));
		else
			len = (size_t)(1024 * 1024 + rand_r(&seed) % 200000);
		for (j = 0; j < len; j++)
			buf[j] = pattern(k, i, j);
		hdr[0] = k;
		hdr[1] = i;
		hdr[2] = tagseq[tag]++;
		hdr[3] = (int)len;
		pvm_initsend(r % 3 == 0   ? PvmDataDefault
		             : r % 3 == 1 ? PvmDataRaw
		                          : PvmDataInPlace);
		pvm_pkint(hdr, 4, 1);
		pvm_pkbyte((char *)buf, (int)len, 1);
		pvm_send(parent, TAG_DATA + tag);
		if (rand_r(&seed) % 8 == 0)
			usleep((useconds_t)(rand_r(&seed) % 300));
	}
	hdr[0] = k;
	hdr[1] = n;
	tc_send_ints(parent, TAG_DONE, hdr, 2);
	pvm_exit();
	return 0;
}

struct storm_peer {
	int tid;
	int n;               /* messages */
	char *got;           /* got[i]: message i received */
	int next_any;        /* lowest message not yet received */
	int next_tag[NTAGS]; /* per tag: next tag sequence number expected */
	int done;
};

/* Check one received data message; 0 if it is wrong. */
static int
storm_take(struct storm_peer *p, int np, int bufid, int how, int *bad)
{
	static unsigned char buf[2 * 1024 * 1024];
	int hdr[4], len, tag, src, k, i;
	size_t j;

	pvm_bufinfo(bufid, &len, &tag, &src);
	if (pvm_upkint(hdr, 4, 1) < 0)
		return 0;
	k = hdr[0];
	if (k < 0 || k >= np || p[k].tid != src || hdr[1] < 0 ||
	    hdr[1] >= p[k].n || hdr[3] < 0 || hdr[3] > (int)sizeof(buf))
		return 0;
	if (pvm_upkbyte((char *)buf, hdr[3], 1) < 0)
		return 0;
	for (j = 0; j < (size_t)hdr[3]; j++) {
		if (buf[j] != pattern(k, hdr[1], j))
			return 0;
	}
	tag -= TAG_DATA;
	/* Per tag, messages of one sender come in the order sent. */
	if (hdr[2] != p[k].next_tag[tag]++)
		return 0;
	/* A receive that matched any tag got the oldest message left. */
	if (how != 2 && hdr[1] != p[k].next_any)
		(*bad)++;
	p[k].got[hdr[1]] = 1;
	for (i = p[k].next_any; i < p[k].n && p[k].got[i]; i++)
		;
	p[k].next_any = i;
	return 1;
}

static int
storm(int ns, int nm)
{
	struct storm_peer p[MAXSEND];
	int tids[MAXSEND], i, k, bufid, how, tag, src, ndone = 0;
	int total = 0, wrong = 0, overtaken = 0, v[2];
	unsigned seed = 12345;
	char *args[] = {"storm-child", NULL};
	double end;

	if (ns > MAXSEND)
		ns = MAXSEND;
	if (tc_spawn_self(args, ns, tids) != ns)
		tc_fatal("spawn %d senders", ns);
	for (i = 0; i < ns; i++) {
		memset(&p[i], 0, sizeof(p[i]));
		p[i].tid = tids[i];
		p[i].n = nm;
		p[i].got = calloc((size_t)nm, 1);
		v[0] = i;
		v[1] = nm;
		tc_send_ints(tids[i], TAG_ARGS, v, 2);
	}
	end = tc_now() + 240;
	while ((ndone < ns || total < ns * nm) && tc_now() < end) {
		how = rand_r(&seed) % 5;
		k = rand_r(&seed) % ns;
		tag = TAG_DATA + rand_r(&seed) % NTAGS;
		switch (how) {
		case 0: /* any source, any tag */
			bufid = tc_trecv(-1, -1, 1);
			break;
		case 1: /* one source */
			bufid = pvm_nrecv(p[k].tid, -1);
			break;
		case 2: /* one tag, any source */
			bufid = pvm_nrecv(-1, tag);
			break;
		case 3: /* probe, then take what it found */
			bufid = pvm_probe(-1, -1);
			if (bufid > 0) {
				pvm_bufinfo(bufid, NULL, &tag, &src);
				bufid = pvm_recv(src, tag);
			}
			break;
		default:
			bufid = tc_trecv(p[k].tid, -1, 0.01);
			break;
		}
		if (bufid <= 0)
			continue;
		pvm_bufinfo(bufid, NULL, &tag, &src);
		if (tag == TAG_DONE) {
			ndone++;
			continue;
		}
		if (tag < TAG_DATA || tag >= TAG_DATA + NTAGS ||
		    !storm_take(p, ns, bufid, how == 2 ? 2 : 0, &overtaken))
			wrong++;
		else
			total++;
	}
	tc_eq(total, ns * nm, "messages received from %d senders", ns);
	tc_eq(ndone, ns, "senders done");
	tc_eq(wrong, 0, "messages with wrong bytes, tags or order");
	tc_eq(overtaken, 0, "receives that skipped an older match");
	for (i = 0; i < ns; i++)
		free(p[i].got);
	return tc_done();
}

/* ---- kill ---- */

#define KILL_LEN (300 * 1024)

static int
flood_child(void)
{
	int parent = pvm_parent(), hdr[2], i;
	static unsigned char buf[KILL_LEN];
	size_t j;

	for (i = 0;; i++) {
		for (j = 0; j < KILL_LEN; j++)
			buf[j] = pattern(1, i, j);
		hdr[0] = i;
		hdr[1] = KILL_LEN;
		pvm_initsend(PvmDataRaw);
		pvm_pkint(hdr, 2, 1);
		pvm_pkbyte((char *)buf, KILL_LEN, 1);
		if (pvm_send(parent, TAG_DATA) < 0)
			break;
	}
	pvm_exit();
	return 0;
}

/* One round: spawn, take some, kill at a random moment, drain.
 * Returns the number of bad deliveries. */
static int
kill_round(unsigned *seed, int *delivered)
{
	static unsigned char buf[KILL_LEN];
	char *args[] = {"flood-child", NULL};
	struct pvmtaskinfo *ti;
	int kid, ntask, i, pid = 0, bufid, tag, hdr[2], next = 0, bad = 0;
	int before = rand_r(seed) % 4;
	size_t j;

	if (tc_spawn_self(args, 1, &kid) != 1)
		return 1;
	pvm_notify(PvmTaskExit, TAG_EXIT, 1, &kid);
	if (pvm_tasks(0, &ntask, &ti) >= 0) {
		for (i = 0; i < ntask; i++) {
			if (ti[i].ti_tid == kid)
				pid = ti[i].ti_pid;
		}
	}
	for (i = 0; i < before; i++)
		if (tc_trecv(kid, TAG_DATA, 10) > 0)
			next++;
	usleep((useconds_t)(rand_r(seed) % 20000));
	if (pid <= 0 || kill(pid, SIGKILL) != 0)
		return 1;
	for (;;) {
		if ((bufid = tc_trecv(-1, -1, 20)) == 0)
			return bad + 1; /* no notify */
		pvm_bufinfo(bufid, NULL, &tag, NULL);
		if (tag == TAG_EXIT)
			break;
		if (pvm_upkint(hdr, 2, 1) < 0 || hdr[0] != next ||
		    hdr[1] != KILL_LEN ||
		    pvm_upkbyte((char *)buf, KILL_LEN, 1) < 0) {
			bad++;
			continue;
		}
		for (j = 0; j < KILL_LEN; j++) {
			if (buf[j] != pattern(1, next, j)) {
				bad++;
				break;
			}
		}
		next++;
	}
	*delivered += next;
	/* Nothing of it after the notify. */
	if (tc_trecv(kid, -1, 0.5) > 0)
		bad++;
	return bad;
}

static int
kill_test(int rounds)
{
	unsigned seed = (unsigned)getpid();
	int r, bad = 0, delivered = 0;

	for (r = 0; r < rounds; r++)
		bad += kill_round(&seed, &delivered);
	tc_eq(bad, 0, "bad deliveries from %d killed senders", rounds);
	tc_info("%d whole messages delivered before the kills", delivered);
	tc_eq(ring_maps(), 0, "segments left mapped after the routes closed");
	return tc_done();
}

/* ---- bulkack ---- */

/*
 * The soak's stall with rings (PVM_SHM=1, 27 Nov): a worker sat in
 * pvm_mcast waiting for the answer to its bulk offer, and the receiver
 * sat in pvm_barrier owing it (bulk_nacks = 1).  A receive that finds
 * the offer in a ring before it polls (lpvm_rx_pending at the start of
 * lpvm_io_wait) then polls without waiting, finds nothing more and
 * returned without sending the answers it owed.
 *
 * The child opens rings with a few round trips, then offers 4 MiB (the
 * least a ring route offers rather than writes: libpvm/tx.c) while
 * the parent sleeps outside libpvm (so the offer waits in the ring and
 * no wake-up is asked for).  The parent wakes, receives the message and
 * sleeps 3 s outside libpvm.  The child's pvm_send must return before
 * that sleep ends.
 */
#define BA_LEN (4 << 20)
#define BA_SLEEP 3.0

static int
bulkack_child(void)
{
	static char buf[BA_LEN];
	int parent = pvm_parent();
	double t[2];

	(void)ping_rounds(parent);
	memset(buf, 0x5a, sizeof(buf));
	tc_sleep(0.3); /* the parent is asleep by now */
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte(buf, BA_LEN, 1);
	t[0] = tc_now();
	pvm_send(parent, TAG_DATA);
	t[1] = tc_now(); /* returned: the parent answered the offer */
	pvm_initsend(PvmDataDefault);
	pvm_pkdouble(t, 2, 1);
	pvm_send(parent, TAG_DONE);
	tc_trecv(parent, TAG_EXIT, 30);
	pvm_exit();
	return 0;
}

static int
bulkack(void)
{
	static char buf[BA_LEN];
	char *args[] = {"bulkack-child", NULL};
	double t[2] = {0, 0}, wake;
	int kid, i, len = 0;

	if (tc_spawn_self(args, 1, &kid) != 1)
		tc_fatal("spawn the offering child");
	i = answer_rounds(kid);
	tc_eq(i, 20, "round trips that open the rings");
	tc_check(ring_maps() >= 1, "a ring segment is mapped (%d)",
	    ring_maps());
	tc_sleep(1.0); /* the offer lands in the ring meanwhile */
	i = tc_trecv(kid, TAG_DATA, 30);
	if (i > 0)
		pvm_bufinfo(i, &len, NULL, NULL);
	tc_check(i > 0 && len == BA_LEN && pvm_upkbyte(buf, BA_LEN, 1) >= 0 &&
	        buf[0] == 0x5a && buf[BA_LEN - 1] == 0x5a,
	    "the 4 MiB offer taken");
	tc_sleep(BA_SLEEP); /* outside libpvm, as in a barrier */
	wake = tc_now();
	tc_check(tc_trecv(kid, TAG_DONE, 30) > 0 && pvm_upkdouble(t, 2, 1) >= 0,
	    "the child's report");
	tc_check(t[1] > 0 && t[1] < wake,
	    "the child's pvm_send returned %.2f s after it began, %.2f s "
	    "before the parent left its %.0f s sleep (the answer was not "
	    "held back)",
	    t[1] - t[0], wake - t[1], BA_SLEEP);
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_EXIT);
	return tc_done();
}

/* ---- ringbig ---- */

/*
 * Bodies under 4 MiB between two tasks on CPUs apart go through their
 * ring; from 4 MiB on they are offered (libpvm/tx.c, TX_RING_BULK_MIN).
 * The parent opens the rings with round trips, then sends 1 MiB, 2 MiB,
 * 4 MiB - 1 and 4 MiB; the child echoes each whole and the parent
 * compares it.  t-shm.sh runs this with PVM_BULK=trace and looks at the
 * parent's offers: only the one of 4 MiB.
 */
static const int rb_sizes[] = {1 << 20, 2 << 20, (4 << 20) - 1, 4 << 20};

static int
ringbig_child(void)
{
	return echo_whole(PvmRouteDirect);
}
static int
ringbig(void)
{
	static unsigned char out[4 << 20], in[4 << 20];
	char *args[] = {"ringbig-child", NULL};
	cpu_set_t cpus;
	size_t i, k;
	int kid, len;

	pvm_setopt(PvmRoute, PvmRouteDirect);
	if (tc_spawn_self(args, 1, &kid) != 1)
		tc_fatal("spawn the echo child");
	tc_eq(round_trips(kid, 20, 30), 20, "round trips that open the rings");
	tc_check(ring_maps() >= 1, "a ring segment is mapped (%d)",
	    ring_maps());
	tc_check(sched_getaffinity(0, sizeof(cpus), &cpus) == 0 &&
	        CPU_COUNT(&cpus) == 1,
	    "the pvmd bound us to a CPU of our own");
	for (k = 0; k < sizeof(rb_sizes) / sizeof(rb_sizes[0]); k++) {
		for (i = 0; i < (size_t)rb_sizes[k]; i++)
			out[i] = (unsigned char)(i * 7 + k);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte((char *)out, rb_sizes[k], 1);
		pvm_send(kid, TAG_DATA);
		len = -1;
		memset(in, 0, (size_t)rb_sizes[k]);
		if (tc_trecv(kid, TAG_DATA, 60) > 0)
			pvm_bufinfo(pvm_getrbuf(), &len, NULL, NULL);
		tc_check(len == rb_sizes[k] &&
		        pvm_upkbyte((char *)in, len, 1) >= 0 &&
		        memcmp(in, out, (size_t)len) == 0,
		    "%d bytes there and back intact (%d)", rb_sizes[k], len);
	}
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_EXIT);
	return tc_done();
}

/* ---- mcastroute ---- */

/*
 * pvm_mcast sends the copies for peers with an open route over their
 * routes, and the rest through the pvmd in one multicast.  While it sends
 * a copy over a route (a bulk offer waits for its answer, a full ring
 * waits for room) it reads input and answers offers: an answer to a peer
 * P whose route is acknowledged but not yet in use opens it then (the
 * marker goes through the pvmd).  P's copy of the multicast, sent through
 * the pvmd after that, came after the marker: P read the route from the
 * marker on, and our next message to P, over the route, came before the
 * multicast's copy.  The soak's "lost 1, duplicated 1" is this shape.
 *
 * The parent X keeps PvmAllowDirect: it opens no routes, and sends over
 * a child's route (backwards) from its first send after that route
 * opened.  The children (PvmRouteDirect) open routes to X.  X's round
 * trips with Q put Q's route in use both ways; X sends m0 to P before
 * P's route is open (through the pvmd), and nothing more until the
 * multicast, so P's route is open but unused by X.  Q sleeps outside
 * libpvm; X multicasts 1.2 MiB to {P, Q}: P's copy goes through the
 * pvmd, Q's over Q's route, where it waits for Q (a bulk offer: three
 * tasks on two CPUs are not bound, libpvm/tx.c; with CPUs for all, a
 * ring that fills), and meanwhile P offers X 4 MiB (offered in either
 * case).  X's answer is X's first send over P's
 * route.  Then X sends m2 to P.  P, after a sleep that lets everything
 * queue, must get the multicast (1) before m2 (2).
 */
#define MR_LEN (1200 * 1024)
#define MR_OFFER (4 << 20)
#define TAG_OFFER 61

static int
mcr_child(const char *role)
{
	static char buf[MR_OFFER];
	int parent = pvm_parent(), seq[2] = {-1, -1}, i, b;

	if (strcmp(role, "q") == 0) {
		i = answer_rounds(parent);
		tc_trecv(parent, TAG_ARGS, 30);
		tc_sleep(3.0); /* the multicast's offer to us waits */
		tc_trecv(parent, TAG_DATA, 30);
		tc_trecv(parent, TAG_EXIT, 60);
		pvm_exit();
		return 0;
	}
	/* P: our route to the parent opens with this first message and is
	 * in use from the next; m0 comes through the pvmd. */
	i = (int)getpid();
	tc_send_ints(parent, TAG_PID, &i, 1);
	if (tc_trecv(parent, TAG_DATA, 30) > 0)
		pvm_upkint(seq, 1, 1);
	tc_send_ints(parent, TAG_PONG, seq, 1);
	tc_trecv(parent, TAG_ARGS, 0.5);
	tc_sleep(1.0); /* the parent waits in its multicast by now */
	memset(buf, 0x11, sizeof(buf));
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte(buf, MR_OFFER, 1);
	pvm_send(parent, TAG_OFFER);
	tc_sleep(3.0); /* the multicast and m2 queue meanwhile */
	for (i = 0; i < 2; i++) {
		seq[i] = -1;
		if ((b = tc_trecv(parent, TAG_DATA, 30)) > 0)
			pvm_upkint(&seq[i], 1, 1);
	}
	tc_send_ints(parent, TAG_DONE, seq, 2);
	tc_trecv(parent, TAG_EXIT, 60);
	pvm_exit();
	return 0;
}

static int
mcastroute(void)
{
	static char body[MR_LEN];
	char *ap[] = {"mcr-child", "p", NULL}, *aq[] = {"mcr-child", "q", NULL};
	int p, q, seq, got[2] = {-1, -1}, v[2], i;

	pvm_setopt(PvmRoute, PvmAllowDirect);
	if (tc_spawn_self(ap, 1, &p) != 1 || tc_spawn_self(aq, 1, &q) != 1)
		tc_fatal("spawn the two children");
	i = ping_rounds(q);
	tc_eq(i, 20, "round trips with Q (its route opens)");
	tc_check(tc_recv_ints(p, TAG_PID, &seq, 1, 30) == p, "P reports in");
	seq = 0;
	tc_send_ints(p, TAG_DATA, &seq, 1); /* m0, through the pvmd */
	tc_check(tc_recv_ints(p, TAG_PONG, &seq, 1, 30) == p && seq == 0,
	    "P got m0");
	tc_trecv(p, TAG_ARGS, 0.5); /* P's route is open by now */
	pvm_initsend(PvmDataRaw);
	pvm_send(q, TAG_ARGS); /* Q: sleep */
	seq = 1;
	memset(body, 0x22, sizeof(body));
	pvm_initsend(PvmDataRaw);
	pvm_pkint(&seq, 1, 1);
	pvm_pkbyte(body, MR_LEN, 1);
	v[0] = p;
	v[1] = q;
	tc_eq(pvm_mcast(v, 2, TAG_DATA), 0, "pvm_mcast to P and Q");
	seq = 2;
	tc_send_ints(p, TAG_DATA, &seq, 1); /* m2 */
	tc_check(tc_trecv(p, TAG_OFFER, 30) > 0, "P's offer taken");
	tc_check(tc_recv_ints(p, TAG_DONE, got, 2, 60) == p,
	    "P's report");
	tc_check(got[0] == 1 && got[1] == 2,
	    "P got the multicast, then m2 (got %d, then %d)", got[0],
	    got[1]);
	pvm_initsend(PvmDataRaw);
	pvm_send(p, TAG_EXIT);
	pvm_initsend(PvmDataRaw);
	pvm_send(q, TAG_EXIT);
	return tc_done();
}

/* ---- stopcont ---- */

#define SC_BIG (2 << 20)

static void
sc_handler(int sig)
{
	(void)sig;
}

static int
stopcont_child(void)
{
	static char buf[SC_BIG];
	int parent = pvm_parent(), pid = (int)getpid(), b, len;
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sc_handler; /* no SA_RESTART: waits see EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	tc_send_ints(parent, TAG_PID, &pid, 1);
	for (;;) {
		if ((b = pvm_recv(parent, -1)) < 0)
			break;
		pvm_bufinfo(b, &len, NULL, NULL);
		if (len > SC_BIG)
			break;
		if (len > 0)
			pvm_upkbyte(buf, len, 1);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, len, 1);
		pvm_send(parent, TAG_PONG);
		if (len == 0)
			break;
	}
	pvm_exit();
	return 0;
}

static int
stopcont(int n)
{
	static char buf[SC_BIG];
	char *args[] = {"stopcont-child", NULL};
	int kid, pid = 0, i, ok = 0, late = 0, len;
	double t, worst = 0;

	if (tc_spawn_self(args, 1, &kid) != 1 ||
	    tc_recv_ints(kid, TAG_PID, &pid, 1, 30) != kid || pid <= 0)
		tc_fatal("spawn the child");
	memset(buf, 0x77, sizeof(buf));
	for (i = 0; i < n; i++) {
		len = i % 8 == 7 ? SC_BIG : 64;
		/* Stopped while we send; a signal while it waits. */
		kill(pid, SIGSTOP);
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(buf, len, 1);
		t = tc_now();
		if (len == SC_BIG) {
			/* The bulk offer waits for the child: continue it from
			 * a forked helper while we wait in pvm_send. */
			if (fork() == 0) {
				usleep(20000);
				kill(pid, SIGCONT);
				usleep(1000);
				kill(pid, SIGUSR1);
				_exit(0);
			}
			pvm_send(kid, TAG_PING);
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
		} else {
			pvm_send(kid, TAG_PING);
			usleep(1000);
			kill(pid, SIGCONT);
			kill(pid, SIGUSR1);
		}
		if (tc_trecv(kid, TAG_PONG, 10) > 0)
			ok++;
		t = tc_now() - t;
		if (t > worst)
			worst = t;
		if (t > 2)
			late++;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	tc_eq(ok, n, "answers of a stopped, continued and interrupted child");
	tc_eq(late, 0, "answers that took over 2 s (worst %.3f s)", worst);
	tc_check(ring_maps() >= rings_on(),
	    "ring segments mapped as PVM_SHM says (%d)", ring_maps());
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_PING); /* empty: the child leaves */
	tc_trecv(kid, TAG_PONG, 10);
	return tc_done();
}

/* ---- handover ---- */

/*
 * A blocking receive takes the first message it matches straight from
 * the ring (libpvm/rx.c, lpvm_pump_for), without the queue: the child
 * sends A0 A1 B2 A3 H4 B5 A6 (tags A, B and H, the number in the body)
 * once while the parent already waits for B, once while the parent
 * sleeps so all of them lie in the ring.  Either way the receives for B
 * return B2 and then B5, H4's handler runs while the second of them
 * returns (H4 came before B5, after B2), and the A's then come out in
 * order.
 */
#define HO_A TAG_DATA
#define HO_B (TAG_DATA + 1)
#define HO_H (TAG_DATA + 2)

static int
handover_child(void)
{
	static const int tags[] = {HO_A, HO_A, HO_B, HO_A, HO_H, HO_B, HO_A};
	int parent = pvm_parent(), round, i, v;

	i = ping_rounds(parent);
	for (round = 0; round < 2; round++) {
		if (tc_recv_ints(parent, TAG_ARGS, &v, 1, 30) != parent)
			break;
		if (round == 0)
			tc_sleep(0.05); /* the parent waits for B meanwhile */
		for (i = 0; i < 7; i++) {
			pvm_initsend(PvmDataInPlace);
			pvm_pkint(&i, 1, 1);
			pvm_send(parent, tags[i]);
		}
	}
	tc_trecv(parent, TAG_EXIT, 30);
	pvm_exit();
	return 0;
}

static int ho_bs;      /* B messages the program has received */
static int ho_handled; /* H messages the handler saw */
static int ho_when;    /* ho_bs when it ran */

static int
ho_handler(int mid)
{
	int v = -1;

	(void)mid;
	pvm_upkint(&v, 1, 1);
	ho_handled++;
	ho_when = v == 4 ? ho_bs : -1;
	return 0;
}

/* The number in the message a blocking receive returns, or -1. */
static int
ho_recv(int tid, int tag)
{
	int v = -1;

	if (pvm_recv(tid, tag) <= 0 || pvm_upkint(&v, 1, 1) < 0)
		return -1;
	return v;
}

static int
handover(void)
{
	char *args[] = {"handover-child", NULL};
	int kid, round, i, v, want[] = {0, 1, 3, 6};

	if (tc_spawn_self(args, 1, &kid) != 1)
		tc_fatal("spawn the child");
	i = answer_rounds(kid);
	tc_eq(i, 20, "round trips that open the route");
	if (rings_on())
		tc_check(ring_maps() >= 1, "a ring segment is mapped (%d)",
		    ring_maps());
	tc_check(pvm_addmhf(kid, HO_H, pvm_getcontext(), ho_handler) > 0,
	    "a handler for H");
	for (round = 0; round < 2; round++) {
		ho_bs = ho_handled = 0;
		ho_when = -1;
		v = round;
		tc_send_ints(kid, TAG_ARGS, &v, 1);
		if (round == 1)
			tc_sleep(0.2); /* all seven lie in the ring */
		v = ho_recv(kid, HO_B);
		ho_bs++;
		tc_eq(v, 2, "round %d: the first B is B2", round);
		tc_eq(ho_handled, 0, "round %d: H4 not handled yet", round);
		v = ho_recv(-1, HO_B);
		ho_bs++;
		tc_eq(v, 5, "round %d: the second B is B5", round);
		tc_eq(ho_handled, 1, "round %d: H4 handled once", round);
		tc_eq(ho_when, 1, "round %d: H4 handled between the two B's",
		    round);
		tc_check(pvm_probe(kid, HO_A) > 0, "round %d: an A is queued",
		    round);
		for (i = 0; i < 4; i++)
			tc_eq(ho_recv(-1, -1), want[i], "round %d: A%d in order",
			    round, want[i]);
		tc_eq(pvm_nrecv(-1, -1), 0, "round %d: nothing else", round);
	}
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_EXIT);
	return tc_done();
}

/* ---- takes ---- */

/*
 * Blocking receives on a route that either side opened take their
 * message straight from the ring (libpvm/rx.c, rx_take), round after
 * round: the child sends first with "accept" (its route, which the
 * parent accepts), the parent with "open".  The counts come out in the
 * parent's route trace at pvm_exit, which t-shm.sh reads: a marker once
 * left a route marked pending for good, and every receive after it
 * refused the ring spin.
 */
static int
takes_child(const char *mode)
{
	int parent = pvm_parent();

	if (strcmp(mode, "accept") == 0)
		tc_send_ints(parent, TAG_DONE, &parent, 1);
	return echo_pings(parent);
}

static int
takes(const char *mode, int n)
{
	char *args[] = {"takes-child", (char *)mode, NULL};
	int kid;

	if (tc_spawn_self(args, 1, &kid) != 1)
		tc_fatal("spawn the child");
	if (strcmp(mode, "accept") == 0)
		tc_check(tc_trecv(kid, TAG_DONE, 30) > 0,
		    "%s: the child's first message", mode);
	tc_eq(round_trips(kid, n, 30), n, "%s: round trips", mode);
	if (rings_on())
		tc_check(ring_maps() >= 1, "%s: a ring segment is mapped (%d)",
		    mode, ring_maps());
	pvm_initsend(PvmDataRaw);
	pvm_send(kid, TAG_EXIT);
	return tc_done();
}

/* ---- pairs ---- */

static int
pair_child(void)
{
	int parent = pvm_parent(), v[3], peer, rounds, first, i;
	char b[8] = "12345678";
	double t0;

	if (tc_recv_ints(parent, TAG_ARGS, v, 3, 60) != parent)
		return pvm_exit();
	peer = v[0];
	rounds = v[1];
	first = v[2];
	t0 = tc_now();
	for (i = 0; i < rounds; i++) {
		if (!first && pvm_recv(peer, TAG_PING) < 0)
			break;
		pvm_initsend(PvmDataRaw);
		pvm_pkbyte(b, 8, 1);
		pvm_send(peer, TAG_PING);
		if (first && pvm_recv(peer, TAG_PING) < 0)
			break;
	}
	v[0] = (int)((tc_now() - t0) * 1e6 / rounds);
	tc_send_ints(parent, TAG_DONE, v, 1);
	pvm_exit();
	return 0;
}

static int
pairs(int np, int rounds)
{
	int tids[64], n = 2 * np, i, v[3], got = 0, us, worst = 0;
	char *args[] = {"pair-child", NULL};

	if (n > 64)
		n = 64;
	if (tc_spawn_self(args, n, tids) != n)
		tc_fatal("spawn %d tasks", n);
	for (i = 0; i < n; i++) {
		v[0] = tids[i ^ 1];
		v[1] = rounds;
		v[2] = (i & 1) == 0;
		tc_send_ints(tids[i], TAG_ARGS, v, 3);
	}
	for (i = 0; i < n; i++) {
		if (tc_recv_ints(-1, TAG_DONE, &us, 1, 300) > 0) {
			got++;
			if (us > worst)
				worst = us;
		}
	}
	tc_eq(
	    got, n, "tasks of %d pairs done (%d round trips each)", np, rounds);
	tc_info("slowest task: %d us a round trip", worst);
	return tc_done();
}

/* ---- ring of neighbours ---- */

static int
neighbour_child(void)
{
	int parent = pvm_parent(), v[3], w[2];

	if (tc_recv_ints(parent, TAG_ARGS, v, 3, 300) != parent)
		return pvm_exit();
	/* v: my index, right neighbour, left neighbour */
	w[0] = v[0];
	w[1] = pvm_mytid();
	tc_send_ints(v[1], TAG_PING, w, 2);
	if (tc_recv_ints(v[2], TAG_PING, w, 2, 300) == v[2])
		w[0] = w[1] == v[2] ? w[0] : -1;
	else
		w[0] = -2;
	v[1] = w[0];
	tc_send_ints(parent, TAG_DONE, v, 2);
	pvm_exit();
	return 0;
}

static int
neighbours(int n)
{
	static int tids[MAXKIDS], seen[MAXKIDS];
	char *args[] = {"neighbour-child", NULL};
	int i, k, v[3], got = 0, right = 0;
	double t0 = tc_now();

	if (n > MAXKIDS)
		n = MAXKIDS;
	for (i = 0; i < n; i += k) {
		k = pvm_spawn(tc_self(), args, PvmTaskDefault, NULL,
		    n - i > 100 ? 100 : n - i, tids + i);
		if (k <= 0)
			tc_fatal("spawned %d of %d", i, n);
	}
	for (i = 0; i < n; i++) {
		v[0] = i;
		v[1] = tids[(i + 1) % n];
		v[2] = tids[(i + n - 1) % n];
		tc_send_ints(tids[i], TAG_ARGS, v, 3);
	}
	for (i = 0; i < n; i++) {
		if (tc_recv_ints(-1, TAG_DONE, v, 2, 300) <= 0)
			break;
		got++;
		if (v[0] >= 0 && v[0] < n && !seen[v[0]] &&
		    v[1] == (v[0] + n - 1) % n) {
			seen[v[0]] = 1;
			right++;
		}
	}
	tc_eq(got, n, "tasks that reported");
	tc_eq(right, n, "tasks that heard from their left neighbour");
	tc_info("%d tasks in %.1f s", n, tc_now() - t0);
	return tc_done();
}

int
main(int argc, char **argv)
{
	tc_init("t_shm");
	if (getenv("T_SHM_ALLOW") == NULL)
		pvm_setopt(PvmRoute, PvmRouteDirect);
	if (argc >= 3 && strcmp(argv[1], "direct-child") == 0)
		return echo_child(strcmp(argv[2], "refuse") == 0);
	if (argc >= 2 && strcmp(argv[1], "bigecho-child") == 0)
		return bigecho_child();
	if (argc >= 4 && strcmp(argv[1], "pvmd") == 0)
		return via_pvmd(argv[2], atoi(argv[3]));
	if (argc >= 2 && strcmp(argv[1], "storm-child") == 0)
		return storm_child();
	if (argc >= 2 && strcmp(argv[1], "flood-child") == 0)
		return flood_child();
	if (argc >= 2 && strcmp(argv[1], "handover-child") == 0)
		return handover_child();
	if (argc >= 2 && strcmp(argv[1], "handover") == 0)
		return handover();
	if (argc >= 3 && strcmp(argv[1], "takes-child") == 0)
		return takes_child(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "takes") == 0)
		return takes(argv[2], atoi(argv[3]));
	if (argc >= 2 && strcmp(argv[1], "pair-child") == 0)
		return pair_child();
	if (argc >= 2 && strcmp(argv[1], "neighbour-child") == 0)
		return neighbour_child();
	if (argc >= 2 && strcmp(argv[1], "bulkack-child") == 0)
		return bulkack_child();
	if (argc >= 2 && strcmp(argv[1], "ringbig-child") == 0)
		return ringbig_child();
	if (argc >= 2 && strcmp(argv[1], "ringbig") == 0)
		return ringbig();
	if (argc >= 2 && strcmp(argv[1], "bulkack") == 0)
		return bulkack();
	if (argc >= 3 && strcmp(argv[1], "mcr-child") == 0)
		return mcr_child(argv[2]);
	if (argc >= 2 && strcmp(argv[1], "mcastroute") == 0)
		return mcastroute();
	if (argc >= 2 && strcmp(argv[1], "stopcont-child") == 0)
		return stopcont_child();
	if (argc >= 3 && strcmp(argv[1], "stopcont") == 0)
		return stopcont(atoi(argv[2]));
	if (argc >= 4 && strcmp(argv[1], "direct") == 0)
		return direct(argv[2], atoi(argv[3]));
	if (argc >= 4 && strcmp(argv[1], "storm") == 0)
		return storm(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 3 && strcmp(argv[1], "kill") == 0)
		return kill_test(atoi(argv[2]));
	if (argc >= 4 && strcmp(argv[1], "pairs") == 0)
		return pairs(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 3 && strcmp(argv[1], "ring") == 0)
		return neighbours(atoi(argv[2]));
	fprintf(stderr, "usage: t_shm direct|pvmd|storm|kill|pairs|ring|bulkack|ringbig|mcastroute|stopcont|handover|takes ...\n");
	return 2;
}
