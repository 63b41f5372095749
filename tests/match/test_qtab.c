/* The FIFO table by key (src/analysis/match/qtab.h) of the matcher and of
 * diagnose's nonblocking sends: each queue gives its elements back in the
 * order they went in, however deep it gets (the oldest in the slot, the
 * rest in its vector), across rebuilds that drop the emptied queues, and
 * the table's invariants hold throughout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "qtab.h"

typedef struct elem {
  uint64_t key, seq; /* the queue's key.c, its place in the queue */
  uint32_t pad[6];   /* 40 bytes, as diagnose's parts */
} elem;

static aug_qkey key_of(uint64_t i) {
  return (aug_qkey){i * 7919u, (uint32_t)i, (uint32_t)(i * 31u), (int32_t)(i % 5) - 2, 0};
}

static void push(aug_qtab *t, uint64_t i, uint64_t seq) {
  aug_qkey k = key_of(i);
  aug_queue *q = aug_qt_get(t, &k, aug_qkey_hash(&k));
  elem *e = q ? aug_q_push(t, q, sizeof *e) : NULL;
  if (!e) {
    fail_msg("out of memory");
    return;
  }
  *e = (elem){.key = k.c, .seq = seq};
}

static uint64_t pop(aug_qtab *t, uint64_t i) {
  aug_qkey k = key_of(i);
  aug_queue *q = aug_qt_find(t, &k, aug_qkey_hash(&k));
  if (!q) {
    fail_msg("queue %llu is empty", (unsigned long long)i);
    return UINT64_MAX;
  }
  elem e;
  aug_q_pop(q, &e, sizeof e);
  assert_int_equal(e.key, k.c);
  return e.seq;
}

/* One queue filled deep, emptied half, filled again (the vector slides and
 * grows), then emptied: first in, first out, and aug_q_at sees the same. */
static void test_fifo_deep(void **state) {
  (void)state;
  aug_qtab t;
  assert_int_equal(aug_qt_init(&t, sizeof(elem)), 0);
  uint64_t in = 0, out = 0;
  for (int round = 0; round < 3; round++) {
    for (int i = 0; i < 37; i++)
      push(&t, 9, in++);
    aug_qkey k = key_of(9);
    aug_queue *q = aug_qt_find(&t, &k, aug_qkey_hash(&k));
    assert_non_null(q);
    assert_int_equal(q->len, in - out);
    for (uint32_t j = 0; j < q->len; j++)
      assert_int_equal(((elem *)aug_q_at(q, sizeof(elem), j))->seq, out + j);
    for (int i = 0; i < 20; i++)
      assert_int_equal(pop(&t, 9), out++);
    assert_true(aug_qt_check(&t));
  }
  while (out < in)
    assert_int_equal(pop(&t, 9), out++);
  aug_qkey k = key_of(9);
  assert_null(aug_qt_find(&t, &k, aug_qkey_hash(&k))); /* empty: idle, absent to lookups */
  aug_qt_free(&t);
}

/* Thousands of keys, each holding 0 to 3 elements, through many rebuilds:
 * every live queue keeps its elements in order, emptied ones leave, and the
 * table stays under half full with its probe chains intact. */
static void test_rebuilds(void **state) {
  (void)state;
  enum { KEYS = 5000 };
  static uint64_t in[KEYS], out[KEYS];
  aug_qtab t;
  assert_int_equal(aug_qt_init(&t, sizeof(elem)), 0);
  uint64_t x = 88172645463325252ull;
  for (int step = 0; step < 200000; step++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    uint64_t i = x % KEYS;
    if (in[i] - out[i] < 3 && (x >> 32) % 2)
      push(&t, i, in[i]++);
    else if (in[i] > out[i])
      assert_int_equal(pop(&t, i), out[i]++);
    if (step % 50000 == 0) assert_true(aug_qt_check(&t));
  }
  assert_true(aug_qt_check(&t));
  size_t live = 0;
  for (uint64_t i = 0; i < KEYS; i++) {
    live += in[i] > out[i];
    while (out[i] < in[i])
      assert_int_equal(pop(&t, i), out[i]++);
  }
  assert_true(live > 0 && t.n >= live && t.n * 2 <= t.cap);
  aug_qt_free(&t);
}

/* aug_q_clear empties a queue at once; pushes start it again. */
static void test_clear(void **state) {
  (void)state;
  aug_qtab t;
  assert_int_equal(aug_qt_init(&t, sizeof(elem)), 0);
  for (int i = 0; i < 6; i++)
    push(&t, 3, (uint64_t)i);
  aug_qkey k = key_of(3);
  aug_q_clear(aug_qt_find(&t, &k, aug_qkey_hash(&k)));
  assert_null(aug_qt_find(&t, &k, aug_qkey_hash(&k)));
  push(&t, 3, 100);
  push(&t, 3, 101);
  assert_int_equal(pop(&t, 3), 100);
  assert_int_equal(pop(&t, 3), 101);
  assert_true(aug_qt_check(&t));
  aug_qt_free(&t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fifo_deep),
      cmocka_unit_test(test_rebuilds),
      cmocka_unit_test(test_clear),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
