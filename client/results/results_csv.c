/*-------------------------------------------------------------------------
 *
 * results_csv.c
 *		The CSV files of a results directory (runs.csv, instances.csv):
 *		writing a field as RFC 4180 quotes it, and reading a file back as
 *		data that may come from anyone.
 *
 * A reader gets every line checked: the header names the columns it
 * needs, every line has the header's number of fields and a line end,
 * quotes are closed, and the caller's check accepts the row; anything
 * else is an error naming the file and the line.  Columns are found by
 * name, so that a later version's extra columns shift nothing.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "results_csv.h"
#include "safe_read.h"

#include <limits.h>
#include <math.h>

void
results_csv_number(FILE *f, double v, const char *fmt)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, fmt, v);
}

void
results_csv_text(FILE *f, const char *s)
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

/*
 * Split one CSV line (its line end removed) in place, RFC 4180 quoting as
 * results_csv_text() writes it.  Returns the number of fields, at most
 * max_fields, or -1 for a quote out of place or never closed.
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

bool
results_parse_int(const char *s, long min, long *result)
{
	char	   *end;

	errno = 0;
	*result = strtol(s, &end, 10);
	return errno == 0 && end != s && *end == '\0' && *result >= min && *result <= INT_MAX;
}

/*
 * Whether the listed columns, where the file has them, hold numbers (an
 * empty field stands for none); *problem names the first that does not.
 */
bool
results_check_numbers(const RunsCsv *t, char **f, const char *const *columns, int n,
					  char **problem)
{
	for (int i = 0; i < n; i++)
	{
		int			c = runs_csv_column(t, columns[i]);
		char	   *end;
		double		v;

		if (c < 0 || f[c][0] == '\0')
			continue;
		v = strtod(f[c], &end);
		if (*end != '\0' || !isfinite(v))
			return fail_with(problem, "%s \"%s\" is not a number", columns[i], escape_text(f[c], ESCAPE_TERMINAL));
	}
	return true;
}

/* The header's names joined by commas. */
char *
results_csv_header(const RunsCsv *t)
{
	char	   *header = pg_strdup("");

	for (int i = 0; i < t->ncols; i++)
		header = psprintf("%s%s%s", header, i == 0 ? "" : ",", t->columns[i]);
	return header;
}

int
runs_csv_column(const RunsCsv *t, const char *name)
{
	for (int i = 0; i < t->ncols; i++)
		if (strcmp(t->columns[i], name) == 0)
			return i;
	return -1;
}

/*
 * Read the CSV file at path: its header must name the required columns,
 * and check(t, fields, arg, &problem) must accept every line.  NULL with
 * error (naming the file and line, and hint) otherwise.
 */
RunsCsv *
results_read_csv(const char *path, const char *const *required, int nrequired,
				 ResultsRowCheck check, const void *arg, const char *hint, char **error)
{
	RunsCsv    *t = pg_malloc0(sizeof(RunsCsv));
	FILE	   *f;
	char	   *line = NULL;
	size_t		cap = 0;
	ssize_t		len;
	int			lineno = 0;
	int			maxrows = 64;
	char	   *problem = NULL;

	t->path = pg_strdup(path);
	if ((f = safe_fopen_read(t->path, SAFE_MAX_CSV, error)) == NULL)
		return NULL;
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
			for (int i = 0; i < nrequired && problem == NULL; i++)
				if (runs_csv_column(t, required[i]) < 0)
				{
					char	   *all = pg_strdup("");

					for (int k = 0; k < nrequired; k++)
						all = psprintf("%s%s%s", all, k == 0 ? "" : k == nrequired - 1 ? " and " : ", ",
									   required[k]);
					problem = psprintf("the header has no column \"%s\" (it needs %s)", required[i], all);
				}
		}
		else if (t->nrows == RESULTS_CSV_MAX_ROWS)
			problem = psprintf("more than %d lines, more than an experiment records", RESULTS_CSV_MAX_ROWS);
		else if (n > t->ncols)
			problem = psprintf("more fields than the header's %d", t->ncols);
		else if (n < t->ncols)
			problem = psprintf("%d fields, but the header has %d", n, t->ncols);
		else if (check(t, fields, arg, &problem))
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
			? psprintf("\"%s\" line %d: %s\nhint: %s", t->path, lineno, problem, hint)
			: psprintf("\"%s\": %s", t->path, problem);
		return NULL;
	}
	return t;
}
