/*-------------------------------------------------------------------------
 *
 * runner.c
 *		An experiment from start to end: results directory, setup of every
 *		variant, the plan's runs in order, and a clean stop on every path.
 *
 * Nothing lost: each run is on disk before the next begins.  Ctrl-C
 * (SIGINT), SIGTERM and SIGHUP (a closed terminal or ssh session) all stop
 * the current run, record it as interrupted and stop the clusters; the
 * exit status is 128 + the signal's number (130, 143, 129).  "--resume DIR"
 * continues the same plan where it stopped, also after a SIGKILL of the
 * client, whose servers it finds and stops first (cluster.c).  A postmaster
 * that dies mid-run costs that run (recorded as failed, with the log's
 * last words) and a restart, up to a bound; then the experiment stops.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "profile.h"
#include "run_one.h"
#include "runner.h"
#include "subprocess.h"
#include "report.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "common/logging.h"

/* the signal that interrupted the experiment, for the exit status */
static volatile sig_atomic_t interrupting_signal = 0;

static void
handle_interrupt(SIGNAL_ARGS)
{
	if (interrupting_signal == 0)
		interrupting_signal = postgres_signal_arg;
	run_interrupted = 1;
}

/* 128 + the signal's number, as a shell reports a process it killed */
static int
interrupted_status(void)
{
	return 128 + (interrupting_signal ? interrupting_signal : SIGINT);
}

static void
stop_clusters_at_exit(void)
{
	cluster_stop_all();
}

static json_t *
machine_json(void)
{
	struct utsname u;
	char		host[256] = "";

	uname(&u);
	gethostname(host, sizeof(host) - 1);
	return json_pack("{s:s, s:s, s:s, s:i}", "kernel", u.release, "arch", u.machine,
					 "hostname", host, "cpus", (int) sysconf(_SC_NPROCESSORS_ONLN));
}

static bool
write_experiment_json(Experiment *x, const RunOptions *opts, char **error)
{
	json_t	   *variants = json_object();
	char		now[32];
	time_t		t = time(NULL);
	json_t	   *doc;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	for (int i = 0; i < x->spec->nvariants; i++)
	{
		VariantState *vs = &x->variants[i];
		const VariantSpec *v = &x->spec->variants[i];

		json_object_set_new(variants, v->name,
							json_pack("{s:O, s:O, s:i, s:b, s:s?, s:b, s:f, s:f, s:f, s:O?}",
									  "environment", vs->environment,
									  "pg_config", vs->pg_config,
									  "server_version_num", vs->server_version_num,
									  "managed", vs->cluster.managed,
									  "on_cluster_of", v->cluster,
									  "counters", vs->has_counters,
									  "initdb_s", vs->cluster.initdb_s,
									  "start_s", vs->cluster.start_s,
									  "pgbench_init_s", vs->pgbench_init_s,
									  "build", v->build));
	}
	doc = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}",
					"pgbench_ext_version", PGBENCH_EXT_VERSION,
					"written_at", now,
					"spec", experiment_to_json(x->spec),
					"plan", plan_to_json(x->plan, x->spec),
					"variants", variants,
					"machine", machine_json());
	if (opts->rerun_of)
		json_object_set_new(doc, "rerun_of", json_string(opts->rerun_of));
	if (x->spec->profile.mode != PROFILE_OFF)
		json_object_set_new(doc, "profile", profile_facts_json(x->spec));
	if (!results_write_json(x->dir, "experiment.json", doc, error))
		return false;
	json_decref(doc);
	return true;
}

/*
 * Restart a variant whose postmaster died, within the bound.  Returns false
 * (with error) when the experiment should stop.
 */
