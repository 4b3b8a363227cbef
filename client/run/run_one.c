/*-------------------------------------------------------------------------
 *
 * run_one.c
 *		One run of the plan (or a duet's two at once): reset the data,
 *		checkpoint, reset the counters, run pgbench, collect what it and
 *		the server report, and record it in runs.csv.
 *
 * pgbench runs as a child process (the variant's own binary, never a
 * reimplementation) with -P 1, as the server account when we are root (a
 * binary built from a patch must never run as root); its progress lines
 * are read live from stderr for the progress display and kept with its
 * output in runs/.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "duet_swap.h"
#include "pgbench_output.h"
#include "profile_run.h"
#include "pgbench_child.h"
#include "progress.h"
#include "quiet.h"
#include "safe_file.h"
#include "run_one.h"
#include "server_stats.h"
#include "snapshot_probe.h"
#include "subprocess.h"
#include "safe_read.h"

#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/*
 * Backends publish their statistics and counters as they exit, a moment
 * after their client has gone: wait for every other client backend (ours
 * from the data reset, pgbench's) to end, bounded, so that each run's
 * figures hold that run and nothing else.
 */
static void
wait_for_backends_to_exit(PGconn *conn)
{
	for (int i = 0; i < 100; i++)
	{
		PGresult   *res = PQexec(conn, "SELECT count(*) FROM pg_stat_activity "
								 "WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()");
		bool		none = PQresultStatus(res) == PGRES_TUPLES_OK &&
			strcmp(PQgetvalue(res, 0, 0), "0") == 0;

		PQclear(res);
		if (none)
			break;
		pg_usleep(50000);
	}
	/* our own session's pending statistics are not the run's; nothing to flush */
}

/*
 * The run database's OID on a server this tool manages (PostgreSQL 15 on
 * can be told one): the same on every server and at every reset.  Each
 * lock's tag holds it, and so the backend's hash of its local locks and
 * the order its resource owner finds them in: two servers of one binary
 * whose run databases were 16599 and 16594 (their OID counters five
 * apart) counted 5 to 13 instructions per transaction apart in every
 * instance pair (ResourceOwnerForgetLock +6.0, hash_search_with_hash_value).
 * A server the user gives may hold any database, so it chooses there.
 */
#define RUN_DB_OID 65000

static const char *
run_db_oid_clause(VariantState *vs, PGconn *conn)
{
	if (!cluster_server(&vs->cluster)->managed || PQserverVersion(conn) < 150000)
		return "";
	return " OID " CppAsString2(RUN_DB_OID);
}

/*
 * How the run database is copied from the template.  From PostgreSQL 15
 * CREATE DATABASE writes every block of the template to WAL unless told
 * to copy its files; the copy of the files costs less at scale 1 already
 * (bench/setup_cost.sh: 411 against 577 ms of CPU with the CHECKPOINT the
 * run makes before it starts) and far less at the scales benchmarks use,
 * where WAL_LOG writes the whole database to WAL before every run.  Before
 * 15 the files were always copied.
 */
static const char *
run_db_strategy_clause(PGconn *conn)
{
	return PQserverVersion(conn) >= 150000 ? " STRATEGY FILE_COPY" : "";
}

static bool
reset_data(Experiment *x, VariantState *vs, RunRecord *rec, char **error)
{
	PGconn	   *conn;
	double		t0 = now_seconds();

	rec->reset_s = 0;
	/* never reset: one run database per server, whichever variant comes first */
	if (x->spec->reset == RESET_NEVER && cluster_server(&vs->cluster)->run_db_ready)
		return true;
	if ((conn = connect_variant(vs, "postgres", error)) == NULL)
		return false;
	if (!exec_ok(conn, "DROP DATABASE IF EXISTS " RUN_DB, error) ||
		!exec_ok(conn, psprintf("CREATE DATABASE " RUN_DB " TEMPLATE " TEMPLATE_DB "%s%s",
								run_db_strategy_clause(conn), run_db_oid_clause(vs, conn)), error))
	{
		PQfinish(conn);
		return false;
	}
	PQfinish(conn);
	rec->reset_s = now_seconds() - t0;
	cluster_server(&vs->cluster)->run_db_ready = true;
	return true;
}

