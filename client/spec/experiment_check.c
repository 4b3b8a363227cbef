/*-------------------------------------------------------------------------
 *
 * experiment_check.c
 *		The checks of an experiment specification that need all of it:
 *		variants against each other, the keys of the experiment against
 *		one another.  Each key alone is checked as it is set
 *		(experiment.c); what needs the machine is in validate.c.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_seeds.h"
#include "experiment.h"
#include "quiet_keys.h"
#include "settings.h"

/*
 * A variant on another's server: everything about the server is the
 * other's, so the only keys left to it are its sessions' settings.
 */
static bool
check_shared_cluster(const ExperimentSpec *spec, const VariantSpec *v, char **error)
{
	int			h = experiment_variant_index(spec, v->cluster);
	const VariantSpec *host = h >= 0 ? &spec->variants[h] : NULL;

	if (host == NULL || host == v)
		return fail_with(error, "variant \"%s\": cluster = %s names no other variant of this experiment",
						 v->name, v->cluster);
	if (host->cluster != NULL)
		return fail_with(error, "variant \"%s\": cluster = %s names a variant that runs on variant \"%s\"'s cluster itself; name \"%s\"",
						 v->name, host->name, host->cluster, host->cluster);
	if (v->bindir || v->conninfo || v->source || v->nsettings > 0 || v->initdb_args)
		return fail_with(error, "variant \"%s\" runs on variant \"%s\"'s cluster: its bindir, conninfo, source, set and initdb_args are \"%s\"'s; give it only session_set (and snapshot_probe)",
						 v->name, host->name, host->name);
	return true;
}

/*
 * Checks of each variant against the others: what it runs on, and the
 * keys that apply to that (also all "--build-only" needs).
 */
bool
experiment_check_variants(const ExperimentSpec *spec, char **error)
{
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];

		if (v->cluster != NULL)
		{
			if (!check_shared_cluster(spec, v, error))
				return false;
			continue;
		}
		if (v->bindir == NULL && v->conninfo == NULL && v->source == NULL)
			return fail_with(error, "variant \"%s\" needs bindir (an installation to run), source (a PostgreSQL source tree to build) or conninfo (a running server)", v->name);
		if (v->source != NULL && (v->bindir != NULL || v->conninfo != NULL))
			return fail_with(error, "variant \"%s\" has source and %s; give one", v->name, v->bindir ? "bindir" : "conninfo");
		if (v->source == NULL && (v->npatches > 0 || v->cflags || v->configure || v->pgo || v->lto ||
								  v->symbols || v->build_seeds > 0 || v->build_seed > 0))
			return fail_with(error, "variant \"%s\": patch, cflags, configure, pgo, lto, symbols and build_seeds apply only to variants built from a source tree (source = DIR)", v->name);
		if (v->bindir != NULL && v->conninfo != NULL)
			return fail_with(error, "variant \"%s\" has both bindir and conninfo; give one", v->name);
		if (v->conninfo != NULL && (v->nsettings > 0 || v->initdb_args != NULL))
			return fail_with(error, "variant \"%s\" uses conninfo, a server this tool does not manage: set and initdb_args apply only to bindir variants", v->name);
	}
	return true;
}

/*
 * Checks that need the whole specification.  Checks that need the
 * machine (bindir contents, a trial start) are in validate.c.
 */
bool
experiment_check(const ExperimentSpec *spec, char **error)
{
	if (spec->nvariants < 2)
		return fail_with(error, "an experiment needs at least two variants, found %d", spec->nvariants);
	if (!experiment_check_variants(spec, error))
		return false;
	if (spec->rounds_auto != (spec->budget_s > 0))
	{
		*error = spec->rounds_auto
			? pg_strdup("rounds = auto needs a budget: the most time its runs may take (budget = 30m, or --budget 30m)")
			: psprintf("budget applies only to rounds = auto; with rounds = %d the experiment runs all its rounds (give rounds = auto, or drop budget)", spec->rounds);
		return false;
	}
	if (spec->min_rounds > 0 && !spec->rounds_auto)
		return fail_with(error, "min_rounds applies only to rounds = auto; with rounds = %d every round runs", spec->rounds);
	if (spec->reference > 0 && !spec->rounds_auto)
		return fail_with(error, "reference applies only to rounds = auto (the looks test against it); with rounds = %d give rounds = auto and a budget, or drop reference", spec->rounds);
	if (!spec->pilot_auto && spec->pilot_rounds > 0 && spec->duration_s == 0)
		return fail_with(error, "pilot needs runs of a fixed duration (duration = N, -T N): it forecasts the time to decide from the time its rounds took (give pilot = off, or a duration)");
	if (spec->rounds_auto && spec->duration_s == 0)
		return fail_with(error, "rounds = auto needs runs of a fixed duration (duration = N, -T N): the length of a block of rounds is planned from it before any run");
	/* under rounds = auto, budget.c checks warmup against the first look */
	if (!spec->rounds_auto && spec->warmup >= spec->rounds)
		return fail_with(error, "warmup (%d) must be smaller than rounds (%d), or no run would count", spec->warmup, spec->rounds);
	return quiet_check(spec, error);
}

/* whether variant v runs the snapshot probe: its own key, else the experiment's */
bool
snapshot_probe_enabled(const ExperimentSpec *spec, const VariantSpec *v)
{
	return v->snapshot_probe == PROBE_ON ||
		(v->snapshot_probe == PROBE_AS_EXPERIMENT && spec->snapshot_probe);
}

/*
 * The specification as a run takes it, before its checks: build seeds
 * expanded into their variants, then the keys left to auto (the profile's,
 * then the schedule's and randomization's, which the profile may have
 * set).  One sequence for the run, its dry run, a queued job and a
 * bisect, so that none plans another experiment than the run makes;
 * probe_perf as profile_resolve() takes it.
 */
bool
experiment_resolve(ExperimentSpec *spec, bool probe_perf, char **error)
{
	if (!build_seeds_expand(spec, error))
		return false;
	profile_resolve(spec, probe_perf);
	quiet_resolve(spec);
	return true;
}
