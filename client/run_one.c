/*-------------------------------------------------------------------------
 *
 * run_one.c
 *		One run of the plan: reset the data, checkpoint, reset the
 *		counters, run pgbench, collect what it and the server report.
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
#include "pgbench_output.h"
#include "profile.h"
#include "progress.h"
#include "safe_file.h"
#include "run_one.h"
#include "server_stats.h"
#include "snapshot_probe.h"
#include "subprocess.h"

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
		!exec_ok(conn, "CREATE DATABASE " RUN_DB " TEMPLATE " TEMPLATE_DB, error))
	{
		PQfinish(conn);
		return false;
	}
	PQfinish(conn);
	rec->reset_s = now_seconds() - t0;
	cluster_server(&vs->cluster)->run_db_ready = true;
	return true;
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
	argv[argc++] = cluster_conninfo(&vs->cluster, RUN_DB);
	argv[argc] = NULL;
	return argv;
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
 * Run pgbench, copying its stderr to the .err file while feeding progress
 * lines to the display, and serving the snapshot probe (if any) between
 * them.  Returns its exit status; on Ctrl-C stops it.  -1 if it could not
 * start, with error when the files could not be opened.  The files are
 * made afresh (a link or FIFO in their place is refused) and can be
 * followed while pgbench writes them.
 */
static int
run_pgbench(char **argv, const char *out_path, const char *err_path, Progress *progress,
			SnapshotProbe *probe, char **error)
{
	int			out_fd = safe_open_file(out_path, SAFE_FRESH, error);
	int			err_file = out_fd < 0 ? -1 : safe_open_file(err_path, SAFE_FRESH, error);
	int			pipefd[2];
	pid_t		pid;
	char		line[1024];
	int			linelen = 0;
	bool		killed = false;
	bool		synced;
	int			rc;
	ChildSpec	spec = CHILD_SPEC_INIT;

	if (out_fd < 0 || err_file < 0 || pipe2(pipefd, O_CLOEXEC) != 0)
	{
		if (out_fd >= 0)
			safe_abandon(out_fd);
		if (err_file >= 0)
			safe_abandon(err_file);
		return -1;
	}
	spec.argv = argv;
	spec.unprivileged = true;
	spec.interruptible = true;
	spec.out_fd = out_fd;
	spec.err_fd = pipefd[1];
	pid = child_start(&spec);
	close(pipefd[1]);
	if (pid < 0)
	{
		close(pipefd[0]);
		safe_abandon(out_fd);
		safe_abandon(err_file);
		return -1;
	}

	for (;;)
	{
		struct pollfd pfd[2] = {{pipefd[0], POLLIN, 0},
		{snapshot_probe_socket(probe), POLLIN, 0}};	/* ignored when -1 */
		int			ready = poll(pfd, 2, snapshot_probe_timeout_ms(probe, 250));
		char		buf[512];
		ssize_t		n;

		if (run_interrupted && !killed)
		{
			/* the run is lost either way; stop pgbench and its connections now */
			kill(-pid, SIGTERM);
			killed = true;
		}
		snapshot_probe_service(probe);
		if (ready <= 0 || pfd[0].revents == 0)
			continue;
		n = read(pipefd[0], buf, sizeof(buf));
		if (n <= 0)
			break;
		if (write(err_file, buf, n) != n)
			break;
		for (ssize_t i = 0; i < n; i++)
		{
			if (buf[i] == '\n' || linelen == sizeof(line) - 1)
			{
				PgbenchProgress p;

				line[linelen] = '\0';
				if (pgbench_progress_parse_line(line, &p) == 0)
					progress_update(progress, p.elapsed_s, p.tps);
				linelen = 0;
			}
			else
				line[linelen++] = buf[i];
		}
	}
	close(pipefd[0]);
	rc = wait_process(pid);
	/* on disk, whatever became of the run (also when interrupted) */
	synced = fsync(out_fd) == 0 && fsync(err_file) == 0;
	if (!safe_close(out_fd, error) | !safe_close(err_file, error))
		log_warning_text(*error);
	else if (!synced)
		log_warning_text(psprintf("could not write \"%s\": %m", err_path));
	return rc;
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
	rec->layout_seed = server->variant->layout_seed;
	/* a server we do not manage is one instance as far as we know */
	rec->instance = server->managed ? server->instance : 1;
}

