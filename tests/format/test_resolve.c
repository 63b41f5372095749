/* augur format tests — call-site resolution with libdw: a return address
 * taken at a known line of this file resolves back to that line. Built twice
 * (PIE and fixed-address executable). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util.h"

__attribute__((noinline)) static void *return_address(void) {
  return __builtin_extract_return_addr(__builtin_return_address(0));
}

/* The call and __LINE__ are on one source line, whatever the formatter does. */
#define CALL_HERE(ra, line) ((ra) = return_address(), (line) = __LINE__)

static void *site_ra;
static int site_line;

__attribute__((noinline)) void augur_test_known_caller(void);
__attribute__((noinline)) void augur_test_known_caller(void) {
  CALL_HERE(site_ra, site_line);
  __asm__ volatile("" ::: "memory"); /* keep the call from being a tail call */
}

/* A call inside an inlined function resolves to that function and line. */
static void *inl_ra;
static int inl_line;
static inline __attribute__((always_inline)) void augur_test_inlined(void) {
  CALL_HERE(inl_ra, inl_line);
}
__attribute__((noinline)) void augur_test_inline_caller(void);
__attribute__((noinline)) void augur_test_inline_caller(void) {
  augur_test_inlined();
  __asm__ volatile("" ::: "memory");
}

/* The main program's load bias, as dl_iterate_phdr reports it (the first
 * object listed is the executable). */
static int first_bias(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  *(uintptr_t *)data = (uintptr_t)info->dlpi_addr;
  return 1;
}

static void test_resolve(void **state) {
  (void)state;
  augur_test_known_caller();
  augur_test_inline_caller();
  Dl_info info;
  assert_true(dladdr(site_ra, &info) != 0);
  char exe[4096];
  ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
  assert_true(k > 0);
  exe[k] = '\0';
  /* Two ways a recorder may compute the offset: from the mapping start
   * (dladdr) or from the load bias (dl_iterate_phdr). They differ for a
   * fixed-address executable; both must resolve. */
  uint64_t offset = (uint64_t)((uintptr_t)site_ra - (uintptr_t)info.dli_fbase);
  uintptr_t bias = 0;
  dl_iterate_phdr(first_bias, &bias);
  uint64_t offset2 = (uint64_t)((uintptr_t)site_ra - bias);

  char *dir = tu_tracedir();
  tu_meta(dir, 1);
  augur_error err;
  augur_writer *w;
  assert_int_equal(augur_writer_open(&w, dir, 0, 1, 0, &err), 0);
  augur_module_def m1 = {1, exe}, m2 = {2, "/nonexistent/libgone.so"};
  augur_callsite_def c1 = {1, 1, offset}, c2 = {2, 2, 0x1234}, c3 = {3, 1, 0};
  augur_callsite_def c4 = {4, 1, offset2};
  augur_callsite_def c5 = {5, 1, (uint64_t)((uintptr_t)inl_ra - (uintptr_t)info.dli_fbase)};
  assert_int_equal(augur_writer_def_module(w, &m1, &err), 0);
  assert_int_equal(augur_writer_def_module(w, &m2, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c1, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c2, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c3, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c4, &err), 0);
  assert_int_equal(augur_writer_def_callsite(w, &c5, &err), 0);
  assert_int_equal(augur_writer_close(w, &err), 0);

  augur_trace *t;
  assert_int_equal(augur_trace_open(&t, dir, &err), 0);
  augur_srcloc loc;
  assert_int_equal(augur_trace_resolve(t, 1, &loc), AUGUR_OK);
  if (!loc.file || !loc.function)
    fail_msg("%s+0x%llx did not resolve", exe, (unsigned long long)offset);
  assert_string_equal(loc.function, "augur_test_known_caller");
  const char *base = strrchr(loc.file, '/');
  assert_string_equal(base ? base + 1 : loc.file, "test_resolve.c");
  assert_int_equal(loc.line, site_line);
  assert_string_equal(loc.module, exe);
  /* cached: the same strings again */
  augur_srcloc again;
  assert_int_equal(augur_trace_resolve(t, 1, &again), AUGUR_OK);
  assert_ptr_equal(again.file, loc.file);
  assert_int_equal(again.line, loc.line);
  /* a module that no longer exists: known module, nothing else */
  assert_int_equal(augur_trace_resolve(t, 2, &loc), AUGUR_OK);
  assert_string_equal(loc.module, "/nonexistent/libgone.so");
  assert_null(loc.file);
  assert_null(loc.function);
  assert_int_equal(loc.line, 0);
  assert_int_equal(augur_trace_resolve(t, 3, &loc), AUGUR_OK);
  assert_null(loc.file);
  /* the dl_iterate_phdr offset (the same number for a PIE) */
  assert_int_equal(augur_trace_resolve(t, offset2 == offset ? 1 : 4, &loc), AUGUR_OK);
  assert_non_null(loc.function);
  assert_string_equal(loc.function, "augur_test_known_caller");
  assert_int_equal(loc.line, site_line);
  uint32_t inl_id = offset2 == offset ? 4 : 5;
  assert_int_equal(augur_trace_resolve(t, inl_id, &loc), AUGUR_OK);
  assert_non_null(loc.function);
  assert_string_equal(loc.function, "augur_test_inlined");
  assert_int_equal(loc.line, inl_line);
  assert_int_equal(augur_trace_resolve(t, 0, &loc), AUGUR_E_ARG);
  assert_int_equal(augur_trace_resolve(t, inl_id + 1, &loc), AUGUR_E_ARG);
  augur_trace_close(t);
  tu_cleanup(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_resolve)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
