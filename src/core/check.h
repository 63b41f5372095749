/* augur — invariant checks.
 *
 * Two levels, after SQLite's btree.c:
 *
 *  - assert(): what a function expects of its arguments and of the state
 *    it works on, at its entry, and cheap facts (O(1)) after a step. Live
 *    unless NDEBUG: the release builds (RelWithDebInfo, Release) pass
 *    -DNDEBUG; the ASan/UBSan and fuzz builds of `make check` are Debug
 *    builds and CMakeLists.txt forces -UNDEBUG on them whatever the build
 *    type.
 *
 *  - AUG_CHECK(x_check(s)): a whole-structure walk (heap order, a hash
 *    table's counts and probe chains, a queue's links) that returns
 *    nonzero when the structure holds. O(n), so called only where its cost
 *    is amortised (after a table grows, when a run ends) and compiled only
 *    when AUG_CHECKS is 1: asserts live and AUGUR_DEEP_CHECKS defined (set
 *    by CMakeLists.txt for AUGUR_SANITIZE and AUGUR_FUZZ builds). A check
 *    function is defined under `#if AUG_CHECKS` so release builds carry
 *    neither the calls nor the code. */
#ifndef AUGUR_CHECK_H
#define AUGUR_CHECK_H

#include <assert.h>

#if defined(AUGUR_DEEP_CHECKS) && !defined(NDEBUG)
#define AUG_CHECKS   1
#define AUG_CHECK(x) assert(x)
#else
#define AUG_CHECKS   0
#define AUG_CHECK(x) ((void)0)
#endif

/* Cap is a power of two (open-addressing tables mask with cap - 1). */
#define AUG_POW2(cap) ((cap) != 0 && ((cap) & ((cap)-1)) == 0)

#endif
