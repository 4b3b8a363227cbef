/*-------------------------------------------------------------------------
 *
 * runner.c
 *		An experiment from start to end: results directory, setup of every
 *		variant, the plan's runs in order, and a clean stop on every path.
 *
 * Nothing lost: each run is on disk before the next begins.  Ctrl-C
 * (SIGINT), SIGTERM, SIGHUP (a closed terminal or ssh session) and SIGPIPE
 * (our output piped into "head", which has gone) all stop the current run,
 * record it as interrupted and stop the clusters, experiment.json being
 * written first even when the signal came during the set-up, so that
 * --resume can continue; the exit status is 128 + the signal's number
 * (130, 143, 129, 141).  "--resume DIR"
 * continues the same plan where it stopped, also after a SIGKILL of the
 * client, whose servers it finds and stops first (cluster.c).  A postmaster
 * that dies mid-run costs that run (recorded as failed, with the log's
 * last words) and a restart, up to a bound; then the experiment stops.
 *
 * Under rounds = auto the plan holds the budget's most blocks; after each
 * block the time spent goes to budget.csv and every cell is looked at
 * (report_sequential.c, on the results as written), and the experiment
 * stops when every cell is decided or the budget has no room for another
 * block (budget_spent()).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "block_look.h"
#include "build.h"
#include "farm.h"
#include "pilot.h"
#include "profile_counted.h"
#include "profile_spec.h"
#include "run_one.h"
#include "runner.h"
#include "subprocess.h"
#include "pqexpbuffer.h"
#include "preflight.h"
#include "noise_history.h"
#include "report.h"
#include "progress.h"

#include <math.h>
#include <signal.h>
#include <sys/stat.h>
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

/*
 * From the first child on: a Ctrl-C (or a hang-up, a TERM, a closed pipe)
 * ends the children, then us, with what is done recorded.
 */
void
runner_catch_interrupts(void)
{
	pqsignal(SIGINT, handle_interrupt);
	pqsignal(SIGTERM, handle_interrupt);
	pqsignal(SIGHUP, handle_interrupt);
	/* without it, "run ... | head" would die at once and leave its servers running */
	pqsignal(SIGPIPE, handle_interrupt);
}

/* The exit status of a set-up that failed: interrupted, or refused. */
int
runner_failure_status(void)
{
	return run_interrupted ? interrupted_status() : EXIT_USAGE;
}

static bool
write_experiment_json(Experiment *x, const RunOptions *opts, const BudgetPlan *budget,
					  char **error)
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
							json_pack("{s:O?, s:O?, s:i, s:b, s:s?, s:b, s:f, s:s?, s:s?, s:f, s:f, s:O?}",
									  "environment", vs->environment,	/* NULL: interrupted */
									  "pg_config", vs->pg_config,
									  "server_version_num", vs->server_version_num,
									  "managed", vs->cluster.managed,
									  "on_cluster_of", v->cluster,
									  "counters", vs->has_counters,
									  "initdb_s", vs->cluster.initdb_s,
									  "initdb_template", vs->cluster.initdb_template,
									  "template_cache", vs->cluster.template_entry,
									  "start_s", vs->cluster.start_s,
									  "pgbench_init_s", vs->pgbench_init_s,
									  "build", v->build));
	}
	doc = json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:{s:i, s:i, s:s}}",
					"format", RESULTS_FORMAT,
					"pgbench_ext_version", PGBENCH_EXT_VERSION,
					"written_at", now,
					"spec", experiment_to_json(x->spec),
					"plan", plan_to_json(x->plan, x->spec),
					"variants", variants,
					"machine", farm_machine_json(),
					"restart",
					"rounds_per_instance", x->plan->restart_rounds,
					"blocks", x->plan->nblocks,
					"why", x->plan->restart_why);
	if (opts->rerun_of)
		json_object_set_new(doc, "rerun_of", json_string(opts->rerun_of));
	if (budget)
		json_object_set_new(doc, "sequential", budget_to_json(budget));
	if (x->spec->profile.mode != PROFILE_OFF)
		json_object_set_new(doc, "profile", profile_facts_json(x->spec));
	if (!results_write_json(x->dir, "experiment.json", doc, error))
		return false;
	json_decref(doc);
	return true;
}

/*
 * Restart a variant whose postmaster died, within the bound; *restarted
 * says whether it was.  Returns false (with error) when the experiment
 * should stop.
 */
