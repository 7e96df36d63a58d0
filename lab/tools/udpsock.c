// SPDX-License-Identifier: GPL-2.0
/* UDP socket set-up shared by the lab's senders and receivers; see udpsock.h. */

#include <arpa/inet.h>
#include <errno.h>
#include <error.h>
#include <string.h>
#include <sys/time.h>

#include "udpsock.h"

int udp_connect(struct in_addr dst, int port)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr = dst,
	};
	char str[INET_ADDRSTRLEN];
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		error(1, errno, "socket");
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
		error(1, errno, "connect %s:%d",
		      inet_ntop(AF_INET, &dst, str, sizeof(str)), port);
	return fd;
}

int udp_bind_any(int port, int rcvbuf)
{
	struct sockaddr_in addr = {
		.sin_family = AF_INET,
		.sin_port = htons(port),
		.sin_addr.s_addr = htonl(INADDR_ANY),
	};
	struct timeval tv = { .tv_sec = 0, .tv_usec = 200 * 1000 };
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		error(1, errno, "socket");
	if (rcvbuf) {
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
			       sizeof(rcvbuf)))
			error(1, errno, "setsockopt SO_RCVBUF %d", rcvbuf);
		/* Beyond net.core.rmem_max; needs CAP_NET_ADMIN. */
		setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf,
			   sizeof(rcvbuf));
	}
	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)))
		error(1, errno, "setsockopt SO_RCVTIMEO");
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		error(1, errno, "bind 0.0.0.0:%d", port);
	return fd;
}

bool udp_send_error_is_soft(int err)
{
	return err == ENOBUFS || err == EAGAIN || err == ECONNREFUSED ||
	       err == EHOSTUNREACH || err == ENETUNREACH;
}

void udp_mmsg_init(struct mmsghdr *msgs, int n, struct iovec *iov)
{
	int i;

	memset(msgs, 0, n * sizeof(*msgs));
	for (i = 0; i < n; i++) {
		msgs[i].msg_hdr.msg_iov = iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
}

void udp_fill_payload(char *buf, int from, int len)
{
	int i;

	for (i = from; i < len; i++)
		buf[i] = 'a' + i % 26;
}
