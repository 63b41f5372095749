/* augur core tests — the clock model (clock.h): the line through the syncs,
 * the trace's shift, and the inverse the OTF2 import uses to write local
 * times back (global -> local -> global must give the same time). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "clock.h"

static augur_rank_def def_with(uint64_t l_in, int64_t o_in, uint64_t l_fin, int64_t o_fin,
                               int nsync) {
  augur_rank_def d;
  memset(&d, 0, sizeof d);
  d.nsync = (uint32_t)nsync;
  d.sync[0] = (augur_clock_sync){AUGUR_SYNC_INIT, l_in, o_in, 0};
  d.sync[1] = (augur_clock_sync){AUGUR_SYNC_FINALIZE, l_fin, o_fin, 0};
  return d;
}

static void test_setup(void **state) {
  (void)state;
  aug_clock c;
  aug_clock_setup(&c, NULL);
  assert_true(c.off0 == 0 && c.slope == 0.0 && c.l0 == 0);
  assert_true(aug_clock_to_global(&c, 0, 12345) == 12345);

  /* offset 1000 at local 1e9, 3000 at local 3e9: slope 1e-6 */
  augur_rank_def d = def_with(1000000000ull, 1000, 3000000000ull, 3000, 2);
  aug_clock_setup(&c, &d);
  assert_true(c.off0 == 1000 && c.l0 == 1000000000ull);
  assert_true(c.slope > 0.999e-6 && c.slope < 1.001e-6);
  assert_true(aug_clock_offset(&c, 2000000000ull) == 2000);
  assert_true(aug_clock_to_global(&c, 500, 2000000000ull) == 2000000000ull + 2000 - 500);
  assert_true(aug_clock_shift(&c, 1000000000ull) == 1000000000 + 1000);

  /* FINALIZE alone: a constant offset */
  d = def_with(0, 0, 5000, -77, 2);
  d.sync[0].kind = AUGUR_SYNC_FINALIZE;
  d.sync[1].offset_ns = 1;
  aug_clock_setup(&c, &d);
  assert_true(c.off0 == 0 && c.slope == 0.0);
  d.nsync = 1;
  d.sync[0].offset_ns = -77;
  aug_clock_setup(&c, &d);
  assert_true(c.off0 == -77 && c.slope == 0.0);

  /* negative results clamp to 0; damaged slopes saturate, not overflow */
  assert_true(aug_clock_to_global(&c, 0, 10) == 0);
  assert_true(aug_drift(1e30, 0, 1000) == (int64_t)4.6e18);
}

/* Every global time a recorded event can have comes back through the
 * inverse, for clocks running fast and slow and with a shift. */
static void test_round_trip(void **state) {
  (void)state;
  const int64_t offs[][2] = {{1000, 3000}, {-5000, 250000}, {400000, -900000}, {7, 7}};
  for (size_t k = 0; k < sizeof offs / sizeof offs[0]; k++) {
    augur_rank_def d = def_with(2000000000ull, offs[k][0], 2600000000ull, offs[k][1], 2);
    aug_clock c;
    aug_clock_setup(&c, &d);
    int64_t shift = aug_clock_shift(&c, 2000000000ull) - 123;
    for (uint64_t l = 1999000000ull; l < 2700000000ull; l += 7919) {
      uint64_t g = aug_clock_to_global(&c, shift, l);
      uint64_t back = aug_clock_to_local(&c, shift, g);
      assert_true(aug_clock_to_global(&c, shift, back) == g);
    }
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_setup),
      cmocka_unit_test(test_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
