/*
 * hostfail: the time to add hosts and the time to notice a dead host,
 * for bench/run-hosts.sh.  The same source builds against our
 * pvm3.h/libpvm3 and against PVM 3.4.6's.
 *
 *   hostfail [-a HOST,HOST,...] [-n HOST -g FILE [-t SECS]]
 *
 * -a: pvm_addhosts of these hosts, timed from the call to its return;
 *     prints "addhosts MS ms" (or "addhosts fail" with each host's info
 *     on stderr, and exits 1).
 * -n: pvm_notify(PvmHostDelete) on HOST's pvmd, then "READY" on stdout;
 *     then waits (60 s at most) for FILE to appear, holding one line:
 *       kill PID   the program itself sends SIGKILL to PID (HOST's
 *                  pvmd: the hosts of run-hosts.sh are network
 *                  namespaces of one machine, one pid space); the clock
 *                  starts just before kill(2)
 *       run CMD    system(CMD) (e.g. "ip -n NS link set eth0 down"); the
 *                  clock starts when it has returned
 *     and prints "notice MS ms" when the HostDelete notify arrives, or
 *     "notice timeout SECS" if it has not come within SECS (-t, default
 *     240).
 * The time is CLOCK_MONOTONIC, in ms.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "pvm3.h"
#include "stats.h"

#define TAG_HOSTDEL 91

/* pvm_addhosts of the comma-separated names; 0, or -1 on any failure. */
static int
addhosts(char *list)
{
	char *names[64], *save = NULL, *tok;
	int infos[64], n = 0, cc, i, bad = 0;
	double t0, t1;

	for (tok = strtok_r(list, ",", &save); tok != NULL && n < 64;
	     tok = strtok_r(NULL, ",", &save)) {
		names[n++] = tok;
	}
	t0 = now_us();
	cc = pvm_addhosts(names, n, infos);
	t1 = now_us();
	for (i = 0; i < n; i++) {
		if (infos[i] < 0) {
			fprintf(stderr, "hostfail: addhosts %s: %d\n", names[i],
			    infos[i]);
			bad = 1;
		}
	}
	if (cc != n || bad) {
		fprintf(stderr, "hostfail: addhosts returned %d of %d\n", cc, n);
		printf("addhosts fail\n");
		return -1;
	}
	printf("addhosts %.2f ms\n", (t1 - t0) / 1000.0);
	fflush(stdout);
	return 0;
}

/* HOST's pvmd tid from pvm_config, or -1. */
static int
host_dtid(const char *host)
{
	struct pvmhostinfo *hi;
	int nhost, narch, i;

	if (pvm_config(&nhost, &narch, &hi) < 0) {
		return -1;
	}
	for (i = 0; i < nhost; i++) {
		if (strcmp(hi[i].hi_name, host) == 0) {
			return hi[i].hi_tid;
		}
	}
	return -1;
}

/* Wait for FILE (60 s at most) and read its line into buf; 0 or -1. */
static int
wait_order(const char *file, char *buf, size_t len)
{
	FILE *f;
	int i;

	for (i = 0; i < 60000; i++) {
		if ((f = fopen(file, "r")) != NULL) {
			if (fgets(buf, (int)len, f) != NULL) {
				fclose(f);
				buf[strcspn(buf, "\n")] = '\0';
				return 0;
			}
			fclose(f);
		}
		usleep(1000);
	}
	return -1;
}

/* Notify on HOST, carry out the order in FILE, time the notify. */
static int
notice(const char *host, const char *file, int secs)
{
	struct timeval tmo = {secs, 0};
	char order[1024];
	int dtid, bufid, got = 0;
	double t0;

	if ((dtid = host_dtid(host)) < 0) {
		fprintf(stderr, "hostfail: %s is not in the machine\n", host);
		return -1;
	}
	if (pvm_notify(PvmHostDelete, TAG_HOSTDEL, 1, &dtid) < 0) {
		fprintf(stderr, "hostfail: pvm_notify failed\n");
		return -1;
	}
	printf("READY\n");
	fflush(stdout);
	if (wait_order(file, order, sizeof(order)) < 0) {
		fprintf(stderr, "hostfail: no order in %s\n", file);
		return -1;
	}
	if (strncmp(order, "kill ", 5) == 0 && atoi(order + 5) > 1) {
		t0 = now_us();
		if (kill((pid_t)atoi(order + 5), SIGKILL) < 0) {
			perror("hostfail: kill");
			return -1;
		}
	} else if (strncmp(order, "run ", 4) == 0) {
		if (system(order + 4) != 0) {
			fprintf(stderr, "hostfail: '%s' failed\n", order + 4);
			return -1;
		}
		t0 = now_us();
	} else {
		fprintf(stderr, "hostfail: bad order '%s'\n", order);
		return -1;
	}
	bufid = pvm_trecv(-1, TAG_HOSTDEL, &tmo);
	if (bufid > 0 && pvm_upkint(&got, 1, 1) >= 0 && got == dtid) {
		printf("notice %.2f ms\n", (now_us() - t0) / 1000.0);
	} else if (bufid == 0) {
		printf("notice timeout %d\n", secs);
	} else {
		fprintf(stderr, "hostfail: trecv %d, host 0x%x\n", bufid, got);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char *add = NULL, *host = NULL, *file = NULL;
	int secs = 240, i, rc = 0;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-a") == 0 && i + 1 < argc) {
			add = argv[++i];
		} else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			host = argv[++i];
		} else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc) {
			file = argv[++i];
		} else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc) {
			secs = atoi(argv[++i]);
		} else {
			fprintf(stderr, "usage: hostfail [-a HOST,...] "
			                "[-n HOST -g FILE [-t SECS]]\n");
			return 1;
		}
	}
	if ((host != NULL) != (file != NULL) || pvm_mytid() < 0) {
		return 1;
	}
	if (add != NULL && addhosts(add) < 0) {
		rc = 1;
	} else if (host != NULL && notice(host, file, secs) < 0) {
		rc = 1;
	}
	pvm_exit();
	return rc;
}
