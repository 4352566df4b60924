/*
 * rawsock: the limits a message-passing layer on Unix sockets can reach
 * on this machine, measured the same way as pingpong measures PVM:
 *
 *   raw_*    two processes ping-pong over one Unix stream socket pair
 *   relay_*  the same through a relay process that forwards bytes both
 *            ways (what any daemon-routed path must at least pay)
 *
 *   rawsock [ITERS]                   both of the above
 *   rawsock -tcp-echo PORT            serve one TCP connection on PORT
 *                                     (any address), echoing (60 s to
 *                                     come)
 *   rawsock -tcp HOST PORT [ITERS]    tcp_*: ping-pong over TCP with
 *                                     such an echo on HOST (TCP_NODELAY
 *                                     on both ends): the floor of a path
 *                                     between two hosts
 *                                     (bench/run-hosts.sh)
 *
 * Output lines are "name value unit" (median round trip for 8 bytes,
 * one-way bandwidth size / (rtt / 2) for the larger sizes).
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

/* -tcp-echo PORT: accept one connection (60 s at most), echo on it. */
static int
tcp_echo(const char *port)
{
	struct sockaddr_in6 a;
	struct pollfd p;
	int s, c, one = 1;

	memset(&a, 0, sizeof(a));
	a.sin6_family = AF_INET6;
	a.sin6_port = htons((unsigned short)atoi(port));
	if ((s = socket(AF_INET6, SOCK_STREAM, 0)) < 0 ||
	    setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(s, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(s, 1) < 0) {
		perror("rawsock: listen");
		return 1;
	}
	p.fd = s;
	p.events = POLLIN;
	if (poll(&p, 1, 60000) != 1 || (c = accept(s, NULL, NULL)) < 0) {
		return 1;
	}
	close(s);
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	echo(c);
	return 0;
}

/* -tcp HOST PORT [ITERS]: connect (10 s of tries), report tcp_*. */
static int
tcp_client(const char *host, const char *port, int iters)
{
	struct addrinfo hints, *res, *ai;
	int s = -1, one = 1, i;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(host, port, &hints, &res) != 0) {
		fprintf(stderr, "rawsock: cannot resolve %s\n", host);
		return 1;
	}
	for (i = 0; i < 100 && s < 0; i++) {
		for (ai = res; ai != NULL && s < 0; ai = ai->ai_next) {
			if ((s = socket(ai->ai_family, SOCK_STREAM, 0)) < 0)
				continue;
			if (connect(s, ai->ai_addr, ai->ai_addrlen) != 0) {
				close(s);
				s = -1;
			}
		}
		if (s < 0)
			usleep(100000);
	}
	freeaddrinfo(res);
	if (s < 0) {
		fprintf(stderr, "rawsock: cannot connect to %s\n", host);
		return 1;
	}
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	report("tcp", s, iters);
	close(s);
	return 0;
}

int
main(int argc, char **argv)
{
	int iters = argc > 1 ? atoi(argv[1]) : 2000;
	int ab[2], bc[2];

	signal(SIGPIPE, SIG_IGN);
	if (argc == 3 && strcmp(argv[1], "-tcp-echo") == 0)
		return tcp_echo(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "-tcp") == 0)
		return tcp_client(argv[2], argv[3],
		    argc > 4 ? atoi(argv[4]) : 2000);
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
