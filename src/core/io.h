/* augur — whole reads and writes on a file descriptor, retried across
 * EINTR and short transfers (the trace writer, the monitoring sender and
 * augurd's frame workers). */
#ifndef AUGUR_IO_H
#define AUGUR_IO_H

#include <stddef.h>
#include <stdint.h>

/* Writes all n bytes of p to fd: 0, or -1 (errno set; an unknown number of
 * bytes went out). sock: send(2) with MSG_NOSIGNAL, so a closed peer is an
 * error rather than SIGPIPE. timeout_ms >= 0: fd is non-blocking; waits for
 * room when it is full, at most timeout_ms in all. timeout_ms < 0: a full
 * non-blocking fd (EAGAIN, or a SO_SNDTIMEO that expired) is an error. */
int aug_write_all(int fd, const void *p, size_t n, int sock, int64_t timeout_ms);

/* Reads exactly n bytes from fd into p: 0, or -1 on an error or when the
 * file or connection ends first. */
int aug_read_all(int fd, void *p, size_t n);

#endif