static bool
recover_variant(Experiment *x, VariantState *vs, const RunOptions *opts, bool *restarted,
				char **error)
{
	Cluster    *server = cluster_server(&vs->cluster);

	*restarted = false;
	if (!server->managed || cluster_alive(server))
		return true;
	server->running = false;
	if (!cluster_wait_for_exit(server))
		return fail_with(error, "the server of variant \"%s\" stopped answering but its postmaster is still there; stopping (its log: %s)",
						 vs->cluster.variant->name, vs->cluster.logfile);
	if (++vs->restarts > opts->max_restarts)
		return fail_with(error, "the server of variant \"%s\" died %d times; stopping (its log: %s)",
						 vs->cluster.variant->name, vs->restarts, vs->cluster.logfile);
	log_warningf("the server of variant \"%s\" died during a run; restarting it (%d of at most %d)",
				 vs->cluster.variant->name, vs->restarts, opts->max_restarts);
	server->run_db_ready = false;
	*restarted = true;
	return cluster_start(server, error) && record_start(x, server, "crash", error);
}

/*
 * Before a new block: every managed server stopped and started again, a
 * new instance with a new draw of memory layout.  The order alternates
 * from block to block, so that whatever restarting first or last brings
 * (the other server still running, memory the other took first) falls on
 * each side alike, as the CPUs of a duet do.
 */
static bool
restart_servers(Experiment *x, int block, char **error)
{
	double		t0 = now_seconds();
	int			n = x->spec->nvariants;

	for (int k = 0; k < n && !run_interrupted; k++)
	{
		int			i = block % 2 == 0 ? k : n - 1 - k;
		Cluster    *c = &x->variants[i].cluster;

		if (c->host || !c->managed)
			continue;
		cluster_stop(c);
		if (!cluster_start(c, error) || !record_start(x, c, "restart", error))
			return false;
	}
	if (report_verbose)
		fprintf(stderr, "block %d of %d: servers restarted in %.1f s\n", block, x->plan->nblocks,
				now_seconds() - t0);
	return true;
}

/*
 * The warm-up runs a start outside the plan needs (a resumed block, a
 * server restarted after a crash): one per variant and cell on the server
 * of variant "server", or on every server when it is -1, numbered past
 * the plan.
 */
static bool
run_extra_warmups(Experiment *x, int block, int server, Progress *progress, int *last_id,
				  char **error)
{
	const ExperimentSpec *spec = x->spec;

	for (int s = 0; s < spec->nscripts; s++)
		for (int c = 0; c < spec->nclients; c++)
			for (int v = 0; v < spec->nvariants && !run_interrupted; v++)
			{
				PlannedRun	pr;
				RunRecord	rec;

				if (server >= 0 && plan_server_of(spec, v) != server)
					continue;
				pr = plan_extra_warmup(spec, ++*last_id, block, v, s, spec->clients[c]);
				progress->total_runs++;
				if (!execute_and_record_run(x, &pr, progress, &rec, error))
					return false;
			}
	return true;
}

/* Instance numbers so far, per server, from instances.csv. */
static bool
read_last_instances(Experiment *x, char **error)
{
	RunsCsv    *t = results_read_instances(x->dir, x->spec, error);

	if (t == NULL)
		return false;
	for (int i = 0; i < t->nrows; i++)
	{
		int			v = experiment_variant_index(x->spec, t->rows[i][runs_csv_column(t, "server")]);
		int			n = atoi(t->rows[i][runs_csv_column(t, "instance")]);

		x->last_instance[v] = Max(x->last_instance[v], n);
	}
	return true;
}

/* The time a budgeted experiment has spent: before this session, and in it. */
typedef struct BudgetClock
{
	double		spent_before;	/* by the end of the last block budget.csv holds */
	int			recorded;		/* that block */
	double		session_start;
} BudgetClock;

/*
 * After block "block": its time on disk (unless an earlier session put it
 * there), then every cell looked at; *stop when every cell is decided or
 * the budget has no room for another block.  Resumed, the look after the
 * last block budget.csv holds is made again: the session it ended may
 * have stopped before making it.
 */
