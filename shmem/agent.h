/*
 * agent.h: oshrun as the agent of one host of a SHMEM job (docs/shmem.md,
 * "Several hosts").  oshrun starts one per host of a job that spans
 * several, through the pvmds (pvm_spawn of its own binary with argv[1]
 * SHM_AGENT_ARG), and sends it SHM_TAG_JOB:
 *
 *   int npes, int first, int count    the job's size; the agent starts
 *                                     PEs first .. first+count-1 (count
 *                                     may be 0: oshrun's host)
 *   str cwd                           where the PEs start, if it exists
 *   int argc, argc x str              the program (an absolute path) and
 *                                     its arguments
 *   int nenv, nenv x str              NAME=value for the PEs
 *
 * where a str is int length (bytes, no NUL), then the bytes: lengths
 * are checked before anything is allocated (agent_job_limits).
 *
 * The agent
 *   agent-pe.c   forks and execs its PEs (stdout and stderr through pipes
 *                it passes on to oshrun as SHM_TAG_OUT / SHM_TAG_ERR,
 *                stdin /dev/null), reaps them (SHM_TAG_EXITED, after
 *                their last output), and stops them;
 *   agent-req.c  once the table has come, maps the memory of every PE of
 *                its host and does the requests of req.h on it;
 *   agent.c      the loop: PVM messages, the pipes, the children; it
 *                ends on SHM_TAG_STOP, when oshrun leaves, or when its
 *                pvmd goes away, stopping its PEs first.
 *
 * Any task of the user can send the agent a message.  Only oshrun's
 * (and its pvmd's notify that oshrun left) steer it, only the PEs' are
 * served; anything else is dropped with a line on stderr, at most
 * AGENT_DROP_LINES of them, and the agent goes on.
 */
#ifndef PVMSHMEM_AGENT_H
#define PVMSHMEM_AGENT_H

#include <poll.h>
#include <stdint.h>
#include <sys/types.h>

#include "launch.h"
#include "req.h"

/* The agent's own tag for the pvmd's notify that oshrun left. */
#define AGENT_TAG_LAUNCHER_EXIT 0x7e5a00fe

#define AGENT_MAX_ARGS 4096
#define AGENT_MAX_STR 65536
#define AGENT_POLL_MS 20
#define AGENT_TERM_MS 2000 /* SIGTERM, then SIGKILL after this */
#define AGENT_BURST 64     /* messages served between looks at pipes */
#define AGENT_DROP_LINES 20 /* lines about dropped messages, at most */

struct agent_pe {
	int pe;
	pid_t pid;    /* 0: not started */
	int out, err; /* read ends of its pipes, -1 once closed */
	int exited;   /* reaped; status holds the wait status */
	int status;
};

struct agent {
	int launcher; /* oshrun's tid (our parent) */
	int mytid;
	int npes, first, count;
	char *cwd;
	char **argv, **env; /* NULL-terminated */
	struct agent_pe *pes; /* count of them */
	int stop;             /* 1: stop the PEs and leave */
	/* after the table */
	int have_table;
	unsigned char *local;  /* npes flags: on this host */
	char **data, **heap;   /* npes mappings (local PEs only) */
	int *tids;             /* npes tids, sorted, for the source check */
	struct shm_req_limits lim;
	long dropped; /* messages of other tasks dropped so far */
};

/* agent.c */
int agent_main(void);
/* Send oshrun a message of ints then bytes (either may be empty). */
int agent_tell(struct agent *a, int tag, const int *v, int nv,
    const char *bytes, int nbytes);
/* Drop a message of task src that the agent will not take, saying so. */
void agent_drop(struct agent *a, int src, int tag, int len, const char *why);

/* agent-pe.c */
int agent_pe_start_all(struct agent *a);
int agent_pe_io(struct agent *a);
void agent_pe_reap(struct agent *a);
int agent_pe_running(const struct agent *a);
void agent_pe_stop(struct agent *a);
/* Add the pipes to a poll set; returns the count added. */
int agent_pe_pollfds(const struct agent *a, struct pollfd *p, int max);

/* agent-req.c */
int agent_req_table(struct agent *a);
void agent_req_serve(struct agent *a, int len, int src);

#endif /* PVMSHMEM_AGENT_H */
