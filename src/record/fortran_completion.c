/* augur recorder — Fortran bindings of the completion calls: Wait Waitall
 * Waitany Waitsome Test Testall Testany Testsome. Same records as
 * wrap_complete.c:
 *
 * - request handles are converted to their C values before the call (the
 *   library sets completed ones to MPI_REQUEST_NULL);
 * - statuses are read from the application's array or, when it passed
 *   MPI_STATUS(ES)_IGNORE, from scratch we hand the library instead;
 * - Fortran indices (Waitany, Waitsome, ...) are 1-based; the trace stores
 *   0-based positions, as for C. */
#include "fortran_wrap.h"

/* Per call: C request values, positions of the non-null ones, the Fortran
 * statuses the library writes, 0-based completed indices, C statuses. */
typedef struct f_compl {
  int n;
  int nlive;
  uint64_t *ids;  /* n */
  int *live;      /* nlive positions of non-null requests */
  int *idx;       /* n: completed positions (0-based) */
  MPI_Fint *fst;  /* statuses the library writes */
  MPI_Status *st; /* n */
} f_compl;

/* Prepares c for n requests and an application status array holding nst
 * statuses (`many`: an array, compared with MPI_F_STATUSES_IGNORE). Returns 0
 * when scratch memory is missing; the caller then records the parent alone. */
static int compl_begin(f_compl *c, int n, const MPI_Fint *reqs, MPI_Fint *app_st, int nst,
                       int many) {
  c->n = n > 0 ? n : 0;
  c->nlive = 0;
  c->ids = aug_scratch_reqs(c->n);
  c->st = aug_scratch_status(c->n);
  MPI_Fint *f = aug_f_scratch(2 * c->n + (nst > 0 ? nst : 1) * AUG_F_STATUS_SIZE);
  if (!c->ids || !c->st || !f) {
    c->fst = app_st;
    return 0;
  }
  c->live = (int *)f;
  c->idx = (int *)f + c->n;
  MPI_Fint *scratch = f + 2 * c->n;
  c->fst = many ? aug_f_statuses_or(app_st, scratch) : aug_f_status_or(app_st, scratch);
  for (int i = 0; i < c->n; i++) {
    MPI_Request r = PMPI_Request_f2c(reqs[i]);
    c->ids[i] = aug_req_id(r);
    if (r != MPI_REQUEST_NULL) c->live[c->nlive++] = i;
  }
  return 1;
}

/* C copies of the first k Fortran statuses. */
static void compl_statuses(f_compl *c, int k) {
  for (int j = 0; j < k; j++)
    aug_f_status_c(c->fst + (size_t)j * AUG_F_STATUS_SIZE, &c->st[j]);
}

/* ---- Wait / Test ---- */

typedef void (*wait_fn)(F_INT *, F_INT *, F_INT *);
static aug_f_slot s_wait = AUG_F_SLOT(mpi_wait);