static bool
end_of_block(Experiment *x, const RunOptions *opts, const BudgetPlan *b, int block,
			 BudgetClock *clock, bool *stop, char **error)
{
	bool		replay = block == clock->recorded;
	double		spent = clock->spent_before + (now_seconds() - clock->session_start);

	/* an earlier session looked after this block and went on */
	*stop = false;
	if (block < clock->recorded)
		return true;
	if (!replay)
	{
		if (!budget_record_block(x->dir, block, block * b->block_rounds, spent, error))
			return false;
		clock->recorded = block;
	}
	else
		spent = clock->spent_before;
	return block_look(x->dir, b, block, spent, !replay && !opts->quiet_looks, stop, error);
}

/*
 * rounds = auto: the plan of blocks from the budget, spec->rounds set to
 * its most rounds; resumed, the plan the experiment recorded when it
 * started (alpha spending needs the one fixed before the first look).
 */
static bool
plan_of_budget(ExperimentSpec *spec, const RunOptions *opts, BudgetPlan *b, char **error)
{
	json_t	   *doc;

	if (!opts->resume)
		return budget_plan(spec, b, error);
	if ((doc = results_read_json(opts->results_dir, "experiment.json", error)) == NULL ||
		!budget_from_json(doc, b, error))
		return false;
	spec->rounds = b->max_blocks * b->block_rounds;
	return true;
}

/*
 * Resumed: whether this version plans the experiment's runs as the one
 * that started it did (experiment.json's plan, where it has one), run by
 * run, before anything of the results is touched.  A plan made otherwise
 * would put the runs still to do in other places.
 */
static bool
plan_as_recorded(const Experiment *x, char **error)
{
	json_t	   *doc = results_read_json(x->dir, "experiment.json", error);
	json_t	   *recorded = doc ? json_object_get(doc, "plan") : NULL;
	json_t	   *now;
	size_t		i;
	json_t	   *was;
	bool		same;

	if (doc == NULL)
		return false;
	if (json_array_size(recorded) == 0)
	{
		json_decref(doc);
		return true;
	}
	now = plan_to_json(x->plan, x->spec);
	same = json_array_size(recorded) == json_array_size(now);
	json_array_foreach(recorded, i, was)
	{
		json_t	   *is = json_array_get(now, i);
		static const char *const keys[] = {"run_id", "round", "variant", "duet_first"};

		for (int k = 0; same && k < lengthof(keys); k++)
			same = json_equal(json_object_get(was, keys[k]), json_object_get(is, keys[k]));
	}
	json_decref(now);
	json_decref(doc);
	if (!same)
		*error = psprintf("\"%s/experiment.json\" was planned by another version of pgbench_ext, whose runs come in another order: resume it with that version, or run the experiment again",
						  x->dir);
	return same;
}

/*
 * Every variant's server set up and started; counted, each managed one
 * then restarted under valgrind, a start of instances.csv's.
 */
static bool
bring_up_servers(Experiment *x, char **error)
{
	bool		counted = x->spec->profile.mode == PROFILE_COUNTED;

	if (!setup_variants(x, error))
		return false;
	for (int i = 0; i < x->spec->nvariants; i++)
	{
		Cluster    *c = &x->variants[i].cluster;

		if (!counted || c->host || !c->managed)
			continue;
		if (!profile_restart_counted(c, &x->spec->profile, error) ||
			!record_start(x, c, "valgrind", error))
			return false;
	}
	x->servers_up = true;
	return true;
}

static int
fail_setup(const char *error)
{
	log_error_text(error);
	cluster_stop_all();
	return runner_failure_status();
}
/*
 * Everything before the first run: the builds, the pre-flight, the results
 * directory (new, or the runs a resumed one has), the servers and their
 * data, experiment.json.  Returns -1 to go on, else the exit status.
 */
