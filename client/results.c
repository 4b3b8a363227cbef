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

#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const csv_columns =
"run_id,round,variant,script,clients,jobs,warmup,started_at,duration_s,reset_s,"
"tps,latency_avg_ms,latency_stddev_ms,transactions,failed_tx,status,"
"checkpoints_during,autovacuum_during,cpu_user_us_per_tx,cpu_sys_us_per_tx,"
"voluntary_switches_per_tx,involuntary_switches_per_tx,blks_hit,blks_read,wal_bytes,reason";

bool
results_create(const char *dir, char **error)
{
	char	   *runs = psprintf("%s/runs", dir);
	char	   *csv = psprintf("%s/runs.csv", dir);
	int			fd;

	if (pg_mkdir_p(runs, 0755) != 0)
	{
		*error = psprintf("could not create results directory \"%s\": %m", dir);
		return false;
	}
	fd = open(csv, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
	{
		*error = psprintf("could not create \"%s\": %m", csv);
		return false;
	}
	dprintf(fd, "%s\n", csv_columns);
	fsync(fd);
	close(fd);
	return true;
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
	char	   *tmp = psprintf("%s.tmp", path);
	FILE	   *f = safe_fopen_write(tmp, false, error);

	if (f == NULL)
		return false;
	if (json_dumpf(obj, f, JSON_INDENT(2) | JSON_SORT_KEYS) != 0 || fputc('\n', f) == EOF ||
		fflush(f) != 0 || fsync(fileno(f)) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", tmp);
		fclose(f);
		return false;
	}
	if (fclose(f) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", tmp);
		return false;
	}
	if (rename(tmp, path) != 0)
	{
		*error = psprintf("could not rename \"%s\" to \"%s\": %m", tmp, path);
		return false;
	}
	return true;
}

json_t *
results_read_json(const char *dir, const char *name, char **error)
{
	char	   *path = psprintf("%s/%s", dir, name);
	json_error_t jerr;
	json_t	   *obj = json_load_file(path, 0, &jerr);

	if (obj == NULL)
		*error = psprintf("could not read \"%s\": %s (line %d)", path, jerr.text, jerr.line);
	return obj;
}

/*
 * A results directory's experiment.json with its recorded specification
 * rebuilt in spec: what --resume, --rerun, report and calibrate start from.
 */
json_t *
results_read_spec(const char *dir, ExperimentSpec *spec, char **error)
{
	json_t	   *doc = results_read_json(dir, "experiment.json", error);

	if (doc != NULL && !experiment_from_json(spec, json_object_get(doc, "spec"), error))
	{
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static void
csv_number(FILE *f, double v, const char *fmt)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, fmt, v);
}

static void
csv_text(FILE *f, const char *s)
{
	fputc(',', f);
	if (s == NULL)
		return;
	if (strpbrk(s, ",\"\n\r") == NULL)
	{
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++)
	{
		if (*s == '"')
			fputc('"', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('"', f);
}

bool
results_append_run(const char *dir, const RunRecord *r, char **error)
{
	char	   *path = psprintf("%s/runs.csv", dir);
	FILE	   *f = safe_fopen_write(path, true, error);

	if (f == NULL)
		return false;
	fprintf(f, "%d,%d", r->planned->run_id, r->planned->round);
	csv_text(f, r->variant);
	csv_text(f, r->script);
	fprintf(f, ",%d,%d,%s", r->planned->clients, r->jobs, r->planned->warmup ? "true" : "false");
	csv_text(f, r->started_at);
	csv_number(f, r->duration_s, "%.3f");
	csv_number(f, r->reset_s, "%.3f");
	csv_number(f, r->tps, "%.3f");
	csv_number(f, r->latency_avg_ms, "%.4f");
	csv_number(f, r->latency_stddev_ms, "%.4f");
	fprintf(f, ",%lld,%lld", r->transactions, r->failed_tx);
	csv_text(f, r->status);
	fprintf(f, ",%d,%d", r->checkpoints_during, r->autovacuum_during);
	csv_number(f, r->cpu_user_us_per_tx, "%.3f");
	csv_number(f, r->cpu_sys_us_per_tx, "%.3f");
	csv_number(f, r->voluntary_switches_per_tx, "%.4f");
	csv_number(f, r->involuntary_switches_per_tx, "%.4f");
	csv_number(f, r->blks_hit, "%.0f");
	csv_number(f, r->blks_read, "%.0f");
	csv_number(f, r->wal_bytes, "%.0f");
	csv_text(f, r->reason);
	fputc('\n', f);
	if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", path);
		return false;
	}
	return true;
}

/*
 * Split one CSV line (its line end removed) in place, RFC 4180 quoting as
 * csv_text() writes it.  Returns the number of fields, at most max_fields,
 * or -1 for a quote out of place or never closed.
 */
static int
csv_split(char *line, char **fields, int max_fields)
{
	int			n = 0;
	char	   *p = line;

	while (n < max_fields)
	{
		char	   *out = p;	/* unquoting writes over the field in place */

		fields[n++] = p;
		if (*p == '"')
		{
			p++;
			for (;;)
			{
				if (*p == '\0')
					return -1;
				if (*p == '"' && p[1] == '"')
				{
					*out++ = '"';
					p += 2;
				}
				else if (*p == '"')
				{
					p++;
					break;
				}
				else
					*out++ = *p++;
			}
			if (*p != ',' && *p != '\0')
				return -1;
		}
		else
		{
			while (*p && *p != ',')
			{
				if (*p == '"')
					return -1;
				out++, p++;
			}
		}
		if (*p == '\0')
		{
			*out = '\0';
			break;
		}
		*out = '\0';
		p++;
	}
	return n;
}

/* A name from a file, fit for a message: control characters as "?". */
static char *
printable(const char *s)
{
	char	   *copy = pg_strdup(s);

	for (char *p = copy; *p; p++)
		if ((unsigned char) *p < 0x20 || *p == 0x7f)
			*p = '?';
	return copy;
}

static bool
parse_whole_int(const char *s, long min, long *result)
{
	char	   *end;

	errno = 0;
	*result = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' && *result >= min && *result <= INT_MAX;
}

/* Columns read as numbers; empty stands for "none" (NaN). */
static const char *const number_columns[] = {
	"jobs", "duration_s", "reset_s", "tps", "latency_avg_ms", "latency_stddev_ms",
	"transactions", "failed_tx", "checkpoints_during", "autovacuum_during",
	"cpu_user_us_per_tx", "cpu_sys_us_per_tx", "voluntary_switches_per_tx",
	"involuntary_switches_per_tx", "blks_hit", "blks_read", "wal_bytes",
};

int
runs_csv_column(const RunsCsv *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->columns[i], name) == 0)
			return i;
	return -1;
}

