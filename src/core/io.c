/* augur — whole reads and writes (see io.h). */
#include "io.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int aug_write_all(int fd, const void *p, size_t n, int sock, int64_t timeout_ms) {
  const unsigned char *b = p;
  int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;
  while (n) {
    ssize_t w = sock ? send(fd, b, n, MSG_NOSIGNAL) : write(fd, b, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && timeout_ms >= 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int64_t left = deadline - now_ms();
      struct pollfd pf = {fd, POLLOUT, 0};
      if (left <= 0 || poll(&pf, 1, left > INT_MAX ? INT_MAX : (int)left) < 0) return -1;
      continue;
    }
    if (w <= 0) return -1;
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

int aug_read_all(int fd, void *p, size_t n) {
  unsigned char *b = p;
  while (n) {
    ssize_t r = read(fd, b, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    b += r;
    n -= (size_t)r;
  }
  return 0;
}
