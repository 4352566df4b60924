/*
 * fdpass.c: descriptors passed over a Unix socket (fdpass.h).
 */
#include "fdpass.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

ssize_t
fdpass_recv(int s, struct iovec *iov, int n, int flags,
    int fds[FDPASS_MAX], size_t *nfd)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int) * FDPASS_MAX)];
	} ctl;
	struct cmsghdr *cm;
	struct msghdr mh;
	int got[FDPASS_MAX];
	size_t i, k;
	ssize_t r;

	*nfd = 0;
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = iov;
	mh.msg_iovlen = (size_t)n;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	do {
		r = recvmsg(s, &mh, flags | MSG_CMSG_CLOEXEC);
	} while (r == -1 && errno == EINTR);
	if (r < 0)
		return r;
	for (cm = CMSG_FIRSTHDR(&mh); cm != NULL; cm = CMSG_NXTHDR(&mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (k > FDPASS_MAX)
			k = FDPASS_MAX; /* the kernel truncated the rest */
		memcpy(got, CMSG_DATA(cm), k * sizeof(int));
		for (i = 0; i < k; i++) {
			if (*nfd < FDPASS_MAX)
				fds[(*nfd)++] = got[i];
			else
				close(got[i]);
		}
	}
	return r;
}

ssize_t
fdpass_send(int s, const struct iovec *iov, int n, int flags, int fd)
{
	union {
		struct cmsghdr hdr;
		char buf[CMSG_SPACE(sizeof(int))];
	} ctl;
	struct cmsghdr *cm;
	struct msghdr mh;
	ssize_t r;

	memset(&mh, 0, sizeof(mh));
	memset(&ctl, 0, sizeof(ctl));
	mh.msg_iov = (struct iovec *)iov;
	mh.msg_iovlen = (size_t)n;
	mh.msg_control = ctl.buf;
	mh.msg_controllen = sizeof(ctl.buf);
	cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	do {
		r = sendmsg(s, &mh, flags | MSG_NOSIGNAL);
	} while (r == -1 && errno == EINTR);
	return r;
}