/*
 * Whether one row holds a run of spec: its names those of experiment.json,
 * its numbers numbers.  *problem says what is wrong otherwise.
 */
static bool
check_row(const RunsCsv *t, char **f, const ExperimentSpec *spec, char **problem)
{
	long		n;
	const char *variant = f[runs_csv_column(t, "variant")];
	const char *script = f[runs_csv_column(t, "script")];
	const char *status = f[runs_csv_column(t, "status")];
	int			c_round = runs_csv_column(t, "round");
	int			c_warmup = runs_csv_column(t, "warmup");
	bool		known = false;

	if (!parse_whole_int(f[runs_csv_column(t, "run_id")], 1, &n))
	{
		*problem = psprintf("run_id \"%s\" is not a positive whole number", printable(f[runs_csv_column(t, "run_id")]));
		return false;
	}
	if (experiment_variant_index(spec, variant) < 0)
	{
		*problem = psprintf("variant \"%s\" is not a variant of the experiment (experiment.json has %s)",
							printable(variant), experiment_variant_names(spec));
		return false;
	}
	for (int i = 0; i < spec->nscripts; i++)
		known |= strcmp(spec->scripts[i], script) == 0;
	if (!known)
	{
		*problem = psprintf("script \"%s\" is not a script of the experiment", printable(script));
		return false;
	}
	known = false;
	if (parse_whole_int(f[runs_csv_column(t, "clients")], 1, &n))
		for (int i = 0; i < spec->nclients; i++)
			known |= spec->clients[i] == n;
	if (!known)
	{
		*problem = psprintf("clients \"%s\" is not a client count of the experiment",
							printable(f[runs_csv_column(t, "clients")]));
		return false;
	}
	if (strcmp(status, "ok") != 0 && strcmp(status, "failed") != 0 && strcmp(status, "interrupted") != 0)
	{
		*problem = psprintf("status \"%s\" is none of ok, failed, interrupted", printable(status));
		return false;
	}
	if (c_round >= 0 && !parse_whole_int(f[c_round], 0, &n))
	{
		*problem = psprintf("round \"%s\" is not a whole number", printable(f[c_round]));
		return false;
	}
	if (c_warmup >= 0 && strcmp(f[c_warmup], "true") != 0 && strcmp(f[c_warmup], "false") != 0)
	{
		*problem = psprintf("warmup \"%s\" is neither true nor false", printable(f[c_warmup]));
		return false;
	}
	for (int i = 0; i < lengthof(number_columns); i++)
	{
		int			c = runs_csv_column(t, number_columns[i]);
		char	   *end;
		double		v;

		if (c < 0 || f[c][0] == '\0')
			continue;
		v = strtod(f[c], &end);
		if (*end != '\0' || !isfinite(v))
		{
			*problem = psprintf("%s \"%s\" is not a number", number_columns[i], printable(f[c]));
			return false;
		}
	}
	return true;
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
	static const char *const required[] = {"run_id", "variant", "script", "clients", "status"};
	RunsCsv    *t = pg_malloc0(sizeof(RunsCsv));
	FILE	   *f;
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		len;
	int			lineno = 0;
	int			maxrows = 64;
	char	   *problem = NULL;

	t->path = psprintf("%s/runs.csv", dir);
	if ((f = fopen(t->path, "r")) == NULL)
	{
		*error = psprintf("could not open \"%s\": %m", t->path);
		return NULL;
	}
	t->rows = pg_malloc(sizeof(char **) * maxrows);
	t->lines = pg_malloc(sizeof(char *) * maxrows);
	while (problem == NULL && (len = getline(&line, &cap, f)) > 0)
	{
		char	   *copy;
		char	  **fields;
		int			max = lineno == 0 ? 256 : t->ncols + 1;
		int			n;

		lineno++;
		if (line[len - 1] != '\n' || memchr(line, '\0', len) != NULL)
		{
			problem = pg_strdup(line[len - 1] != '\n'
								? "the line is cut short (no line end): a write was interrupted"
								: "the line holds a NUL byte");
			break;
		}
		copy = pnstrdup(line, len - (len > 1 && line[len - 2] == '\r' ? 2 : 1));
		fields = pg_malloc(sizeof(char *) * max);
		n = csv_split(copy, fields, max);
		if (n < 0)
			problem = pg_strdup("a quoted field is not closed, or a quote is out of place");
		else if (lineno == 1)
		{
			t->columns = fields;
			t->ncols = n;
			t->header = pnstrdup(line, len);
			for (int i = 0; i < lengthof(required) && problem == NULL; i++)
				if (runs_csv_column(t, required[i]) < 0)
					problem = psprintf("the header has no column \"%s\" (it needs run_id, variant, script, clients and status)",
									   required[i]);
		}
		else if (n > t->ncols)
			problem = psprintf("more fields than the header's %d", t->ncols);
		else if (n < t->ncols)
			problem = psprintf("%d fields, but the header has %d", n, t->ncols);
		else if (check_row(t, fields, spec, &problem))
		{
			if (t->nrows == maxrows)
			{
				maxrows *= 2;
				t->rows = pg_realloc(t->rows, sizeof(char **) * maxrows);
				t->lines = pg_realloc(t->lines, sizeof(char *) * maxrows);
			}
			t->rows[t->nrows] = fields;
			t->lines[t->nrows++] = pnstrdup(line, len);
		}
	}
	if (problem == NULL && ferror(f))
		problem = psprintf("could not read it: %m");
	if (problem == NULL && lineno == 0)
		problem = pg_strdup("it is empty (no header)");
	free(line);
	fclose(f);
	if (problem != NULL)
	{
		*error = lineno > 0
			? psprintf("\"%s\" line %d: %s\nhint: The results directory is damaged or not one of %s's; a line cut short by a crash can be deleted, and --resume redoes that run.",
					   t->path, lineno, problem, progname)
			: psprintf("\"%s\": %s", t->path, problem);
		return NULL;
	}
	return t;
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
 * For --resume: which planned runs are already done (ok or failed).  Runs
 * recorded as interrupted are moved to interrupted.csv, so that after the
 * resumed experiment runs.csv holds each planned run exactly once.
 */
bool *
results_completed_runs(const char *dir, const ExperimentSpec *spec, int nruns,
					   int *ncompleted, char **error)
{
	RunsCsv    *t = results_read_runs(dir, spec, error);
	char	   *tmp = psprintf("%s/runs.csv.tmp", dir);
	char	   *ipath = psprintf("%s/interrupted.csv", dir);
	FILE	   *out;
	FILE	   *interrupted = NULL;
	bool	   *done = pg_malloc0(sizeof(bool) * (nruns + 1));
	int			c_id,
				c_status;

	*ncompleted = 0;
	if (t == NULL)
		return NULL;
	c_id = runs_csv_column(t, "run_id");
	c_status = runs_csv_column(t, "status");
	if ((out = safe_fopen_write(tmp, false, error)) == NULL)
		return NULL;
	fputs(t->header, out);
	for (int i = 0; i < t->nrows; i++)
	{
		int			run_id = atoi(t->rows[i][c_id]);

		if (run_id > nruns)
		{
			*error = psprintf("\"%s\" holds run %d, but the plan of the experiment has %d runs",
							  t->path, run_id, nruns);
			fclose(out);
			return NULL;
		}
		if (strcmp(t->rows[i][c_status], "interrupted") == 0)
		{
			if (interrupted == NULL)
			{
				struct stat st;

				if ((interrupted = safe_fopen_write(ipath, true, error)) == NULL)
				{
					fclose(out);
					return NULL;
				}
				if (fstat(fileno(interrupted), &st) == 0 && st.st_size == 0)
					fputs(t->header, interrupted);
			}
			fputs(t->lines[i], interrupted);
			continue;
		}
		if (!done[run_id])
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
		fclose(out);
		return NULL;
	}
	if (fflush(out) != 0 || fsync(fileno(out)) != 0 || fclose(out) != 0 || rename(tmp, t->path) != 0)
	{
		*error = psprintf("could not rewrite \"%s\": %m", t->path);
		return NULL;
	}
	return done;
}
