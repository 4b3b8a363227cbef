/*-------------------------------------------------------------------------
 *
 * summary.c
 *		Read a results directory back and print, per cell (script,
 *		clients), each variant against the first one: medians with their
 *		CIs, the Hodges–Lehmann ratio with its CI, the Mann–Whitney p-value
 *		and the verdict — with the statistics of common/, the same code the
 *		extension's compare() runs.
 *
 * Only runs with status ok outside warmup rounds count; the others are
 * listed in the warnings, as are runs with a checkpoint or autovacuum
 * inside them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "layout_seeds.h"
#include "results.h"
#include "stats.h"
#include "summary.h"

#include <math.h>

#include "common/logging.h"

#define MAX_RUNS_READ 100000

typedef struct RunRow
{
	char	   *variant;
	char	   *script;
	int			clients;
	bool		warmup;
	double		tps;
	bool		ok;
	int			checkpoints;
	int			autovacuums;
} RunRow;

static int
read_runs(const char *dir, RunRow **rows_out)
{
	char	   *path = psprintf("%s/runs.csv", dir);
	FILE	   *f = fopen(path, "r");
	char		line[8192];
	RunRow	   *rows = pg_malloc0(sizeof(RunRow) * 1024);
	int			cap = 1024;
	int			n = 0;
	bool		header = true;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f) && n < MAX_RUNS_READ)
	{
		char	   *fields[32];
		int			nf;

		if (header)
		{
			header = false;
			continue;
		}
		nf = csv_split(line, fields, 32);
		if (nf < 18)
			continue;
		if (n == cap)
		{
			cap *= 2;
			rows = pg_realloc(rows, sizeof(RunRow) * cap);
		}
		rows[n].variant = pg_strdup(fields[2]);
		rows[n].script = pg_strdup(fields[3]);
		rows[n].clients = atoi(fields[4]);
		rows[n].warmup = strcmp(fields[6], "true") == 0;
		rows[n].tps = *fields[10] ? atof(fields[10]) : NAN;
		rows[n].ok = strcmp(fields[15], "ok") == 0;
		rows[n].checkpoints = atoi(fields[16]);
		rows[n].autovacuums = atoi(fields[17]);
		n++;
	}
	fclose(f);
	*rows_out = rows;
	return n;
}

static int
collect(const RunRow *rows, int nrows, const char *variant, const char *script,
		int clients, double *out)
{
	int			n = 0;

	for (int i = 0; i < nrows; i++)
		if (rows[i].ok && !rows[i].warmup && rows[i].clients == clients &&
			layout_seed_matches(variant, rows[i].variant) && strcmp(rows[i].script, script) == 0 &&
			!isnan(rows[i].tps))
			out[n++] = rows[i].tps;
	return n;
}

static char *
median_cell(const double *x, int n)
{
	StatsSummary s;

	if (n == 0 || stats_summarize(x, n, 0.95, &s) != 0)
		return pg_strdup("-");
	if (!s.has_median_ci)
		return psprintf("%.0f", s.median);
	return psprintf("%.0f ±%.1f%%", s.median,
					100.0 * Max(s.median_ci_high - s.median, s.median - s.median_ci_low) / s.median);
}

int
summary_print(const char *dir, FILE *out)
{
	static const char *const headers[] = {"script", "clients", "A", "median tps A", "B",
	"median tps B", "B/A", "95% CI", "p", "n", "verdict"};
	char	   *error;
	json_t	   *doc = results_read_json(dir, "experiment.json", &error);
	ExperimentSpec spec;
	RunRow	   *rows;
	int			nrows;
	TextTable  *table;
	StatsOptions opt;
	int			not_ok = 0,
				disturbed = 0;
	double	   *a,
			   *b;
	char	   *pooled[MAX_VARIANTS];
	int			npooled;
	double		change[MAX_VARIANTS];
	char	   *conflicts = "";

	if (doc == NULL || !experiment_from_json(&spec, json_object_get(doc, "spec"), &error))
	{
		pg_log_error("%s", error);
		return EXIT_RUNTIME_ERROR;
	}
	if ((nrows = read_runs(dir, &rows)) < 0)
	{
		pg_log_error("could not read \"%s/runs.csv\": %m", dir);
		return EXIT_RUNTIME_ERROR;
	}
	a = pg_malloc(sizeof(double) * (nrows + 1));
	b = pg_malloc(sizeof(double) * (nrows + 1));
	stats_default_options(&opt);
	npooled = layout_seed_pooled(&spec, pooled);

	table = table_create(lengthof(headers), headers);
	for (int s = 0; s < spec.nscripts; s++)
		for (int c = 0; c < spec.nclients; c++)
			/* per variant (per seed), then pooled over seeds against pooled[0] */
			for (int v = 1; v < spec.nvariants + Max(npooled - 1, 0); v++)
			{
				int			bi = v < spec.nvariants ? layout_seed_baseline(&spec, v) : 0;
				const char *base;
				const char *other;
				int			na,
							nb;
				StatsComparison cmp;
				const char *cells[lengthof(headers)];

				if (v < spec.nvariants)
					change[v] = NAN;
				if (bi < 0)
					continue;
				base = v < spec.nvariants ? spec.variants[bi].name : pooled[0];
				other = v < spec.nvariants ? spec.variants[v].name : pooled[v - spec.nvariants + 1];
				na = collect(rows, nrows, base, spec.scripts[s], spec.clients[c], a);
				nb = collect(rows, nrows, other, spec.scripts[s], spec.clients[c], b);
				stats_compare(a, na, b, nb, &opt, &cmp);
				if (v < spec.nvariants)
					change[v] = cmp.has_estimate ? cmp.change_pct : NAN;
				else
				{
					/* do the seeds of this pooled variant agree on the direction? */
					int			up = 0,
								down = 0;

					for (int k = 1; k < spec.nvariants; k++)
						if (layout_seed_matches(other, spec.variants[k].name) && !isnan(change[k]))
						{
							up += change[k] > 0;
							down += change[k] < 0;
						}
					if (up > 0 && down > 0)
						conflicts = psprintf("%swarning: layout seeds disagree in sign for %s vs %s (%s, %d clients): %d faster, %d slower; the change is within code-layout noise\n",
											 conflicts, other, base, spec.scripts[s], spec.clients[c], up, down);
				}
				cells[0] = spec.scripts[s];
				cells[1] = psprintf("%d", spec.clients[c]);
				cells[2] = base;
				cells[3] = median_cell(a, na);
				cells[4] = other;
				cells[5] = median_cell(b, nb);
				cells[6] = cmp.has_estimate ? psprintf("%+.2f%%", cmp.change_pct) : "-";
				cells[7] = cmp.has_ci ? psprintf("[%+.2f%%, %+.2f%%]", 100 * (cmp.ci_low - 1), 100 * (cmp.ci_high - 1)) : "-";
				cells[8] = cmp.has_p ? psprintf("%.3g", cmp.p_value) : "-";
				cells[9] = psprintf("%d+%d", na, nb);
				cells[10] = cmp.verdict == STATS_NO_CHANGE && cmp.has_mde
					? psprintf("no change (MDE %.1f%%)", cmp.mde_pct)
					: stats_verdict_name(cmp.verdict);
				table_add_row(table, cells);
			}
	fprintf(out, "\n");
	table_print(table, out);
	table_free(table);

	for (int i = 0; i < nrows; i++)
	{
		if (!rows[i].ok)
			not_ok++;
		else if (rows[i].checkpoints > 0 || rows[i].autovacuums > 0)
			disturbed++;
	}
	fputs(conflicts, out);
	if (not_ok > 0)
		fprintf(out, "warning: %d run(s) did not complete and are not counted (see runs.csv, status and reason)\n", not_ok);
	if (disturbed > 0)
		fprintf(out, "warning: %d run(s) had a checkpoint or autovacuum inside them (columns checkpoints_during, autovacuum_during)\n", disturbed);
	json_decref(doc);
	return 0;
}
