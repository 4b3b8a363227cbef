/*-------------------------------------------------------------------------
 *
 * cmd_check.c
 *		"pgbench_ext check FILE": the pre-flight of an experiment without
 *		running it — what the host allows, the noise it showed for such a
 *		load, whether the experiment's budget (or rounds) can decide
 *		an effect of twice the noise threshold, whether a run would measure
 *		the noise first in a pilot, and the rounds between restarts that
 *		restart = auto would choose (preflight.c); "pgbench_ext ab --check"
 *		the same of an experiment given as flags.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_check.h"
#include "commands.h"
#include "experiment.h"
#include "preflight.h"
#include "stats.h"

#include "common/logging.h"

static void
check_usage(void)
{
	printf("%s check checks an experiment file against this host without running it.\n\n", progname);
	printf("Usage:\n  %s check FILE\n\n", progname);
	printf("It prints the CPUs against what a run keeps busy at once, the load of other\n"
		   "processes and steal time, the frequency governor, the noise this host showed\n"
		   "for such a load (from earlier experiments: its history is in %s or the\n"
		   "client's state directory), the time to decide twice the noise threshold,\n"
		   "with a warning when the experiment's budget or rounds cannot, whether a run\n"
		   "would first measure the noise at this load in a pilot (pilot =), and the\n"
		   "rounds between restarts that restart = auto would choose from that noise.\n", PREFLIGHT_STATE_ENV);
}

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
 * The pre-flight as a run prints it before its first run (choose_restart:
 * with the spacing restart = auto takes), then what schedule = auto and
 * aslr = auto chose.
 */
PreflightResult
check_print(ExperimentSpec *spec, bool choose_restart)
{
	StatsOptions opt;
	PreflightResult result;

	stats_default_options(&opt);
	result = preflight_print(spec, opt.noise, choose_restart, stdout);
	if (spec->quiet.schedule_why)
		printf("schedule = auto: %s\n", spec->quiet.schedule_why);
	if (spec->quiet.aslr_why)
		printf("aslr = auto: %s\n", spec->quiet.aslr_why);
	return result;
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

	profile_resolve_aslr(spec);
	quiet_resolve(spec);
	if (!experiment_check(spec, &error))
	{
		log_error_text(source ? psprintf("%s: %s", source, error) : error);
		check_hint(source);
		return EXIT_USAGE;
	}
	(void) check_print(spec, true);
	return 0;
}

int
cmd_check(int argc, char **argv)
{
	ExperimentSpec spec;
	char	   *error = NULL;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		check_usage();
		return 0;
	}
	if (argc != 2)
		usage_error("check", "give one experiment file, as for \"%s run FILE\"", progname);
	experiment_init(&spec);
	if (!experiment_read_ini(&spec, argv[1], &error))
	{
		log_error_text(error);
		check_hint(argv[1]);
		return EXIT_USAGE;
	}
	return check_execute(&spec, argv[1]);
}
