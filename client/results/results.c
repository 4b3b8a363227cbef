/*-------------------------------------------------------------------------
 *
 * results.c
 *		Writing and reading the results directory (layout in results.h).
 *
 * Nothing lost: runs.csv is appended and fsync'd after every run, JSON
 * files are replaced atomically (write, fsync, rename), so a crash or a
 * Ctrl-C at any moment leaves every completed run on disk.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "results.h"
#include "safe_file.h"
#include "safe_read.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const csv_columns =
"run_id,round,variant,script,clients,jobs,warmup,build,build_seed,instance,started_at,duration_s,wall_s,reset_s,"
"tps,latency_avg_ms,latency_stddev_ms,transactions,failed_tx,status,"
"checkpoints_during,autovacuum_during,cpu_user_us_per_tx,cpu_sys_us_per_tx,"
"voluntary_switches_per_tx,involuntary_switches_per_tx,blks_hit,blks_read,wal_bytes,"
"buffers_written_checkpointer,buffers_written_bgwriter,buffers_written_backends,"
"snapshot_full_ns_median,snapshot_full_ns_p90,snapshot_reuse_ns_median,snapshot_reuse_ns_p90,"
"snapshot_xcnt,snapshot_procs,snapshot_probes,reason";

/* "PREFIX-YYYYMMDD-HHMMSS": where results go when -o is not given */
char *
timestamped_dir(const char *prefix)
{
	char		stamp[32];
	time_t		t = time(NULL);

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
	return psprintf("%s-%s", prefix, stamp);
}

bool
results_create(const char *dir, char **error)
{
	char	   *csv = psprintf("%s/runs.csv", dir);
	int			fd;

	if (!safe_mkdir_p(dir, 0755, error) ||
		!safe_mkdir(psprintf("%s/runs", dir), 0755, 0, error) ||
		(fd = safe_open_file(csv, SAFE_NEW, error)) < 0)
		return false;
	if (dprintf(fd, "%s\n", csv_columns) < 0 || fsync(fd) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", csv);
		safe_abandon(fd);
		return false;
	}
	return safe_close(fd, error);
}

char *
results_run_path(const char *dir, int run_id, const char *suffix)
{
	return psprintf("%s/runs/%04d%s", dir, run_id, suffix);
}

bool
results_write_json(const char *dir, const char *name, json_t *obj, char **error)
{
	char	   *path = psprintf("%s/%s", dir, name);
	FILE	   *f = safe_fopen_write(path, false, error);

	if (f == NULL)
		return false;
	/* written as NAME.tmp, synced and renamed into place by safe_fclose() */
	if (json_dumpf(obj, f, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 || fputc('\n', f) == EOF)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		safe_abandon_stream(f);
		return false;
	}
	return safe_fclose(f, error);
}

json_t *
results_read_json(const char *dir, const char *name, char **error)
{
	char	   *path = psprintf("%s/%s", dir, name);

	return safe_read_json(path, SAFE_MAX_JSON, error);
}

static const char damaged_hint[] =
"The results directory is damaged or not one of pgbench_ext's; a line cut short by a crash can be deleted, and --resume redoes that run.";

/*
 * What experiment.json records besides the specification, bounded before
 * a report goes through it: the plan (a run each) and the environment of
 * each variant, whose rows a report compares with the baseline's one by
 * one.
 */
static bool
recorded_within_limits(const char *dir, json_t *doc, char **error)
{
	json_t	   *plan = json_object_get(doc, "plan");
	const char *name;
	json_t	   *v;

	if (json_is_array(plan) && json_array_size(plan) > RESULTS_MAX_RUN_ID)
		return fail_with(error, "\"%s/experiment.json\": the plan lists %zu runs, more than the %d an experiment numbers\nhint: %s",
						 dir, json_array_size(plan), RESULTS_MAX_RUN_ID, damaged_hint);
	json_object_foreach(json_object_get(doc, "variants"), name, v)
	{
		json_t	   *env = json_object_get(v, "environment");

		if (json_is_array(env) && json_array_size(env) > RESULTS_MAX_ENV_ROWS)
			return fail_with(error, "\"%s/experiment.json\": the environment of variant \"%s\" has %zu rows, more than the %d a server reports\nhint: %s",
							 dir, escape_text(name, ESCAPE_TERMINAL), json_array_size(env), RESULTS_MAX_ENV_ROWS,
							 damaged_hint);
	}
	return true;
}

