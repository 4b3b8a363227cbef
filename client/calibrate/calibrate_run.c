/*-------------------------------------------------------------------------
 *
 * calibrate_run.c
 *		How every phase of a calibration runs: as "run" would run the same
 *		experiment, so that a calibration measures the design users get.
 *
 * The one path of the fixed, budgeted and counted phases (cmd_calibrate.c,
 * calibrate_counted.c): the schedule from --schedule, else resolved as run
 * resolves it, said on stderr; then validated and run.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "calibrate.h"
#include "runner.h"
#include "validate.h"

/*
 * Run one phase's experiment as "run" would: its schedule --schedule's, or
 * resolved as run resolves it (schedule = auto: a duet wherever every
 * variant has a server of its own), so that a calibration measures the
 * design an experiment of the same variants gets, and says which on
 * stderr.
 */
int
calibrate_execute(const CalibrateOptions *o, ExperimentSpec *spec, RunOptions *ropts)
{
	if (o->schedule.schedule_given)
	{
		spec->quiet.schedule = o->schedule.schedule;
		spec->quiet.schedule_given = true;
	}
	quiet_resolve(spec);
	if (spec->quiet.schedule_why)
		fprintf(stderr, "calibrate: schedule = auto: %s\n", spec->quiet.schedule_why);
	if (!validate_experiment(spec, ropts->results_dir, false))
		return EXIT_USAGE;
	return runner_execute(spec, ropts);
}
