/*-------------------------------------------------------------------------
 *
 * farm_report.c
 *		"pgbench_ext report DIR1 DIR2 ...": one experiment run on several
 *		machines, each in its own results directory, compared with the
 *		machine as the top level of the nested verdict.
 *
 * Per cell, each directory's own verdict first (its unit: rounds on one
 * pair of servers, instance pairs across restarts, as "report DIR" gives
 * it), then the verdict across machines: per machine one summary, the mean
 * log ratio of its paired rounds over every directory it ran, and
 * Student's t across machines (stats_nested.c with STATS_UNIT_MACHINE_PAIR).
 * A machine is a fingerprint (farm_machine.c), so two directories of one
 * machine are one unit, never two.  The rounds of the k-th directory of a
 * machine are numbered k * 100000 + round, as SQL's farm_compare() numbers
 * those of its k-th imported experiment, so both give the same figures.
 *
 * The directories must hold one experiment: the same signature (the load)
 * and the same variants.  Nothing is written into them: the verdict goes
 * to the terminal.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "farm.h"
#include "report.h"

#include <math.h>

#include "common/logging.h"

/* The rounds of a machine's k-th directory start at k * FARM_ROUND_BLOCK. */
#define FARM_ROUND_BLOCK 100000

typedef struct FarmSide
{
	int			n;
	double	   *tps;
	int		   *round;
	int		   *unit;
} FarmSide;

/* Append the runs of sample s, of machine m's k-th directory, to side. */
static void
add_runs(FarmSide *side, const ReportSample *s, int machine, int k)
{
	side->tps = pg_realloc(side->tps, sizeof(double) * (side->n + s->n + 1));
	side->round = pg_realloc(side->round, sizeof(int) * (side->n + s->n + 1));
	side->unit = pg_realloc(side->unit, sizeof(int) * (side->n + s->n + 1));
	for (int i = 0; i < s->n; i++)
	{
		side->tps[side->n] = s->tps[i];
		side->round[side->n] = s->rounds[i] > 0 ? k * FARM_ROUND_BLOCK + s->rounds[i] : 0;
		side->unit[side->n++] = machine;
	}
}

/* One line: a comparison's figures and verdict. */
static void
print_comparison(const char *who, const StatsComparison *c)
{
	printf("  %-34s", escape_text(who, ESCAPE_TERMINAL));
	if (!c->has_estimate)
		printf("  -");
	else if (c->has_ci)
		printf("  %s [%s, %s]", report_pct(c->estimate), report_pct(c->ci_low), report_pct(c->ci_high));
	else
		printf("  %s", report_pct(c->estimate));
	printf("  %s  (%s)\n", report_verdict_text(c), report_comparison_n(c));
}

/*
 * Check that every directory holds the experiment of the first; a usage
 * error (exit 2) naming the one that differs otherwise.
 */
static void
check_one_experiment(ReportData **r, char **dirs, int n)
{
	char	   *signature = farm_signature(r[0]->experiment);

	for (int i = 1; i < n; i++)
	{
		bool		same = strcmp(farm_signature(r[i]->experiment), signature) == 0 &&
			r[i]->spec.nvariants == r[0]->spec.nvariants;

		for (int v = 0; same && v < r[0]->spec.nvariants; v++)
			same = strcmp(report_variant_name(r[i], v), report_variant_name(r[0], v)) == 0;
		if (!same)
		{
			log_errorf("%s holds another experiment than %s", dirs[i], dirs[0]);
			pg_log_error_detail("%s",
								escape_text(psprintf("Their loads (signatures %s and %s) or their variants (%s; %s) differ.",
													 signature, farm_signature(r[i]->experiment),
													 experiment_variant_names(&r[0]->spec),
													 experiment_variant_names(&r[i]->spec)),
											ESCAPE_TERMINAL_LINES));
			pg_log_error_hint("Machines are compared on one experiment file run on each of them.");
			exit(EXIT_USAGE);
		}
	}
}

/*
 * Each directory's machine: the index of its fingerprint among the
 * distinct ones in sorted order (as SQL's dense_rank numbers them) into
 * machine[], and its place among that machine's directories into k[].
 */
