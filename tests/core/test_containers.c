/* augur core tests — the one hash map (u64map.h), the one mixer (mix.h) and
 * the one growable array (grow.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "grow.h"
#include "mix.h"
#include "u64map.h"

/* Keys that share their low bits (pointers, shifted ids) and key 0: every
 * one comes back with its value, absent keys stay absent, and the map
 * doubles as it fills. */
static void test_map_put_get(void **state) {
  (void)state;
  aug_u64map m = {0};
  uint32_t v;
  assert_int_equal(aug_u64map_get(&m, 5, &v), 0);
  assert_int_equal(aug_u64map_get(&m, 0, &v), 0);
  const uint32_t n = 20000;
  for (uint32_t i = 0; i < n; i++)
    assert_int_equal(aug_u64map_put(&m, (uint64_t)i << 32, i * 3 + 1), 0);
  assert_int_equal(m.count, n);
  assert_true(m.cap >= 2 * (n - 1)); /* key 0 lives outside the table */
  assert_int_equal(m.cap & (m.cap - 1), 0);
  for (uint32_t i = 0; i < n; i++) {
    assert_int_equal(aug_u64map_get(&m, (uint64_t)i << 32, &v), 1);
    assert_int_equal(v, i * 3 + 1);
    assert_int_equal(aug_u64map_get(&m, ((uint64_t)i << 32) | 1, &v), 0);
  }
  /* put over an existing key replaces its value, count unchanged */
  assert_int_equal(aug_u64map_put(&m, 7ull << 32, 99), 0);
  assert_int_equal(aug_u64map_put(&m, 0, 42), 0);
  assert_int_equal(m.count, n);
  assert_int_equal(aug_u64map_get(&m, 7ull << 32, &v), 1);
  assert_int_equal(v, 99);
  assert_int_equal(aug_u64map_get(&m, 0, &v), 1);
  assert_int_equal(v, 42);
  aug_u64map_free(&m);
  assert_null(m.keys);
  assert_int_equal(m.count, 0);
  assert_int_equal(aug_u64map_get(&m, 0, &v), 0);
}

/* slot: inserts with 0 and says so once; the slot holds the value. */
static void test_map_slot(void **state) {
  (void)state;
  aug_u64map m = {0};
  int fresh = -1;
  for (uint64_t k = 0; k < 3; k++) {
    uint32_t *s = aug_u64map_slot(&m, k * 0x1000, &fresh);
    assert_non_null(s);
    assert_int_equal(fresh, 1);
    assert_int_equal(*s, 0);
    *s = (uint32_t)k + 10;
    s = aug_u64map_slot(&m, k * 0x1000, &fresh);
    assert_int_equal(fresh, 0);
    assert_int_equal(*s, k + 10);
    (*s)++;
  }
  uint32_t v;
  assert_int_equal(aug_u64map_get(&m, 0x2000, &v), 1);
  assert_int_equal(v, 13);
  assert_non_null(aug_u64map_slot(&m, 0x3000, NULL));
  assert_int_equal(m.count, 4);
  aug_u64map_free(&m);
}

/* The mixer is the splitmix64 finalizer (its published constants; the
 * phases signature keys depend on its exact values) and spreads keys that
 * differ only in high bits over the low bits a table uses. */
static void test_mix(void **state) {
  (void)state;
  assert_int_equal(aug_mix64(0), 0);
  /* splitmix64 with seed 0: first output = finalizer(0x9e3779b97f4a7c15) */
  assert_true(aug_mix64(0x9e3779b97f4a7c15ull) == 0xe220a8397b1dcdafull);
  unsigned char seen[256] = {0};
  unsigned distinct = 0;
  for (uint64_t i = 0; i < 256; i++) {
    unsigned low = (unsigned)(aug_mix64(i << 40) & 255);
    distinct += !seen[low];
    seen[low] = 1;
  }
  assert_true(distinct > 140); /* 256 random draws into 256 cells: ~162 expected */
}

static void test_grow(void **state) {
  (void)state;
  int *a = NULL;
  size_t cap = 0;
  assert_int_equal(aug_grow((void **)&a, &cap, 1, sizeof *a), 0);
  assert_int_equal(cap, 4); /* small first: one per rank at 65,536 ranks (issue 27) */
  for (int i = 0; i < 4; i++)
    a[i] = i;
  assert_int_equal(aug_grow((void **)&a, &cap, 4, sizeof *a), 0); /* fits: no change */
  assert_int_equal(cap, 4);
  assert_int_equal(aug_grow((void **)&a, &cap, 5, sizeof *a), 0);
  assert_int_equal(cap, 8);
  for (int i = 4; i < 8; i++)
    a[i] = i;
  assert_int_equal(aug_grow((void **)&a, &cap, 17, sizeof *a), 0);
  assert_int_equal(cap, 32);
  for (int i = 8; i < 16; i++)
    a[i] = i;
  assert_int_equal(aug_grow((void **)&a, &cap, 1000, sizeof *a), 0);
  assert_int_equal(cap, 1024);
  for (int i = 0; i < 16; i++)
    assert_int_equal(a[i], i);
  /* a byte count past SIZE_MAX fails, leaving the array as it was */
  int *before = a;
  assert_int_equal(aug_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof *a), -1);
  assert_int_equal(aug_grow((void **)&a, &cap, SIZE_MAX, 1), -1);
  assert_ptr_equal(a, before);
  assert_int_equal(cap, 1024);
  free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_map_put_get),
      cmocka_unit_test(test_map_slot),
      cmocka_unit_test(test_mix),
      cmocka_unit_test(test_grow),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
