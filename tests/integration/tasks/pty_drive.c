/*
 * pty_drive.c: run a program on a pseudo-terminal and type at it, for
 * the console's line editing test (t-console-edit.sh).
 *
 *   pty_drive LOG PROGRAM [ARG...] < SCRIPT
 *
 * SCRIPT has one step a line:
 *   send TEXT        type TEXT; \r \n \t \e \\ and \xHH are escapes
 *   expect N TEXT    wait until everything the program wrote so far
 *                    holds TEXT (same escapes) at least N times
 *   quiet MS         wait until the program has written nothing for MS
 *                    milliseconds, as a person waits for the prompt
 *                    (keys typed while a command runs go through the
 *                    terminal's own line editing, as with any shell)
 *   shell COMMAND    run COMMAND with sh -c (e.g. stop the pvmd)
 *   exit STATUS      wait for the program to exit with STATUS
 *   # ...            a comment
 * Each expect and exit prints a PASS: or FAIL: line (tcheck.h's way).
 * Every byte the program writes is also copied to LOG.  Each wait is
 * limited to PTY_DRIVE_SECS (default 20) seconds times
 * PVM_TEST_TIMESCALE.  Exits 0 if every step passed, 1 if not, 2 on a
 * usage or system error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int pd_master = -1;
static pid_t pd_child;
static int pd_hungup; /* the program's side of the terminal is closed */
static int pd_exited, pd_status;
static FILE *pd_log;
static char *pd_out; /* what the program wrote, NUL-terminated */
static size_t pd_len, pd_cap;
static double pd_secs = 20;
static int pd_failed;
static double pd_last; /* when the program last wrote */

static void
pd_die(const char *what)
{
	perror(what);
	exit(2);
}

static double
pd_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Start PROGRAM on a new terminal of 80x24 as its controlling one. */
static void
pd_start(char **argv)
{
	struct winsize ws = {.ws_row = 24, .ws_col = 80};
	const char *slave;
	int fd;

	if ((pd_master = posix_openpt(O_RDWR | O_NOCTTY)) < 0 ||
	    grantpt(pd_master) < 0 || unlockpt(pd_master) < 0 ||
	    (slave = ptsname(pd_master)) == NULL) {
		pd_die("pty_drive: posix_openpt");
	}
	if (ioctl(pd_master, TIOCSWINSZ, &ws) < 0) {
		pd_die("pty_drive: TIOCSWINSZ");
	}
	if ((pd_child = fork()) < 0) {
		pd_die("pty_drive: fork");
	}
	if (pd_child == 0) {
		if (setsid() < 0 || (fd = open(slave, O_RDWR)) < 0 ||
		    ioctl(fd, TIOCSCTTY, 0) < 0) {
			perror("pty_drive: terminal of the child");
			_exit(127);
		}
		close(pd_master);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2) {
			close(fd);
		}
		execvp(argv[0], argv);
		perror(argv[0]);
		_exit(127);
	}
	if (fcntl(pd_master, F_SETFL, O_NONBLOCK) < 0) {
		pd_die("pty_drive: O_NONBLOCK");
	}
}

/* Keep what the program wrote. */
static void
pd_keep(const char *buf, size_t n)
{
	char *nb;

	if (pd_len + n + 1 > pd_cap) {
		pd_cap = (pd_len + n + 1) * 2;
		if ((nb = realloc(pd_out, pd_cap)) == NULL) {
			pd_die("pty_drive: realloc");
		}
		pd_out = nb;
	}
	pd_last = pd_now();
	memcpy(pd_out + pd_len, buf, n);
	pd_len += n;
	pd_out[pd_len] = '\0';
	fwrite(buf, 1, n, pd_log);
	fflush(pd_log);
}

/* Read what the program wrote within ms milliseconds; note its exit. */
static void
pd_pump(int ms)
{
	struct pollfd pfd = {.fd = pd_master, .events = POLLIN};
	char buf[4096];
	ssize_t n;

	if (!pd_hungup && poll(&pfd, 1, ms) > 0) {
		while ((n = read(pd_master, buf, sizeof buf)) > 0) {
			pd_keep(buf, (size_t)n);
		}
		/* EIO: no process has the terminal open any more. */
		if (n == 0 || (n < 0 && errno == EIO)) {
			pd_hungup = 1;
		}
	} else if (pd_hungup) {
		usleep((useconds_t)ms * 1000);
	}
	if (!pd_exited && waitpid(pd_child, &pd_status, WNOHANG) == pd_child) {
		pd_exited = 1;
	}
}

/* Decode the escapes of a script's TEXT in place; its length. */
static size_t
pd_unescape(char *s)
{
	char *start = s, *o = s, hex[3] = {0};

	for (; *s != '\0'; s++) {
		if (*s != '\\' || s[1] == '\0') {
			*o++ = *s;
			continue;
		}
		switch (*++s) {
		case 'r':
			*o++ = '\r';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'e':
			*o++ = '\033';
			break;
		case 'x':
			if (s[1] == '\0' || s[2] == '\0') {
				fprintf(stderr, "pty_drive: bad \\x\n");
				exit(2);
			}
			memcpy(hex, s + 1, 2);
			*o++ = (char)strtol(hex, NULL, 16);
			s += 2;
			break;
		default:
			*o++ = *s;
			break;
		}
	}
	*o = '\0';
	return (size_t)(o - start);
}

