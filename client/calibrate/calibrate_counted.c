/*-------------------------------------------------------------------------
 *
 * calibrate_counted.c
 *		"pgbench_ext calibrate --counted": how exact counted instructions
 *		per transaction are on this machine, and whether a known cost is
 *		found at its size.
 *
 * Two ordinary counted experiments (profile = counted, aslr = off, pgbench
 * -c 1, the design docs/profiles.md measures), each a results directory of
 * its own:
 *
 *   counted-aa/    A against an identical B, each on a server of its own
 *                  of --bindir: the verdict, its CI, and the report's own
 *                  figures of the design, the spread an A/A of it shows
 *                  and its MDE (profile_report.c).
 *   counted-cost/  with --known-cost-bindir: A against K ("known"), a build of
 *                  the same source with test/fixtures/xact-known-cost.patch,
 *                  whose added function pgbench_ext_known_cost() is counted
 *                  directly in known's profiles (its own instructions per
 *                  transaction).  The verdict must be "more" and its CI must
 *                  cover that cost.
 *
 * The variants' names are of one length: each server's data directory is
 * named after its variant, so that the servers differ in nothing but
 * their binaries, down to the lengths of their paths.
 *
 * The report is printed and kept as DIR/calibration-counted.md, each
 * phase's line as soon as it is known.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "calibrate.h"
#include "experiment.h"
#include "report.h"
#include "runner.h"
#include "safe_file.h"
#include "safe_read.h"

#include <dirent.h>
#include <math.h>
#include <time.h>

#define KNOWN_COST_FUNCTION "pgbench_ext_known_cost"

/* The figures of one phase's instructions per transaction. */
typedef struct CountedPhase
{
	double		a_median;
	double		estimate;
	double		ci_low;
	double		ci_high;
	const char *verdict;
	double		spread_pct;
	double		mde_pct;
	double		direct;			/* known cost counted directly, per transaction */
} CountedPhase;

/* A against a second variant of bindir, counted, as docs/profiles.md measures. */
static int
run_counted_phase(const CalibrateOptions *o, const char *second, const char *bindir, const char *dir)
{
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	char	   *error;
	char	   *section = psprintf("variant %s", second);

	experiment_init(&spec);
	if (!experiment_set(&spec, "experiment", "script", o->script, &error) ||
		!experiment_set(&spec, "experiment", "clients", "1", &error) ||
		!experiment_set(&spec, "experiment", "scale", psprintf("%d", o->scale), &error) ||
		!experiment_set(&spec, "experiment", "transactions", psprintf("%d", o->transactions), &error) ||
		!experiment_set(&spec, "experiment", "rounds", psprintf("%d", o->rounds), &error) ||
		!experiment_set(&spec, "experiment", "seed", psprintf("%d", (int) time(NULL) % 1000000), &error) ||
		!experiment_set(&spec, "experiment", "reset", "never", &error) ||
		!experiment_set(&spec, "experiment", "profile", "counted", &error) ||
		!experiment_set(&spec, "experiment", "aslr", "off", &error) ||
		!experiment_set(&spec, "variant A", "bindir", o->bindir, &error) ||
		!experiment_set(&spec, section, "bindir", bindir, &error))
		usage_error("calibrate", "%s", error);
	ropts.results_dir = dir;
	ropts.max_restarts = 3;
	/* its report printed, summary.json written: read_phase() reads it */
	return calibrate_execute(o, &spec, &ropts);
}