/*
 * The runner's session for a run, on the run database.  With reset = never
 * that database lives as long as its server, and so may the session: one
 * per server (its variants' runs take turns on it; a session of another
 * would be a client backend the run waits for), kept until the server
 * starts again, it spares each run a new connection and a backend's cold
 * caches (under valgrind, a second of CPU).  It is the server's own
 * variant's session: the runner's statements need none of the running
 * variant's session settings.  A kept session is tried first; if it no
 * longer answers (a server the client does not manage went away), a new
 * one is made.  Otherwise the database is dropped and made again at every
 * run, and the session with it.
 */
static VariantState *
server_variant(Experiment *x, VariantState *vs)
{
	const Cluster *server = cluster_server(&vs->cluster);

	for (int i = 0; i < x->spec->nvariants; i++)
		if (&x->variants[i].cluster == server)
			return &x->variants[i];
	return vs;
}

static PGconn *
run_session_take(Experiment *x, VariantState *vs, char **error)
{
	VariantState *owner = server_variant(x, vs);
	PGconn	   *conn = owner->run_session;

	if (x->spec->reset != RESET_NEVER)
		return connect_variant(vs, RUN_DB, error);
	owner->run_session = NULL;
	if (conn != NULL && owner->run_session_instance == owner->cluster.instance)
	{
		PGresult   *res = PQexec(conn, "SELECT 1");
		bool		answers = PQresultStatus(res) == PGRES_TUPLES_OK;

		PQclear(res);
		if (answers)
			return conn;
	}
	PQfinish(conn);
	return connect_variant(owner, RUN_DB, error);
}

/* After a run: the session kept for the next (reset = never), else closed. */
static void
run_session_give_back(Experiment *x, VariantState *vs, PGconn *conn)
{
	VariantState *owner = server_variant(x, vs);

	if (x->spec->reset == RESET_NEVER && owner->run_session == NULL &&
		PQstatus(conn) == CONNECTION_OK && PQtransactionStatus(conn) == PQTRANS_IDLE)
	{
		owner->run_session = conn;
		owner->run_session_instance = owner->cluster.instance;
	}
	else
		PQfinish(conn);
}

/* The sessions kept between runs, closed (before the servers stop). */
void
run_sessions_close(Experiment *x)
{
	for (int i = 0; i < x->spec->nvariants; i++)
	{
		PQfinish(x->variants[i].run_session);
		x->variants[i].run_session = NULL;
	}
}

static char **
pgbench_argv(Experiment *x, VariantState *vs, const PlannedRun *pr, int jobs)
{
	const ExperimentSpec *spec = x->spec;
	const char *script = spec->scripts[pr->script];
	char	  **argv = pg_malloc0(sizeof(char *) * 64);
	int			argc = 0;

	argv[argc++] = psprintf("%s/pgbench", vs->cluster.bindir);
	argv[argc++] = "-n";		/* the copy is fresh and vacuumed; no per-run vacuum */
	argv[argc++] = "-P";
	argv[argc++] = "1";
	argv[argc++] = "-c";
	argv[argc++] = psprintf("%d", pr->clients);
	argv[argc++] = "-j";
	argv[argc++] = psprintf("%d", jobs);
	if (spec->duration_s > 0)
	{
		argv[argc++] = "-T";
		argv[argc++] = psprintf("%d", spec->duration_s);
	}
	else
	{
		argv[argc++] = "-t";
		argv[argc++] = psprintf("%d", spec->transactions);
	}
	argv[argc++] = "-M";
	argv[argc++] = spec->protocol;
	argv[argc++] = experiment_is_builtin_script(script) ? "-b" : "-f";
	argv[argc++] = (char *) script;
	if (spec->pgbench_args)
	{
		char	   *copy = pg_strdup(spec->pgbench_args);
		char	   *save = NULL;

		for (char *tok = strtok_r(copy, " \t", &save); tok && argc < 60;
			 tok = strtok_r(NULL, " \t", &save))
			argv[argc++] = tok;
	}
	/* one seed per round for every variant; counted runs need it to repeat */
	if ((spec->quiet.shared_seed || spec->profile.mode == PROFILE_COUNTED) &&
		!(spec->pgbench_args && strstr(spec->pgbench_args, "--random-seed")))
		argv[argc++] = psprintf("--random-seed=%llu", quiet_round_seed(spec->seed, pr->seed_round > 0 ? pr->seed_round : pr->round));
	argv[argc++] = cluster_conninfo(&vs->cluster, RUN_DB);
	argv[argc] = NULL;
	return argv;
}