static int
number_machines(ReportData **r, int n, FarmMachine *m, int *machine, int *k)
{
	int			nmachines = 0;

	for (int i = 0; i < n; i++)
		m[i] = farm_machine_of(r[i]->experiment);
	for (int i = 0; i < n; i++)
	{
		bool		first = true;

		machine[i] = 1;
		k[i] = 1;
		for (int j = 0; j < n; j++)
		{
			int			cmp = strcmp(m[j].fingerprint, m[i].fingerprint);

			/* the distinct fingerprints below this one, each counted once */
			if (cmp < 0)
			{
				bool		seen = false;

				for (int l = 0; l < j && !seen; l++)
					seen = strcmp(m[l].fingerprint, m[j].fingerprint) == 0;
				machine[i] += !seen;
			}
			if (cmp == 0 && j < i)
			{
				k[i]++;
				first = false;
			}
		}
		nmachines += first;
	}
	return nmachines;
}

/* The verdict across machines of one cell of the first directory. */
static void
report_cell(ReportData **r, char **dirs, int n, const int *machine, const int *k,
			const ReportCell *c0)
{
	FarmSide	a = {0},
				b = {0};
	StatsComparison cmp;
	int			rc;

	printf("\n%s:\n", escape_text(report_cell_title(c0), ESCAPE_TERMINAL));
	for (int i = 0; i < n; i++)
	{
		const ReportCell *c = report_find_cell(r[i], c0->script, c0->clients, c0->name);

		if (c == NULL)
		{
			printf("  %-34s  -  (no such cell)\n", escape_text(dirs[i], ESCAPE_TERMINAL));
			continue;
		}
		print_comparison(psprintf("%s (machine %d)", dirs[i], machine[i]), &c->cmp);
		add_runs(&a, c->a, machine[i], k[i]);
		add_runs(&b, c->b, machine[i], k[i]);
	}
	rc = stats_compare_units(a.tps, a.round, a.unit, a.n, b.tps, b.round, b.unit, b.n,
							 STATS_UNIT_MACHINE_PAIR, &r[0]->opt, &cmp);
	if (rc != STATS_OK)
		printf("  across machines: %s\n", stats_strerror(rc));
	else
		print_comparison("across machines", &cmp);
}

int
farm_report(char **dirs, int n, const char *baseline)
{
	ReportData **r = pg_malloc(sizeof(ReportData *) * n);
	FarmMachine *m = pg_malloc(sizeof(FarmMachine) * n);
	int		   *machine = pg_malloc(sizeof(int) * n);
	int		   *k = pg_malloc(sizeof(int) * n);
	int			nmachines;

	for (int i = 0; i < n; i++)
	{
		char	   *error = NULL;

		if ((r[i] = report_load_cells(dirs[i], baseline, &error)) == NULL)
		{
			log_error_text(error);
			pg_log_error_hint("\"%s\" must be a results directory written by \"%s run\" or \"%s ab\".",
							  escape_text(dirs[i], ESCAPE_TERMINAL), progname, progname);
			exit(EXIT_USAGE);
		}
	}
	check_one_experiment(r, dirs, n);
	nmachines = number_machines(r, n, m, machine, k);
	printf("%d results directories of one experiment (signature %s) on %d machine%s:\n",
		   n, farm_signature(r[0]->experiment), nmachines, nmachines == 1 ? "" : "s");
	for (int i = 0; i < n; i++)
		printf("  machine %d: %s (\"%s\"): %s\n", machine[i], m[i].fingerprint, m[i].hostname,
			   escape_text(dirs[i], ESCAPE_TERMINAL));
	printf("\nEach variant against %s; each directory's own verdict, then the verdict\n"
		   "across machines (one summary per machine, a t test across them):\n",
		   escape_text(report_variant_name(r[0], r[0]->baseline), ESCAPE_TERMINAL));
	for (int c = 0; c < r[0]->ncells; c++)
		if (r[0]->cells[c].variant >= 0)
			report_cell(r, dirs, n, machine, k, &r[0]->cells[c]);
	if (nmachines < 2)
		printf("\nOne machine: the verdict across machines needs at least two.\n");
	return 0;
}