static int
set_up(Experiment *x, const RunOptions *opts, const BudgetPlan *budget, bool **done,
	   int *ndone)
{
	ExperimentSpec *spec = (ExperimentSpec *) x->spec;
	char	   *error = NULL;

	/* builds first: a failed one leaves no results directory and starts no cluster */
	if (!build_variants(spec, &error))
		return fail_setup(error);

	if (opts->resume)
	{
		if (!plan_as_recorded(x, &error) ||
			(*done = results_completed_runs(x->dir, spec, x->plan->nruns, ndone, &error)) == NULL)
			return fail_setup(error);
		printf("resuming %s: %d of %d runs already done\n",
			   escape_text(x->dir, ESCAPE_TERMINAL), *ndone, x->plan->nruns);
		if (!read_last_instances(x, &error))
			return fail_setup(error);
	}
	else if (!results_create(x->dir, &error))
		return fail_setup(error);

	/* cluster_start() has every exit after it stop the servers */
	adopt_orphaned_servers();

	/*
	 * Resumed, the servers start when a run is left to do (run_plan()): a
	 * finished experiment, every run recorded or its looks decided, is
	 * reported without starting one.
	 */
	if (opts->resume)
		return -1;
	if (!bring_up_servers(x, &error))
	{
		char	   *json_error;

		/*
		 * Interrupted while setting up: experiment.json first, so that
		 * --resume continues (the variants not yet set up have no
		 * environment recorded).
		 */
		if (!run_interrupted)
			return fail_setup(error);
		log_error_text(error);	/* what was interrupted */
		if (!opts->resume && !write_experiment_json(x, opts, budget, &json_error))
			log_error_text(json_error);
		cluster_stop_all();
		log_errorf("interrupted while setting up: no run is recorded yet in %s (signal: %s)",
				   x->dir, pg_strsignal(interrupted_status() - 128));
		pg_log_error_hint("Continue with: %s run --resume %s", progname,
						  escape_text(x->dir, ESCAPE_TERMINAL));
		return interrupted_status();
	}
	if (!opts->resume && !write_experiment_json(x, opts, budget, &error))
		return fail_setup(error);
	return -1;
}

/*
 * The runs of the plan from run *i (a duet's two, and *i moves past the
 * second), with the restart of the servers a new block needs before it
 * and the recovery of a server that died after it.  False when the
 * experiment cannot go on (error set unless interrupted).
 */
static bool
run_step(Experiment *x, const RunOptions *opts, const bool *done, int *i,
		 int *current_block, int *last_id, Progress *progress, char **error)
{
	const PlannedRun *pr = &x->plan->runs[*i];
	int			nruns = pr->duet_first && *i + 1 < x->plan->nruns &&
		!(done && done[pr[1].run_id]) ? 2 : 1;
	bool		ok = true;
	RunRecord	rec[2];

	if (x->plan->restart_rounds > 0 && pr->block != *current_block)
	{
		/*
		 * The servers' first start serves the block of the first run left
		 * to do; resumed mid-block, that start is a new instance and has
		 * its warm-ups first.
		 */
		if (*current_block == 0)
			ok = *i == 0 || x->plan->runs[*i - 1].block != pr->block ||
				run_extra_warmups(x, pr->block, -1, progress, last_id, error);
		else
			ok = restart_servers(x, pr->block, error);
		*current_block = pr->block;
	}
	if (!ok || run_interrupted ||
		!(nruns == 2 ? execute_and_record_duet(x, pr, progress, rec, error)
		  : execute_and_record_run(x, pr, progress, rec, error)))
		return false;
	*i += nruns - 1;
	/* each server of the step still there, or restarted and warmed up */
	for (int k = 0; k < nruns; k++)
	{
		bool		restarted;

		if (run_interrupted ||
			!recover_variant(x, &x->variants[pr[k].variant], opts, &restarted, error) ||
			(restarted && x->plan->restart_rounds > 0 &&
			 !run_extra_warmups(x, pr->block, plan_server_of(x->spec, pr[k].variant), progress,
								last_id, error)))
			return false;
	}
	return true;
}

