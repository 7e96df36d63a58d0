/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UDP sockets as the lab's tools use them: senders connect to one
 * destination and batch with sendmmsg(); receivers bind to a port on
 * every address and wake up now and then so a signal racing a read is
 * never lost.  Failures to set a socket up are fatal (error(1, ...)).
 */
#ifndef LAB_UDPSOCK_H
#define LAB_UDPSOCK_H

#include <netinet/in.h>
#include <stdbool.h>
#include <sys/socket.h>

/* A UDP socket connect()ed to @dst:@port. */
int udp_connect(struct in_addr dst, int port);
/*
 * A UDP socket bound to 0.0.0.0:@port with a 200 ms SO_RCVTIMEO, and,
 * when @rcvbuf is not 0, that receive buffer (forced past rmem_max when
 * the caller may).
 */
int udp_bind_any(int port, int rcvbuf);
/*
 * A send that failed with @err only because queues or buffers were full
 * or an ICMP error came back on the connected socket: count it and go on.
 */
bool udp_send_error_is_soft(int err);
/* @n message headers, all sending the one buffer @iov. */
void udp_mmsg_init(struct mmsghdr *msgs, int n, struct iovec *iov);
/* Fill @len bytes with a recognisable pattern: "abc...zab...". */
void udp_fill_payload(char *buf, int from, int len);

#endif