/* Whether doc (experiment.json, summary.json) is of the format this client reads */
bool
results_format_ours(json_t *doc)
{
	json_t	   *format = json_object_get(doc, "format");

	return json_is_string(format) && strcmp(json_string_value(format), RESULTS_FORMAT) == 0;
}

/*
 * Whether experiment.json's "format" is the one this client reads: the
 * files of a directory of another format (or of none: before 1.0.0) would
 * be read as what they are not.
 */
static bool
format_known(const char *dir, json_t *doc, char **error)
{
	json_t	   *format = json_object_get(doc, "format");
	char	   *found;

	if (results_format_ours(doc))
		return true;
	if (format == NULL)
		return fail_with(error, "\"%s/experiment.json\" has no \"format\": a results directory of no release of pgbench_ext (formats are numbered from 1.0 on), which this pgbench_ext (%s) does not read; it reads results format %s\nhint: Run the experiment again with this pgbench_ext.",
						 dir, PGBENCH_EXT_VERSION, RESULTS_FORMAT);
	found = json_dumps(format, JSON_ENCODE_ANY | JSON_COMPACT);
	*error = psprintf("\"%s/experiment.json\" is of results format %s, which this pgbench_ext (%s) does not read; it reads results format %s\nhint: Read it with the pgbench_ext that wrote it (its \"pgbench_ext_version\"), or one that reads its format.",
					  dir, found ? escape_text(found, ESCAPE_TERMINAL) : "(unprintable)", PGBENCH_EXT_VERSION,
					  RESULTS_FORMAT);
	free(found);
	return false;
}

/*
 * A results directory's experiment.json with its recorded specification
 * rebuilt in spec: what --resume, --rerun, report and calibrate start from.
 */
