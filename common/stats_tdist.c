/*-------------------------------------------------------------------------
 *
 * stats_tdist.c
 *		Student's t distribution (cdf, quantile) through the regularized
 *		incomplete beta function, and the power of a one-sided t criterion
 *		under a shift (the noncentral t distribution).
 *
 * The verdict across units (instance pairs, build seed pairs) is a t
 * interval on a handful of unit summaries, so the t quantiles with 1 to
 * 20 degrees of freedom must be right to many digits: they are computed,
 * not taken from an approximation of the normal.  The incomplete beta
 * function uses the continued fraction of Numerical Recipes (betacf,
 * evaluated by the modified Lentz method), which converges quickly on the
 * side of its symmetry point where it is used.
 *
 *-------------------------------------------------------------------------
 */
#include "stats_int.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#define PI 3.14159265358979323846
#define SQRT_2PI 2.50662827463100050242
#define BETA_CF_MAX_ITER 1000
#define BETA_CF_EPS 1e-16
#define BETA_CF_TINY 1e-300

/* Past this many degrees of freedom the power uses its normal limit. */
#define T_POWER_MAX_DF 1.0e6
/*
 * Simpson's rule over the chi distribution of the sd, mean +- 7 (its sd is
 * below 0.71: 10 sd), in steps of at most 0.04; where the normal cdf turns
 * within that (the band of +-8 widths sqrt(df) / crit around its
 * midpoint), in steps of a tenth of a width.  Absolute error below 1e-7
 * (checked against steps 20 times finer and a range of +-12, over 1 to
 * 10^5 df, crit -2 to 70, ncp -3 to 60).
 */
#define T_POWER_HALF_RANGE 7.0
#define T_POWER_MAX_STEP 0.04
#define T_POWER_BAND 8.0

/*
 * One step of the modified Lentz method with partial numerator aa: updates
 * the running c and d, keeping both away from 0, and returns the factor
 * the continued fraction's value is multiplied by.
 */
static double
lentz_step(double aa, double *c, double *d)
{
	*d = 1.0 + aa * *d;
	if (fabs(*d) < BETA_CF_TINY)
		*d = BETA_CF_TINY;
	*c = 1.0 + aa / *c;
	if (fabs(*c) < BETA_CF_TINY)
		*c = BETA_CF_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

/* Continued fraction of I_x(a, b), Numerical Recipes' betacf (Lentz). */
static double
beta_cf(double a, double b, double x)
{
	double		qab = a + b,
				qap = a + 1.0,
				qam = a - 1.0,
				c = 1.0,
				d = 1.0 - qab * x / qap,
				h;

	if (fabs(d) < BETA_CF_TINY)
		d = BETA_CF_TINY;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= BETA_CF_MAX_ITER; m++)
	{
		int			m2 = 2 * m;
		double		del;

		/* the even and the odd partial numerators of step m */
		h *= lentz_step(m * (b - m) * x / ((qam + m2) * (a + m2)), &c, &d);
		del = lentz_step(-(a + m) * (qab + m) * x / ((a + m2) * (qap + m2)), &c, &d);
		h *= del;
		if (fabs(del - 1.0) < BETA_CF_EPS)
			break;
	}
	return h;
}

double
stats_beta_inc(double a, double b, double x)
{
	double		front;

	if (!(a > 0.0 && b > 0.0) || !(x >= 0.0 && x <= 1.0))
		return NAN;
	if (x == 0.0 || x == 1.0)
		return x;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
				a * log(x) + b * log1p(-x));
	/* the fraction converges fast for x < (a+1)/(a+b+2); use symmetry past it */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

/* P(T > t) for t >= 0: half of I_{df/(df+t^2)}(df/2, 1/2). */
static double
t_upper_tail(double t, double df)
{
	double		t2 = t * t;

	/* for small t, the complement from the other side keeps precision */
	if (t2 < df)
		return 0.5 - 0.5 * stats_beta_inc(0.5, df / 2.0, t2 / (df + t2));
	return 0.5 * stats_beta_inc(df / 2.0, 0.5, df / (df + t2));
}

