/*
 * oshrun.c: oshrun -np N [-H host[:n],...] [--] program [args...], the
 * launcher of SHMEM jobs (docs/shmem.md, "Launching").
 *
 * oshrun enrols with the pvmd (starting one if none runs, and halting it
 * at the end), places the PEs on the hosts (oshrun-place.c), forks and
 * execs those of its own host itself and has an agent on each other host
 * of the job start that host's (oshrun-host.c), hands them the table of
 * their hellos (launch.h) and watches them until all have ended.  One PE
 * that fails, or a host that leaves, ends the job: the others get
 * SIGTERM, then SIGKILL.  Every wait is bounded by OSH_POLL_MS or watched
 * by waitpid or a pvmd notify, so oshrun never hangs on a PE that died.
 *
 * Started with argv[1] SHM_AGENT_ARG, oshrun is an agent (agent.h).
 */
#include "oshrun.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "bind.h"
#include "pvm3.h"

volatile sig_atomic_t osh_signal;

static void
osh_usage(FILE *f)
{
	fprintf(f, "usage: oshrun -np N [-H host[:n],...] [--] program "
	           "[args...]\n"
	           "       oshrun -n N [--host host[:n],...] [--] program "
	           "[args...]\n"
	           "Runs N copies of program (PEs 0..N-1) on the virtual "
	           "machine, starting a\n"
	           "pvmd if none runs: consecutive PEs in one block per host, "
	           "this host first,\n"
	           "then the others; or on the hosts of -H, host:n taking n "
	           "PEs.  Exits with\n"
	           "the PEs' status (docs/shmem.md).\n");
}

static int
osh_bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "oshrun: %s%s%s\n", what, arg != NULL ? ": " : "",
	    arg != NULL ? arg : "");
	osh_usage(stderr);
	return OSH_EXIT_USAGE;
}

/*
 * Parse the command line into job (npes, argv).  Returns -1 to go on, or
 * the status to exit with at once (usage or --help).
 */
static int
osh_parse(int argc, char **argv, struct osh_job *job)
{
	char *end;
	long n;
	int i;

	job->npes = 0;
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			osh_usage(stdout);
			return 0;
		}
		if (strcmp(argv[i], "-H") == 0 ||
		    strcmp(argv[i], "--host") == 0) {
			if (++i == argc) {
				return osh_bad_usage(
				    "a list of hosts must follow", argv[i - 1]);
			}
			job->hostlist = argv[i];
			continue;
		}
		if (strcmp(argv[i], "-np") != 0 && strcmp(argv[i], "-n") != 0) {
			return osh_bad_usage("unknown option", argv[i]);
		}
		if (++i == argc) {
			return osh_bad_usage(
			    "a number must follow", argv[i - 1]);
		}
		errno = 0;
		n = strtol(argv[i], &end, 10);
		if (errno != 0 || end == argv[i] || *end != '\0' || n < 1 ||
		    n > OSH_MAX_PES) {
			return osh_bad_usage(
			    "bad number of PEs (1 to 4096)", argv[i]);
		}
		job->npes = (int)n;
	}
	if (job->npes == 0) {
		return osh_bad_usage("-np N is missing", NULL);
	}
	if (i == argc) {
		return osh_bad_usage("no program to run", NULL);
	}
	job->argv = &argv[i];
	return -1;
}

static void
osh_on_signal(int sig)
{
	osh_signal = sig;
}

/* SIGINT, SIGTERM and SIGHUP end the job (no SA_RESTART: waits end). */
static int
osh_catch_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = osh_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (sigaction(sigs[i], &sa, NULL) != 0) {
			return -1;
		}
	}
	return 0;
}

/*
 * Enrol, starting a pvmd if none runs.  Returns 1 if oshrun started it,
 * 0 if one was running, -1 on failure (said on stderr).
 */
static int
osh_enrol(struct osh_job *job)
{
	int started = 0;

	osh_bind_save(); /* before the pvmd may bind us */
	pvm_setopt(PvmAutoErr, 0);
	if ((job->mytid = pvm_mytid()) < 0) {
		if (pvm_start_pvmd(0, NULL, 0) < 0 ||
		    (job->mytid = pvm_mytid()) < 0) {
			fprintf(stderr, "oshrun: no pvmd runs and none could "
			                "be started\n");
			return -1;
		}
		started = 1;
	}
	return started;
}

/* Start the N PEs; -1, or the status to end with if one could not start. */
static int
osh_start_all(struct osh_job *job)
{
	int i, rc;

	for (i = 0; i < job->npes; i++) {
		if ((rc = osh_pe_start(job, i)) != 0) {
			return rc;
		}
	}
	return -1;
}

/* Watch the job until it ends; returns oshrun's exit status. */
static int
osh_supervise(struct osh_job *job)
{
	int rc;

	for (;;) {
		if (osh_signal != 0) {
			fprintf(stderr, "oshrun: %s: stopping the PEs\n",
			    strsignal(osh_signal));
			return 128 + osh_signal;
		}
		osh_pe_reap(job);
		if ((rc = osh_pe_judge(job, osh_now_ms())) >= 0) {
			return rc;
		}
		if (osh_pe_all_judged(job)) {
			return job->first_status;
		}
		if (!job->table_sent && job->nhello == job->npes &&
		    (rc = osh_msg_table(job)) >= 0) {
			return rc;
		}
		if ((rc = osh_msg_wait(job, OSH_POLL_MS)) >= 0) {
			return rc;
		}
	}
}

/* Leave the virtual machine; halt it if oshrun started it. */
static void
osh_leave(int started)
{
	if (started) {
		if (pvm_halt() < 0) {
			fprintf(stderr, "oshrun: could not halt the pvmd it "
			                "started\n");
		}
	} else {
		pvm_exit();
	}
}

int
main(int argc, char **argv)
{
	struct osh_job job;
	int rc, started;

	if (argc > 1 && strcmp(argv[1], SHM_AGENT_ARG) == 0) {
		return agent_main();
	}
	memset(&job, 0, sizeof(job));
	if ((rc = osh_parse(argc, argv, &job)) >= 0) {
		return rc;
	}
	if (osh_catch_signals() != 0) {
		fprintf(stderr, "oshrun: sigaction: %s\n", strerror(errno));
		return OSH_EXIT_FAIL;
	}
	if ((job.pes = calloc((size_t)job.npes, sizeof(*job.pes))) == NULL) {
		fprintf(stderr, "oshrun: out of memory\n");
		return OSH_EXIT_FAIL;
	}
	if ((started = osh_enrol(&job)) < 0) {
		free(job.pes);
		return OSH_EXIT_FAIL;
	}
	if ((rc = osh_place(&job)) < 0 && (rc = osh_host_start(&job)) < 0 &&
	    (rc = osh_start_all(&job)) < 0) {
		rc = osh_supervise(&job);
	}
	osh_host_stop(&job);
	osh_pe_stop(&job);
	osh_host_wait(&job);
	osh_leave(started);
	free(job.hosts);
	free(job.pes);
	return rc;
}
