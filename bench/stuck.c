/*
 * stuck: whether a 1-byte ping-pong recovers its speed after a slow
 * start, or stays with both tasks asleep.
 *
 * Every wait of libpvm spins before it sleeps, on a budget that misses
 * halve (common/spin.h).  A start in which each side waits long for the
 * other (NetPIPE's, where the receiver waits while the transmitter looks
 * up its peer) empties both budgets; then each message costs a wake-up.
 * This program makes such a start on purpose, then times every round
 * trip of a fast ping-pong:
 *
 *   stuck [-s SLOW] [-e EXTRA] [-n ROUNDTRIPS]
 *
 *   -s  round trips of the slow start, each after a 2 ms sleep (40)
 *   -e  extra waits of the master that time out before the fast phase,
 *       so that the two tasks' counts of waits are out of step (5)
 *   -n  round trips of the fast phase (20,000)
 *
 * Output: one line "slow N of M longest L mean_us U": round trips that
 * took over 20 us, the longest run of such in a row, and the mean
 * one-way time.  Build against the library under test, e.g.
 *   cc -O2 -I include -I bench -o stuck bench/stuck.c \
 *       -L B/libpvm/.libs -lpvm3 -Wl,-rpath,B/libpvm/.libs
 * and run it with a pvmd of that build (PVM_TMP of its own).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pvm3.h"
#include "stats.h"

#define ST_TAG 1
#define ST_SLOW_TAG 2
#define ST_END_TAG 3
#define ST_NONE_TAG 4 /* never sent: the master's waits that time out */
#define ST_SLOW_US 20.0

static void
send_byte(int to, int tag)
{
	char b = 1;

	pvm_initsend(PvmDataRaw);
	pvm_pkbyte(&b, 1, 1);
	pvm_send(to, tag);
}

/* The tag of the next message from `from`, its byte unpacked. */
static int
recv_byte(int from)
{
	struct pvmminfo mi;
	char b;
	int id = pvm_recv(from, -1);

	if (id < 0 || pvm_getminfo(id, &mi) < 0)
		return -1;
	pvm_upkbyte(&b, 1, 1);
	return mi.tag;
}

/* The echoing child: a slow-start message is answered after 2 ms. */
static int
child(int parent)
{
	int tag;

	while ((tag = recv_byte(parent)) > 0 && tag != ST_END_TAG) {
		if (tag == ST_SLOW_TAG)
			usleep(2000);
		send_byte(parent, ST_TAG);
	}
	pvm_exit();
	return tag == ST_END_TAG ? 0 : 1;
}

static void
fast_phase(int peer, int n)
{
	double t0, start = now_us();
	int i, slow = 0, run = 0, longest = 0;

	for (i = 0; i < n; i++) {
		t0 = now_us();
		send_byte(peer, ST_TAG);
		recv_byte(peer);
		if (now_us() - t0 > ST_SLOW_US) {
			slow++;
			if (++run > longest)
				longest = run;
		} else
			run = 0;
	}
	printf("slow %d of %d longest %d mean_us %.2f\n", slow, n, longest,
	    (now_us() - start) / n / 2);
}

int
main(int argc, char **argv)
{
	char *args[] = {"-c", NULL};
	struct timeval tv = {0, 500};
	int nslow = 40, extra = 5, n = 20000, peer, i, c;

	while ((c = getopt(argc, argv, "s:e:n:c")) != -1) {
		if (c == 's')
			nslow = atoi(optarg);
		else if (c == 'e')
			extra = atoi(optarg);
		else if (c == 'n')
			n = atoi(optarg);
		else if (c != 'c') {
			fprintf(stderr, "usage: stuck [-s SLOW] [-e EXTRA] "
			                "[-n ROUNDTRIPS]\n");
			return 2;
		}
	}
	if (pvm_mytid() < 0)
		return 1;
	pvm_setopt(PvmRoute, PvmRouteDirect);
	if (pvm_parent() > 0)
		return child(pvm_parent());
	if (pvm_spawn(argv[0], args, PvmTaskDefault, "", 1, &peer) != 1) {
		fprintf(stderr, "stuck: cannot spawn %s\n", argv[0]);
		pvm_exit();
		return 1;
	}
	send_byte(peer, ST_TAG);
	recv_byte(peer);
	for (i = 0; i < nslow; i++) {
		usleep(2000);
		send_byte(peer, ST_SLOW_TAG);
		recv_byte(peer);
	}
	for (i = 0; i < extra; i++)
		pvm_trecv(peer, ST_NONE_TAG, &tv);
	fast_phase(peer, n);
	send_byte(peer, ST_END_TAG);
	pvm_exit();
	return 0;
}