/*
 * What quiets this run's server before it starts: its relations read into
 * shared buffers, and it and its pgbench on the run's CPU set (cpus set,
 * *pinned true).  What /proc then says of its postmaster goes into the
 * run's record, so that what was in force is measured, not assumed.
 */
static bool
quiet_server(Experiment *x, VariantState *vs, const PlannedRun *pr, PGconn *conn,
			 cpu_set_t *cpus, bool *pinned, json_t **facts_out, char **error)
{
	const QuietSpec *q = &x->spec->quiet;
	pid_t		postmaster = cluster_postmaster_pid(&vs->cluster);
	json_t	   *facts;

	*pinned = false;
	if (q->prewarm && !quiet_prewarm(conn, error))
		return false;
	/* a duet's two sides always run on disjoint CPUs */
	if ((q->pin || q->schedule == SCHEDULE_DUET) && postmaster > 0)
	{
		if (!quiet_cpu_slot(pr->cpu_slot, cpus, error) ||
			!quiet_pin_server(postmaster, cpus, error))
			return false;
		*pinned = true;
	}
	facts = postmaster > 0 ? quiet_process_facts(postmaster) : json_object();
	if (*pinned)
		json_object_set_new(facts, "pgbench_cpus", json_string(quiet_cpu_list(cpus)));
	json_object_set_new(facts, "prewarm", json_boolean(q->prewarm));
	*facts_out = facts;
	return true;
}

