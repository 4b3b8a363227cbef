/*-------------------------------------------------------------------------
 *
 * build_seeds.c
 *		Variants with build seeds: B with build_seeds = 3 runs as three
 *		builds B@seed1, B@seed2, B@seed3, each linked with its own seed for
 *		the order of the functions in the binary, each its own variant to
 *		the plan (so every round runs every seed, in random order) and to
 *		the results.  This file is the one place that knows the spelling;
 *		the verdicts per seed are report_build_seeds.c's.
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
#include "build_seeds.h"

/* Replace each variant with build_seeds = N > 1 by its N seed variants. */
bool
build_seeds_expand(ExperimentSpec *spec, char **error)
{
	VariantSpec out[MAX_VARIANTS];
	int			n = 0;

	for (int i = 0; i < spec->nvariants; i++)
	{
		VariantSpec *v = &spec->variants[i];
		int			seeds = v->build_seeds;

		if (seeds <= 1 || v->build_seed > 0)
		{
			/* one seed: a shuffled build, named as given */
			if (seeds == 1 && v->build_seed == 0)
				v->build_seed = 1;
			v->build_seeds = 0;
			out[n++] = *v;
			continue;
		}
		for (int j = 0; j < spec->nvariants; j++)
			if (spec->variants[j].cluster && strcmp(spec->variants[j].cluster, v->name) == 0)
				return fail_with(error, "variant \"%s\" has cluster = %s, but \"%s\" has build_seeds = %d and runs as that many servers; give \"%s\" a server of its own",
								 spec->variants[j].name, v->name, v->name, seeds, spec->variants[j].name);
		if (n + seeds + (spec->nvariants - i - 1) > MAX_VARIANTS)
			return fail_with(error, "build_seeds = %d in variant \"%s\" makes more than %d variants in all",
							 seeds, v->name, MAX_VARIANTS);
		for (int k = 1; k <= seeds; k++)
		{
			out[n] = *v;
			out[n].name = psprintf("%s" BUILD_SEED_MARK "%d", v->name, k);
			out[n].build_seeds = 0;
			out[n].build_seed = k;
			n++;
		}
	}
	memcpy(spec->variants, out, sizeof(VariantSpec) * n);
	spec->nvariants = n;
	return true;
}

/* "B@seed2" -> "B" with *seed = 2; any other name is its own base, seed 0. */
char *
build_seeds_base(const char *variant, int *seed)
{
	const char *mark = strstr(variant, BUILD_SEED_MARK);
	char	   *end;
	long		k;

	*seed = 0;
	if (mark == NULL)
		return pg_strdup(variant);
	k = strtol(mark + strlen(BUILD_SEED_MARK), &end, 10);
	if (*end != '\0' || k < 1 || end == mark + strlen(BUILD_SEED_MARK))
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
build_seeds_baseline(const ExperimentSpec *spec, int v)
{
	int			first_seed;
	int			seed;
	char	   *first = build_seeds_base(spec->variants[0].name, &first_seed);
	char	   *base = build_seeds_base(spec->variants[v].name, &seed);

	if (v == 0 || strcmp(base, first) == 0)
		return -1;
	if (seed > 0)
		for (int i = 0; i < spec->nvariants; i++)
		{
			int			s;

			if (strcmp(build_seeds_base(spec->variants[i].name, &s), first) == 0 && s == seed)
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
build_seeds_pooled(const ExperimentSpec *spec, char **names)
{
	int			n = 0;
	int			first_seed;
	char	   *first = build_seeds_base(spec->variants[0].name, &first_seed);

	/* expansion puts A@seed2 right after A@seed1 */
	if (first_seed == 0 || spec->nvariants < 2 ||
		strcmp(spec->variants[1].name, psprintf("%s" BUILD_SEED_MARK "2", first)) != 0)
		return 0;

	for (int i = 0; i < spec->nvariants; i++)
	{
		int			seed;
		char	   *base = build_seeds_base(spec->variants[i].name, &seed);
		char	   *pattern = psprintf("%s" BUILD_SEED_ALL, base);
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
build_seeds_matches(const char *pattern, const char *variant)
{
	size_t		len = strlen(pattern);
	size_t		all = strlen(BUILD_SEED_ALL);
	int			seed;

	if (len > all && strcmp(pattern + len - all, BUILD_SEED_ALL) == 0)
		return strncmp(pattern, variant, len - all) == 0 &&
			strcmp(build_seeds_base(variant, &seed), pnstrdup(pattern, len - all)) == 0 &&
			seed > 0;
	return strcmp(pattern, variant) == 0;
}