static void f_wait(const void *caller, F_INT *req, F_INT *st, F_INT *ierr) {
  wait_fn real = (wait_fn)aug_f_real(&s_wait);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_WAIT, caller)) {
    real(req, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  MPI_Request r = PMPI_Request_f2c(*req);
  uint64_t id = aug_req_id(r);
  int live = r != MPI_REQUEST_NULL, idx = 0;
  real(req, fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  MPI_Status cst;
  aug_f_status_c(fst, &cst);
  aug_commit_completions(&ev, live, &id, &idx, &cst);
}

AUG_F_SPELLINGS(mpi_wait, MPI_WAIT, (F_INT * req, F_INT *st, F_INT *ierr),
                f_wait(AUG_CALLER(), req, st, ierr))

typedef void (*test_fn)(F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_test = AUG_F_SLOT(mpi_test);

static void f_test(const void *caller, F_INT *req, F_INT *flag, F_INT *st, F_INT *ierr) {
  test_fn real = (test_fn)aug_f_real(&s_test);
  augur_event ev;
  if (!aug_rec_enter(&ev, AUGUR_EV_TEST, caller)) {
    real(req, flag, st, ierr);
    return;
  }
  F_INT scratch[AUG_F_STATUS_SIZE];
  F_INT *fst = aug_f_status_or(st, scratch);
  MPI_Request r = PMPI_Request_f2c(*req);
  uint64_t id = aug_req_id(r);
  int live = r != MPI_REQUEST_NULL, idx = 0;
  real(req, flag, fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  if (!*flag) { /* Fortran LOGICAL: nonzero is .true. */
    ev.flags |= AUGUR_F_NOTDONE;
    live = 0;
  }
  MPI_Status cst;
  aug_f_status_c(fst, &cst);
  aug_commit_completions(&ev, live, &id, &idx, &cst);
}

AUG_F_SPELLINGS(mpi_test, MPI_TEST, (F_INT * req, F_INT *flag, F_INT *st, F_INT *ierr),
                f_test(AUG_CALLER(), req, flag, st, ierr))

/* ---- Waitall / Testall: every non-null request completes (Testall: if
 * flag); statuses are indexed by request position. ---- */

typedef void (*waitall_fn)(F_INT *, F_INT *, F_INT *, F_INT *);
typedef void (*testall_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_waitall = AUG_F_SLOT(mpi_waitall);
static aug_f_slot s_testall = AUG_F_SLOT(mpi_testall);

static void f_all(const void *caller, int is_test, F_INT *count, F_INT *reqs, F_INT *flag,
                  F_INT *sts, F_INT *ierr) {
  aug_f_fn real = aug_f_real(is_test ? &s_testall : &s_waitall);
  augur_event ev;
  if (!aug_rec_enter(&ev, is_test ? AUGUR_EV_TESTALL : AUGUR_EV_WAITALL, caller)) {
    if (is_test)
      ((testall_fn)real)(count, reqs, flag, sts, ierr);
    else
      ((waitall_fn)real)(count, reqs, sts, ierr);
    return;
  }
  f_compl c;
  int ok = compl_begin(&c, *count, reqs, sts, *count, 1);
  if (is_test)
    ((testall_fn)real)(count, reqs, flag, c.fst, ierr);
  else
    ((waitall_fn)real)(count, reqs, c.fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  int done = ok ? c.nlive : 0;
  if (is_test && !*flag) {
    ev.flags |= AUGUR_F_NOTDONE;
    done = 0;
  }
  if (!ok) {
    aug_commit_completions(&ev, 0, NULL, NULL, NULL);
    return;
  }
  compl_statuses(&c, done ? c.n : 0);
  aug_commit_completions_ex(&ev, done, c.ids, c.live, c.st, 1);
}

AUG_F_SPELLINGS(mpi_waitall, MPI_WAITALL, (F_INT * count, F_INT *reqs, F_INT *sts, F_INT *ierr),
                f_all(AUG_CALLER(), 0, count, reqs, NULL, sts, ierr))
AUG_F_SPELLINGS(mpi_testall, MPI_TESTALL,
                (F_INT * count, F_INT *reqs, F_INT *flag, F_INT *sts, F_INT *ierr),
                f_all(AUG_CALLER(), 1, count, reqs, flag, sts, ierr))

/* ---- Waitany / Testany: aux = 0-based index of the completed request (one
 * COMPLETION), or UINT32_MAX with no sub-record when every request was
 * null; Testany that found nothing: NOTDONE, aux 0. ---- */

typedef void (*waitany_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
typedef void (*testany_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_waitany = AUG_F_SLOT(mpi_waitany);
static aug_f_slot s_testany = AUG_F_SLOT(mpi_testany);

static void f_any(const void *caller, int is_test, F_INT *count, F_INT *reqs, F_INT *index,
                  F_INT *flag, F_INT *st, F_INT *ierr) {
  aug_f_fn real = aug_f_real(is_test ? &s_testany : &s_waitany);
  augur_event ev;
  if (!aug_rec_enter(&ev, is_test ? AUGUR_EV_TESTANY : AUGUR_EV_WAITANY, caller)) {
    if (is_test)
      ((testany_fn)real)(count, reqs, index, flag, st, ierr);
    else
      ((waitany_fn)real)(count, reqs, index, st, ierr);
    return;
  }
  f_compl c;
  int ok = compl_begin(&c, *count, reqs, st, 1, 0);
  if (is_test)
    ((testany_fn)real)(count, reqs, index, flag, c.fst, ierr);
  else
    ((waitany_fn)real)(count, reqs, index, c.fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  int found = !is_test || *flag;
  int done = ok && found && *index != MPI_UNDEFINED && *index >= 1 && *index <= c.n;
  if (!found) ev.flags |= AUGUR_F_NOTDONE;
  ev.aux = done ? (uint32_t)(*index - 1) : (found ? UINT32_MAX : 0u);
  if (!done) {
    aug_commit_completions(&ev, 0, NULL, NULL, NULL);
    return;
  }
  c.idx[0] = *index - 1;
  compl_statuses(&c, 1);
  aug_commit_completions(&ev, 1, c.ids, c.idx, c.st);
}

AUG_F_SPELLINGS(mpi_waitany, MPI_WAITANY,
                (F_INT * count, F_INT *reqs, F_INT *index, F_INT *st, F_INT *ierr),
                f_any(AUG_CALLER(), 0, count, reqs, index, NULL, st, ierr))
AUG_F_SPELLINGS(mpi_testany, MPI_TESTANY,
                (F_INT * count, F_INT *reqs, F_INT *index, F_INT *flag, F_INT *st, F_INT *ierr),
                f_any(AUG_CALLER(), 1, count, reqs, index, flag, st, ierr))

/* ---- Waitsome / Testsome: statuses in completion order, like indices;
 * Testsome that completed nothing: NOTDONE. ---- */

typedef void (*some_fn)(F_INT *, F_INT *, F_INT *, F_INT *, F_INT *, F_INT *);
static aug_f_slot s_waitsome = AUG_F_SLOT(mpi_waitsome);
static aug_f_slot s_testsome = AUG_F_SLOT(mpi_testsome);

static void f_some(const void *caller, int is_test, F_INT *count, F_INT *reqs, F_INT *outcount,
                   F_INT *indices, F_INT *sts, F_INT *ierr) {
  some_fn real = (some_fn)aug_f_real(is_test ? &s_testsome : &s_waitsome);
  augur_event ev;
  if (!aug_rec_enter(&ev, is_test ? AUGUR_EV_TESTSOME : AUGUR_EV_WAITSOME, caller)) {
    real(count, reqs, outcount, indices, sts, ierr);
    return;
  }
  f_compl c;
  int ok = compl_begin(&c, *count, reqs, sts, *count, 1);
  real(count, reqs, outcount, indices, c.fst, ierr);
  aug_rec_exit(&ev);
  ev.flags |= AUGUR_F_FORTRAN;
  int done = *outcount == MPI_UNDEFINED || *outcount < 0 ? 0 : *outcount;
  if (done > c.n) done = c.n;
  if (is_test && *outcount == 0) ev.flags |= AUGUR_F_NOTDONE;
  if (!ok) {
    aug_commit_completions(&ev, 0, NULL, NULL, NULL);
    return;
  }
  int k = 0;
  for (int j = 0; j < done; j++)
    if (indices[j] >= 1 && indices[j] <= c.n) c.idx[k++] = indices[j] - 1;
  compl_statuses(&c, k);
  aug_commit_completions(&ev, k, c.ids, c.idx, c.st);
}

AUG_F_SPELLINGS(mpi_waitsome, MPI_WAITSOME,
                (F_INT * count, F_INT *reqs, F_INT *outcount, F_INT *indices, F_INT *sts,
                 F_INT *ierr),
                f_some(AUG_CALLER(), 0, count, reqs, outcount, indices, sts, ierr))
AUG_F_SPELLINGS(mpi_testsome, MPI_TESTSOME,
                (F_INT * count, F_INT *reqs, F_INT *outcount, F_INT *indices, F_INT *sts,
                 F_INT *ierr),
                f_some(AUG_CALLER(), 1, count, reqs, outcount, indices, sts, ierr))
