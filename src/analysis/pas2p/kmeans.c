/* K-means with an automatic elbow, for PAS2P's irregular mode
 * (docs/phases.md "Irregular mode"). Small inputs (the ranks' relevant
 * phases), two features, and one requirement above all: the same input
 * gives the same clusters on every run and machine. So no random start:
 * farthest-point initialisation (the point farthest from the mean, then
 * repeatedly the point farthest from its nearest centre; the lowest index
 * wins a tie), then Lloyd iterations until no point changes cluster.
 * (No libm: augur_analysis does not link it.) */
#include <stdlib.h>
#include <string.h>

#include "phases_int.h"

#define LLOYD_MAX 100

double augur_ln_(double x) {
  if (!(x > 0)) return -1e300;
  /* x = m * 2^e with m in [1, 2), then ln m = 2 atanh((m - 1) / (m + 1)). */
  int e = 0;
  while (x >= 2) {
    x /= 2;
    e++;
  }
  while (x < 1) {
    x *= 2;
    e--;
  }
  double z = (x - 1) / (x + 1), z2 = z * z, term = z, sum = 0;
  for (int k = 1; k < 60; k += 2) { /* z <= 1/3: 30 terms are far below 1e-15 */
    sum += term / k;
    term *= z2;
  }
  return 2 * sum + e * 0.69314718055994530942;
}

static double dist2(const double *a, const double *b) {
  double dx = a[0] - b[0], dy = a[1] - b[1];
  return dx * dx + dy * dy;
}

/* Nearest centre of P among C[0..k), lowest index on a tie. */
static uint32_t nearest(const double *p, const double *c, uint32_t k) {
  uint32_t best = 0;
  double bd = dist2(p, c);
  for (uint32_t j = 1; j < k; j++) {
    double dj = dist2(p, c + 2 * j);
    if (dj < bd) {
      bd = dj;
      best = j;
    }
  }
  return best;
}

double augur_kmeans_(const double *pts, uint32_t n, uint32_t k, uint32_t *label) {
  if (!n) return 0;
  if (k > n) k = n;
  if (k < 1) k = 1;
  double *c = malloc(2 * (size_t)k * sizeof *c);
  double *dmin = malloc((size_t)n * sizeof *dmin);
  double *sum = malloc(3 * (size_t)k * sizeof *sum);
  if (!c || !dmin || !sum) {
    free(c);
    free(dmin);
    free(sum);
    return -1;
  }
  double mean[2] = {0, 0};
  for (uint32_t i = 0; i < n; i++) {
    mean[0] += pts[2 * i] / n;
    mean[1] += pts[2 * i + 1] / n;
  }
  uint32_t first = 0;
  for (uint32_t i = 1; i < n; i++)
    if (dist2(pts + 2 * i, mean) > dist2(pts + 2 * first, mean)) first = i;
  c[0] = pts[2 * first];
  c[1] = pts[2 * first + 1];
  for (uint32_t i = 0; i < n; i++)
    dmin[i] = dist2(pts + 2 * i, c);
  uint32_t have = 1;
  while (have < k) {
    uint32_t far = 0;
    for (uint32_t i = 1; i < n; i++)
      if (dmin[i] > dmin[far]) far = i;
    if (dmin[far] <= 0) break; /* fewer distinct points than k */
    c[2 * have] = pts[2 * far];
    c[2 * have + 1] = pts[2 * far + 1];
    for (uint32_t i = 0; i < n; i++) {
      double d = dist2(pts + 2 * i, c + 2 * have);
      if (d < dmin[i]) dmin[i] = d;
    }
    have++;
  }
  k = have;
  for (uint32_t i = 0; i < n; i++)
    label[i] = UINT32_MAX;
  for (int it = 0; it < LLOYD_MAX; it++) {
    int changed = 0;
    for (uint32_t i = 0; i < n; i++) {
      uint32_t j = nearest(pts + 2 * i, c, k);
      if (j != label[i]) {
        label[i] = j;
        changed = 1;
      }
    }
    if (!changed) break;
    memset(sum, 0, 3 * (size_t)k * sizeof *sum);
    for (uint32_t i = 0; i < n; i++) {
      sum[3 * label[i]] += pts[2 * i];
      sum[3 * label[i] + 1] += pts[2 * i + 1];
      sum[3 * label[i] + 2] += 1;
    }
    for (uint32_t j = 0; j < k; j++)
      if (sum[3 * j + 2] > 0) { /* an emptied cluster keeps its centre */
        c[2 * j] = sum[3 * j] / sum[3 * j + 2];
        c[2 * j + 1] = sum[3 * j + 1] / sum[3 * j + 2];
      }
  }
  double sse = 0;
  for (uint32_t i = 0; i < n; i++)
    sse += dist2(pts + 2 * i, c + 2 * label[i]);
  /* Number the clusters in order of their lowest point: the same input
   * gives the same numbers, and empty clusters disappear. */
  uint32_t *map = (uint32_t *)dmin; /* n >= k entries, no longer needed as distances */
  for (uint32_t j = 0; j < k; j++)
    map[j] = UINT32_MAX;
  uint32_t next = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (map[label[i]] == UINT32_MAX) map[label[i]] = next++;
    label[i] = map[label[i]];
  }
  free(c);
  free(dmin);
  free(sum);
  return sse;
}

/* The elbow (docs/phases.md): the "kneedle" point of the SSE curve — the K
 * farthest below the chord from (1, SSE(1)) to (KMAX, SSE(KMAX)), both axes
 * scaled to [0, 1] — then one more cluster while the clusters are not
 * compact (mean squared distance to the centre above AUGUR_KMEANS_COMPACT)
 * and that cluster at least halves the SSE: the kneedle point alone stops at
 * the coarsest split when one gap dwarfs the others. All points compact:
 * K = 1, which the kneedle point cannot give. */
uint32_t augur_kmeans_elbow_(const double *pts, uint32_t n, uint32_t kmax, uint32_t *label,
                             double *sse) {
  if (!n) return 0;
  if (kmax > 16) kmax = 16;
  for (uint32_t k = 0; k < kmax; k++)
    sse[k] = 0;
  if (kmax > n) kmax = n;
  if (kmax < 1) kmax = 1;
  for (uint32_t k = 1; k <= kmax; k++) {
    sse[k - 1] = augur_kmeans_(pts, n, k, label);
    if (sse[k - 1] < 0) return 0;
  }
  uint32_t best = 1;
  if (sse[0] / n <= AUGUR_KMEANS_COMPACT || kmax == 1) {
    best = 1;
  } else if (kmax == 2) {
    best = 2;
  } else {
    double top = sse[0] - sse[kmax - 1], bd = -1;
    for (uint32_t k = 1; k <= kmax; k++) {
      double xn = (double)(k - 1) / (double)(kmax - 1);
      double yn = top > 0 ? (sse[k - 1] - sse[kmax - 1]) / top : 0;
      double d = (1 - xn) - yn;
      if (d > bd + 1e-12) {
        bd = d;
        best = k;
      }
    }
    while (best < kmax && sse[best - 1] / n > AUGUR_KMEANS_COMPACT &&
           sse[best] <= 0.5 * sse[best - 1])
      best++;
  }
  return augur_kmeans_(pts, n, best, label) < 0 ? 0 : best;
}
