/* augur — a hint to load memory the code will read soon.
 *
 * For the few loops that jump between many ranks' arrays in a pattern the
 * hardware prefetcher cannot follow (the merged stream, the logical
 * trace's tick pass): measured there, not sprinkled elsewhere. A no-op on
 * compilers without the builtin. */
#ifndef AUGUR_PREFETCH_H
#define AUGUR_PREFETCH_H

#if defined(__GNUC__) || defined(__clang__)
#define AUG_PREFETCH(p) __builtin_prefetch(p)
#else
#define AUG_PREFETCH(p) ((void)(p))
#endif

#endif
