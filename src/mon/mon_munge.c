/* augur monitoring — MUNGE credentials (libmunge), the authentication SLURM
 * sites already run: a credential made on any node of the realm is
 * verifiable on any other and names the uid of the process that made it.
 * augur puts a digest of the frame in the credential's payload, so the
 * credential authenticates exactly that frame. Built without libmunge
 * (no AUGUR_HAVE_MUNGE), every call fails with a clear reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"

#ifdef AUGUR_HAVE_MUNGE
#include <munge.h>

int mon_munge_available(void) {
  return 1;
}

/* A context on SOCKET ("" = libmunge's default); NULL with why. */
static munge_ctx_t context(const char *socket, char *why, size_t whyn) {
  munge_ctx_t ctx = munge_ctx_create();
  if (!ctx) {
    snprintf(why, whyn, "munge: out of memory");
    return NULL;
  }
  if (socket[0] && munge_ctx_set(ctx, MUNGE_OPT_SOCKET, socket) != EMUNGE_SUCCESS) {
    snprintf(why, whyn, "munge: bad socket %.200s", socket);
    munge_ctx_destroy(ctx);
    return NULL;
  }
  return ctx;
}

int mon_munge_encode(const char *socket, const uint8_t digest[32], char **cred, size_t *credlen,
                     char *why, size_t whyn) {
  munge_ctx_t ctx = context(socket, why, whyn);
  if (!ctx) return -1;
  char *c = NULL;
  munge_err_t e = munge_encode(&c, ctx, digest, 32);
  if (e != EMUNGE_SUCCESS) {
    snprintf(why, whyn, "munge: cannot make a credential: %s", munge_ctx_strerror(ctx));
    munge_ctx_destroy(ctx);
    free(c);
    return -1;
  }
  munge_ctx_destroy(ctx);
  *cred = c;
  *credlen = strlen(c);
  return 0;
}

int mon_munge_decode(const char *socket, const char *cred, size_t credlen, uint8_t digest[32],
                     int64_t *uid, char *why, size_t whyn) {
  char *text = malloc(credlen + 1);
  if (!text) {
    snprintf(why, whyn, "munge: out of memory");
    return -1;
  }
  memcpy(text, cred, credlen);
  text[credlen] = 0;
  munge_ctx_t ctx = context(socket, why, whyn);
  if (!ctx) {
    free(text);
    return -1;
  }
  void *buf = NULL;
  int len = 0;
  uid_t u = 0;
  gid_t g = 0;
  munge_err_t e = munge_decode(text, ctx, &buf, &len, &u, &g);
  int rc = -1;
  if (e != EMUNGE_SUCCESS)
    snprintf(why, whyn, "unauthenticated: munge: %s", munge_strerror(e));
  else if (len != 32 || !buf)
    snprintf(why, whyn, "unauthenticated: munge credential without an augur digest");
  else {
    memcpy(digest, buf, 32);
    *uid = (int64_t)u;
    rc = 0;
  }
  free(buf);
  free(text);
  munge_ctx_destroy(ctx);
  return rc;
}

#else

int mon_munge_available(void) {
  return 0;
}

int mon_munge_encode(const char *socket, const uint8_t digest[32], char **cred, size_t *credlen,
                     char *why, size_t whyn) {
  (void)socket;
  (void)digest;
  (void)cred;
  (void)credlen;
  snprintf(why, whyn, "augur was built without MUNGE support (install libmunge-dev, rebuild)");
  return -1;
}

int mon_munge_decode(const char *socket, const char *cred, size_t credlen, uint8_t digest[32],
                     int64_t *uid, char *why, size_t whyn) {
  (void)socket;
  (void)cred;
  (void)credlen;
  (void)digest;
  (void)uid;
  snprintf(why, whyn, "unauthenticated: this augurd was built without MUNGE support");
  return -1;
}

#endif
