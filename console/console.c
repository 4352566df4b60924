/*
 * console.c: main() of the `pvm` console: start or join the virtual
 * machine, run ~/.pvmrc, then read commands.
 *
 * Input is read with poll() together with the sockets libpvm uses
 * (pvm_getfds), so the output of running jobs is printed while the
 * console waits for a line.  From a terminal there is a "pvm> " prompt;
 * from a pipe or file there is none and commands are not echoed, so
 * `echo conf | pvm` prints only what conf prints.  At the end of the
 * input the console waits for its jobs to finish, then leaves the pvmd
 * running, as `quit` does; `halt` stops the pvmd too.
 *
 * On a terminal, with libedit built in, lines are edited through edit.c
 * (history, completion) one key at a time, in the same poll() loop.
 */
#include "pvm3.h"
#include "console.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CONSOLE_MAXFDS 16
#define CONSOLE_PROMPT "pvm> "

int console_tid;
int console_prompted;

static int console_interactive; /* stdin is a terminal */
static int console_editing;     /* lines come through edit.c */

/* Bytes read from stdin that do not yet make a whole line. */
static char *console_inbuf;
static size_t console_inlen, console_incap;

void
console_async_begin(void)
{
	if (console_editing) {
		edit_async_output_begin();
		return;
	}
	if (console_prompted) {
		fputc('\n', stdout);
		console_prompted = 0;
	}
}

/* Leave the console, the pvmd still running. */
static void
console_quit(void)
{
	printf("\nConsole: exit handler called\npvmd still running.\n");
	fflush(stdout);
	edit_finish();
	pvm_exit();
	exit(0);
}

/* The pvmd is gone: say so (unless libpvm said it) and leave. */
static void
console_lost(int cc, int reported)
{
	console_async_begin();
	if (!reported) {
		util_perror("pvm_nrecv", cc);
	}
	edit_finish();
	exit(1);
}

/* Act on a command's result: CMD_QUIT and CMD_HALT do not return. */
static void
console_result(int rc)
{
	if (rc == CMD_QUIT) {
		console_quit();
	}
	if (rc == CMD_HALT) {
		fflush(stdout);
		edit_finish();
		exit(0);
	}
}

/* Start our pvmd (passing the console's arguments) or join the one that
 * runs; then enrol. */
static void
console_connect(int argc, char **argv)
{
	int cc;

	/* Errors of the start are ours to print, "pvmd already running"
	 * is not one. */
	pvm_setopt(PvmAutoErr, 0);
	cc = pvm_start_pvmd(argc - 1, argv + 1, 1);
	if (cc == PvmDupHost) {
		printf("pvmd already running.\n");
	} else if (cc < 0) {
		fprintf(stderr, "pvm: can't start pvmd: %s\n",
		    util_errtext(cc));
	}
	if ((console_tid = pvm_mytid()) < 0) {
		fprintf(stderr, "pvm: can't contact pvmd: %s\n",
		    util_errtext(console_tid));
		exit(1);
	}
	/* Like PVM's console: survive a "reset" typed in another console. */
	pvm_setopt(PvmNoReset, 1);
	/*
	 * The values PVM 3.4.6's console shows in "getopt": libpvm reports
	 * the failures of the commands' calls; our own output and trace
	 * tids, and so our children's, are -1 (their output goes to the
	 * pvmd's log, as for 0).
	 */
	pvm_setopt(PvmAutoErr, 1);
	pvm_setopt(PvmRoute, PvmDontRoute);
	pvm_setopt(PvmResvTids, 1);
	pvm_setopt(PvmTraceOptions, 1);
	pvm_setopt(PvmSelfOutputTid, -1);
	pvm_setopt(PvmSelfTraceTid, -1);
}

