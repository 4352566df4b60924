/*
 * fuzz_console.c: the console's command lines and the job output it
 * reads, with a fake virtual machine (fake_pvm.c) in place of the pvmd.
 *
 * Covered: cmd.c (words, quotes, backslashes, comments, alias expansion
 * and its depth, dispatch), every command's argument parsing (tids,
 * counts, signals, options, spawn's flags, redirections and traces,
 * hosts, put, tickle, trace's words), and job.c's reading of task output
 * messages (int tid, int count, bytes) and of TaskExit notifies (the
 * jobs of spawn -@).
 *
 * Input: records of (kind, length, bytes).  An even kind is a command
 * line; an odd kind is an output message for the console's jobs.  After
 * each record the console takes its messages, as its loop does.
 *
 * cmd-env.c, job.c, cmd-trace.c and cmd-spawn.c are included rather than
 * linked: the aliases, jobs and trace settings they keep are cleared
 * after each input (so that an input means the same every time), and
 * spawn's output and trace files are opened through fz_fopen, on
 * /dev/null: "spawn ->/etc/passwd" must not write there.  The
 * environment that setenv changes is restored as well.
 */
#include "fake_pvm.h"
#include "fuzz.h"

int console_tid = FAKE_CONSOLE_TID;
int console_prompted;

static FILE *fz_fopen(const char *path, const char *mode);
#define fopen fz_fopen
#include "cmd-spawn.c"
#undef fopen
#include "cmd-env.c"
#include "cmd-trace.c"
#include "job.c"

/* A job's file: checked, then /dev/null. */
static FILE *
fz_fopen(const char *path, const char *mode)
{
	FZ_CHECK(path[0] != '\0');
	FZ_CHECK(strcmp(mode, "w") == 0 || strcmp(mode, "a") == 0 ||
	    strcmp(mode, "wx") == 0);
	return fopen("/dev/null", mode[0] == 'a' ? "a" : "w");
}

void
console_async_begin(void)
{
	console_prompted = 0;
}

/* The environment at start, put back after each input. */
static char **fz_environ;

int LLVMFuzzerInitialize(int *argc, char ***argv);

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t n, i;

	(void)argc;
	(void)argv;
	/* What the console prints is not under test; its crashes are. */
	FZ_CHECK(freopen("/dev/null", "w", stdout) != NULL);
	for (n = 0; environ[n] != NULL; n++)
		continue;
	fz_environ = calloc(n + 1, sizeof(*fz_environ));
	FZ_CHECK(fz_environ != NULL);
	for (i = 0; i < n; i++)
		FZ_CHECK((fz_environ[i] = strdup(environ[i])) != NULL);
	return 0;
}

static void
reset(void)
{
	char **e;

	while (aliases != NULL)
		env_alias_remove(aliases->name);
	while (jobs != NULL)
		job_free(jobs);
	job_lastno = 0;
	trace_started = trace_buf = 0;
	trace_opt = PvmTraceFull;
	fake_reset();
	clearenv();
	for (e = fz_environ; *e != NULL; e++)
		putenv(*e);
}

static void
command(const uint8_t *p, size_t n)
{
	char *line = fz_str(p, n);
	int rc = cmd_line(line);

	FZ_CHECK(rc == CMD_OK || rc == CMD_QUIT || rc == CMD_HALT);
	free(line);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p;
	struct fz f;
	unsigned kind;
	size_t n;

	fz_init(&f, data, size);
	while (f.n > 0) {
		kind = fz_byte(&f);
		p = fz_piece(&f, &n);
		if (kind & 1)
			fake_post(kind >> 1, p, n);
		else
			command(p, n);
		FZ_CHECK(job_drain() == 0);
	}
	reset();
	return 0;
}
