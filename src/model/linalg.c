/* augur_model — weighted least squares (Householder QR with R's limited
 * column pivoting, so aliased coefficients are the ones R drops) and the
 * symmetric inverse square root used to decorrelate the scores. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"

#define QR_TOL 1e-7 /* lm.fit's tol */

int model_wls(size_t n, size_t k, const double *X, const double *y, const double *w, double *coef,
              double *resid) {
  assert(k >= 1 && X && y && w && coef && resid);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    m += w[i] > 0;
  double *A = malloc((m * k + 2 * m + 2 * k) * sizeof *A + k * sizeof(size_t));
  if (!A) return -1;
  double *b = A + m * k, *tmp = b + m, *nrm0 = tmp + m, *beta = nrm0 + k;
  size_t *perm = (size_t *)(beta + k);
  /* column-major A = sqrt(w) X over the rows of positive weight */
  for (size_t i = 0, r = 0; i < n; i++) {
    if (!(w[i] > 0)) continue;
    double s = sqrt(w[i]);
    for (size_t j = 0; j < k; j++)
      A[j * m + r] = s * X[i * k + j];
    b[r++] = s * y[i];
  }
  for (size_t j = 0; j < k; j++) {
    perm[j] = j;
    double s = 0;
    for (size_t r = 0; r < m; r++)
      s += A[j * m + r] * A[j * m + r];
    nrm0[j] = s > 0 ? sqrt(s) : 1.0;
  }
  size_t lup = k, l = 0;
  for (; l < lup && l < m; l++) {
    /* columns whose remaining norm is negligible go to the end (dqrdc2) */
    for (;;) {
      double s = 0;
      for (size_t r = l; r < m; r++)
        s += A[l * m + r] * A[l * m + r];
      if (sqrt(s) >= QR_TOL * nrm0[perm[l]] && s > 0) break;
      if (l + 1 >= lup) {
        lup = l;
        break;
      }
      size_t tp = perm[l];
      memcpy(tmp, A + l * m, m * sizeof *tmp);
      memmove(A + l * m, A + (l + 1) * m, (k - l - 1) * m * sizeof *A);
      memcpy(A + (k - 1) * m, tmp, m * sizeof *tmp);
      memmove(perm + l, perm + l + 1, (k - l - 1) * sizeof *perm);
      perm[k - 1] = tp;
      lup--;
    }
    if (l >= lup) break;
    /* Householder reflection of column l, rows l..m-1 */
    double *a = A + l * m, s = 0;
    for (size_t r = l; r < m; r++)
      s += a[r] * a[r];
    double alpha = a[l] > 0 ? -sqrt(s) : sqrt(s);
    double v0 = a[l] - alpha;
    double vn = s - a[l] * a[l] + v0 * v0;
    a[l] = v0;
    if (vn > 0) {
      for (size_t j = l + 1; j <= k; j++) {
        double *c = j < k ? A + j * m : b, d = 0;
        for (size_t r = l; r < m; r++)
          d += a[r] * c[r];
        d = 2 * d / vn;
        for (size_t r = l; r < m; r++)
          c[r] -= d * a[r];
      }
    }
    beta[l] = alpha; /* R's diagonal */
  }
  size_t rank = l < lup ? l : lup;
  for (size_t j = 0; j < k; j++)
    coef[j] = NAN;
  double sol[k];
  for (size_t jj = rank; jj-- > 0;) {
    double s = b[jj];
    for (size_t c = jj + 1; c < rank; c++)
      s -= A[c * m + jj] * sol[c];
    sol[jj] = s / beta[jj];
  }
  for (size_t j = 0; j < rank; j++)
    coef[perm[j]] = sol[j];
  for (size_t i = 0; i < n; i++) {
    double f = 0;
    for (size_t j = 0; j < k; j++)
      if (!isnan(coef[j])) f += X[i * k + j] * coef[j];
    resid[i] = y[i] - f;
  }
  free(A);
  return (int)rank;
}

int model_inv_sqrt(size_t k, const double *A, double *out) {
  assert(k >= 1 && A && out);
  /* positive definite? (R: chol() fails otherwise and the tests are skipped) */
  double L[k * k];
  memset(L, 0, sizeof L);
  for (size_t j = 0; j < k; j++) {
    double s = A[j * k + j];
    for (size_t c = 0; c < j; c++)
      s -= L[j * k + c] * L[j * k + c];
    if (!(s > 0)) return -1;
    L[j * k + j] = sqrt(s);
    for (size_t i = j + 1; i < k; i++) {
      double t = A[i * k + j];
      for (size_t c = 0; c < j; c++)
        t -= L[i * k + c] * L[j * k + c];
      L[i * k + j] = t / L[j * k + j];
    }
  }
  /* cyclic Jacobi eigen decomposition of A */
  double a[k * k], v[k * k];
  memcpy(a, A, sizeof a);
  for (size_t i = 0; i < k * k; i++)
    v[i] = 0;
  for (size_t i = 0; i < k; i++)
    v[i * k + i] = 1;
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0, dia = 0;
    for (size_t i = 0; i < k; i++)
      for (size_t j = 0; j < k; j++)
        if (i != j)
          off += a[i * k + j] * a[i * k + j];
        else
          dia += a[i * k + j] * a[i * k + j];
    if (off <= 1e-30 * dia) break;
    for (size_t p = 0; p < k; p++)
      for (size_t q = p + 1; q < k; q++) {
        double apq = a[p * k + q];
        if (apq == 0) continue;
        double theta = (a[q * k + q] - a[p * k + p]) / (2 * apq);
        double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
        double c = 1 / sqrt(t * t + 1), s = t * c;
        for (size_t r = 0; r < k; r++) { /* columns p, q */
          double arp = a[r * k + p], arq = a[r * k + q];
          a[r * k + p] = c * arp - s * arq;
          a[r * k + q] = s * arp + c * arq;
        }
        for (size_t r = 0; r < k; r++) { /* rows p, q */
          double apr = a[p * k + r], aqr = a[q * k + r];
          a[p * k + r] = c * apr - s * aqr;
          a[q * k + r] = s * apr + c * aqr;
        }
        for (size_t r = 0; r < k; r++) {
          double vrp = v[r * k + p], vrq = v[r * k + q];
          v[r * k + p] = c * vrp - s * vrq;
          v[r * k + q] = s * vrp + c * vrq;
        }
      }
  }
  for (size_t i = 0; i < k; i++)
    if (!(a[i * k + i] > 0)) return -1;
  for (size_t i = 0; i < k; i++)
    for (size_t j = 0; j < k; j++) {
      double s = 0;
      for (size_t e = 0; e < k; e++)
        s += v[i * k + e] * v[j * k + e] / sqrt(a[e * k + e]);
      out[i * k + j] = s;
    }
  return 0;
}
