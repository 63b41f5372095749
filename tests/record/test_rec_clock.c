/* aug_clock_keep_order (src/record/rec_clock.c): a thread's blocks, each
 * converted to ns at an anchor of its own, stay in time order. A block
 * whose first record would start before the previous block's last end (the
 * reader drops such a block as damage: reader.c in_order) moves by the
 * difference, whole; one in order is left as it is. And aug_clock_apply
 * gives the largest t_end it converted, which the next block is held to. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rec_internal.h"

uint64_t aug_now(void) { /* rec_clock.c's clock reads, not used by the function tested */
  return 0;
}

static void set(augur_event *e, uint64_t t0, uint64_t t1) {
  e->t_start = t0;
  e->t_end = t1;
}

static void test_keep_order(void **state) {
  (void)state;
  uint64_t last = 0;
  augur_event a[2] = {0}, b[3] = {0}, c[1] = {0};
  set(&a[0], 100, 200);
  set(&a[1], 210, 300);
  aug_clock_keep_order(&last, a, 2, 300); /* the first block: as it is */
  assert_int_equal(a[0].t_start, 100);
  assert_int_equal(a[1].t_end, 300);
  assert_int_equal(last, 300);
  /* anchored 2 ns early: a Waitall that began 1 ns before the last call ended */
  set(&b[0], 299, 320);
  set(&b[1], 299, 320); /* its sub-record, with its times */
  set(&b[2], 330, 340);
  aug_clock_keep_order(&last, b, 3, 340);
  assert_int_equal(b[0].t_start, 300); /* moved by 1 ns, all of it */
  assert_int_equal(b[0].t_end, 321);
  assert_int_equal(b[1].t_start, 300);
  assert_int_equal(b[2].t_start, 331);
  assert_int_equal(b[2].t_end, 341);
  assert_int_equal(last, 341);
  set(&c[0], 400, 410); /* in order: untouched */
  aug_clock_keep_order(&last, c, 1, 410);
  assert_int_equal(c[0].t_start, 400);
  assert_int_equal(last, 410);
  aug_clock_keep_order(&last, c, 0, 0); /* nothing */
  assert_int_equal(last, 410);
}

static void test_apply_max(void **state) {
  (void)state;
  aug_tick_map m = {.tsc = 0}; /* times already ns (AUGUR_CLOCK=monotonic) */
  augur_event e[3] = {0};
  set(&e[0], 10, 50);
  set(&e[1], 20, 30); /* a sub-record inside its parent */
  set(&e[2], 60, 70);
  for (int i = 0; i < 3; i++)
    aug_clock_apply(&m, &e[i]);
  assert_int_equal(m.max_end, 70);
  assert_int_equal(e[1].t_end, 30);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_keep_order),
                                     cmocka_unit_test(test_apply_max)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
