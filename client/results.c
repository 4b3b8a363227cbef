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

#include <fcntl.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const csv_columns =
"run_id,round,variant,script,clients,jobs,warmup,started_at,duration_s,reset_s,"
"tps,latency_avg_ms,latency_stddev_ms,transactions,failed_tx,status,"
"checkpoints_during,autovacuum_during,cpu_user_us_per_tx,cpu_sys_us_per_tx,"
"voluntary_switches_per_tx,involuntary_switches_per_tx,blks_hit,blks_read,wal_bytes,"
"snapshot_full_ns_median,snapshot_full_ns_p90,snapshot_reuse_ns_median,snapshot_reuse_ns_p90,"
"snapshot_xcnt,snapshot_procs,snapshot_probes,reason";

/* Column positions used when reading runs.csv back. */
#define CSV_RUN_ID	0
#define CSV_STATUS	15
#define CSV_NCOLS	33

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
	int			fd;

	if (json_dump_file(obj, tmp, JSON_INDENT(2) | JSON_SORT_KEYS) != 0)
	{
		*error = psprintf("could not write \"%s\": %m", tmp);
		return false;
	}
	fd = open(tmp, O_RDONLY);
	if (fd >= 0)
	{
		fsync(fd);
		close(fd);
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
	FILE	   *f = fopen(path, "a");

	if (f == NULL)
	{
		*error = psprintf("could not open \"%s\": %m", path);
		return false;
	}
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
	csv_number(f, r->snapshot.full_ns_median, "%.3f");
	csv_number(f, r->snapshot.full_ns_p90, "%.3f");
	csv_number(f, r->snapshot.reuse_ns_median, "%.3f");
	csv_number(f, r->snapshot.reuse_ns_p90, "%.3f");
	csv_number(f, r->snapshot.xcnt, "%.1f");
	csv_number(f, r->snapshot.procs, "%.1f");
	fprintf(f, ",%d", r->snapshot.probes);
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
 * Split one CSV line in place (RFC 4180 quoting, as results_append_run
 * writes it).  Returns the number of fields.
 */
int
csv_split(char *line, char **fields, int max_fields)
{
	int			n = 0;
	char	   *p = line;

	line[strcspn(line, "\r\n")] = '\0';
	while (n < max_fields)
	{
		char	   *out = p;	/* unquoting writes over the field in place */

		fields[n++] = p;
		if (*p == '"')
		{
			p++;
			while (*p)
			{
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
		}
		else
		{
			while (*p && *p != ',')
				out++, p++;
		}
		if (*p == ',')
		{
			*out = '\0';
			p++;
		}
		else
		{
			*out = '\0';
			break;
		}
	}
	return n;
}

/*
 * For --resume: which planned runs are already done (ok or failed).  Runs
 * recorded as interrupted are moved to interrupted.csv, so that after the
 * resumed experiment runs.csv holds each planned run exactly once.
 */
bool *
results_completed_runs(const char *dir, int nruns, int *ncompleted, char **error)
{
	char	   *path = psprintf("%s/runs.csv", dir);
	char	   *tmp = psprintf("%s/runs.csv.tmp", dir);
	char	   *ipath = psprintf("%s/interrupted.csv", dir);
	FILE	   *in = fopen(path, "r");
	FILE	   *out;
	FILE	   *interrupted = NULL;
	bool	   *done = pg_malloc0(sizeof(bool) * (nruns + 1));
	char		line[8192];
	bool		header = true;

	*ncompleted = 0;
	if (in == NULL)
	{
		*error = psprintf("could not open \"%s\": %m", path);
		return NULL;
	}
	out = fopen(tmp, "w");
	if (out == NULL)
	{
		*error = psprintf("could not write \"%s\": %m", tmp);
		fclose(in);
		return NULL;
	}
	while (fgets(line, sizeof(line), in))
	{
		char	   *copy = pg_strdup(line);
		char	   *fields[CSV_NCOLS];
		int			n;
		int			run_id;

		if (header)
		{
			fputs(line, out);
			header = false;
			continue;
		}
		n = csv_split(copy, fields, CSV_NCOLS);
		run_id = atoi(fields[CSV_RUN_ID]);
		if (n <= CSV_STATUS || run_id < 1 || run_id > nruns)
		{
			*error = psprintf("\"%s\" has a line that is not a run of this plan: %s", path, line);
			fclose(in);
			fclose(out);
			return NULL;
		}
		if (strcmp(fields[CSV_STATUS], "interrupted") == 0)
		{
			if (interrupted == NULL)
			{
				bool		exists = access(ipath, F_OK) == 0;

				interrupted = fopen(ipath, "a");
				if (interrupted && !exists)
					fprintf(interrupted, "%s\n", csv_columns);
			}
			if (interrupted)
				fputs(line, interrupted);
			continue;
		}
		if (!done[run_id])
		{
			done[run_id] = true;
			(*ncompleted)++;
		}
		fputs(line, out);
	}
	fclose(in);
	if (interrupted)
	{
		fflush(interrupted);
		fsync(fileno(interrupted));
		fclose(interrupted);
	}
	if (fflush(out) != 0 || fsync(fileno(out)) != 0 || fclose(out) != 0 || rename(tmp, path) != 0)
	{
		*error = psprintf("could not rewrite \"%s\": %m", path);
		return NULL;
	}
	return done;
}
