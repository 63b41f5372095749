/* augur — what a library built from augur exports, and which augur it is.
 *
 * Every target is compiled with hidden visibility (CMakeLists.txt): a symbol
 * leaves its shared object only if it is marked AUGUR_API. The declarations
 * of the C API in the include/augur headers carry it, and so do the entry
 * points the preloaded libraries interpose (MPI_*, the Fortran MPI spellings, the libc
 * functions of libaugur-profile, kill/killpg of the recorder). The preloaded
 * libraries also have a version script (src/record/augur_mpi.map,
 * src/profile/augur_profile.map) that keeps everything else, the statically
 * linked C API included, out of the application's symbol table: the rule is
 * in docs/design.md "Symbol visibility" and tests/record/exports.sh checks it.
 *
 * The version macros are the one place the version number is written: the
 * top-level CMakeLists.txt reads them for project(VERSION). */
#ifndef AUGUR_API_H
#define AUGUR_API_H

#include <stdint.h>

#if defined(__GNUC__)
#define AUGUR_API __attribute__((visibility("default")))
#else
#define AUGUR_API
#endif

#define AUGUR_VERSION_MAJOR 0
#define AUGUR_VERSION_MINOR 1
#define AUGUR_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, for `#if AUGUR_VERSION_NUMBER >= ...`. */
#define AUGUR_VERSION_NUMBER                                                                       \
  (AUGUR_VERSION_MAJOR * 10000 + AUGUR_VERSION_MINOR * 100 + AUGUR_VERSION_PATCH)
#define AUGUR_VERSION_STRINGIFY_(x) #x
#define AUGUR_VERSION_STRINGIFY(x)  AUGUR_VERSION_STRINGIFY_(x)
/* "MAJOR.MINOR.PATCH", e.g. "0.1.0". */
#define AUGUR_VERSION_STRING                                                                       \
  AUGUR_VERSION_STRINGIFY(AUGUR_VERSION_MAJOR)                                                     \
  "." AUGUR_VERSION_STRINGIFY(AUGUR_VERSION_MINOR) "." AUGUR_VERSION_STRINGIFY(AUGUR_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the library linked in, as AUGUR_VERSION_NUMBER: compare it
 * with the macro to tell the headers compiled against from the library run. */
AUGUR_API unsigned augur_version_number(void);
/* The same as AUGUR_VERSION_STRING; a static string, never NULL. */
AUGUR_API const char *augur_version_string(void);

/* How far a long call is: DONE of TOTAL (records or events, as the call says; TOTAL may be 0
 * if unknown), called at most every few thousand of them. The one progress callback of
 * the export, diagnose, phases, simulate and efficiency calls; where one is asked for it
 * may be NULL. */
typedef void (*augur_progress_fn)(void *ctx, uint64_t done, uint64_t total);

#ifdef __cplusplus
}
#endif
#endif