double
stats_t_cdf(double t, double df)
{
	if (!(df > 0.0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	return t >= 0.0 ? 1.0 - t_upper_tail(t, df) : t_upper_tail(-t, df);
}

static double
t_density(double t, double df)
{
	return exp(lgamma((df + 1.0) / 2.0) - lgamma(df / 2.0) -
			   0.5 * log(df * PI) - (df + 1.0) / 2.0 * log1p(t * t / df));
}

/*
 * The last answers of a pure function of three numbers.  The t quantiles
 * and the power search below are asked the same few questions again and
 * again -- every look of a sequential verdict asks for its MDE, and a
 * simulation of thousands of experiments (or a report of many cells)
 * repeats the looks -- and each answer costs a search over numerical
 * integrals.  A process's own (a backend's, the client's), with nothing
 * to share between threads.
 */
#define TDIST_MEMO_SIZE 32

typedef struct TdistMemo
{
	double		key[3];
	bool		used;
	double		value;
} TdistMemo;

static TdistMemo *
memo_find(TdistMemo *memo, double a, double b, double c)
{
	for (int i = 0; i < TDIST_MEMO_SIZE; i++)
		if (memo[i].used && memo[i].key[0] == a && memo[i].key[1] == b && memo[i].key[2] == c)
			return &memo[i];
	return NULL;
}

/* The slot for a new answer: the oldest, round the ring. */
static TdistMemo *
memo_slot(TdistMemo *memo, int *next, double a, double b, double c)
{
	TdistMemo  *m = &memo[*next];

	*next = (*next + 1) % TDIST_MEMO_SIZE;
	m->key[0] = a;
	m->key[1] = b;
	m->key[2] = c;
	m->used = true;
	return m;
}

static double t_quantile(double p, double df);
static double t_ncp_for_power(double df, double crit, double power);

/*
 * Quantile: closed forms for 1 and 2 degrees of freedom; otherwise Newton
 * steps on the upper tail from the Cornish–Fisher start, kept inside a
 * bracket by bisection, to a relative 1e-13.
 */
double
stats_t_quantile(double p, double df)
{
	static TdistMemo memo[TDIST_MEMO_SIZE];
	static int	next;
	TdistMemo  *m;

	if ((m = memo_find(memo, p, df, 0.0)) == NULL)
	{
		m = memo_slot(memo, &next, p, df, 0.0);
		m->value = t_quantile(p, df);
	}
	return m->value;
}

/* The quantile itself, for stats_t_quantile(). */
static double
t_quantile(double p, double df)
{
	double		q,
				z,
				t,
				lo = 0.0,
				hi;
	int			sign;

	if (!(df > 0.0) || !(p >= 0.0 && p <= 1.0))
		return NAN;
	if (p == 0.0)
		return -HUGE_VAL;
	if (p == 1.0)
		return HUGE_VAL;
	if (p == 0.5)
		return 0.0;
	if (df == 1.0)
		return tan(PI * (p - 0.5));
	if (df == 2.0)
		return (2.0 * p - 1.0) / sqrt(2.0 * p * (1.0 - p));

	sign = p > 0.5 ? 1 : -1;
	q = p > 0.5 ? 1.0 - p : p;	/* upper tail wanted for t >= 0 */
	z = -stats_norm_quantile(q);
	t = z + (z * z * z + z) / (4.0 * df) +
		(5.0 * pow(z, 5) + 16.0 * z * z * z + 3.0 * z) / (96.0 * df * df);
	hi = t > 1.0 ? 2.0 * t : 2.0;
	while (t_upper_tail(hi, df) > q)
		hi *= 2.0;
	if (!(t > lo && t < hi))
		t = (lo + hi) / 2.0;
	for (int iter = 0; iter < 200; iter++)
	{
		double		s = t_upper_tail(t, df),
					next;

		if (s > q)
			lo = t;
		else
			hi = t;
		next = t + (s - q) / t_density(t, df);
		if (!(next > lo && next < hi))
			next = (lo + hi) / 2.0;
		if (fabs(next - t) <= 1e-13 * (1.0 + t))
		{
			t = next;
			break;
		}
		t = next;
	}
	return sign * t;
}

typedef struct PowerIntegral
{
	double		ncp;
	double		crit;
	double		df;
	double		center;			/* sqrt(df): the chi distribution's scale */
	double		log_norm;		/* log of its density's normalizing constant */
	double		power;			/* sums so far */
	double		slope;
} PowerIntegral;

/* Simpson's rule on [lo, hi] in steps of at most max_step, added to pi. */
static void
power_simpson(PowerIntegral *pi, double lo, double hi, double max_step)
{
	double		sum_p = 0.0,
				sum_d = 0.0,
				h;
	int			steps;

	if (!(hi > lo))
		return;
	steps = 2 * (int) ceil((hi - lo) / max_step / 2.0);
	h = (hi - lo) / steps;
	for (int i = 0; i <= steps; i++)
	{
		double		s = lo + i * h,
					w = (i == 0 || i == steps) ? 1.0 : (i % 2 ? 4.0 : 2.0),
					dens,
					x;

		/* the chi density at 0 is 0, but for one degree of freedom */
		if (s <= 0.0)
			dens = pi->df == 1.0 ? exp(-pi->log_norm) : 0.0;
		else
			dens = exp((pi->df - 1.0) * log(s) - s * s / 2.0 - pi->log_norm);
		x = pi->ncp - pi->crit * s / pi->center;
		sum_p += w * dens * stats_norm_cdf(x);
		sum_d += w * dens * exp(-x * x / 2.0) / SQRT_2PI;
	}
	pi->power += sum_p * h / 3.0;
	pi->slope += sum_d * h / 3.0;
}

/*
 * P(T' > crit) and its derivative in ncp, where T' = (Z + ncp) / sqrt(V/df)
 * with Z standard normal and V chi-square on df: the expectation over the
 * chi distribution of s = sqrt(V) of Phi(ncp - crit s / sqrt(df)).
 */
static void
t_power_and_slope(double ncp, double df, double crit, double *power,
				  double *slope)
{
	PowerIntegral pi = {.ncp = ncp, .crit = crit, .df = df, .center = sqrt(df),
	.log_norm = (df / 2.0 - 1.0) * log(2.0) + lgamma(df / 2.0)};
	double		lo = pi.center > T_POWER_HALF_RANGE ? pi.center - T_POWER_HALF_RANGE : 0.0,
				hi = pi.center + T_POWER_HALF_RANGE,
				width = fabs(crit) > 0.0 ? pi.center / fabs(crit) : HUGE_VAL;

	if (df > T_POWER_MAX_DF)
	{
		/* the sd's own spread as a normal term (Johnson and Welch) */
		double		scale = sqrt(1.0 + crit * crit / (2.0 * df));
		double		z = (ncp - crit) / scale;

		*power = stats_norm_cdf(z);
		*slope = exp(-z * z / 2.0) / SQRT_2PI / scale;
		return;
	}
	if (width / 10.0 >= T_POWER_MAX_STEP)
		power_simpson(&pi, lo, hi, T_POWER_MAX_STEP);
	else
	{
		/* where x = 0, and the band around it clamped to the range */
		double		mid = ncp * pi.center / crit,
					band_lo = fmin(fmax(mid - T_POWER_BAND * width, lo), hi),
					band_hi = fmin(fmax(mid + T_POWER_BAND * width, lo), hi);

		power_simpson(&pi, lo, band_lo, T_POWER_MAX_STEP);
		power_simpson(&pi, band_lo, band_hi, width / 10.0);
		power_simpson(&pi, band_hi, hi, T_POWER_MAX_STEP);
	}
	*power = pi.power;
	*slope = pi.slope;
}

double
stats_t_power(double ncp, double df, double crit)
{
	double		power,
				slope;

	if (!(df >= 1.0) || !isfinite(ncp) || !isfinite(crit))
		return NAN;
	t_power_and_slope(ncp, df, crit, &power, &slope);
	return power < 0.0 ? 0.0 : power > 1.0 ? 1.0 : power;
}

/*
 * The ncp giving P(T' > crit) = power: Newton from the normal-limit start,
 * inside a bracket (the power rises with ncp) widened until it holds the
 * answer and narrowed by every step, bisecting where Newton would leave it.
 */
double
stats_t_ncp_for_power(double df, double crit, double power)
{
	static TdistMemo memo[TDIST_MEMO_SIZE];
	static int	next;
	TdistMemo  *m;

	if (!(df >= 1.0) || !isfinite(crit) || !(power > 0.0 && power < 1.0))
		return NAN;
	if ((m = memo_find(memo, df, crit, power)) == NULL)
	{
		m = memo_slot(memo, &next, df, crit, power);
		m->value = t_ncp_for_power(df, crit, power);
	}
	return m->value;
}

/* The search itself, for stats_t_ncp_for_power(). */
static double
t_ncp_for_power(double df, double crit, double power)
{
	double		lo = crit - 40.0,
				hi = crit + 40.0,
				ncp,
				p,
				slope;

	for (t_power_and_slope(hi, df, crit, &p, &slope); p < power;
		 t_power_and_slope(hi, df, crit, &p, &slope))
		hi += 2.0 * (hi - lo);
	for (t_power_and_slope(lo, df, crit, &p, &slope); p > power;
		 t_power_and_slope(lo, df, crit, &p, &slope))
		lo -= 2.0 * (hi - lo);
	ncp = crit + stats_norm_quantile(power) * sqrt(1.0 + crit * crit / (2.0 * df));
	for (int iter = 0; iter < 200; iter++)
	{
		double		next;

		if (!(ncp > lo && ncp < hi))
			ncp = (lo + hi) / 2.0;
		t_power_and_slope(ncp, df, crit, &p, &slope);
		if (p < power)
			lo = ncp;
		else
			hi = ncp;
		next = slope > 0.0 ? ncp + (power - p) / slope : (lo + hi) / 2.0;
		if (fabs(next - ncp) <= 1e-10 * (1.0 + fabs(ncp)))
			return next;
		ncp = next;
	}
	return ncp;
}

/*
 * The regularized lower incomplete gamma function P(a, x): its series
 * below x = a + 1, the continued fraction (Lentz) above (Numerical
 * Recipes, gser and gcf), relative error about 1e-14.
 */
double
stats_gamma_inc(double a, double x)
{
	double		lead;

	if (!(a > 0.0) || isnan(x))
		return NAN;
	if (x <= 0.0)
		return 0.0;
	if (isinf(x))
		return 1.0;
	lead = exp(a * log(x) - x - lgamma(a));
	if (x < a + 1.0)
	{
		double		term = 1.0 / a,
					sum = term;

		for (int n = 1; n < BETA_CF_MAX_ITER && fabs(term) > fabs(sum) * BETA_CF_EPS; n++)
		{
			term *= x / (a + n);
			sum += term;
		}
		return fmin(1.0, sum * lead);
	}
	else
	{
		double		b = x + 1.0 - a,
					c = 1.0 / BETA_CF_TINY,
					d = 1.0 / b,
					h = d;

		for (int i = 1; i < BETA_CF_MAX_ITER; i++)
		{
			double		an = -i * (i - a),
						del;

			b += 2.0;
			d = an * d + b;
			if (fabs(d) < BETA_CF_TINY)
				d = BETA_CF_TINY;
			c = b + an / c;
			if (fabs(c) < BETA_CF_TINY)
				c = BETA_CF_TINY;
			d = 1.0 / d;
			del = d * c;
			h *= del;
			if (fabs(del - 1.0) < BETA_CF_EPS)
				break;
		}
		return fmax(0.0, 1.0 - lead * h);
	}
}

/*
 * The p quantile of chi-square on df > 0: Newton's method on log x from
 * the Wilson–Hilferty approximation, bisection when a step would leave
 * the bracket; to a relative error of 1e-12, in a few steps.
 */
double
stats_chisq_quantile(double p, double df)
{
	double		a = 0.5 * df,
				z,
				wh,
				lx,
				lo = -700.0,
				hi = 700.0;

	if (!(df > 0.0) || !(p >= 0.0 && p <= 1.0))
		return NAN;
	if (p == 0.0)
		return 0.0;
	if (p == 1.0)
		return HUGE_VAL;
	z = stats_norm_quantile(p);
	wh = 1.0 - 2.0 / (9.0 * df) + z * sqrt(2.0 / (9.0 * df));
	lx = wh > 0.05 ? log(df * wh * wh * wh) : log(df) + log(p * a * exp(lgamma(a))) / a;
	for (int it = 0; it < 200; it++)
	{
		double		x = exp(lx),
					f = stats_gamma_inc(a, 0.5 * x) - p,
					/* d P / d log x: the chi-square density times x */
					slope = exp(a * log(0.5 * x) - 0.5 * x - lgamma(a)),
					next;

		if (f < 0.0)
			lo = lx;
		else
			hi = lx;
		next = slope > 0.0 ? lx - f / slope : 0.5 * (lo + hi);
		if (!(next > lo && next < hi))
			next = 0.5 * (lo + hi);
		if (fabs(next - lx) < 1e-12)
			return exp(next);
		lx = next;
	}
	return exp(lx);
}
