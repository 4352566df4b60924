/*
 * fdpass.h: descriptors passed over a Unix socket with the bytes they
 * come with (SCM_RIGHTS): ring segments, for a route's hello
 * (libpvm/route.c) and for TM_RINGS (libpvm/transport.c, daemon/conn.c).
 */
#ifndef PVM_FDPASS_H
#define PVM_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

struct iovec;

#define FDPASS_MAX 4 /* descriptors taken from one read; more are closed */

/*
 * recvmsg(2) on socket s into iov[0..n) with flags (MSG_CMSG_CLOEXEC is
 * added), retried on EINTR.  Descriptors that came with the bytes go to
 * fds (up to FDPASS_MAX, *nfd of them), close-on-exec; the caller owns
 * them.  Bytes read, 0 at end of file, or -1 (errno).
 */
ssize_t fdpass_recv(int s, struct iovec *iov, int n, int flags,
    int fds[FDPASS_MAX], size_t *nfd);

/* sendmsg(2) of iov[0..n) on socket s with descriptor fd attached,
 * flags | MSG_NOSIGNAL, retried on EINTR.  Bytes written or -1. */
ssize_t fdpass_send(int s, const struct iovec *iov, int n, int flags, int fd);

#endif /* PVM_FDPASS_H */
