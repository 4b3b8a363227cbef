/*-------------------------------------------------------------------------
 *
 * cmd_check.c
 *		The dry run, "--check" of "pgbench_ext run FILE" and of "pgbench_ext
 *		ab": the pre-flight of an experiment without running it — what the
 *		host allows, the noise it showed for such a load, the power the
 *		experiment's budget (or rounds) has to see an effect of twice the
 *		noise threshold, whether a run would measure the noise first in a
 *		pilot, and the rounds between restarts that restart = auto would
 *		choose (preflight.c).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_check.h"
#include "experiment.h"
#include "preflight.h"
#include "stats.h"

#include "common/logging.h"

/* After an error in an experiment read from file source, or given as flags */
static void
check_hint(const char *source)
{
	if (source)
		pg_log_error_hint("Nothing was checked. docs/experiments.md has the keys, \"%s ab --help\" their flags.", progname);
	else
		pg_log_error_hint("Nothing was checked. Try \"%s ab --help\" for the options.", progname);
}

/*
 * check of an experiment read from file source, or given as ab's flags
 * (source NULL): its keys left to auto resolved as a run resolves them,
 * without probing perf, then its pre-flight.
 */
int
check_execute(ExperimentSpec *spec, const char *source)
{
	char	   *error = NULL;

	if (!experiment_resolve(spec, false, &error) || !experiment_check(spec, &error))
	{
		log_error_text(source ? psprintf("%s: %s", source, error) : error);
		check_hint(source);
		return EXIT_USAGE;
	}
	(void) preflight_print_run(spec, true);
	return 0;
}
