/*-------------------------------------------------------------------------
 *
 * run_execute.c
 *		An experiment from its specification to its verdicts, as "run",
 *		"ab" and each step of a bisect start one: build seeds expanded, the
 *		keys left to auto resolved, the checks, the pre-flight printed,
 *		then the runner (runner.c), and with counted_view the counted runs
 *		after it (counted_view.c); or, with --build-only, the builds alone.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "build_seeds.h"
#include "counted_view.h"
#include "experiment.h"
#include "preflight.h"
#include "profile_spec.h"
#include "run_execute.h"
#include "validate.h"

#include "common/logging.h"

/*
 * --build-only: build every variant that names a source tree (or find it
 * in the build cache), say where each is installed, and run nothing — the
 * builds of a long experiment done beforehand, or an installation for
 * other tools (CI builds its PostgreSQL 18 so, and the tests that build
 * the same tree reuse it).
 */
static int
build_only(ExperimentSpec *spec)
{
	char	   *error = NULL;
	bool		any = false;

	if (!experiment_check_variants(spec, &error) || !build_check(spec, &error))
	{
		log_error_text(error);
		pg_log_error_hint("Nothing was built.");
		return EXIT_USAGE;
	}

	for (int i = 0; i < spec->nvariants; i++)
		any |= spec->variants[i].source != NULL;
	if (!any)
	{
		log_errorf("--build-only: no variant names a source tree, so there is nothing to build");
		pg_log_error_hint("Give a variant --source DIR (source = DIR in a file); see docs/building.md.");
		return EXIT_USAGE;
	}
	runner_catch_interrupts();
	if (!build_variants(spec, &error))
	{
		log_error_text(error);
		return runner_failure_status();
	}
	for (int i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].source != NULL)
			printf("variant %s: bindir %s\n", spec->variants[i].name,
				   escape_text(spec->variants[i].bindir, ESCAPE_TERMINAL));
	return 0;
}

int
run_execute(ExperimentSpec *spec, RunOptions *ropts, const char *command)
{
	char	   *error;
	PreflightResult preflight;

	if (!experiment_resolve(spec, true, &error))
		return log_error_status(error, EXIT_USAGE);
	if (ropts->build_only)
		return build_only(spec);
	if (!validate_experiment(spec, ropts->results_dir, ropts->resume))
	{
		pg_log_error_hint("Nothing was run. Try \"%s %s --help\" for the options.", progname, command);
		return EXIT_USAGE;
	}
	/* what the host allows, before our servers load it; then the design it suggests */
	preflight = preflight_print_run(spec, !ropts->resume);
	ropts->preflight = &preflight;
	fflush(stdout);
	if (spec->profile.counted_view)
		return counted_view_execute(spec, ropts);
	return runner_execute(spec, ropts);
}
