/*
 * fakepe.c: a stand-in PE for oshrun's tests.  A plain libpvm3 task that
 * speaks launch.h's protocol (hello, table, done or abort) and then ends
 * the way argv asks, so that every way a PE can end is seen by oshrun.
 *
 *   fakepe MARK MODE [K [STATUS]]
 *
 * MARK only makes the processes easy to find (pgrep -f).  PE K does what
 * MODE says; the other PEs end normally in modes ok, stdin and fail, and
 * otherwise wait to be stopped by oshrun:
 *   ok           every PE: DONE, exit 0
 *   stdin        every PE prints what it reads on stdin, then as ok
 *   wait         every PE waits to be stopped
 *   fail K S     PE K exits S after DONE
 *   kill K       PE K dies of SIGKILL after the table
 *   abort K S    PE K sends ABORT(S), then waits to be stopped
 *   nodone K S   PE K exits S (default 0) without DONE
 *   hang K       PE K ignores SIGTERM and waits (SIGKILL ends it)
 *   early K      PE K dies of SIGKILL before its hello
 *   badhello K   PE K's hello names the wrong tid
 *   late K       PE K waits 30 s before its hello (oshrun is killed
 *                meanwhile: t-shmem-hosts.sh)
 *   cpus         every PE prints "PE p cpus LIST bound B" (the CPUs it
 *                may run on, $PVMSHMEM_BOUND or -), then as ok
 * Every PE prints "PE p npes n tid t" and "PE p table ok|bad: why".
 * An alarm ends a forgotten PE after 60 s.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launch.h"
#include "pvm3.h"

struct fake {
	int pe, npes, launcher, tid, k, status;
	const char *mode;
};

/* The decimal value of environment variable name, or exit 3. */
static int
env_int(const char *name)
{
	const char *v = getenv(name);

	if (v == NULL) {
		printf("fakepe: %s is not set\n", name);
		exit(3);
	}
	return atoi(v);
}

static void
wait_forever(void)
{
	for (;;) {
		pause();
	}
}

static void
send_hello(const struct fake *f)
{
	struct shm_hello h;

	memset(&h, 0, sizeof(h));
	h.magic = SHM_HELLO_MAGIC;
	h.pe = f->pe;
	h.tid = strcmp(f->mode, "badhello") == 0 && f->pe == f->k ? f->tid + 1
	                                                          : f->tid;
	h.pid = (int32_t)getpid();
	h.data_fd = -1;
	h.heap_fd = -1;
	h.heap_len = (uint64_t)f->pe * 4096;
	pvm_initsend(PvmDataRaw);
	pvm_pkbyte((char *)&h, (int)sizeof(h), 1);
	if (pvm_send(f->launcher, SHM_TAG_HELLO) < 0) {
		printf("fakepe: PE %d cannot send its hello\n", f->pe);
		exit(3);
	}
}

/* Receive the table and check it against what this PE knows. */
static void
check_table(const struct fake *f)
{
	struct shm_hello h;
	const char *why = NULL;
	int n = -1, nag = -1, i, j, *tids;

	if (pvm_recv(f->launcher, SHM_TAG_TABLE) < 0 ||
	    pvm_upkint(&n, 1, 1) < 0 || pvm_upkint(&nag, 1, 1) < 0) {
		printf("fakepe: PE %d got no table\n", f->pe);
		exit(3);
	}
	for (i = 0; i < nag; i++) {
		struct shm_agent_ent e;

		pvm_upkbyte((char *)&e, (int)sizeof(e), 1);
	}
	if (n != f->npes || (tids = calloc((size_t)n, sizeof(int))) == NULL) {
		printf("PE %d table bad: npes %d\n", f->pe, n);
		return;
	}
	for (i = 0; i < n && why == NULL; i++) {
		if (pvm_upkbyte((char *)&h, (int)sizeof(h), 1) < 0) {
			why = "short";
		} else if (h.pe != i || h.heap_len != (uint64_t)i * 4096) {
			why = "entries out of order";
		} else if (i == f->pe && h.tid != f->tid) {
			why = "my entry has another tid";
		}
		tids[i] = h.tid;
		for (j = 0; j < i && why == NULL; j++) {
			if (tids[j] == h.tid) {
				why = "two PEs with one tid";
			}
		}
	}
	free(tids);
	printf("PE %d table %s%s\n", f->pe,
	    why == NULL ? "ok" : "bad: ", why == NULL ? "" : why);
}

