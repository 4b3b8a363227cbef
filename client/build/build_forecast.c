/*-------------------------------------------------------------------------
 *
 * build_forecast.c
 *		What building an experiment's source variants will take before its
 *		first run, for the pre-flight and the dry run: which builds the
 *		build cache holds already, and the time the others take by what the
 *		cache's own earlier builds of their kind took on this host.
 *
 * Nothing is built or written: each variant's build is described as
 * build.c would describe it (its key, and a finished tree it could start
 * from) and looked up in the cache.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "build_cache.h"

#include <math.h>

/* Whether the build of key text is among the n the experiment makes first */
static bool
made_first(const char *text, char **dirs, int n)
{
	return string_in(build_key_dir(text), dirs, n);
}

/*
 * What building spec's source variants takes before its first run: those
 * in the cache cost nothing; each other one takes what the cache's own
 * builds of its kind took here (build_cache_times()): one started from a
 * tree (the cache's now, or one the experiment builds first, as
 * build_variants() orders them) a started build's, else a full build's.
 * Nothing is built or written.  False with *error where a variant's build
 * cannot be described (a patch that cannot be read).
 */
bool
build_forecast(ExperimentSpec *spec, BuildForecast *f, char **error)
{
	char	   *dirs[MAX_VARIANTS];
	int			ndirs = 0;
	double		full_s;
	double		started_s;

	memset(f, 0, sizeof(*f));
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < spec->nvariants; i++)
		{
			Build		b = {&spec->variants[i]};
			VariantSpec *v = b.v;
			bool		from_tree;

			if (v->source == NULL || build_pass(v) != pass)
				continue;
			if (!build_describe(&b, error))
				return fail_with(error, "variant \"%s\": %s", v->name, *error);
			f->variants++;
			if (build_cache_entry(b.dir, error) == ENTRY_FINISHED || string_in(b.dir, dirs, ndirs))
			{
				f->cached += !string_in(b.dir, dirs, ndirs);
				continue;
			}
			from_tree = b.base != NULL ||
				(v->build_seed > 0 && (made_first(build_key_text(&b, true, 0), dirs, ndirs) ||
									   made_first(build_key_text(&b, true, 1), dirs, ndirs))) ||
				(v->npatches > 0 && made_first(build_key_text(&b, false, v->build_seed), dirs, ndirs));
			if (from_tree && !v->pgo)
				f->started++;
			else
				f->full++;
			dirs[ndirs++] = b.dir;
		}
	build_cache_times(&full_s, &started_s);
	f->seconds = (f->full > 0 ? f->full * full_s : 0) + (f->started > 0 ? f->started * started_s : 0);
	if (f->full > 0 && isnan(full_s))
		f->unknown = "a tree from nothing";
	else if (f->started > 0 && isnan(started_s))
		f->unknown = "one started from another's tree";
	*error = NULL;
	return true;
}

/*
 * The pre-flight's line of the builds (none where no variant is built
 * from source): those in the cache take no time, the others the time
 * build_forecast() gives, or it is not known.
 */
void
build_forecast_print(ExperimentSpec *spec, FILE *out)
{
	BuildForecast f;
	char	   *error = NULL;
	int			to_build;

	if (!build_forecast(spec, &f, &error))
	{
		fprintf(out, "pre-flight: builds: not known: %s\n", error);
		return;
	}
	to_build = f.full + f.started;
	if (f.variants == 0)
		return;
	if (to_build == 0)
	{
		fprintf(out, "pre-flight: builds: every variant built from source is in the build cache (%d), so none takes time\n",
				f.cached);
		return;
	}
	fprintf(out, "pre-flight: builds: %d to make before the first run (%d from nothing, %d from another build's tree), %d in the build cache; ",
			to_build, f.full, f.started, f.cached);
	if (isfinite(f.seconds))
		fprintf(out, "about %s by the cache's earlier builds here, on top of the runs' time below\n",
				format_duration(f.seconds));
	else
		fprintf(out, "their time is not known here: the build cache has no earlier build of %s\n",
				f.unknown);
}
