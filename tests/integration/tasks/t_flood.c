/*
 * t_flood.c: one task floods another that does not read for a while.
 *
 *   t_flood recv DIR N
 *
 * The receiver spawns a flooder that sends N messages of 1 MiB (a
 * sequence number and a pattern depending on it) and writes how many it
 * has sent into DIR/progress after each send.  The receiver makes no PVM
 * call until the file DIR/go exists, so nothing drains its socket; the
 * test script meanwhile watches the progress (the flooder must block)
 * and the pvmd's memory (it must stay bounded).  Then the receiver reads
 * everything and checks order and contents.
 */
#include <fcntl.h>
#include <sys/stat.h>

#include "tcheck.h"

#define TAG_DATA 60
#define TAG_DONE 61
#define MSGLEN (1 << 20)

/* The byte at offset k of message seq. */
static unsigned char
pattern(int seq, size_t k)
{
	return (unsigned char)((unsigned)seq * 13u + (unsigned)(k * 31u));
}

/* Flooder: send n messages, recording progress in dir/progress. */
static int
c_flood(const char *dir, int n)
{
	int parent = pvm_parent(), i, fd, done = 0;
	unsigned char *buf = malloc(MSGLEN);
	char path[4096], line[32];
	size_t k;

	snprintf(path, sizeof(path), "%s/progress", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (i = 0; i < n && buf != NULL && fd >= 0; i++) {
		for (k = 0; k < MSGLEN; k++) {
			buf[k] = pattern(i, k);
		}
		pvm_initsend(PvmDataRaw);
		pvm_pkint(&i, 1, 1);
		pvm_pkbyte((char *)buf, MSGLEN, 1);
		if (pvm_send(parent, TAG_DATA) < 0) {
			break;
		}
		done = i + 1;
		snprintf(line, sizeof(line), "%10d\n", done);
		if (pwrite(fd, line, strlen(line), 0) < 0) {
			break;
		}
	}
	tc_send_ints(parent, TAG_DONE, &done, 1);
	if (fd >= 0) {
		close(fd);
	}
	free(buf);
	pvm_exit();
	return 0;
}

/* Receiver: wait for DIR/go without touching PVM, then read all. */
static void
receiver(const char *dir, int n)
{
	char num[16], *args[] = {"c-flood", (char *)dir, num, NULL};
	char path[4096];
	unsigned char *buf = malloc(MSGLEN);
	int kid = 0, i, seq, bytes, bufid, inorder = 0, intact = 0, sent = -1;
	struct stat st;
	double end;
	size_t k;

	snprintf(num, sizeof(num), "%d", n);
	/* $T_FLOOD_HOST: the flooder runs there (t-hosts-flood.sh). */
	if ((getenv("T_FLOOD_HOST") != NULL ?
	        pvm_spawn(tc_self(), args, PvmTaskHost,
	            getenv("T_FLOOD_HOST"), 1, &kid) :
	        tc_spawn_self(args, 1, &kid)) != 1) {
		tc_fatal("spawn the flooder");
	}
	snprintf(path, sizeof(path), "%s/go", dir);
	end = tc_now() + 120;
	while (stat(path, &st) < 0 && tc_now() < end) {
		tc_sleep(0.05);
	}
	for (i = 0; i < n; i++) {
		if ((bufid = tc_trecv(kid, TAG_DATA, 60)) == 0) {
			tc_check(0, "message %d of %d within 60 s", i, n);
			break;
		}
		pvm_bufinfo(bufid, &bytes, NULL, NULL);
		seq = -1;
		pvm_upkint(&seq, 1, 1);
		memset(buf, 0, MSGLEN);
		if (pvm_upkbyte((char *)buf, MSGLEN, 1) < 0) {
			continue;
		}
		if (seq == i) {
			inorder++;
		}
		for (k = 0; k < MSGLEN && buf[k] == pattern(seq, k); k++) {
			continue;
		}
		if (k == MSGLEN) {
			intact++;
		}
	}
	tc_eq(inorder, n, "messages received in sequence");
	tc_eq(intact, n, "messages with all %d bytes right", MSGLEN);
	tc_check(tc_recv_ints(kid, TAG_DONE, &sent, 1, 30) > 0 && sent == n,
	    "flooder reports %d sent (%d)", n, sent);
	free(buf);
}

int
main(int argc, char **argv)
{
	tc_init("t_flood");
	if (argc > 3 && strcmp(argv[1], "c-flood") == 0) {
		return c_flood(argv[2], atoi(argv[3]));
	}
	if (argc > 3 && strcmp(argv[1], "recv") == 0) {
		if (pvm_mytid() <= 0) {
			tc_fatal("pvm_mytid");
		}
		receiver(argv[2], atoi(argv[3]));
		return tc_done();
	}
	fprintf(stderr, "usage: t_flood recv DIR N\n");
	return 2;
}
