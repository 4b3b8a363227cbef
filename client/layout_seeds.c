/*-------------------------------------------------------------------------
 *
 * layout_seeds.c
 *		Variants with layout seeds: B with layout_seeds = 3 runs as three
 *		builds B@seed1, B@seed2, B@seed3, each its own variant to the plan
 *		(so every round runs every seed, in random order) and to the
 *		results.  This file is the one place that knows the spelling and
 *		the one that gives the verdicts per seed and over all seeds.
 *
 * One build is one sample of code layout: a change of a few percent can
 * come from where the linker happened to put the hot functions.  The
 * report therefore compares B@seedK with A@seedK for every K, then all of
 * B's seeds with all of A's ("B@seed*"), and warns when the seeds disagree
 * about the direction of the change.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout_seeds.h"
#include "report.h"

#include <math.h>

/* Replace each variant with layout_seeds = N > 1 by its N seed variants. */
bool
layout_seeds_expand(ExperimentSpec *spec, char **error)
{
	VariantSpec out[MAX_VARIANTS];
	int			n = 0;

	for (int i = 0; i < spec->nvariants; i++)
	{
		VariantSpec *v = &spec->variants[i];
		int			seeds = v->layout_seeds;

		if (seeds <= 1 || v->layout_seed > 0)
		{
			/* one seed: a shuffled build, named as given */
			if (seeds == 1 && v->layout_seed == 0)
				v->layout_seed = 1;
			v->layout_seeds = 0;
			out[n++] = *v;
			continue;
		}
		for (int j = 0; j < spec->nvariants; j++)
			if (spec->variants[j].cluster && strcmp(spec->variants[j].cluster, v->name) == 0)
			{
				*error = psprintf("variant \"%s\" has cluster = %s, but \"%s\" has layout_seeds = %d and runs as that many servers; give \"%s\" a server of its own",
								  spec->variants[j].name, v->name, v->name, seeds, spec->variants[j].name);
				return false;
			}
		if (n + seeds + (spec->nvariants - i - 1) > MAX_VARIANTS)
		{
			*error = psprintf("layout_seeds = %d in variant \"%s\" makes more than %d variants in all",
							  seeds, v->name, MAX_VARIANTS);
			return false;
		}
		for (int k = 1; k <= seeds; k++)
		{
			out[n] = *v;
			out[n].name = psprintf("%s" LAYOUT_SEED_MARK "%d", v->name, k);
			out[n].layout_seeds = 0;
			out[n].layout_seed = k;
			n++;
		}
	}
	memcpy(spec->variants, out, sizeof(VariantSpec) * n);
	spec->nvariants = n;
	return true;
}

/* "B@seed2" -> "B" with *seed = 2; any other name is its own base, seed 0. */
char *
layout_seed_base(const char *variant, int *seed)
{
	const char *mark = strstr(variant, LAYOUT_SEED_MARK);
	char	   *end;
	long		k;

	*seed = 0;
	if (mark == NULL)
		return pg_strdup(variant);
	k = strtol(mark + strlen(LAYOUT_SEED_MARK), &end, 10);
	if (*end != '\0' || k < 1 || end == mark + strlen(LAYOUT_SEED_MARK))
		return pg_strdup(variant);
	*seed = (int) k;
	return pnstrdup(variant, mark - variant);
}

/*
 * The index of the variant that variant v is compared with, or -1 when v
 * is itself a baseline: the first variant for a variant without seeds;
 * the first variant's build of the same seed for a seeded one.
 */
int
layout_seed_baseline(const ExperimentSpec *spec, int v)
{
	int			first_seed;
	int			seed;
	char	   *first = layout_seed_base(spec->variants[0].name, &first_seed);
	char	   *base = layout_seed_base(spec->variants[v].name, &seed);

	if (v == 0 || strcmp(base, first) == 0)
		return -1;
	if (seed > 0)
		for (int i = 0; i < spec->nvariants; i++)
		{
			int			s;

			if (strcmp(layout_seed_base(spec->variants[i].name, &s), first) == 0 && s == seed)
				return i;
		}
	return 0;
}

/*
 * The pooled comparisons: "A@seed*" (A the first variant) first, then
 * "B@seed*" for every other variant with more than one seed.  Returns how
 * many names: 0 unless the first variant and another have several seeds.
 */
