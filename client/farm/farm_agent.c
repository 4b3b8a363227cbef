/*-------------------------------------------------------------------------
 *
 * farm_agent.c
 *		"pgbench_ext agent CONNINFO": a host of the farm working through the
 *		queue of the results database.  It registers its machine (agents),
 *		takes the next job meant for it (take_job(): FOR UPDATE SKIP
 *		LOCKED, so two agents never take one job), runs the experiment as
 *		"run" runs it (run_execute()), and imports the results in the
 *		transaction that marks the job done (farm_import.c), then waits for
 *		the next.
 *
 * What happens to a job whose agent dies: its heartbeat (farm_heartbeat.c)
 * stops, and once it is older than the timeout of an agent that asks for
 * work, that agent takes the job again (a new attempt).  Nothing of the
 * dead attempt is in the database — its results are imported only with
 * "done" — so nothing is counted twice.  Each job's results directory is
 * kept under the state directory by job (job-ID-DIGEST/run-ATTEMPT): an
 * agent of the same host taking the job again continues the last attempt
 * that recorded its experiment with --resume (runs already made are kept,
 * servers left running by the dead agent are stopped first); an agent of
 * another host has none of it and runs the experiment afresh, from the
 * seed the job keeps.  A dead attempt's agent that comes back cannot
 * finish the job: every update is for the attempt it took.
 *
 * A watch job (docs/farm.md, "A watched branch") is taken only by an
 * agent given git's hooks (AgentGit).  Its agent looks at how far the
 * branch moved since the watch's last point: by less than its schedule,
 * the watch waits (watch_wait()); else the head is exported and built as
 * the watched variant's source, the experiment runs afresh (a watch's
 * earlier attempts are its earlier points, never resumed), and its
 * results are imported with watch_point(), which ties them to the head,
 * queues the watch again and queues a bisect for each new change point.
 *
 * A bisect job is taken only by an agent given the bisect's hook (the
 * command's: bisect/ is of farm/'s rank too).  It bisects the commits
 * around the change point with the watch's experiment, the watched
 * variant alone, in the job's directory (DIR/bisect): taken again on the
 * same host after its agent died, the bisect resumes there.  Its answer,
 * the culprit or none and why, is stored with bisect_answer() in the
 * transaction that marks the job done; a bisect that fails marks the job
 * failed with why, and the agent goes on with the next.
 *
 * Ctrl-C (SIGINT, SIGTERM, SIGHUP) stops the experiment as it stops "run"
 * (its servers stopped, what ran recorded), puts the job back in the
 * queue, and exits with 128 + the signal's number.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "digest.h"
#include "experiment.h"
#include "farm.h"
#include "farm_agent.h"
#include "farm_heartbeat.h"
#include "farm_import.h"
#include "results.h"
#include "run_execute.h"
#include "runner.h"
#include "safe_file.h"
#include "subprocess.h"

#include <math.h>
#include <unistd.h>

#include "common/logging.h"

/* This host as the queue knows it. */
typedef struct Agent
{
	PGconn	   *conn;
	const ConnOptions *conn_opts;
	const AgentOptions *opts;
	char	   *fingerprint;
	char	   *hostname;
} Agent;

/* A job as take_job() gave it. */
typedef struct Job
{
	char	   *id;
	char	   *name;
	char	   *experiment;
	char	   *seed;
	char	   *attempt;
	char	   *submitted_at;	/* seconds since 1970, whatever the TimeZone */
	char	   *dir;			/* its directory under the state directory */
	/* a watch: its columns of jobs, and the head it builds */
	bool		watch;
	char	   *repo;
	char	   *branch;
	char	   *variant;
	int			every_commits;	/* 0: a schedule by time */
	char	   *every;
	char	   *last_commit;	/* NULL before its first point */
	char	   *head;
	/* a bisect: the commits around its change point */
	bool		bisect;
	char	   *good;
	char	   *bad;
} Job;