json_t *
results_read_spec(const char *dir, ExperimentSpec *spec, char **error)
{
	json_t	   *doc = results_read_json(dir, "experiment.json", error);

	if (doc != NULL && (!format_known(dir, doc, error) || !recorded_within_limits(dir, doc, error)))
	{
		json_decref(doc);
		return NULL;
	}
	if (doc != NULL && !experiment_from_json(spec, json_object_get(doc, "spec"), error))
	{
		*error = psprintf("\"%s/experiment.json\": %s", dir, *error);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/*
 * The rounds per start of the servers an experiment ran with (its
 * experiment.json's "restart"), 0 for never, or for a value that is not
 * a whole number in range.
 */
int
results_restart_rounds(json_t *experiment)
{
	json_t	   *n = json_object_get(json_object_get(experiment, "restart"), "rounds_per_instance");

	if (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > 100000)
		return 0;
	return (int) json_integer_value(n);
}

bool
results_append_run(const char *dir, const RunRecord *r, char **error)
{
	char	   *path = psprintf("%s/runs.csv", dir);
	FILE	   *f = safe_fopen_write(path, true, error);

	if (f == NULL)
		return false;
	fprintf(f, "%d,%d", r->planned->run_id, r->planned->round);
	results_csv_text(f, r->variant);
	results_csv_text(f, r->script);
	fprintf(f, ",%d,%d,%s", r->planned->clients, r->jobs, r->planned->warmup ? "true" : "false");
	results_csv_text(f, r->build);
	fprintf(f, ",%d,%d", r->build_seed, r->instance);
	results_csv_text(f, r->started_at);
	results_csv_number(f, r->duration_s, "%.3f");
	results_csv_number(f, r->wall_s, "%.3f");
	results_csv_number(f, r->reset_s, "%.3f");
	results_csv_number(f, r->tps, "%.3f");
	results_csv_number(f, r->latency_avg_ms, "%.4f");
	results_csv_number(f, r->latency_stddev_ms, "%.4f");
	fprintf(f, ",%lld,%lld", r->transactions, r->failed_tx);
	results_csv_text(f, r->status);
	fprintf(f, ",%d,%d", r->checkpoints_during, r->autovacuum_during);
	results_csv_number(f, r->cpu_user_us_per_tx, "%.3f");
	results_csv_number(f, r->cpu_sys_us_per_tx, "%.3f");
	results_csv_number(f, r->voluntary_switches_per_tx, "%.4f");
	results_csv_number(f, r->involuntary_switches_per_tx, "%.4f");
	results_csv_number(f, r->blks_hit, "%.0f");
	results_csv_number(f, r->blks_read, "%.0f");
	results_csv_number(f, r->wal_bytes, "%.0f");
	results_csv_number(f, r->buffers_written_checkpointer, "%.0f");
	results_csv_number(f, r->buffers_written_bgwriter, "%.0f");
	results_csv_number(f, r->buffers_written_backends, "%.0f");
	results_csv_number(f, r->snapshot.full_ns_median, "%.3f");
	results_csv_number(f, r->snapshot.full_ns_p90, "%.3f");
	results_csv_number(f, r->snapshot.reuse_ns_median, "%.3f");
	results_csv_number(f, r->snapshot.reuse_ns_p90, "%.3f");
	results_csv_number(f, r->snapshot.xcnt, "%.1f");
	results_csv_number(f, r->snapshot.procs, "%.1f");
	fprintf(f, ",%d", r->snapshot.probes);
	results_csv_text(f, r->reason);
	fputc('\n', f);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0)
		return fail_with(error, "could not write \"%s\": %m", path);
	return true;
}

/* Columns read as numbers; empty stands for "none" (NaN). */
static const char *const number_columns[] = {
	"jobs", "duration_s", "wall_s", "reset_s", "tps", "latency_avg_ms", "latency_stddev_ms",
	"transactions", "failed_tx", "checkpoints_during", "autovacuum_during",
	"cpu_user_us_per_tx", "cpu_sys_us_per_tx", "voluntary_switches_per_tx",
	"involuntary_switches_per_tx", "blks_hit", "blks_read", "wal_bytes",
	"buffers_written_checkpointer", "buffers_written_bgwriter", "buffers_written_backends",
	"snapshot_full_ns_median", "snapshot_full_ns_p90", "snapshot_reuse_ns_median",
	"snapshot_reuse_ns_p90", "snapshot_xcnt", "snapshot_procs", "snapshot_probes",
};

/* Whole numbers of the levels: round, build seed, instance. */
static const char *const level_columns[] = {"round", "build_seed", "instance"};

/*
 * Whether one row holds a run of spec (arg): its names those of
 * experiment.json, its numbers numbers.  *problem says what is wrong
 * otherwise.
 */
static bool
check_row(const RunsCsv *t, char **f, const void *arg, char **problem)
{
	const ExperimentSpec *spec = arg;
	long		n;
	const char *variant = f[runs_csv_column(t, "variant")];
	const char *script = f[runs_csv_column(t, "script")];
	const char *status = f[runs_csv_column(t, "status")];
	int			c_warmup = runs_csv_column(t, "warmup");
	bool		known = false;

	if (!results_parse_int(f[runs_csv_column(t, "run_id")], 1, &n))
		return fail_with(problem, "run_id \"%s\" is not a positive whole number",
						 escape_text(f[runs_csv_column(t, "run_id")], ESCAPE_TERMINAL));
	/* a report takes memory by run number */
	if (n > RESULTS_MAX_RUN_ID)
		return fail_with(problem, "run_id %ld is more than %d, the most runs an experiment numbers", n, RESULTS_MAX_RUN_ID);
	if (experiment_variant_index(spec, variant) < 0)
		return fail_with(problem, "variant \"%s\" is not a variant of the experiment (experiment.json has %s)",
						 escape_text(variant, ESCAPE_TERMINAL), experiment_variant_names(spec));
	for (int i = 0; i < spec->nscripts; i++)
		known |= strcmp(spec->scripts[i], script) == 0;
	if (!known)
		return fail_with(problem, "script \"%s\" is not a script of the experiment",
						 escape_text(script, ESCAPE_TERMINAL));
	known = false;
	if (results_parse_int(f[runs_csv_column(t, "clients")], 1, &n))
		for (int i = 0; i < spec->nclients; i++)
			known |= spec->clients[i] == n;
	if (!known)
		return fail_with(problem, "clients \"%s\" is not a client count of the experiment",
						 escape_text(f[runs_csv_column(t, "clients")], ESCAPE_TERMINAL));
	if (strcmp(status, "ok") != 0 && strcmp(status, "failed") != 0 && strcmp(status, "interrupted") != 0)
		return fail_with(problem, "status \"%s\" is none of ok, failed, interrupted",
						 escape_text(status, ESCAPE_TERMINAL));
	for (int i = 0; i < lengthof(level_columns); i++)
	{
		int			c = runs_csv_column(t, level_columns[i]);

		/* an instance number also keys the nested verdict's units (< 2^15) */
		if (c >= 0 && (!results_parse_int(f[c], 0, &n) || n > RESULTS_MAX_INSTANCE))
			return fail_with(problem, "%s \"%s\" is not a whole number from 0 to %d", level_columns[i],
							 escape_text(f[c], ESCAPE_TERMINAL), RESULTS_MAX_INSTANCE);
	}
	if (c_warmup >= 0 && strcmp(f[c_warmup], "true") != 0 && strcmp(f[c_warmup], "false") != 0)
		return fail_with(problem, "warmup \"%s\" is neither true nor false",
						 escape_text(f[c_warmup], ESCAPE_TERMINAL));
	return results_check_numbers(t, f, number_columns, lengthof(number_columns), problem);
}

/*
 * Read DIR/runs.csv as data that may come from anywhere: the header must
 * name the columns every reader needs, every line must have its fields and
 * hold a run of spec (results_read_spec() of the same directory).  A
 * problem is an error naming the file and the line.
 */
RunsCsv *
results_read_runs(const char *dir, const ExperimentSpec *spec, char **error)
{
	/* the columns a report, --resume and import read; results format 1.0 has them all */
	static const char *const required[] = {"run_id", "round", "variant", "script", "clients", "warmup",
	"build", "build_seed", "instance", "wall_s", "tps", "status"};

	return results_read_csv(psprintf("%s/runs.csv", dir), required, lengthof(required),
							check_row, spec, damaged_hint, error);
}

/*
 * runs/NNNN.json of a run: *detail NULL when there is none (a failed run),
 * false with error when it is there but not a JSON object.
 */
bool
results_read_run_detail(const char *dir, int run_id, json_t **detail, char **error)
{
	char	   *name = psprintf("runs/%04d.json", run_id);

	*detail = NULL;
	if (access(psprintf("%s/%s", dir, name), F_OK) != 0 && errno == ENOENT)
		return true;
	if ((*detail = results_read_json(dir, name, error)) == NULL)
		return false;
	if (!json_is_object(*detail))
	{
		*error = psprintf("\"%s/%s\" is not a JSON object", dir, name);
		json_decref(*detail);
		*detail = NULL;
		return false;
	}
	return true;
}

/*
 * Whether row i of runs.csv is a warm-up after a start (round 0): those
 * the plan did not foresee are numbered past its runs.
 */
static bool
is_warmup_after_start(const RunsCsv *t, int i)
{
	int			c_round = runs_csv_column(t, "round"),
				c_warmup = runs_csv_column(t, "warmup");

	return c_round >= 0 && c_warmup >= 0 && strcmp(t->rows[i][c_round], "0") == 0 &&
		strcmp(t->rows[i][c_warmup], "true") == 0;
}

/*
 * For --resume: which planned runs are already done (ok or failed).  Runs
 * recorded as interrupted are moved to interrupted.csv, so that after the
 * resumed experiment runs.csv holds each planned run exactly once.  A
 * runs.csv of another version's columns is refused: the lines appended
 * would not match its header.
 */
bool *
results_completed_runs(const char *dir, const ExperimentSpec *spec, int nruns,
					   int *ncompleted, char **error)
{
	char	   *path = psprintf("%s/runs.csv", dir);
	RunsCsv    *t;
	char	   *ipath = psprintf("%s/interrupted.csv", dir);
	FILE	   *out;
	FILE	   *interrupted = NULL;
	bool	   *done = pg_malloc0(sizeof(bool) * (nruns + 1));
	int			c_id,
				c_status;

	*ncompleted = 0;
	if ((t = results_read_runs(dir, spec, error)) == NULL)
		return NULL;
	/* lines of other columns appended below this header would be misread */
	if (strcmp(results_csv_header(t), csv_columns) != 0)
	{
		*error = psprintf("\"%s\" has the columns of another version of pgbench_ext: resume it with that version, or run the experiment again",
						  path);
		return NULL;
	}
	c_id = runs_csv_column(t, "run_id");
	c_status = runs_csv_column(t, "status");
	/* written as runs.csv.tmp, renamed over runs.csv by safe_fclose() */
	if ((out = safe_fopen_write(path, false, error)) == NULL)
		return NULL;
	fprintf(out, "%s\n", csv_columns);
	for (int i = 0; i < t->nrows; i++)
	{
		int			run_id = atoi(t->rows[i][c_id]);

		if (run_id > nruns && !is_warmup_after_start(t, i))
		{
			*error = psprintf("\"%s\" holds run %d, but the plan of the experiment has %d runs",
							  t->path, run_id, nruns);
			safe_abandon_stream(out);
			return NULL;
		}
		if (strcmp(t->rows[i][c_status], "interrupted") == 0)
		{
			if (interrupted == NULL)
			{
				struct stat st;

				if ((interrupted = safe_fopen_write(ipath, true, error)) == NULL)
				{
					safe_abandon_stream(out);
					return NULL;
				}
				if (fstat(fileno(interrupted), &st) == 0 && st.st_size == 0)
					fprintf(interrupted, "%s\n", csv_columns);
			}
			fputs(t->lines[i], interrupted);
			continue;
		}
		if (run_id <= nruns && !done[run_id])
		{
			done[run_id] = true;
			(*ncompleted)++;
		}
		fputs(t->lines[i], out);
	}
	if (interrupted && (fflush(interrupted) != 0 || fsync(fileno(interrupted)) != 0 ||
						fclose(interrupted) != 0))
	{
		*error = psprintf("could not write \"%s\": %m", ipath);
		safe_abandon_stream(out);
		return NULL;
	}
	if (!safe_fclose(out, error))
		return NULL;
	return done;
}

/*
 * The highest run number with a file in DIR/runs/ (0 if none): runs past
 * the plan take the next numbers, also after one that was interrupted.
 */
int
results_last_run_file(const char *dir)
{
	DIR		   *d = opendir(psprintf("%s/runs", dir));
	struct dirent *e;
	int			last = 0;

	if (d == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
	{
		int			id;

		if (strspn(e->d_name, "0123456789") >= 4 && sscanf(e->d_name, "%d", &id) == 1)
			last = Max(last, id);
	}
	closedir(d);
	return last;
}

/* ---- instances.csv: one line per start of a managed server ---- */

static const char *const instance_columns =
"server,instance,started_at,stop_s,start_s,env_pad,cause";

static bool
check_instance_row(const RunsCsv *t, char **f, const void *arg, char **problem)
{
	static const char *const numbers[] = {"stop_s", "start_s"};
	const ExperimentSpec *spec = arg;
	const char *server = f[runs_csv_column(t, "server")];
	long		n;

	if (experiment_variant_index(spec, server) < 0)
		return fail_with(problem, "server \"%s\" is not a variant of the experiment (experiment.json has %s)",
						 escape_text(server, ESCAPE_TERMINAL), experiment_variant_names(spec));
	if (!results_parse_int(f[runs_csv_column(t, "instance")], 1, &n) || n > RESULTS_MAX_INSTANCE)
		return fail_with(problem, "instance \"%s\" is not a whole number from 1 to %d",
						 escape_text(f[runs_csv_column(t, "instance")], ESCAPE_TERMINAL), RESULTS_MAX_INSTANCE);
	return results_check_numbers(t, f, numbers, lengthof(numbers), problem);
}

/*
 * DIR/NAME opened to append one line of a CSV file, its header written
 * first when the file is new; results_close_csv() makes the line durable.
 */
FILE *
results_open_csv(const char *dir, const char *name, const char *header, char **error)
{
	FILE	   *f = safe_fopen_write(psprintf("%s/%s", dir, name), true, error);
	struct stat st;

	if (f != NULL && fstat(fileno(f), &st) == 0 && st.st_size == 0)
		fprintf(f, "%s\n", header);
	return f;
}

bool
results_close_csv(FILE *f, const char *dir, const char *name, char **error)
{
	if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0)
		return fail_with(error, "could not write \"%s/%s\": %m", dir, name);
	return true;
}

bool
results_append_instance(const char *dir, const InstanceRecord *r, char **error)
{
	FILE	   *f = results_open_csv(dir, "instances.csv", instance_columns, error);

	if (f == NULL)
		return false;
	/* the leading comma of each field is the previous one's separator */
	fputs(r->server, f);
	fprintf(f, ",%d", r->instance);
	results_csv_text(f, r->started_at);
	results_csv_number(f, r->stop_s, "%.3f");
	results_csv_number(f, r->start_s, "%.3f");
	fprintf(f, ",%d", r->env_pad);
	results_csv_text(f, r->cause);
	fputc('\n', f);
	return results_close_csv(f, dir, "instances.csv", error);
}

/*
 * DIR/instances.csv, checked as runs.csv is; an empty table when the
 * directory has none (before its first start).
 */
RunsCsv *
results_read_instances(const char *dir, const ExperimentSpec *spec, char **error)
{
	static const char *const required[] = {"server", "instance", "stop_s", "start_s"};
	char	   *path = psprintf("%s/instances.csv", dir);

	if (access(path, F_OK) != 0 && errno == ENOENT)
		return pg_malloc0(sizeof(RunsCsv));
	return results_read_csv(path, required, lengthof(required), check_instance_row, spec,
							damaged_hint, error);
}