/* The plan's runs and looks; the exit status (0 when all went well). */
static int
run_plan(Experiment *x, const RunOptions *opts, const BudgetPlan *budget, const bool *done,
		 BudgetClock *clock, Progress *progress)
{
	char	   *error = NULL;
	int			current_block = 0;	/* the block the servers' current start serves */
	int			last_id = Max(x->plan->nruns, results_last_run_file(x->dir));
	bool		stopped = false;
	bool		pilot_done = false;
	int			i;

	for (i = 0; i < x->plan->nruns && !run_interrupted; i++)
	{
		const PlannedRun *pr = &x->plan->runs[i];

		if (budget && i > 0 && x->plan->runs[i - 1].block != pr->block)
		{
			if (!end_of_block(x, opts, budget, x->plan->runs[i - 1].block, clock, &stopped, &error))
				break;
			if (stopped)
				return 0;
		}
		if (done && done[pr->run_id])
			continue;
		if (!x->servers_up && !bring_up_servers(x, &error))
		{
			/* as set_up() fails: what was refused or interrupted */
			if (error != NULL)
				log_error_text(error);
			return run_interrupted ? 0 : EXIT_USAGE;
		}
		/* the pilot: after the first start's warm-ups, before the first counted run */
		if (!pilot_done && !pr->warmup && done == NULL && opts->preflight &&
			opts->preflight->pilot_rounds > 0)
		{
			pilot_done = true;
			if (!pilot_measure(x, opts->preflight, i == 0, pr->block,
							   clock->session_start - clock->spent_before, progress, &last_id,
							   &error))
				break;
			if (run_interrupted)
				break;
		}
		if (!run_step(x, opts, done, &i, &current_block, &last_id, progress, &error))
			break;
	}
	if (i == x->plan->nruns && budget && !run_interrupted &&
		!end_of_block(x, opts, budget, x->plan->nblocks, clock, &stopped, &error))
		i = -1;
	if (run_interrupted || (i == x->plan->nruns && error == NULL))
		return 0;
	if (error != NULL)
		log_error_text(error);
	return EXIT_RUNTIME_ERROR;
}

int
runner_execute(ExperimentSpec *spec, const RunOptions *opts)
{
	Experiment	x = {0};
	bool	   *done = NULL;
	int			ndone = 0;
	char	   *error = NULL;
	Progress	progress;
	int			status;
	BudgetClock clock = {0};
	BudgetPlan	budget_plan_of_run;
	const BudgetPlan *budget = NULL;

	/* rounds = auto: the plan sets the rounds the runs are laid out for */
	if (spec->rounds_auto)
	{
		if (!plan_of_budget(spec, opts, &budget_plan_of_run, &error))
			return fail_setup(psprintf("%s\nhint: Nothing was run.", error));
		budget = &budget_plan_of_run;
	}
	if (plan_count_runs(spec) > PLAN_MAX_RUNS)
		return fail_setup(psprintf("the experiment would make %.0f runs, more than the %d an experiment may have\n"
								   "hint: Fewer rounds, variants, scripts or client counts; or several experiments.",
								   plan_count_runs(spec), PLAN_MAX_RUNS));
	x.spec = spec;
	x.dir = opts->results_dir;
	x.plan = plan_build(spec);
	x.resume = opts->resume;

	runner_catch_interrupts();

	if ((status = set_up(&x, opts, budget, &done, &ndone)) >= 0)
		return status;
	if (budget)
	{
		if (!budget_read_spent(x.dir, &clock.recorded, &clock.spent_before, NULL,
							   budget->max_blocks, &error))
			return fail_setup(error);
		if (opts->resume)
			printf("rounds = auto: %.0f s of the budget of %d s spent in %d block%s\n",
				   clock.spent_before, budget->budget_s, clock.recorded,
				   clock.recorded == 1 ? "" : "s");
	}
	clock.session_start = now_seconds();
	progress_init(&progress, x.plan->nruns, ndone, spec->duration_s);
	progress.verbose = report_verbose;
	status = run_plan(&x, opts, budget, done, &clock, &progress);
	run_sessions_close(&x);
	cluster_stop_all();

	if (run_interrupted)
	{
		log_errorf("interrupted: %d of %d runs are recorded in %s (signal: %s)",
				   progress.done_runs - 1, x.plan->nruns, x.dir,
				   pg_strsignal(interrupted_status() - 128));
		pg_log_error_hint("Continue with: %s run --resume %s", progname,
						  escape_text(opts->resume_dir ? opts->resume_dir : x.dir, ESCAPE_TERMINAL));
		return interrupted_status();
	}
	progress_finish(&progress);
	if (opts->no_summary)
		return status;
	if (status == 0)
		return runner_summary(spec, opts);
	printf("\nresults: %s\n", escape_text(x.dir, ESCAPE_TERMINAL));
	return status;
}

/*
 * The end of an experiment whose runs are all recorded: its report, the
 * noise it measured for the next pre-flight on this host, and where its
 * results are.
 */
int
runner_summary(const ExperimentSpec *spec, const RunOptions *opts)
{
	int			status = report_render(opts->results_dir, NULL, stdout);

	if (status == 0)
		noise_history_record(spec, opts->results_dir, opts->preflight ? opts->preflight->busy_pct : NAN);
	printf("\nresults: %s\n", escape_text(opts->results_dir, ESCAPE_TERMINAL));
	return status;
}
