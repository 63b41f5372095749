/* augur core tests — whole reads and writes (io.h) over pipes and sockets:
 * short transfers are completed, an early end is an error, a closed peer is
 * an error and not SIGPIPE, a full non-blocking socket waits up to its
 * timeout. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "io.h"

static void test_pipe(void **state) {
  (void)state;
  int fd[2];
  assert_int_equal(pipe(fd), 0);
  size_t n = 1 << 20; /* more than a pipe holds: a child drains it */
  unsigned char *out = malloc(n), *in = malloc(n);
  assert_non_null(out);
  assert_non_null(in);
  for (size_t i = 0; i < n; i++)
    out[i] = (unsigned char)(i * 31 + 7);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(fd[0]);
    _exit(aug_write_all(fd[1], out, n, 0, -1) == 0 ? 0 : 1);
  }
  close(fd[1]);
  assert_int_equal(aug_read_all(fd[0], in, n), 0);
  assert_memory_equal(in, out, n);
  assert_int_equal(aug_read_all(fd[0], in, 1), -1); /* the writer is gone: end of file */
  int st;
  assert_int_equal(waitpid(pid, &st, 0), pid);
  assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  close(fd[0]);
  free(out);
  free(in);
}

static void test_socket(void **state) {
  (void)state;
  int sv[2];
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  assert_int_equal(aug_write_all(sv[0], "abc", 3, 1, -1), 0);
  char b[4] = {0};
  assert_int_equal(aug_read_all(sv[1], b, 3), 0);
  assert_string_equal(b, "abc");
  /* non-blocking and full: waits the timeout, then fails */
  fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
  static char big[1 << 22];
  assert_int_equal(aug_write_all(sv[0], big, sizeof big, 1, 50), -1);
  /* closed peer: -1, and the process is still here (no SIGPIPE) */
  close(sv[1]);
  assert_int_equal(aug_write_all(sv[0], "x", 1, 1, -1), -1);
  close(sv[0]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pipe),
      cmocka_unit_test(test_socket),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