/*
 * Execute one planned run and fill rec.  Returns false only when the
 * experiment cannot go on (error set); a failed run is a record, not an
 * error.
 */
bool
execute_run(Experiment *x, const PlannedRun *pr, Progress *progress, RunRecord *rec, char **error)
{
	VariantState *vs = &x->variants[pr->variant];
	PGconn	   *conn;
	ServerStats before_checkpoint,
				before,
				after,
				delta;
	char	  **argv;
	char	   *out_path = results_run_path(x->dir, pr->run_id, ".out");
	char	   *err_path = results_run_path(x->dir, pr->run_id, ".err");
	double		t0,
				t_run;
	int			rc;
	json_t	   *detail;
	SnapshotProbe *probe;
	json_t	   *probe_json;
	ProfileRun *profile;

	init_record(rec, x, pr);
	t_run = now_seconds();

	if (!reset_data(x, vs, rec, error))
		return false;
	if ((conn = connect_variant(vs, RUN_DB, error)) == NULL)
		return false;
	wait_for_backends_to_exit(conn);
	server_stats_take(conn, &before_checkpoint);
	argv = pgbench_argv(x, vs, pr, rec->jobs);
	profile = profile_run_prepare(x, pr, argv, conn);
	if (!exec_ok(conn, "CHECKPOINT", error) ||
		(vs->has_counters && !exec_ok(conn, "SELECT pgbench_ext.reset()", error)))
	{
		PQfinish(conn);
		return false;
	}
	server_stats_take_after_checkpoint(conn, &before_checkpoint, &before);

	probe = snapshot_probe_start(x, pr);
	progress_start_run(progress, pr, rec->variant, rec->script);
	profile_run_start(profile);
	t0 = now_seconds();
	*error = NULL;
	rc = run_pgbench(argv, out_path, err_path, progress, probe, error);
	if (rc < 0 && *error != NULL)
	{
		json_decref(snapshot_probe_finish(probe, rec));
		profile_run_stop(profile);
		PQfinish(conn);
		return false;
	}
	rec->duration_s = now_seconds() - t0;
	probe_json = snapshot_probe_finish(probe, rec);
	profile_run_stop(profile);

	if (run_interrupted)
	{
		rec->status = "interrupted";
		rec->reason = pg_strdup("interrupted by the user (Ctrl-C)");
		json_decref(probe_json);
		PQfinish(conn);
		return true;
	}

	if (PQstatus(conn) != CONNECTION_OK || (vs->cluster.managed && !cluster_alive(&vs->cluster)))
	{
		rec->reason = psprintf("the server terminated during the run; its log ends with: %s",
							   vs->cluster.managed ? tail_of_file(vs->cluster.logfile, 3) : "(not managed)");
		json_decref(probe_json);
		PQfinish(conn);
		return true;
	}

	{
		char	   *out_text = read_whole_file(out_path);
		char	   *err_text = read_whole_file(err_path);
		PgbenchResult result;
		char		errbuf[512];

		if (pgbench_output_parse(out_text, err_text, &result, errbuf, sizeof(errbuf)) != 0)
		{
			rec->reason = psprintf("pgbench exited with status %d and its output could not be read: %s",
								   rc, errbuf);
			pgbench_result_free(&result);
		}
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
			pgbench_result_free(&result);
		}
	}
	profile_run_collect(profile, rec);

	wait_for_backends_to_exit(conn);
	server_stats_take(conn, &after);
	server_stats_delta(&before, &after, &delta);
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
	detail = vs->has_counters ? pull_counters(conn, rec) : json_object();
	PQfinish(conn);

	if (probe_json)
		json_object_set_new(detail, "snapshot_probe", probe_json);
	rec->wall_s = now_seconds() - t_run;
	json_object_set_new(detail, "checkpoints_during", json_integer(rec->checkpoints_during));
	json_object_set_new(detail, "autovacuum_during", json_integer(rec->autovacuum_during));
	if (!results_write_json(x->dir, psprintf("runs/%04d.json", pr->run_id), detail, error))
		return false;
	json_decref(detail);
	return true;
}