int
layout_seed_pooled(const ExperimentSpec *spec, char **names)
{
	int			n = 0;
	int			first_seed;
	char	   *first = layout_seed_base(spec->variants[0].name, &first_seed);

	/* expansion puts A@seed2 right after A@seed1 */
	if (first_seed == 0 || spec->nvariants < 2 ||
		strcmp(spec->variants[1].name, psprintf("%s" LAYOUT_SEED_MARK "2", first)) != 0)
		return 0;

	for (int i = 0; i < spec->nvariants; i++)
	{
		int			seed;
		char	   *base = layout_seed_base(spec->variants[i].name, &seed);
		char	   *pattern = psprintf("%s" LAYOUT_SEED_ALL, base);
		bool		seen = false;

		if (seed != 2)			/* a second seed: more than one */
			continue;
		for (int k = 0; k < n; k++)
			seen |= strcmp(names[k], pattern) == 0;
		if (!seen)
			names[n++] = pattern;
	}
	return n >= 2 ? n : 0;
}

/* Whether a results row of variant belongs to pattern (a name or "B@seed*"). */
bool
layout_seed_matches(const char *pattern, const char *variant)
{
	size_t		len = strlen(pattern);
	size_t		all = strlen(LAYOUT_SEED_ALL);
	int			seed;

	if (len > all && strcmp(pattern + len - all, LAYOUT_SEED_ALL) == 0)
		return strncmp(pattern, variant, len - all) == 0 &&
			strcmp(layout_seed_base(variant, &seed), pnstrdup(pattern, len - all)) == 0 &&
			seed > 0;
	return strcmp(pattern, variant) == 0;
}

/* B@seedK against A@seedK, as the table compares across servers. */
static char *
seed_verdict_line(ReportData *r, int s, int c, int b, int a, double *change)
{
	ReportCell	cell = {0};
	const StatsComparison *cmp = &cell.cmp;
	const char *script = r->spec.scripts[s];
	int			clients = r->spec.clients[c];
	int			baseline = r->baseline;

	cell.script = script;
	cell.clients = clients;
	cell.variant = b;
	cell.name = r->spec.variants[b].name;
	cell.base_name = r->spec.variants[a].name;
	cell.a = report_sample(r, s, c, a);
	cell.b = report_sample(r, s, c, b);
	/* the unit follows the servers of the two seeds compared */
	r->baseline = a;
	report_compare_cell(r, &cell);
	r->baseline = baseline;
	*change = NAN;
	if (!cell.has_comparison)
		return psprintf("%s, %d client%s: %s vs %s: no comparison", script, clients,
						clients == 1 ? "" : "s", cell.name, cell.base_name);
	if (cmp->has_estimate)
		*change = cmp->change_pct;
	return psprintf("%s, %d client%s: %s vs %s: %s%s, %s (%s)", script, clients,
					clients == 1 ? "" : "s", cell.name, cell.base_name,
					cmp->has_estimate ? psprintf("%+.2f%%", cmp->change_pct) : "-",
					cmp->has_ci ? psprintf(" [%+.2f%%, %+.2f%%]", 100 * (cmp->ci_low - 1),
										   100 * (cmp->ci_high - 1)) : "",
					report_verdict_text(cmp), report_comparison_n(cmp));
}

/*
 * With layout seeds: the verdict of B@seedK against A@seedK for every K,
 * as lines after the table (every seed against every seed, across seed
 * pairs, is a row of the table: report_pooled_seed_cells()), and a
 * warning where the seeds disagree in sign.  Nothing without seeds.
 */
void
layout_seed_verdicts(ReportData *r)
{
	char	   *pooled[MAX_VARIANTS];
	int			npooled = layout_seed_pooled(&r->spec, pooled);

	if (npooled == 0)
		return;
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int c = 0; c < r->spec.nclients; c++)
		{
			double		change[MAX_VARIANTS];

			for (int v = 1; v < r->spec.nvariants; v++)
			{
				int			base = layout_seed_baseline(&r->spec, v);

				change[v] = NAN;
				if (base >= 0)
					report_add_seed_line(r, seed_verdict_line(r, s, c, v, base, &change[v]));
			}
			for (int k = 1; k < npooled; k++)
			{
				int			up = 0,
							down = 0;

				for (int v = 1; v < r->spec.nvariants; v++)
					if (layout_seed_matches(pooled[k], r->spec.variants[v].name) && !isnan(change[v]))
					{
						up += change[v] > 0;
						down += change[v] < 0;
					}
				if (up > 0 && down > 0)
					report_warn(r, "layout seeds disagree in sign for %s vs %s (%s, %d clients): %d faster, %d slower; the change is within code-layout noise",
								pooled[k], pooled[0], r->spec.scripts[s], r->spec.clients[c], up, down);
			}
		}
}