static char *
read_whole_file(const char *path)
{
	char	   *ignored;
	FILE	   *f = safe_fopen_read(path, SAFE_MAX_LOG, &ignored);
	char	   *buf;
	long		len;

	if (f == NULL)
		return pg_strdup("");
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = pg_malloc(len + 1);
	len = (long) fread(buf, 1, len, f);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/*
 * Run pgbench alone, serving the snapshot probe (if any) between its
 * progress lines.  Returns its exit status, -1 if it could not start (with
 * error when its files could not be made).
 */
static int
run_pgbench(char **argv, const cpu_set_t *cpus, const char *out_path, const char *err_path,
			Progress *progress, SnapshotProbe *probe, char **error)
{
	PgbenchChild child;

	if (!pgbench_child_start(&child, argv, cpus, out_path, err_path, progress, error))
		return -1;
	while (child.pid > 0)
	{
		struct pollfd pfd[2] = {{child.pipe_fd, POLLIN, 0},
		{snapshot_probe_socket(probe), POLLIN, 0}};	/* ignored when -1 */
		int			ready = poll(pfd, 2, snapshot_probe_timeout_ms(probe, 250));

		snapshot_probe_service(probe);
		if ((ready > 0 && pfd[0].revents != 0) || run_interrupted)
			if (!pgbench_child_read(&child))
				break;
	}
	return pgbench_child_finish(&child, error);
}

static void
iso_now(char *buf, size_t len)
{
	time_t		t = time(NULL);

	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
}

/* Counters and wait profile as JSON, and the per-transaction figures. */
static json_t *
pull_counters(PGconn *conn, RunRecord *rec)
{
	json_t	   *counters = json_object();
	json_t	   *waits;
	PGresult   *res = PQexec(conn, "SELECT scope, metric, value FROM pgbench_ext.counters()");
	double		commits = NAN,
				user_us = NAN,
				sys_us = NAN,
				vol = NAN,
				invol = NAN;

	if (PQresultStatus(res) == PGRES_TUPLES_OK)
	{
		for (int r = 0; r < PQntuples(res); r++)
		{
			const char *scope = PQgetvalue(res, r, 0);
			const char *metric = PQgetvalue(res, r, 1);
			double		value = PQgetisnull(res, r, 2) ? NAN : atof(PQgetvalue(res, r, 2));
			json_t	   *group = json_object_get(counters, scope);

			if (group == NULL)
			{
				group = json_object();
				json_object_set_new(counters, scope, group);
			}
			json_object_set_new(group, metric, isnan(value) ? json_null() : json_real(value));
			if (strcmp(scope, "xact") == 0)
			{
				if (strcmp(metric, "commits") == 0)
					commits = value;
				else if (strcmp(metric, "cpu_user_us") == 0)
					user_us = value;
				else if (strcmp(metric, "cpu_sys_us") == 0)
					sys_us = value;
				else if (strcmp(metric, "voluntary_switches") == 0)
					vol = value;
				else if (strcmp(metric, "involuntary_switches") == 0)
					invol = value;
			}
		}
	}
	PQclear(res);
	if (commits > 0)
	{
		rec->cpu_user_us_per_tx = user_us / commits;
		rec->cpu_sys_us_per_tx = sys_us / commits;
		rec->voluntary_switches_per_tx = vol / commits;
		rec->involuntary_switches_per_tx = invol / commits;
	}

	waits = json_array();
	res = PQexec(conn, "SELECT backend_type, wait_event_type, wait_event, samples, pct "
				 "FROM pgbench_ext.wait_profile() ORDER BY samples DESC LIMIT 50");
	if (PQresultStatus(res) == PGRES_TUPLES_OK)
		for (int r = 0; r < PQntuples(res); r++)
			json_array_append_new(waits,
								  json_pack("{s:s, s:s, s:s, s:f, s:f}",
											"backend_type", PQgetvalue(res, r, 0),
											"wait_event_type", PQgetvalue(res, r, 1),
											"wait_event", PQgetvalue(res, r, 2),
											"samples", atof(PQgetvalue(res, r, 3)),
											"pct", atof(PQgetvalue(res, r, 4))));
	PQclear(res);
	return json_pack("{s:o, s:o}", "counters", counters, "wait_profile", waits);
}

static void
init_record(RunRecord *rec, Experiment *x, const PlannedRun *pr)
{
	const Cluster *server;

	memset(rec, 0, sizeof(*rec));
	rec->planned = pr;
	rec->variant = x->spec->variants[pr->variant].name;
	rec->script = x->spec->scripts[pr->script];
	rec->jobs = experiment_jobs_for(x->spec, pr->clients);
	rec->tps = rec->latency_avg_ms = rec->latency_stddev_ms = NAN;
	rec->duration_s = rec->reset_s = rec->wall_s = NAN;
	rec->cpu_user_us_per_tx = rec->cpu_sys_us_per_tx = NAN;
	rec->voluntary_switches_per_tx = rec->involuntary_switches_per_tx = NAN;
	rec->blks_hit = rec->blks_read = rec->wal_bytes = NAN;
	rec->buffers_written_checkpointer = rec->buffers_written_bgwriter = NAN;
	rec->buffers_written_backends = NAN;
	rec->snapshot.full_ns_median = rec->snapshot.full_ns_p90 = NAN;
	rec->snapshot.reuse_ns_median = rec->snapshot.reuse_ns_p90 = NAN;
	rec->snapshot.xcnt = rec->snapshot.procs = NAN;
	rec->status = "failed";
	iso_now(rec->started_at, sizeof(rec->started_at));
	rec->build = x->variants[pr->variant].build_id;
	/* a variant on another's server runs that server's build and instance */
	server = cluster_server(&x->variants[pr->variant].cluster);
	rec->build_seed = server->variant->build_seed;
	/* a server we do not manage is one instance as far as we know */
	rec->instance = server->managed ? server->instance : 1;
}

/* A run between its set-up and its records: what the phases share. */
typedef struct RunInFlight
{
	Experiment *x;
	const PlannedRun *pr;
	VariantState *vs;
	RunRecord  *rec;
	PGconn	   *conn;
	ServerStats before;
	char	  **argv;
	char	   *out_path;
	char	   *err_path;
	cpu_set_t	cpus;
	bool		pinned;
	json_t	   *quiet;			/* what /proc said was in force */
	ProfileRun *profile;
	double		t_run;
	double		t0;
} RunInFlight;

/*
 * Before pgbench starts: fresh data, the statistics before, a checkpoint,
 * the counters reset, the server quieted.  False when the experiment
 * cannot go on.
 */
static bool
run_begin(RunInFlight *f, Experiment *x, const PlannedRun *pr, RunRecord *rec, char **error)
{
	ServerStats before_checkpoint;

	memset(f, 0, sizeof(*f));
	f->x = x;
	f->pr = pr;
	f->vs = &x->variants[pr->variant];
	f->rec = rec;
	f->out_path = results_run_path(x->dir, pr->run_id, ".out");
	f->err_path = results_run_path(x->dir, pr->run_id, ".err");
	init_record(rec, x, pr);
	f->t_run = now_seconds();

	if (!reset_data(x, f->vs, rec, error))
		return false;
	if ((f->conn = run_session_take(x, f->vs, error)) == NULL)
		return false;
	wait_for_backends_to_exit(f->conn);
	server_stats_take(f->conn, &before_checkpoint);
	f->argv = pgbench_argv(x, f->vs, pr, rec->jobs);
	f->profile = profile_run_prepare(x, pr, f->conn);
	if (!quiet_server(x, f->vs, pr, f->conn, &f->cpus, &f->pinned, &f->quiet, error) ||
		!exec_ok(f->conn, "CHECKPOINT", error) ||
		(f->vs->has_counters && !exec_ok(f->conn, "SELECT pgbench_ext.reset()", error)))
	{
		PQfinish(f->conn);
		return false;
	}
	server_stats_take_after_checkpoint(f->conn, &before_checkpoint, &f->before);
	return true;
}

/* pgbench's output into the record: its figures, or why it failed */
static void
read_pgbench_result(RunInFlight *f, int rc)
{
	RunRecord  *rec = f->rec;
	char	   *out_text = read_whole_file(f->out_path);
	char	   *err_text = read_whole_file(f->err_path);
	PgbenchResult result;
	char		errbuf[512];

	if (pgbench_output_parse(out_text, err_text, &result, errbuf, sizeof(errbuf)) != 0)
		rec->reason = psprintf("pgbench exited with status %d and its output could not be read: %s",
							   rc, errbuf);
	else
	{
		rec->tps = result.tps;
		rec->latency_avg_ms = result.latency_avg_ms;
		rec->latency_stddev_ms = result.latency_stddev_ms;
		rec->transactions = result.transactions;
		rec->failed_tx = result.failed;
		if (rc != 0 || result.aborted)
			rec->reason = psprintf("pgbench exited with status %d%s%s", rc,
								   result.aborted ? ": " : "",
								   result.aborted ? result.abort_reason : "");
		else
			rec->status = "ok";
	}
	pgbench_result_free(&result);
}

/*
 * After pgbench ended with status rc: the record and the run's JSON.  False
 * when the experiment cannot go on.
 */
static bool
run_end(RunInFlight *f, int rc, json_t *probe_json, char **error)
{
	RunRecord  *rec = f->rec;
	VariantState *vs = f->vs;
	ServerStats after,
				delta;
	json_t	   *detail;

	if (run_interrupted || PQstatus(f->conn) != CONNECTION_OK ||
		(vs->cluster.managed && !cluster_alive(&vs->cluster)))
	{
		if (run_interrupted)
		{
			rec->status = "interrupted";
			rec->reason = pg_strdup("interrupted by the user (Ctrl-C)");
		}
		else
			rec->reason = psprintf("the server terminated during the run; its log ends with: %s",
								   vs->cluster.managed ? tail_of_file(vs->cluster.logfile, 3) : "(not managed)");
		json_decref(probe_json);
		json_decref(f->quiet);
		PQfinish(f->conn);
		return true;
	}
	read_pgbench_result(f, rc);
	profile_run_collect(f->profile, rec);

	wait_for_backends_to_exit(f->conn);
	server_stats_take(f->conn, &after);
	server_stats_delta(&f->before, &after, &delta);
	if (delta.valid)
	{
		rec->checkpoints_during = (int) delta.checkpoints;
		rec->autovacuum_during = (int) delta.autovacuums;
	}
	rec->blks_hit = delta.blks_hit;
	rec->blks_read = delta.blks_read;
	rec->wal_bytes = delta.wal_bytes;
	rec->buffers_written_checkpointer = delta.buffers_written_checkpointer;
	rec->buffers_written_bgwriter = delta.buffers_written_bgwriter;
	rec->buffers_written_backends = delta.buffers_written_backends;
	detail = vs->has_counters ? pull_counters(f->conn, rec) : json_object();
	run_session_give_back(f->x, vs, f->conn);

	if (probe_json)
		json_object_set_new(detail, "snapshot_probe", probe_json);
	json_object_set_new(detail, "quiet", f->quiet);
	rec->wall_s = now_seconds() - f->t_run;
	json_object_set_new(detail, "checkpoints_during", json_integer(rec->checkpoints_during));
	json_object_set_new(detail, "autovacuum_during", json_integer(rec->autovacuum_during));
	if (!results_write_json(f->x->dir, psprintf("runs/%04d.json", f->pr->run_id), detail, error))
		return false;
	json_decref(detail);
	return true;
}

/*
 * Execute one planned run and fill rec.  Returns false only when the
 * experiment cannot go on (error set); a failed run is a record, not an
 * error.
 */
static bool
execute_run(Experiment *x, const PlannedRun *pr, Progress *progress, RunRecord *rec, char **error)
{
	RunInFlight f;
	SnapshotProbe *probe;
	int			rc;

	if (!run_begin(&f, x, pr, rec, error))
		return false;
	probe = snapshot_probe_start(x, pr);
	progress_start_run(progress, pr, rec->variant, rec->script);
	profile_run_start(f.profile);
	f.t0 = now_seconds();
	*error = NULL;
	rc = run_pgbench(f.argv, f.pinned ? &f.cpus : NULL, f.out_path, f.err_path, progress, probe, error);
	if (rc < 0 && *error != NULL)
	{
		json_decref(snapshot_probe_finish(probe, rec));
		profile_run_stop(f.profile);
		PQfinish(f.conn);
		return false;
	}
	rec->duration_s = now_seconds() - f.t0;
	{
		json_t	   *probe_json = snapshot_probe_finish(probe, rec);

		profile_run_stop(f.profile);
		return run_end(&f, rc, probe_json, error);
	}
}

/*
 * Two runs of a duet (schedule = duet): both set up, then both pgbench
 * started together and followed at once, each on its own CPU set when
 * pinned, then both recorded.  Profiles and the snapshot probe are refused
 * with duets (experiment_check), so neither is served here.
 */
static bool
execute_duet(Experiment *x, const PlannedRun *pr, Progress *progress, RunRecord rec[2],
			 char **error)
{
	RunInFlight f[2];
	PgbenchChild child[2];
	pid_t		postmaster[2];
	DuetSwap	swap;
	int			rc[2] = {-1, -1};
	bool		ok = true;

	for (int i = 0; i < 2; i++)
		if (!run_begin(&f[i], x, &pr[i], &rec[i], error))
		{
			if (i == 1)
				PQfinish(f[0].conn);
			return false;
		}
	progress_start_run(progress, &pr[0], psprintf("%s + %s", rec[0].variant, rec[1].variant),
					   rec[0].script);
	for (int i = 0; i < 2; i++)
		postmaster[i] = cluster_postmaster_pid(&f[i].vs->cluster);
	for (int i = 0; i < 2; i++)
	{
		f[i].t0 = now_seconds();
		iso_now(rec[i].started_at, sizeof(rec[i].started_at));
		if (!pgbench_child_start(&child[i], f[i].argv, f[i].pinned ? &f[i].cpus : NULL,
								 f[i].out_path, f[i].err_path, i == 0 ? progress : NULL, error))
		{
			char	   *why = *error;

			for (int j = 0; j < 2; j++)
				PQfinish(f[j].conn);
			if (i == 1)
			{
				/* one side alone is no duet: stopped, not waited for */
				(void) kill(child[0].pid, SIGTERM);
				pgbench_child_finish(&child[0], error);
			}
			*error = why;
			return false;
		}
	}
	duet_swap_begin(&swap, f[0].pinned && f[1].pinned ? x->spec->quiet.swap_ms : 0,
					postmaster, (pid_t[2]) {child[0].pid, child[1].pid},
					(cpu_set_t[2]) {f[0].cpus, f[1].cpus});
	while (child[0].pipe_fd >= 0 || child[1].pipe_fd >= 0)
	{
		struct pollfd pfd[2] = {{child[0].pipe_fd, POLLIN, 0}, {child[1].pipe_fd, POLLIN, 0}};
		int			ready = poll(pfd, 2, duet_swap_wait_ms(&swap, 250));
		char	   *swap_error = NULL;

		/* the trades go on while both sides run: one alone has no partner */
		if (child[0].pipe_fd >= 0 && child[1].pipe_fd >= 0 && !duet_swap_if_due(&swap, &swap_error))
			log_warning_text(psprintf("%s; the CPUs of runs %d and %d are no longer traded within the run",
									  swap_error, pr[0].run_id, pr[1].run_id));

		for (int i = 0; i < 2; i++)
			if (child[i].pipe_fd >= 0 && ((ready > 0 && pfd[i].revents != 0) || run_interrupted) &&
				!pgbench_child_read(&child[i]))
			{
				rc[i] = pgbench_child_finish(&child[i], error);
				f[i].rec->duration_s = now_seconds() - f[i].t0;
			}
	}
	for (int i = 0; i < 2; i++)
	{
		json_object_set_new(f[i].quiet, "swap_interval", json_string(quiet_swap_name(swap.interval_ms)));
		json_object_set_new(f[i].quiet, "cpu_swaps", json_integer(swap.swaps));
		ok = run_end(&f[i], rc[i], NULL, error) && ok;
	}
	return ok;
}

/*
 * One run, recorded (into *rec too); false (with error) when the
 * experiment cannot go on.
 */
bool
execute_and_record_run(Experiment *x, const PlannedRun *pr, Progress *progress,
					   RunRecord *rec, char **error)
{
	if (!execute_run(x, pr, progress, rec, error) ||
		!results_append_run(x->dir, rec, error))
		return fail_with(error, "run %d (variant %s): %s", pr->run_id, rec->variant, *error);
	progress_end_run(progress, rec->reason ? psprintf("%s: %s", rec->status, rec->reason) : rec->status,
					 rec->tps);
	return true;
}

/*
 * The two runs of a duet, recorded (into rec too); false (with error) when
 * the experiment cannot go on.  The display shows the pair as one run and
 * then each.
 */
bool
execute_and_record_duet(Experiment *x, const PlannedRun *pr, Progress *progress,
						RunRecord rec[2], char **error)
{
	if (!execute_duet(x, pr, progress, rec, error) ||
		!results_append_run(x->dir, &rec[0], error) ||
		!results_append_run(x->dir, &rec[1], error))
		return fail_with(error, "runs %d and %d (a duet of %s and %s): %s", pr[0].run_id, pr[1].run_id,
						 x->spec->variants[pr[0].variant].name,
						 x->spec->variants[pr[1].variant].name, *error);
	for (int i = 0; i < 2; i++)
	{
		if (i == 1)
			progress_start_run(progress, &pr[1], rec[1].variant, rec[1].script);
		progress_end_run(progress, rec[i].reason ? psprintf("%s: %s", rec[i].status, rec[i].reason) : rec[i].status,
						 rec[i].tps);
	}
	return true;
}
