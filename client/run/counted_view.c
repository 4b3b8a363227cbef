/*-------------------------------------------------------------------------
 *
 * counted_view.c
 *		counted_view = on: after a timed experiment's runs, its counted
 *		experiment (counted_view_spec.c) into DIR/counted/, then the report
 *		of both (the report reads DIR/counted/ beside the tps verdicts).
 *
 * The counted experiment is an ordinary results directory, run by the
 * same runner: "report DIR/counted" reads it alone, and an interrupted one
 * is continued by "run --resume DIR", which finds the timed runs complete
 * and resumes the counted ones where they stopped.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "counted_view.h"
#include "counted_view_spec.h"
#include "profile_spec.h"
#include "report.h"
#include "validate.h"

#include <sys/stat.h>

#include "common/logging.h"

/* The counted experiment (counted_view_spec()) into DIR/counted, or resumed there */
static int
run_counted(ExperimentSpec *counted, const RunOptions *ropts)
{
	RunOptions	copts = {0};
	char	   *dir = psprintf("%s/%s", ropts->results_dir, COUNTED_VIEW_DIR);
	struct stat st;
	int			status;

	profile_resolve(counted, true);
	quiet_resolve(counted);
	/* begun before: continued, as the timed runs were */
	copts.resume = lstat(psprintf("%s/experiment.json", dir), &st) == 0;
	copts.results_dir = dir;
	copts.resume_dir = ropts->results_dir;
	copts.max_restarts = ropts->max_restarts;
	copts.no_summary = true;
	printf("\ncounted_view: the same variants counted under valgrind: 1 client, %d transactions a run, "
		   "%d rounds, in %s\n", counted->transactions, counted->rounds, escape_text(dir, ESCAPE_TERMINAL));
	fflush(stdout);
	if (!validate_experiment(counted, dir, copts.resume))
	{
		pg_log_error_hint("The timed runs are recorded in %s; continue with: %s run --resume %s",
						  escape_text(ropts->results_dir, ESCAPE_TERMINAL), progname,
						  escape_text(ropts->results_dir, ESCAPE_TERMINAL));
		return EXIT_USAGE;
	}
	status = runner_execute(counted, &copts);
	/* its report's files, not its terminal report: the timed one's shows it */
	if (status == 0)
		status = report_render(dir, NULL, NULL);
	return status;
}

/*
 * The timed experiment, its counted one, then the report of both.  The
 * timed runs' report is printed even when the counted runs failed, since
 * they are complete; an interruption ends it at once, as in any run.
 */
int
counted_view_execute(ExperimentSpec *spec, const RunOptions *ropts)
{
	RunOptions	timed = *ropts;
	ExperimentSpec counted;
	int			status;
	int			counted_status;

	counted_view_spec(spec, &counted);
	printf("counted_view = on: after the timed runs, %d runs under valgrind "
		   "(%d rounds of %d transactions a run, 1 client) into %s/%s\n",
		   counted.nvariants * counted.nscripts * counted.rounds, counted.rounds, counted.transactions,
		   escape_text(ropts->results_dir, ESCAPE_TERMINAL), COUNTED_VIEW_DIR);
	fflush(stdout);
	timed.no_summary = true;
	status = runner_execute(spec, &timed);
	if (status != 0)
	{
		if (status < 128)
			printf("\nresults: %s\n", escape_text(ropts->results_dir, ESCAPE_TERMINAL));
		return status;
	}
	counted_status = run_counted(&counted, ropts);
	if (counted_status > 128)
		return counted_status;
	if (!ropts->no_summary)
		status = runner_summary(spec, ropts);
	return counted_status != 0 ? counted_status : status;
}