/* Print the bytes read on stdin (at most one line of them). */
static void
echo_stdin(const struct fake *f)
{
	char line[128] = "";
	size_t len;

	if (fgets(line, sizeof(line), stdin) == NULL) {
		printf("PE %d stdin: EOF\n", f->pe);
		return;
	}
	len = strcspn(line, "\n");
	line[len] = '\0';
	printf("PE %d stdin: %s\n", f->pe, line);
}

static void
send_empty(const struct fake *f, int tag)
{
	pvm_initsend(PvmDataDefault);
	pvm_send(f->launcher, tag);
}

/* The CPUs we may run on, and whether oshrun says it pinned us. */
static void
print_cpus(const struct fake *f)
{
	cpu_set_t set;
	const char *b = getenv(SHM_ENV_BOUND);
	int cpu, first = 1;

	printf("PE %d cpus ", f->pe);
	if (sched_getaffinity(0, sizeof(set), &set) == 0) {
		for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
			if (CPU_ISSET(cpu, &set)) {
				printf("%s%d", first ? "" : ",", cpu);
				first = 0;
			}
		}
	}
	printf(" bound %s\n", b != NULL ? b : "-");
}

/* The end PE k chose; returns only for the PEs that end normally. */
static void
act(const struct fake *f)
{
	int mine = f->pe == f->k;

	fflush(stdout);
	if (strcmp(f->mode, "kill") == 0 && mine) {
		raise(SIGKILL);
	} else if (strcmp(f->mode, "abort") == 0 && mine) {
		pvm_initsend(PvmDataDefault);
		pvm_pkint((int *)&f->status, 1, 1);
		pvm_send(f->launcher, SHM_TAG_ABORT);
		wait_forever();
	} else if (strcmp(f->mode, "nodone") == 0 && mine) {
		pvm_exit();
		exit(f->status);
	} else if (strcmp(f->mode, "hang") == 0 && mine) {
		signal(SIGTERM, SIG_IGN);
		wait_forever();
	} else if (strcmp(f->mode, "ok") != 0 &&
	           strcmp(f->mode, "stdin") != 0 &&
	           strcmp(f->mode, "cpus") != 0 &&
	           strcmp(f->mode, "fail") != 0) {
		wait_forever();
	}
}

int
main(int argc, char **argv)
{
	struct fake f;

	if (argc < 3) {
		fprintf(stderr, "usage: fakepe MARK MODE [K [STATUS]]\n");
		return 3;
	}
	alarm(60);
	f.mode = argv[2];
	f.k = argc > 3 ? atoi(argv[3]) : -1;
	f.status = argc > 4 ? atoi(argv[4]) : 0;
	f.npes = env_int(SHM_ENV_NPES);
	f.pe = env_int(SHM_ENV_PE);
	f.launcher = env_int(SHM_ENV_LAUNCHER);
	if (strcmp(f.mode, "early") == 0 && f.pe == f.k) {
		raise(SIGKILL);
	}
	if (strcmp(f.mode, "late") == 0 && f.pe == f.k) {
		sleep(30);
	}
	if ((f.tid = pvm_mytid()) < 0) {
		printf("fakepe: PE %d cannot enrol\n", f.pe);
		return 3;
	}
	send_hello(&f);
	check_table(&f);
	printf("PE %d npes %d tid t%x\n", f.pe, f.npes, (unsigned)f.tid);
	if (strcmp(f.mode, "stdin") == 0) {
		echo_stdin(&f);
	}
	if (strcmp(f.mode, "cpus") == 0) {
		print_cpus(&f);
	}
	act(&f);
	send_empty(&f, SHM_TAG_DONE);
	pvm_exit();
	return strcmp(f.mode, "fail") == 0 && f.pe == f.k ? f.status : 0;
}