/* Run the whole lines in the input buffer; at EOF the rest too. */
static void
console_lines(int eof)
{
	char *nl, *line = console_inbuf;
	size_t left = console_inlen;
	int rc;

	while ((nl = memchr(line, '\n', left)) != NULL) {
		*nl = '\0';
		console_prompted = 0;
		rc = cmd_line(line);
		left -= (size_t)(nl - line) + 1;
		line = nl + 1;
		console_result(rc);
		if (job_drain() < 0) {
			/* noticed again, and left on, by the loop */
			break;
		}
	}
	memmove(console_inbuf, line, left);
	console_inlen = left;
	if (eof && console_inlen > 0) {
		console_inbuf[console_inlen] = '\0';
		console_inlen = 0;
		console_result(cmd_line(console_inbuf));
	}
}

/* Read what stdin has; returns 1 at end of input. */
static int
console_read(void)
{
	char *nb;
	ssize_t n;

	if (console_incap - console_inlen < 4097) {
		console_incap = console_incap ? console_incap * 2 : 8192;
		if ((nb = realloc(console_inbuf, console_incap)) == NULL) {
			fprintf(stderr, "pvm: out of memory\n");
			exit(1);
		}
		console_inbuf = nb;
	}
	n = read(STDIN_FILENO, console_inbuf + console_inlen, 4096);
	if (n < 0) {
		return errno == EINTR || errno == EAGAIN ? 0 : 1;
	}
	console_inlen += (size_t)n;
	console_lines(n == 0);
	return n == 0;
}

/* stdin has a key for the line editor; returns 1 at end of input. */
static int
console_edit_key(void)
{
	char *line;

	switch (edit_read_ready(&line)) {
	case EDIT_LINE:
		console_result(cmd_line(line));
		/* the pvmd going away is noticed, and left on, by the loop */
		(void)job_drain();
		return 0;
	case EDIT_EOF:
		return 1;
	default:
		return 0;
	}
}

/* Wait for input or messages; returns 1 at end of input. */
static int
console_wait(void)
{
	struct pollfd pfd[CONSOLE_MAXFDS + 1];
	int *fds, nfd, i, cc;

	if ((cc = job_drain()) < 0) {
		console_lost(cc, 1);
	}
	if (console_editing) {
		edit_prompt();
	} else if (console_interactive && !console_prompted) {
		fputs(CONSOLE_PROMPT, stdout);
		console_prompted = 1;
	}
	fflush(stdout);
	pfd[0].fd = STDIN_FILENO;
	pfd[0].events = POLLIN;
	if ((nfd = pvm_getfds(&fds)) < 0) {
		console_lost(nfd, 1);
	}
	if (nfd > CONSOLE_MAXFDS) {
		nfd = CONSOLE_MAXFDS;
	}
	for (i = 0; i < nfd; i++) {
		pfd[i + 1].fd = fds[i];
		pfd[i + 1].events = POLLIN;
	}
	if (poll(pfd, (nfds_t)nfd + 1, -1) < 0) {
		return 0;
	}
	if (nfd > 0 && (pfd[1].revents & (POLLHUP | POLLERR | POLLNVAL)) &&
	    !(pfd[1].revents & POLLIN)) {
		console_lost(PvmSysErr, 0);
	}
	if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
		return console_editing ? console_edit_key() : console_read();
	}
	return 0;
}

/* Run ~/.pvmrc, as PVM's console does before reading commands. */
static void
console_rc(void)
{
	char path[4096];

	if (util_home_file(".pvmrc", path, sizeof path) == 0) {
		console_result(cmd_file(path));
	}
}

int
main(int argc, char **argv)
{
	int cc;

	signal(SIGPIPE, SIG_IGN);
	console_interactive = isatty(STDIN_FILENO);
	/* On a terminal ^C does not end the console, as in PVM 3.4.6: the
	 * line typed so far is dropped (by the kernel, or by edit.c). */
	if (console_interactive) {
		signal(SIGINT, SIG_IGN);
	}
	console_connect(argc, argv);
	console_rc();
	/* After ~/.pvmrc, whose commands print as from a script. */
	console_editing = console_interactive && edit_init();
	while (!console_wait()) {
		;
	}
	console_async_begin();
	if ((cc = job_wait_all()) < 0) {
		console_lost(cc, 1);
	}
	console_quit();
	return 0;
}