/* How many times text (len bytes) occurs in the output. */
static int
pd_count(const char *text, size_t len)
{
	const char *p = pd_out;
	int n = 0;

	if (pd_out == NULL || len == 0) {
		return 0;
	}
	while ((p = memmem(p, pd_len - (size_t)(p - pd_out), text, len))) {
		n++;
		p += len;
	}
	return n;
}

/* Show the end of the output, escaped, after a failure. */
static void
pd_show_tail(void)
{
	size_t from = pd_len > 400 ? pd_len - 400 : 0, i;
	unsigned char c;

	printf("  last output: \"");
	for (i = from; i < pd_len; i++) {
		c = (unsigned char)pd_out[i];
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			putchar(c);
		} else {
			printf("\\x%02x", c);
		}
	}
	printf("\"\n");
}

static void
pd_result(int ok, const char *step)
{
	printf("%s: %s\n", ok ? "PASS" : "FAIL", step);
	if (!ok) {
		pd_failed = 1;
		pd_show_tail();
	}
	fflush(stdout);
}

/* Type text at the program. */
static void
pd_send(const char *text, size_t len)
{
	struct pollfd pfd = {.fd = pd_master, .events = POLLOUT};
	ssize_t n;

	while (len > 0) {
		n = write(pd_master, text, len);
		if (n < 0 && errno == EAGAIN) {
			(void)poll(&pfd, 1, 100);
			pd_pump(0);
			continue;
		}
		if (n < 0) {
			pd_die("pty_drive: write");
		}
		text += n;
		len -= (size_t)n;
	}
	pd_pump(0);
}

static void
pd_expect(int want, const char *text, size_t len, const char *step)
{
	double end = pd_now() + pd_secs;

	while (pd_count(text, len) < want && pd_now() < end &&
	       !(pd_hungup && pd_exited)) {
		pd_pump(100);
	}
	pd_result(pd_count(text, len) >= want, step);
}

static void
pd_quiet(int ms)
{
	double end = pd_now() + pd_secs;
	size_t seen;

	do {
		seen = pd_len;
		pd_pump(ms);
	} while ((pd_len != seen || pd_now() - pd_last < ms / 1000.0) &&
	         pd_now() < end && !pd_hungup);
}

static void
pd_exit(int want, const char *step)
{
	double end = pd_now() + pd_secs;

	while (!pd_exited && pd_now() < end) {
		pd_pump(100);
	}
	pd_pump(0); /* the last bytes */
	pd_result(
	    pd_exited && WIFEXITED(pd_status) && WEXITSTATUS(pd_status) == want,
	    step);
}

/* One script line. */
static void
pd_step(char *line)
{
	char step[512];
	size_t len;
	int n;

	line[strcspn(line, "\n")] = '\0';
	snprintf(step, sizeof step, "%.500s", line);
	if (strncmp(line, "send ", 5) == 0) {
		len = pd_unescape(line + 5);
		pd_send(line + 5, len);
	} else if (sscanf(line, "expect %d ", &n) == 1 &&
	           strchr(line + 7, ' ') != NULL) {
		line = strchr(line + 7, ' ') + 1;
		len = pd_unescape(line);
		pd_expect(n, line, len, step);
	} else if (sscanf(line, "quiet %d", &n) == 1) {
		pd_quiet(n);
	} else if (strncmp(line, "shell ", 6) == 0) {
		if (system(line + 6) != 0) {
			pd_result(0, step);
		}
	} else if (sscanf(line, "exit %d", &n) == 1) {
		pd_exit(n, step);
	} else if (line[0] != '#' && line[0] != '\0') {
		fprintf(stderr, "pty_drive: bad step: %s\n", line);
		exit(2);
	}
}

/* Leave no program behind: hang up its terminal, then kill it. */
static void
pd_stop(void)
{
	double end = pd_now() + 5;

	if (pd_exited) {
		return;
	}
	close(pd_master);
	pd_hungup = 1;
	while (!pd_exited && pd_now() < end) {
		pd_pump(100);
	}
	if (!pd_exited) {
		kill(pd_child, SIGKILL);
		waitpid(pd_child, &pd_status, 0);
	}
}

int
main(int argc, char **argv)
{
	const char *s;
	char line[4096];
	int scale = 1;

	if (argc < 3) {
		fprintf(stderr, "usage: pty_drive LOG PROGRAM [ARG...]\n");
		return 2;
	}
	if ((s = getenv("PTY_DRIVE_SECS")) != NULL && atof(s) > 0) {
		pd_secs = atof(s);
	}
	if ((s = getenv("PVM_TEST_TIMESCALE")) != NULL && atoi(s) > 0) {
		scale = atoi(s);
	}
	pd_secs *= scale;
	if ((pd_log = fopen(argv[1], "w")) == NULL) {
		pd_die(argv[1]);
	}
	signal(SIGPIPE, SIG_IGN);
	pd_start(argv + 2);
	while (fgets(line, sizeof line, stdin) != NULL) {
		pd_step(line);
	}
	pd_stop();
	fclose(pd_log);
	return pd_failed;
}