/* A statement whose failure ends the agent (the job's heartbeat with it). */
static PGresult *
agent_exec(Agent *a, const char *sql, int n, const char *const *params)
{
	PGresult   *res = PQexecParams(a->conn, sql, n, NULL, params, NULL, NULL, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK && PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		log_errorf("the queue: %s", PQerrorMessage(a->conn));
		pg_log_error_detail("Query was: %s", sql);
		pg_log_error_hint("An agent needs the grants of the running role (docs/farm.md, \"Roles\").");
		PQfinish(a->conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	return res;
}

/*
 * Register this host: its machine's facts as experiment.json records them
 * and their fingerprint (without a server's environment() rows, which
 * only a run has).
 */
static void
agent_register(Agent *a)
{
	json_t	   *doc = json_pack("{s:o}", "machine", farm_machine_json());
	FarmMachine m = farm_machine_of(doc);
	const char *params[3];

	a->fingerprint = m.fingerprint;
	a->hostname = pg_strdup(json_string_value(json_object_get(json_object_get(doc, "machine"), "hostname")));
	params[0] = a->fingerprint;
	params[1] = a->hostname;
	params[2] = json_dumps(m.facts, JSON_COMPACT | JSON_SORT_KEYS);
	PQclear(agent_exec(a,
					   "INSERT INTO pgbench_ext.agents (fingerprint, hostname, facts) VALUES ($1, $2, $3) "
					   "ON CONFLICT (fingerprint) DO UPDATE SET hostname = excluded.hostname, "
					   "facts = excluded.facts, seen_at = now()", 3, params));
	printf("agent of machine %s (\"%s\"): taking the jobs for it, its host name or any machine\n",
		   a->fingerprint, escape_text(a->hostname, ESCAPE_TERMINAL));
	fflush(stdout);
	json_decref(doc);
}

/* The next job for this host, or false when there is none. */
static bool
take_job(Agent *a, Job *job)
{
	const char *params[3] = {a->fingerprint, psprintf("%d seconds", a->opts->timeout_s),
		psprintf("{run%s%s}", a->opts->git ? ",watch" : "", a->opts->bisect ? ",bisect" : "")};
	PGresult   *res = agent_exec(a,
								 "SELECT job_id, name, experiment, seed, attempt, extract(epoch FROM submitted_at), "
								 "kind, repo, branch, variant, every_commits, every, last_commit, good, bad "
								 "FROM pgbench_ext.take_job($1, $2::interval, $3::text[])", 3, params);
	bool		taken = PQntuples(res) > 0;

	if (taken)
	{
		job->id = pg_strdup(PQgetvalue(res, 0, 0));
		job->name = pg_strdup(PQgetvalue(res, 0, 1));
		job->experiment = pg_strdup(PQgetvalue(res, 0, 2));
		job->seed = pg_strdup(PQgetvalue(res, 0, 3));
		job->attempt = pg_strdup(PQgetvalue(res, 0, 4));
		job->submitted_at = pg_strdup(PQgetvalue(res, 0, 5));
		job->watch = strcmp(PQgetvalue(res, 0, 6), "watch") == 0;
		job->repo = pg_strdup(PQgetvalue(res, 0, 7));
		job->branch = pg_strdup(PQgetvalue(res, 0, 8));
		job->variant = pg_strdup(PQgetvalue(res, 0, 9));
		job->every_commits = atoi(PQgetvalue(res, 0, 10));
		job->every = pg_strdup(PQgetvalue(res, 0, 11));
		job->last_commit = PQgetisnull(res, 0, 12) ? NULL : pg_strdup(PQgetvalue(res, 0, 12));
		job->bisect = strcmp(PQgetvalue(res, 0, 6), "bisect") == 0;
		job->good = pg_strdup(PQgetvalue(res, 0, 13));
		job->bad = pg_strdup(PQgetvalue(res, 0, 14));
		/* the job's own: job ids of two results databases may meet here */
		job->dir = psprintf("%s/job-%s-%.8s", a->opts->state_dir, job->id,
							sha256_of_string(psprintf("%s\n%s\n%s", job->submitted_at, job->name,
													  job->experiment)));
	}
	PQclear(res);
	return taken;
}

/* The job back to the queue (interrupted), or failed with why. */
static void
release_job(Agent *a, const Job *job, const char *state, const char *error)
{
	const char *params[4] = {job->id, job->attempt, state, error};

	PQclear(agent_exec(a,
					   "UPDATE pgbench_ext.jobs SET state = $3, error = $4, heartbeat_at = NULL, "
					   "finished_at = CASE WHEN $3 = 'failed' THEN now() END "
					   "WHERE job_id = $1 AND attempt = $2 AND state = 'running'", 4, params));
}

/* Where the job's experiment file is written for this attempt. */
static char *
job_file(const Job *job)
{
	return psprintf("%s/experiment-%s.ini", job->dir, job->attempt);
}

/*
 * The experiment of the job: the last attempt of this host that recorded
 * one, to resume, or the job's text with its seed, to run afresh into
 * run-ATTEMPT.  False with error when it cannot be read.
 */
static bool
job_experiment(const Job *job, ExperimentSpec *spec, RunOptions *ropts, char **error)
{
	char	   *file;
	json_t	   *doc;

	experiment_init(spec);
	/* a bisect resumes from its own directory */
	for (int k = job->watch || job->bisect ? 0 : atoi(job->attempt) - 1; k >= 1; k--)
	{
		char	   *dir = psprintf("%s/run-%d", job->dir, k);

		if (access(psprintf("%s/experiment.json", dir), F_OK) != 0)
			continue;
		if ((doc = results_read_spec(dir, spec, error)) == NULL)
			return false;
		json_decref(doc);
		ropts->results_dir = dir;
		ropts->resume = true;
		printf("job %s: resuming attempt %d of this host in %s\n", job->id, k,
			   escape_text(dir, ESCAPE_TERMINAL));
		return true;
	}
	file = job_file(job);
	if (!safe_write_file(file, job->experiment, 0, error) ||
		!experiment_read_ini(spec, file, error) ||
		!experiment_set(spec, "experiment", "seed", job->seed, error))
		return false;
	ropts->results_dir = psprintf("%s/run-%s", job->dir, job->attempt);
	return true;
}

/* The outcome of a watch's look at its branch */
typedef enum WatchLook
{
	WATCH_BUILD,				/* moved by its schedule: job->head to build */
	WATCH_WAITS,				/* not moved enough: queued for a later look */
	WATCH_FAILED				/* error set */
} WatchLook;

/*
 * A watch's look at its branch: when the head moved by the schedule (or
 * on the first look), job->head, exported into the job's directory and
 * set as the watched variant's source; else the watch queued again, after
 * its interval (a schedule by time) or the agent's poll (by commits).
 */
static WatchLook
watch_look(Agent *a, Job *job, ExperimentSpec *spec, char **error)
{
	int			moved;
	char	   *source;

	if (!a->opts->git->commits(job->repo, job->branch, job->last_commit, &moved, &job->head, error))
		return WATCH_FAILED;
	if (moved == 0 || moved < job->every_commits)
	{
		const char *params[3] = {job->id, job->attempt,
		job->every_commits ? psprintf("%d seconds", a->opts->poll_s) : job->every};

		PQclear(agent_exec(a, "SELECT pgbench_ext.watch_wait($1, $2, $3::interval)", 3, params));
		printf("job %s: branch %s is at %.12s, %d commit(s) after the last point: waiting\n", job->id,
			   escape_text(job->branch, ESCAPE_TERMINAL), job->head, moved);
		return WATCH_WAITS;
	}
	printf("job %s: branch %s is at %.12s, %d commit(s) after the last point: building it as variant %s\n",
		   job->id, escape_text(job->branch, ESCAPE_TERMINAL), job->head, moved,
		   escape_text(job->variant, ESCAPE_TERMINAL));
	fflush(stdout);
	if ((source = a->opts->git->export(job->repo, job->head, job->dir, error)) == NULL)
		return WATCH_FAILED;
	return experiment_set(spec, psprintf("variant %s", job->variant), "source", source, error)
		? WATCH_BUILD : WATCH_FAILED;
}

/*
 * A transaction begun with the job locked, if it is still this attempt's
 * and running; else none (rolled back) and false: an agent given up for
 * dead must not finish a job another agent has taken.
 */
static bool
begin_own_job(Agent *a, const Job *job)
{
	const char *mine[2] = {job->id, job->attempt};
	PGresult   *res;
	bool		own;

	PQclear(agent_exec(a, "BEGIN", 0, NULL));
	res = agent_exec(a, "SELECT 1 FROM pgbench_ext.jobs WHERE job_id = $1 AND attempt = $2 AND state = 'running' FOR UPDATE",
					 2, mine);
	own = PQntuples(res) > 0;
	PQclear(res);
	if (!own)
		PQclear(agent_exec(a, "ROLLBACK", 0, NULL));
	return own;
}

/*
 * The job's end in the import's transaction: a run done; a watch's point
 * recorded with its head (the watch queued again), and the change points
 * it found printed.
 */
static void
job_imported(Agent *a, const Job *job, const char *experiment_id)
{
	const char *done[4] = {job->id, job->attempt, experiment_id, job->head};
	PGresult   *res;

	if (!job->watch)
	{
		PQclear(agent_exec(a,
						   "UPDATE pgbench_ext.jobs SET state = 'done', finished_at = now(), experiment_id = $3 "
						   "WHERE job_id = $1 AND attempt = $2", 3, done));
		return;
	}
	res = agent_exec(a,
					 "SELECT script, clients, commit_before, commit_after, bisect_job "
					 "FROM pgbench_ext.watch_point($1, $2, $3, $4)", 4, done);
	for (int i = 0; i < PQntuples(res); i++)
		printf("job %s: a change point of %s at %s clients between %.12s and %.12s: bisect job %s queued\n",
			   job->id, escape_text(PQgetvalue(res, i, 0), ESCAPE_TERMINAL), PQgetvalue(res, i, 1),
			   PQgetvalue(res, i, 2), PQgetvalue(res, i, 3), PQgetvalue(res, i, 4));
	PQclear(res);
}

/*
 * The results into the database in the transaction that marks the job
 * done, if it is still this attempt's.  0, or the exit status of a
 * failure (the job then failed, or another agent's).
 */
static int
finish_job(Agent *a, const Job *job, const char *dir)
{
	FarmImport	d = {0};
	FarmImported r;
	char	   *error = NULL,
			   *hint = NULL;
	const char *seen[2];
	int			status;

	if (!farm_import_read(dir, &d, &error, &hint))
	{
		release_job(a, job, "failed", psprintf("its results on %s could not be read: %s", a->hostname, error));
		log_error_text(error);
		return EXIT_RUNTIME_ERROR;
	}
	if (!begin_own_job(a, job))
	{
		log_errorf("job %s was taken by another agent while this one ran it: its results are not imported", job->id);
		pg_log_error_detail("They stay in %s.", escape_text(dir, ESCAPE_TERMINAL));
		return EXIT_RUNTIME_ERROR;
	}
	if ((status = farm_import_load(a->conn, &d, &r, &error)) != 0)
	{
		PQclear(agent_exec(a, "ROLLBACK", 0, NULL));
		release_job(a, job, "failed", psprintf("its results on %s could not be imported: %s", a->hostname, error));
		log_error_text(error);
		return status;
	}
	job_imported(a, job, r.experiment_id);
	/* jobs may name this host by the fingerprint of its results too */
	seen[0] = a->fingerprint;
	seen[1] = d.machine.fingerprint;
	PQclear(agent_exec(a,
					   "UPDATE pgbench_ext.agents SET seen_at = now(), result_fingerprints = "
					   "CASE WHEN $2 = ANY (result_fingerprints) THEN result_fingerprints "
					   "ELSE result_fingerprints || $2 END WHERE fingerprint = $1", 2, seen));
	PQclear(agent_exec(a, "COMMIT", 0, NULL));
	/* profile_import() prepares its statements anew for each experiment */
	PQclear(agent_exec(a, "DEALLOCATE ALL", 0, NULL));
	farm_import_print(&d, &r);
	printf(job->watch ? "job %s: its point imported as experiment %s\n" : "job %s done: imported as experiment %s\n",
		   job->id, r.experiment_id);
	return 0;
}

/*
 * The job's heartbeat started on a connection of its own; when it cannot
 * be, the job is put back in the queue and the agent ends.
 */
static Heartbeat *
start_heartbeat(Agent *a, const Job *job)
{
	Heartbeat  *hb = heartbeat_start(connect_checked(a->conn_opts), job->id, job->attempt,
									 Max(a->opts->timeout_s / AGENT_BEATS_PER_TIMEOUT, 1));

	if (hb == NULL)
	{
		release_job(a, job, "queued", NULL);
		log_errorf("could not start the heartbeat's thread: the job is back in the queue");
		PQfinish(a->conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	return hb;
}

/* A number for the database: NULL when there is none. */
static const char *
float_param(double v)
{
	return isnan(v) ? NULL : psprintf("%.17g", v);
}

/*
 * A bisect's answer stored with its change points (bisect_answer()), the
 * job done in the same transaction if it is still this attempt's; without
 * a culprit, why is kept as the job's error.  0, or an exit status.
 */
static int
bisect_answered(Agent *a, const Job *job, const AgentBisectAnswer *ans)
{
	const char *params[6] = {job->id, job->attempt, ans->culprit, float_param(ans->shift_pct),
	float_param(ans->ci_low), float_param(ans->ci_high)};
	const char *why[3] = {job->id, job->attempt, ans->why};
	PGresult   *res;
	int			points;

	if (!begin_own_job(a, job))
	{
		log_errorf("job %s was taken by another agent while this one ran it: its answer is not stored", job->id);
		return EXIT_RUNTIME_ERROR;
	}
	res = agent_exec(a, "SELECT count(*) FROM pgbench_ext.bisect_answer($1, $2, $3, $4, $5, $6)", 6, params);
	points = atoi(PQgetvalue(res, 0, 0));
	PQclear(res);
	if (ans->culprit == NULL)
		PQclear(agent_exec(a, "UPDATE pgbench_ext.jobs SET error = $3 WHERE job_id = $1 AND attempt = $2", 3, why));
	PQclear(agent_exec(a, "COMMIT", 0, NULL));
	if (ans->culprit)
		printf("job %s done: culprit %.12s, %+.2f%% (CI %+.2f%% to %+.2f%%), stored with %d change point(s)\n",
			   job->id, ans->culprit, ans->shift_pct, ans->ci_low, ans->ci_high, points);
	else
		printf("job %s done without a culprit, stored with %d change point(s): %s", job->id, points,
			   escape_text(ans->why, ESCAPE_TERMINAL_LINES));
	return 0;
}

/*
 * A bisect job: the hook runs (or resumes) the bisect of its commits in
 * DIR/bisect, its heartbeat beating; the answer stored, or the job back in
 * the queue (interrupted) or failed with why.
 */
static int
run_bisect_job(Agent *a, const Job *job, ExperimentSpec *spec)
{
	AgentBisectJob bj = {spec, job_file(job), job->repo, job->variant, job->good, job->bad,
	psprintf("%s/bisect", job->dir)};
	AgentBisectAnswer ans = {NULL, NAN, NAN, NAN, NULL};
	char	   *error = NULL;
	char	   *problem = NULL;
	Heartbeat  *hb;
	int			status;

	printf("job %s: bisect of %.12s..%.12s of %s, variant %s, in %s\n", job->id, job->good, job->bad,
		   escape_text(job->repo, ESCAPE_TERMINAL), escape_text(job->variant, ESCAPE_TERMINAL),
		   escape_text(bj.dir, ESCAPE_TERMINAL));
	fflush(stdout);
	hb = start_heartbeat(a, job);
	status = a->opts->bisect(&bj, &ans, &error);
	if (!heartbeat_stop(hb, &problem))
		log_warning_text(problem);
	if (status == 0)
		return bisect_answered(a, job, &ans);
	if (run_interrupted)
	{
		release_job(a, job, "queued", NULL);
		printf("job %s is back in the queue; an agent of this host resumes the bisect in %s\n", job->id,
			   escape_text(bj.dir, ESCAPE_TERMINAL));
		return runner_failure_status();
	}
	log_error_text(error);
	release_job(a, job, "failed", psprintf("the bisect failed on %s: %s", a->hostname, error));
	return status;
}

/*
 * Run one job taken and record how it ended.  The exit status: 0, that of
 * a failed experiment (the job failed), or 128 + a signal's number (the
 * job back in the queue).
 */
static int
run_job(Agent *a, Job *job)
{
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	char	   *error = NULL;
	Heartbeat  *hb;
	int			status;
	bool		finished;
	WatchLook	look = WATCH_BUILD;

	printf("job %s: %s (attempt %s)\n", job->id, escape_text(job->name, ESCAPE_TERMINAL), job->attempt);
	fflush(stdout);
	ropts.max_restarts = 3;
	if (!safe_mkdir_p(job->dir, 0755, &error) || !job_experiment(job, &spec, &ropts, &error) ||
		(job->watch && (look = watch_look(a, job, &spec, &error)) == WATCH_FAILED))
	{
		log_error_text(error);
		release_job(a, job, "failed", psprintf("on %s: %s", a->hostname, error));
		return EXIT_USAGE;
	}
	if (look == WATCH_WAITS)
		return 0;
	if (job->bisect)
		return run_bisect_job(a, job, &spec);
	hb = start_heartbeat(a, job);
	status = run_execute(&spec, &ropts, "agent");
	finished = status == 0;
	if (finished)
		status = finish_job(a, job, ropts.results_dir);
	if (!heartbeat_stop(hb, &error) && !finished)
		log_warning_text(error);
	else if (error != NULL && status != 0)
		log_warning_text(error);
	if (finished)
		return status;
	if (run_interrupted)
	{
		release_job(a, job, "queued", NULL);
		printf("job %s is back in the queue; an agent of this host resumes it from %s\n", job->id,
			   escape_text(ropts.results_dir, ESCAPE_TERMINAL));
		return runner_failure_status();
	}
	release_job(a, job, "failed",
				psprintf("the experiment failed on %s (exit status %d); its results directory there: %s",
						 a->hostname, status, ropts.results_dir));
	return status;
}

/* Wait poll_s seconds for the next look at the queue, or a signal. */
static void
agent_wait(const Agent *a)
{
	for (int i = 0; i < a->opts->poll_s * 10 && !run_interrupted; i++)
		pg_usleep(100000);
}

int
farm_agent(const ConnOptions *conn, const AgentOptions *opts)
{
	Agent		a = {0};

	a.conn_opts = conn;
	a.opts = opts;
	a.conn = connect_checked(conn);
	agent_register(&a);
	runner_catch_interrupts();
	while (!run_interrupted)
	{
		Job			job = {0};
		int			status;

		if (!take_job(&a, &job))
		{
			agent_wait(&a);
			continue;
		}
		status = run_job(&a, &job);
		fflush(stdout);
		if (run_interrupted || opts->once)
		{
			PQfinish(a.conn);
			return status;
		}
	}
	PQfinish(a.conn);
	printf("agent stopped: no job was running\n");
	return runner_failure_status();
}
