/* augur — a hint to load memory the code will read soon.
 *
 * For the few loops that jump between many ranks' arrays in a pattern the
 * hardware prefetcher cannot follow (the merged stream, the logical
 * trace's tick pass): measured there, not sprinkled elsewhere. A no-op on
 * compilers without the builtin. */
#ifndef AUGUR_PREFETCH_H
#define AUGUR_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
/* The empty volatile asm keeps a function whose only effect is a prefetch
 * from being judged pure by GCC's IPA and its calls deleted as dead code
 * (which __builtin_prefetch alone does not prevent). */
#define AUG_PREFETCH(p)                                                                            \
  do {                                                                                             \
    __builtin_prefetch(p);                                                                         \
    __asm__ __volatile__("");                                                                      \
  } while (0)
#else
#define AUG_PREFETCH(p) ((void)(p))
#endif

#endif
