/*
 * pingpong: message latency, bandwidth and spawn time of a PVM
 * implementation.  The same source builds against our pvm3.h/libpvm3 and
 * against PVM 3.4.6's (bench/run.sh does both), so the figures compare
 * like with like.
 *
 *   pingpong [-d] [-raw|-def] [-n iters] [-h HOST] [-x REPS16]
 *                                    master: spawns its partner, measures
 *   pingpong -echo [-raw|-def]       partner (spawned by the master)
 *   pingpong -hello                  one of the 16 tasks the spawn test
 *                                    starts: reports to its parent, exits
 *
 * -d uses PvmRouteDirect.  -h HOST spawns the partner on HOST
 * (PvmTaskHost; bench/run-hosts.sh, across hosts).  -x REPS16 measures
 * only rtt_8 and bw_16m, the latter with REPS16 round trips (and a
 * warm-up of REPS16 / 10 + 2), for slow paths; no spawn16 either.
 * Every payload is packed with PvmDataInPlace in both implementations
 * (what PVM programs use for bulk data: the send reads the user's array,
 * no packing copy); -raw packs with PvmDataRaw instead, and -def packs
 * the payload as doubles (pvm_pkdouble, size / 8 of them) with
 * PvmDataDefault, so the XDR conversion is timed too.  Output lines
 * are "name value unit", one per figure, for run.sh to compare.  Times
 * are medians over the repetitions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "pvm3.h"
#include "stats.h"

#define TAG_PING 10
#define TAG_PONG 11
#define TAG_STOP 12
#define TAG_HELLO 13

/* Encoding of the payloads: PvmDataInPlace, PvmDataRaw with -raw, or
 * PvmDataDefault with -def (then packed as doubles). */
static int payload_enc = PvmDataInPlace;
static int payload_doubles;

/* Pack or unpack a payload of len bytes at buf in the chosen way. */
static void
payload_pack(char *buf, int len)
{
	if (payload_doubles)
		pvm_pkdouble((double *)buf, len / 8, 1);
	else
		pvm_pkbyte(buf, len, 1);
}

static void
payload_unpack(char *buf, int len)
{
	if (payload_doubles)
		pvm_upkdouble((double *)buf, len / 8, 1);
	else
		pvm_upkbyte(buf, len, 1);
}

/* The option naming an encoding: "-raw" or "-def" (sets it), else 0. */
static int
payload_option(const char *arg)
{
	if (strcmp(arg, "-raw") == 0)
		payload_enc = PvmDataRaw;
	else if (strcmp(arg, "-def") == 0) {
		payload_enc = PvmDataDefault;
		payload_doubles = 1;
	} else
		return 0;
	return 1;
}

/* Partner: echo every ping back until told to stop. */
static int
echo_loop(void)
{
	int parent = pvm_parent(), bufid, len, tag;
	char *buf = NULL;
	int cap = 0;

	for (;;) {
		bufid = pvm_recv(parent, -1);
		if (bufid < 0)
			break;
		pvm_bufinfo(bufid, &len, &tag, NULL);
		if (tag == TAG_STOP)
			break;
		if (len > cap) {
			free(buf);
			cap = len;
			buf = malloc((size_t)cap);
		}
		payload_unpack(buf, len);
		pvm_initsend(payload_enc);
		payload_pack(buf, len);
		pvm_send(parent, TAG_PONG);
	}
	free(buf);
	pvm_exit();
	return 0;
}

/* One round trip of `size` bytes; returns microseconds. */
static double
round_trip(int peer, char *buf, int size)
{
	double t0 = now_us();

	pvm_initsend(payload_enc);
	payload_pack(buf, size);
	pvm_send(peer, TAG_PING);
	pvm_recv(peer, TAG_PONG);
	payload_unpack(buf, size);
	return now_us() - t0;
}

/* Time to spawn 16 tasks and hear from each of them. */
static double
spawn16(const char *self)
{
	char *args[] = {"-hello", NULL};
	int tids[16], n, i;
	double t0 = now_us();

	n = pvm_spawn((char *)self, args, PvmTaskDefault, "", 16, tids);
	if (n != 16) {
		fprintf(stderr, "pingpong: spawned %d of 16\n", n);
		return -1;
	}
	for (i = 0; i < 16; i++)
		pvm_recv(-1, TAG_HELLO);
	return now_us() - t0;
}

static int
hello(void)
{
	pvm_initsend(PvmDataRaw);
	pvm_send(pvm_parent(), TAG_HELLO);
	pvm_exit();
	return 0;
}

int
main(int argc, char **argv)
{
	char *args[] = {"-echo", NULL, NULL};
	char *where = "";
	int direct = 0, iters = 2000, reps16 = 0, peer, i, j;
	double t[5], us;

	if (argc > 2)
		(void)payload_option(argv[2]);
	if (argc > 1 && strcmp(argv[1], "-echo") == 0)
		return echo_loop();
	if (argc > 1 && strcmp(argv[1], "-hello") == 0)
		return hello();
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-d") == 0)
			direct = 1;
		else if (payload_option(argv[i]))
			args[1] = argv[i]; /* the partner packs alike */
		else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
			iters = atoi(argv[++i]);
		else if (strcmp(argv[i], "-h") == 0 && i + 1 < argc)
			where = argv[++i];
		else if (strcmp(argv[i], "-x") == 0 && i + 1 < argc)
			reps16 = atoi(argv[++i]);
	}
	if (pvm_mytid() < 0)
		return 1;
	if (direct)
		pvm_setopt(PvmRoute, PvmRouteDirect);
	if (pvm_spawn(argv[0], args, *where ? PvmTaskHost : PvmTaskDefault,
	    where, 1, &peer) != 1) {
		fprintf(stderr, "pingpong: cannot spawn partner\n");
		pvm_exit();
		return 1;
	}
	printf("rtt_8 %.2f us\n", median_trip(round_trip, peer, 8, iters));
	fflush(stdout);
	if (reps16 > 0) {
		us = median_trip(round_trip, peer, 16 << 20, reps16);
		printf("bw_16m %.1f MB/s\n", 2.0 * (16 << 20) / us);
	}
	for (i = 0; reps16 == 0 && i < BW_NSIZES; i++) {
		us = median_trip(round_trip, peer, bw_sizes[i],
		    bw_reps(bw_sizes[i]));
		/* one-way bandwidth: size / (rtt / 2) */
		printf("%s %.1f MB/s\n", bw_names[i], 2.0 * bw_sizes[i] / us);
	}
	pvm_initsend(PvmDataRaw);
	pvm_send(peer, TAG_STOP);
	if (!direct && reps16 == 0) {
		for (j = 0; j < 5; j++)
			t[j] = spawn16(argv[0]) / 1000.0;
		printf("spawn16 %.2f ms\n", median(t, 5));
	}
	pvm_exit();
	return 0;
}