static bool
recover_variant(Experiment *x, VariantState *vs, const RunOptions *opts, char **error)
{
	Cluster    *server = cluster_server(&vs->cluster);

	if (!server->managed || cluster_alive(server))
		return true;
	server->running = false;
	if (!cluster_wait_for_exit(server))
	{
		*error = psprintf("the server of variant \"%s\" stopped answering but its postmaster is still there; stopping (its log: %s)",
						  vs->cluster.variant->name, vs->cluster.logfile);
		return false;
	}
	if (++vs->restarts > opts->max_restarts)
	{
		*error = psprintf("the server of variant \"%s\" died %d times; stopping (its log: %s)",
						  vs->cluster.variant->name, vs->restarts, vs->cluster.logfile);
		return false;
	}
	pg_log_warning("the server of variant \"%s\" died during a run; restarting it (%d of at most %d)",
				   vs->cluster.variant->name, vs->restarts, opts->max_restarts);
	server->run_db_ready = false;
	return cluster_start(server, error);
}

static int
fail_setup(const char *error)
{
	log_error_text(error);
	cluster_stop_all();
	return run_interrupted ? interrupted_status() : EXIT_USAGE;
}

int
runner_execute(ExperimentSpec *spec, const RunOptions *opts)
{
	Experiment	x = {0};
	bool	   *done = NULL;
	int			ndone = 0;
	char	   *error = NULL;
	Progress	progress;
	int			status = 0;

	x.spec = spec;
	x.dir = opts->results_dir;
	x.plan = plan_build(spec);

	/* from the first child on: a Ctrl-C ends the children, then us */
	pqsignal(SIGINT, handle_interrupt);
	pqsignal(SIGTERM, handle_interrupt);
	pqsignal(SIGHUP, handle_interrupt);

	/* builds first: a failed one leaves no results directory and starts no cluster */
	if (!build_variants(spec, &error))
		return fail_setup(error);

	if (opts->resume)
	{
		if ((done = results_completed_runs(x.dir, spec, x.plan->nruns, &ndone, &error)) == NULL)
			return fail_setup(error);
		printf("resuming %s: %d of %d runs already done\n", x.dir, ndone, x.plan->nruns);
	}
	else if (!results_create(x.dir, &error))
		return fail_setup(error);

	atexit(stop_clusters_at_exit);
	adopt_orphaned_servers();

	if (!setup_variants(&x, &error) || !profile_after_setup(&x, &error))
		return fail_setup(error);
	if (!opts->resume && !write_experiment_json(&x, opts, &error))
		return fail_setup(error);

	progress_init(&progress, x.plan->nruns, ndone, spec->duration_s);
	for (int i = 0; i < x.plan->nruns && !run_interrupted; i++)
	{
		const PlannedRun *pr = &x.plan->runs[i];
		VariantState *vs = &x.variants[pr->variant];
		RunRecord	rec;

		if (done && done[pr->run_id])
			continue;
		if (!execute_run(&x, pr, &progress, &rec, &error) ||
			!results_append_run(x.dir, &rec, &error))
		{
			pg_log_error("run %d (variant %s): %s", pr->run_id, rec.variant, error);
			status = EXIT_RUNTIME_ERROR;
			break;
		}
		progress_end_run(&progress, rec.reason ? psprintf("%s: %s", rec.status, rec.reason) : rec.status,
						 rec.tps);
		if (!recover_variant(&x, vs, opts, &error))
		{
			log_error_text(error);
			status = EXIT_RUNTIME_ERROR;
			break;
		}
	}
	cluster_stop_all();

	if (run_interrupted)
	{
		pg_log_error("interrupted: %d of %d runs are recorded in %s (signal: %s)",
					 progress.done_runs - 1, x.plan->nruns, x.dir,
					 pg_strsignal(interrupted_status() - 128));
		pg_log_error_hint("Continue with: %s run --resume %s", progname, x.dir);
		return interrupted_status();
	}
	progress_finish(&progress);
	if (status == 0 && !opts->no_summary)
		status = report_render(x.dir, NULL, stdout);
	printf("\nresults: %s\n", x.dir);
	return status;
}