static double
json_num(json_t *o, const char *key)
{
	json_t	   *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The instructions row of the phase's comparison, as its report gave it. */
static bool
read_phase(const char *dir, CountedPhase *ph, char **error)
{
	json_t	   *summary;
	json_t	   *cells;
	json_t	   *m;

	if ((summary = safe_read_json(psprintf("%s/summary.json", dir), SAFE_MAX_JSON, error)) == NULL)
		return false;
	cells = json_object_get(json_object_get(summary, "profiles"), "cells");
	m = json_array_get(json_object_get(json_array_get(cells, 0), "metrics"), 0);
	if (!json_is_object(m) || !json_is_string(json_object_get(m, "verdict_text")))
		return fail_with(error, "%s/summary.json has no counted instructions per transaction", dir);
	ph->a_median = json_num(m, "a_median");
	ph->estimate = json_num(m, "estimate");
	ph->ci_low = json_num(m, "ci_low");
	ph->ci_high = json_num(m, "ci_high");
	ph->verdict = pstrdup(json_string_value(json_object_get(m, "verdict_text")));
	ph->spread_pct = json_num(m, "aa_spread_pct");
	ph->mde_pct = json_num(m, "aa_mde_pct");
	return true;
}

/*
 * The known cost counted directly: the median over the runs that have it
 * (the known variant's) of pgbench_ext_known_cost's own instructions per
 * transaction.
 */
static bool
read_direct_cost(const char *dir, CountedPhase *ph, char **error)
{
	char	   *runs = psprintf("%s/runs", dir);
	DIR		   *d = opendir(runs);
	struct dirent *de;
	double	   *v = NULL;
	int			n = 0;

	if (d == NULL)
		return fail_with(error, "could not open directory \"%s\": %m", runs);
	while ((de = readdir(d)) != NULL)
	{
		json_t	   *doc;
		json_t	   *self;
		char	   *ignored;

		if (strstr(de->d_name, ".profile.json") == NULL ||
			(doc = safe_read_json(psprintf("%s/%s", runs, de->d_name), SAFE_MAX_JSON, &ignored)) == NULL)
			continue;
		self = json_object_get(json_object_get(json_object_get(doc, "functions"), KNOWN_COST_FUNCTION), "self");
		if (json_is_number(json_array_get(self, 0)))
		{
			v = pg_realloc(v, sizeof(double) * (n + 1));
			v[n++] = json_number_value(json_array_get(self, 0));
		}
		json_decref(doc);
	}
	closedir(d);
	if (n == 0)
		return fail_with(error, "no run of %s counted %s(): is --known-cost-bindir a build with "
						 "test/fixtures/xact-known-cost.patch and its symbols?", dir, KNOWN_COST_FUNCTION);
	ph->direct = report_median(v, n);
	pfree(v);
	return true;
}

static char *
phase_text(const char *title, const CountedPhase *ph)
{
	return psprintf("%s: B/A %+.3f%% [%+.3f%%, %+.3f%%], %s; an A/A of this design would read within "
					"±%.3f%%, MDE %s (%.0f instructions per transaction)\n",
					title, 100 * (ph->estimate - 1), 100 * (ph->ci_low - 1), 100 * (ph->ci_high - 1),
					ph->verdict, ph->spread_pct,
					isnan(ph->mde_pct) ? "beyond reach of so few rounds" : psprintf("%.3f%%", ph->mde_pct),
					ph->a_median);
}

/*
 * The known-cost phase: found "more", and in instructions per transaction
 * beside the direct count.  The function's own count leaves out its call
 * site (the call itself, what the caller does around it), so a CI as
 * narrow as a few instructions may lie that much above it.
 */
static char *
cost_text(const CountedPhase *ph)
{
	double		truth = 1 + ph->direct / ph->a_median;
	double		found = (ph->estimate - 1) * ph->a_median;
	bool		covered = ph->ci_low <= truth && truth <= ph->ci_high;

	return psprintf("%sthe known cost: %.1f instructions per transaction counted directly in %s() (%+.3f%%); "
					"found %.1f [%.1f, %.1f], %s; verdict %s\n",
					phase_text("known cost", ph), ph->direct, KNOWN_COST_FUNCTION, 100 * (truth - 1),
					found, (ph->ci_low - 1) * ph->a_median, (ph->ci_high - 1) * ph->a_median,
					covered ? "the CI covering it"
					: psprintf("%.1f from it (its call site is not in the function's count)",
							   found - ph->direct),
					strcmp(ph->verdict, "more") == 0 ? "more, as it must be" : "NOT more: the cost was not found");
}

/* The report so far, printed and kept as DIR/calibration-counted.md. */
static bool
put_report(const CalibrateOptions *o, const char *text, const char *added)
{
	char	   *error;

	fputs(added, stdout);
	fflush(stdout);
	if (!safe_write_file(psprintf("%s/calibration-counted.md", o->dir), text, 0, &error))
	{
		log_error_text(error);
		return false;
	}
	return true;
}

int
calibrate_counted(const CalibrateOptions *o)
{
	CountedPhase aa = {0},
				cost = {0};
	char	   *aa_dir = psprintf("%s/counted-aa", o->dir);
	char	   *cost_dir = psprintf("%s/counted-cost", o->dir);
	char	   *error;
	char	   *text;
	char	   *added;
	int			rc;

	fprintf(stderr, "calibrate: counted, A against an identical B (%d rounds of %d transactions)\n",
			o->rounds, o->transactions);
	if ((rc = run_counted_phase(o, "B", o->bindir, aa_dir)) != 0)
		return rc;
	if (!read_phase(aa_dir, &aa, &error))
	{
		log_error_text(error);
		return EXIT_RUNTIME_ERROR;
	}
	added = psprintf("# Counted instructions per transaction on this machine\n\n%s", phase_text("A/A", &aa));
	text = added;
	if (!put_report(o, text, added))
		return EXIT_RUNTIME_ERROR;
	if (o->known_cost_bindir == NULL)
		return 0;
	fprintf(stderr, "calibrate: counted, A against a build with a known cost (%s)\n", o->known_cost_bindir);
	if ((rc = run_counted_phase(o, "K", o->known_cost_bindir, cost_dir)) != 0)
		return rc;
	if (!read_phase(cost_dir, &cost, &error) || !read_direct_cost(cost_dir, &cost, &error))
	{
		log_error_text(error);
		return EXIT_RUNTIME_ERROR;
	}
	added = cost_text(&cost);
	text = psprintf("%s%s", text, added);
	return put_report(o, text, added) ? 0 : EXIT_RUNTIME_ERROR;
}
