/* augur_model — private helpers shared by the library's files. */
#ifndef AUGUR_MODEL_INT_H
#define AUGUR_MODEL_INT_H

#include <stddef.h>

#include "augur/error.h"
#include "augur/model.h"

/* Reads the whole file PATH into a malloc'd, NUL-terminated *text. */
int model_read_file(const char *path, char **text, size_t *len, augur_error *err);

/* Weighted least squares of y on the n x k matrix X (row-major) with weights
 * w (rows of weight 0 take no part). Householder QR with R's limited column
 * pivoting (dqrdc2, tolerance 1e-7): an aliased column gets coef NaN.
 * Returns the rank (-1: no memory); resid[i] = y[i] - x_i'b for every row (aliased as 0). */
int model_wls(size_t n, size_t k, const double *X, const double *y, const double *w, double *coef,
              double *resid);

/* Symmetric inverse square root of the k x k symmetric matrix A (row-major)
 * into out, by the eigen decomposition (Jacobi). Returns 0, or -1 when A is
 * not positive definite (partykit's chol() fails there and the node's tests
 * are skipped). */
int model_inv_sqrt(size_t k, const double *A, double *out);

/* P[chi^2(df) > x]. */
double model_chisq_upper(double x, double df);
/* p-value of the supLM statistic x with k parameters and trimming lambda
 * (Hansen 1997, table from strucchange's sc.beta.sup; Estrella 2003 for
 * k > 40). */
double model_suplm_pvalue(double x, size_t k, double lambda);

#endif
