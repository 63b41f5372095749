/* The version of include/augur/api.h: the macros, the run-time functions and
 * CMake's project(VERSION) (read from the macros) say the same thing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "augur/api.h"

static void test_version(void **state) {
  (void)state;
  assert_int_equal(augur_version_number(), AUGUR_VERSION_NUMBER);
  assert_string_equal(augur_version_string(), AUGUR_VERSION_STRING);
  char want[64];
  snprintf(want, sizeof want, "%d.%d.%d", AUGUR_VERSION_MAJOR, AUGUR_VERSION_MINOR,
           AUGUR_VERSION_PATCH);
  assert_string_equal(augur_version_string(), want);
  assert_string_equal(augur_version_string(), AUGUR_TEST_PROJECT_VERSION);
  assert_int_equal(AUGUR_VERSION_NUMBER,
                   AUGUR_VERSION_MAJOR * 10000 + AUGUR_VERSION_MINOR * 100 + AUGUR_VERSION_PATCH);
  assert_true(AUGUR_VERSION_MINOR < 100 && AUGUR_VERSION_PATCH < 100);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_version),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
