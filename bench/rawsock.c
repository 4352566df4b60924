/*
 * rawsock: the limits a message-passing layer on Unix sockets can reach
 * on this machine, measured the same way as pingpong measures PVM:
 *
 *   raw_*    two processes ping-pong over one Unix stream socket pair
 *   relay_*  the same through a relay process that forwards bytes both
 *            ways (what any daemon-routed path must at least pay)
 *
 * Output lines are "name value unit" (median round trip for 8 bytes,
 * one-way bandwidth size / (rtt / 2) for the larger sizes).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "stats.h"

static int
full_io(int fd, char *buf, size_t n, int wr)
{
	size_t off = 0;
	ssize_t r;

	while (off < n) {
		r = wr ? write(fd, buf + off, n - off) : read(fd, buf + off,
		    n - off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		off += (size_t)r;
	}
	return 0;
}

/* Echo peer: read a length-prefixed message, send it back. */
static void
echo(int fd)
{
	char *buf = NULL;
	size_t cap = 0;
	unsigned len;

	while (full_io(fd, (char *)&len, sizeof(len), 0) == 0) {
		if (len > cap) {
			free(buf);
			cap = len;
			buf = malloc(cap);
		}
		if (full_io(fd, buf, len, 0) != 0)
			break;
		full_io(fd, (char *)&len, sizeof(len), 1);
		full_io(fd, buf, len, 1);
	}
	_exit(0);
}

/* Relay: copy bytes between a and b in both directions until EOF. */
static void
relay(int a, int b)
{
	static char buf[1 << 20];
	struct pollfd p[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
	ssize_t n;
	int i;

	for (;;) {
		if (poll(p, 2, -1) < 0)
			continue;
		for (i = 0; i < 2; i++) {
			if (!(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			n = read(p[i].fd, buf, sizeof(buf));
			if (n <= 0)
				_exit(0);
			if (full_io(p[1 - i].fd, buf, (size_t)n, 1) != 0)
				_exit(0);
		}
	}
}

static double
rtt(int fd, char *buf, int len)
{
	unsigned size = (unsigned)len;
	double t0 = now_us();

	full_io(fd, (char *)&size, sizeof(size), 1);
	full_io(fd, buf, size, 1);
	full_io(fd, (char *)&size, sizeof(size), 0);
	full_io(fd, buf, size, 0);
	return now_us() - t0;
}

static void
report(const char *prefix, int fd, int iters)
{
	int i;

	printf("%s_rtt_8 %.2f us\n", prefix, median_trip(rtt, fd, 8, iters));
	for (i = 0; i < BW_NSIZES; i++) {
		double us = median_trip(rtt, fd, bw_sizes[i],
		    bw_reps(bw_sizes[i]));

		printf("%s_%s %.1f MB/s\n", prefix, bw_names[i],
		    2.0 * bw_sizes[i] / us);
	}
}

int
main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int ab[2], bc[2];

	signal(SIGPIPE, SIG_IGN);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, ab) != 0)
		return 1;
	if (fork() == 0) {
		close(ab[0]);
		echo(ab[1]);
	}
	close(ab[1]);
	report("raw", ab[0], iters);
	close(ab[0]);

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, ab) != 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM, 0, bc) != 0)
		return 1;
	/* echo on ab[0] <-> relay on ab[1] and bc[1] <-> us on bc[0] */
	if (fork() == 0) {
		close(ab[1]);
		close(bc[0]);
		close(bc[1]);
		echo(ab[0]);
	}
	if (fork() == 0) {
		close(ab[0]);
		close(bc[0]);
		relay(ab[1], bc[1]);
	}
	close(ab[0]);
	close(ab[1]);
	close(bc[1]);
	report("relay", bc[0], iters);
	close(bc[0]);
	while (wait(NULL) > 0)
		;
	return 0;
}
