/* augur recorder — persistent request starts and completion wrappers.
 *
 * Request handle values are captured before the PMPI call (it sets completed
 * nonpersistent requests to MPI_REQUEST_NULL); when the application passes
 * MPI_STATUS(ES)_IGNORE the call gets our own statuses so source, tag and
 * size of completed receives are still seen. */
#include "wrap.h"

AUGUR_API int MPI_Start(MPI_Request *req) {
  AUG_WRAP(AUGUR_EV_START, PMPI_Start(req));
  ev->req = aug_req_id(*req);
  aug_rec_commit_in(ev);
  return rc;
}

AUGUR_API int MPI_Startall(int count, MPI_Request reqs[]) {
  AUG_WRAP(AUGUR_EV_STARTALL, PMPI_Startall(count, reqs));
  aug_commit_starts(ev, count, reqs);
  return rc;
}

AUGUR_API int MPI_Request_free(MPI_Request *req) {
  uint64_t r = aug_req_id(*req);
  AUG_WRAP(AUGUR_EV_REQUEST_FREE, PMPI_Request_free(req));
  ev->req = r;
  aug_recv_untrack(r);
  aug_rec_commit_in(ev);
  return rc;
}

/* Handle values of reqs[0..n) and the indices of the non-null ones, in the
 * thread's scratch. Returns how many are non-null; -1 if out of memory. */
static int capture(int n, const MPI_Request *reqs, uint64_t **vals, int **live) {
  *vals = aug_scratch_reqs(n);
  *live = aug_scratch_ints(n);
  if (!*vals || !*live) return -1;
  int k = 0;
  for (int i = 0; i < n; i++) {
    (*vals)[i] = aug_req_id(reqs[i]);
    if (reqs[i] != MPI_REQUEST_NULL) (*live)[k++] = i;
  }
  return k;
}

static MPI_Status *statuses_for(MPI_Status *app, int n) {
  if (app != MPI_STATUSES_IGNORE) return app;
  MPI_Status *s = aug_scratch_status(n);
  return s ? s : app; /* app is MPI_STATUSES_IGNORE here */
}

AUGUR_API int MPI_Wait(MPI_Request *req, MPI_Status *status) {
  AUG_STATUS(st, status);
  uint64_t r = aug_req_id(*req);
  int live = *req != MPI_REQUEST_NULL, idx = 0;
  AUG_WRAP(AUGUR_EV_WAIT, PMPI_Wait(req, st));
  aug_commit_completions(ev, live, &r, &idx, st);
  return rc;
}

AUGUR_API int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  AUG_STATUS(st, status);
  uint64_t r = aug_req_id(*req);
  int live = *req != MPI_REQUEST_NULL, idx = 0;
  AUG_WRAP(AUGUR_EV_TEST, PMPI_Test(req, flag, st));
  if (!*flag) {
    ev->flags |= AUGUR_F_NOTDONE;
    live = 0;
  }
  aug_commit_completions(ev, live, &r, &idx, st);
  return rc;
}

/* Waitall / Testall: every non-null request completes (Testall: if flag). */
static int all_common(augur_event *ev, int count, MPI_Request reqs[], MPI_Status *statuses,
                      int *flag, int is_test) {
  uint64_t *vals;
  int *live;
  int n = capture(count, reqs, &vals, &live);
  MPI_Status *st = n >= 0 ? statuses_for(statuses, count) : statuses;
  int rc = is_test ? PMPI_Testall(count, reqs, flag, st) : PMPI_Waitall(count, reqs, st);
  aug_rec_exit_in(ev);
  if (is_test && !*flag) {
    ev->flags |= AUGUR_F_NOTDONE;
    n = 0;
  }
  if (n < 0 || st == MPI_STATUSES_IGNORE) /* out of memory: the parent alone */
    aug_commit_completions(ev, 0, NULL, NULL, NULL);
  else
    aug_commit_completions_ex(ev, n, vals, live, st, 1);
  return rc;
}

AUGUR_API int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[]) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_WAITALL, AUG_CALLER());
  if (!ev) return PMPI_Waitall(count, reqs, statuses);
  return all_common(ev, count, reqs, statuses, NULL, 0);
}

AUGUR_API int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[]) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_TESTALL, AUG_CALLER());
  if (!ev) return PMPI_Testall(count, reqs, flag, statuses);
  return all_common(ev, count, reqs, statuses, flag, 1);
}

/* Waitany / Testany: aux = index of the completed request (one COMPLETION),
 * or 0xffffffff with no sub-record when every request was null. */
static int any_common(augur_event *ev, int count, MPI_Request reqs[], int *index, int *flag,
                      MPI_Status *status, int is_test) {
  AUG_STATUS(st, status);
  uint64_t *vals;
  int *live;
  int n = capture(count, reqs, &vals, &live);
  int rc =
      is_test ? PMPI_Testany(count, reqs, index, flag, st) : PMPI_Waitany(count, reqs, index, st);
  aug_rec_exit_in(ev);
  int done = (!is_test || *flag) && *index != MPI_UNDEFINED && *index >= 0 && n >= 0;
  if (is_test && !*flag) ev->flags |= AUGUR_F_NOTDONE;
  ev->aux = done ? (uint32_t)*index : (is_test && !*flag ? 0u : UINT32_MAX);
  aug_commit_completions(ev, done, vals, index, st);
  return rc;
}

AUGUR_API int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_WAITANY, AUG_CALLER());
  if (!ev) return PMPI_Waitany(count, reqs, index, status);
  return any_common(ev, count, reqs, index, NULL, status, 0);
}

AUGUR_API int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
                          MPI_Status *status) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_TESTANY, AUG_CALLER());
  if (!ev) return PMPI_Testany(count, reqs, index, flag, status);
  return any_common(ev, count, reqs, index, flag, status, 1);
}

/* Waitsome / Testsome: statuses come in completion order (like indices). */
static int some_common(augur_event *ev, int count, MPI_Request reqs[], int *outcount, int indices[],
                       MPI_Status *statuses, int is_test) {
  uint64_t *vals;
  int *live;
  int n = capture(count, reqs, &vals, &live);
  MPI_Status *st = n >= 0 ? statuses_for(statuses, count) : statuses;
  int rc = is_test ? PMPI_Testsome(count, reqs, outcount, indices, st)
                   : PMPI_Waitsome(count, reqs, outcount, indices, st);
  aug_rec_exit_in(ev);
  int done = *outcount == MPI_UNDEFINED ? 0 : *outcount;
  if (is_test && *outcount == 0) ev->flags |= AUGUR_F_NOTDONE;
  if (n < 0 || st == MPI_STATUSES_IGNORE)
    aug_commit_completions(ev, 0, NULL, NULL, NULL);
  else
    aug_commit_completions(ev, done, vals, indices, st);
  return rc;
}

AUGUR_API int MPI_Waitsome(int count, MPI_Request reqs[], int *outcount, int indices[],
                           MPI_Status statuses[]) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_WAITSOME, AUG_CALLER());
  if (!ev) return PMPI_Waitsome(count, reqs, outcount, indices, statuses);
  return some_common(ev, count, reqs, outcount, indices, statuses, 0);
}

AUGUR_API int MPI_Testsome(int count, MPI_Request reqs[], int *outcount, int indices[],
                           MPI_Status statuses[]) {
  augur_event *ev = aug_rec_begin(AUGUR_EV_TESTSOME, AUG_CALLER());
  if (!ev) return PMPI_Testsome(count, reqs, outcount, indices, statuses);
  return some_common(ev, count, reqs, outcount, indices, statuses, 1);
}
