/* augur_model — p-values: the chi^2 upper tail (regularized incomplete gamma)
 * and the supLM statistic's (Hansen 1997 response surface; Estrella 2003
 * beyond 40 parameters), as partykit's mob computes them. */
#include <assert.h>
#include <math.h>

#include "model_int.h"
#include "suplm_table.h"

/* Q(a, x) = Gamma(a, x) / Gamma(a): series for P when x < a + 1, else
 * Lentz's continued fraction for Q. */
static double gamma_q(double a, double x) {
  assert(a > 0);
  if (x <= 0) return 1.0;
  double lg = a * log(x) - x - lgamma(a);
  if (x < a + 1) {
    double ap = a, sum = 1.0 / a, del = sum;
    for (int i = 0; i < 10000; i++) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (fabs(del) < fabs(sum) * 1e-17) break;
    }
    return 1.0 - sum * exp(lg);
  }
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 10000; i++) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double del = d * c;
    h *= del;
    if (fabs(del - 1) < 1e-17) break;
  }
  return exp(lg) * h;
}

double model_chisq_upper(double x, double df) {
  assert(df > 0);
  if (!(x > 0)) return 1.0;
  if (isinf(x)) return 0.0;
  return gamma_q(df / 2, x / 2);
}

static double logp_estrella(double x, double k, double lambda) {
  return -lgamma(k / 2) + k / 2 * log(x / 2) - x / 2 + log(fabs(log(lambda) * (1 - k / x) + 2 / x));
}

double model_suplm_pvalue(double x, size_t k, double lambda) {
  assert(k >= 1 && lambda > 0);
  if (k > 40) {
    double kk = (double)k;
    double lp = x <= 1.5 * kk ? pow(x / (1.5 * kk), sqrt(kk)) * logp_estrella(1.5 * kk, kk, lambda)
                              : logp_estrella(x, kk, lambda);
    return exp(lp);
  }
  double tau = lambda < 1 ? lambda : 1 / (1 + sqrt(lambda));
  const double(*b)[3] = &suplm_beta[(k - 1) * 25];
  double pp[25];
  for (int j = 0; j < 25; j++) {
    double d = b[j][0] + b[j][1] * x;
    pp[j] = model_chisq_upper(d > 0 ? d : 0, b[j][2]);
  }
  double pk = model_chisq_upper(x, (double)k);
  if (tau == 0.5) return pk;
  if (tau <= 0.01) return pp[24];
  if (tau >= 0.49) return ((0.5 - tau) * pp[0] + (tau - 0.49) * pk) * 100;
  double taua = (0.51 - tau) * 50;
  int tau1 = (int)floor(taua); /* 1-based row, 1..24 */
  return (tau1 + 1 - taua) * pp[tau1 - 1] + (taua - tau1) * pp[tau1];
}
