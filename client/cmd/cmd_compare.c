/*-------------------------------------------------------------------------
 *
 * cmd_compare.c
 *		"pgbench_ext compare DIR_A DIR_B": the same cells of two
 *		experiments side by side, e.g. a --rerun of someone's experiment
 *		against the original; its options are report's (cmd_report.c).
 *
 * Both results directories are read as data, as report reads one.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"
#include "commands.h"
#include "report.h"
#include "results.h"

#include <getopt.h>
#include <math.h>

#include "common/logging.h"

static void
compare_usage(void)
{
	printf("%s compare: did a variant, or an effect, change between two experiments?\n\n", progname);
	printf("It puts the same cells of two experiments side by side: each variant of\n"
		   "DIR_B against the same variant of DIR_A, and each experiment's effect\n"
		   "(variant against its baseline) in both, with whether the two agree.\n\n");
	printf("Usage:\n  %s compare [OPTION]... DIR_A DIR_B\n\n", progname);
	printf("Options:\n");
	printf("  --baseline NAME   the baseline variant in both (default: each one's first)\n");
	printf("  -?, --help        show this help, then exit\n");
}

/* The experiment's answer for cell c: its estimate, CI and n. */
static char *
effect_text(const ReportData *r, const ReportCell *c)
{
	const StatsComparison *cmp = report_cell_answer(r, c);

	if (cmp == NULL || !cmp->has_estimate)
		return "-";
	return psprintf("%s (%s)", report_answer_figures(cmp), report_comparison_n(cmp));
}

/*
 * The geometric mean tps of each instance of a sample's server, into
 * means; returns how many.  Two experiments share no server start, so
 * across them an instance is one sample, never a run.
 */
static int
instance_means(const ReportSample *s, double *means)
{
	int			k = 0;
	bool	   *done = pg_malloc0(sizeof(bool) * (s->n + 1));

	for (int i = 0; i < s->n; i++)
	{
		double		sum = 0;
		int			n = 0;

		if (done[i])
			continue;
		for (int j = i; j < s->n; j++)
			if (s->instances[j] == s->instances[i])
			{
				sum += log(s->tps[j]);
				n++;
				done[j] = true;
			}
		means[k++] = exp(sum / n);
	}
	pfree(done);
	return k;
}

/* Same variant, same cell, two experiments: did the machine or build move? */
static int
print_same_variant(const ReportData *a, const ReportData *b, FILE *out)
{
	static const char *const hdr[] = {"script", "clients", "variant", "tps in A", "tps in B",
	"B/A", "CI", "p", "n", "verdict"};
	TextTable  *t = table_create(lengthof(hdr), hdr);
	int			rows = 0;

	for (int s = 0; s < a->spec.nscripts; s++)
		for (int c = 0; c < a->spec.nclients; c++)
			for (int v = 0; v < a->spec.nvariants; v++)
			{
				int			sb = report_script_index(b, a->spec.scripts[s]);
				int			cb = report_clients_index(b, a->spec.clients[c]);
				int			vb = report_variant_index(b, report_variant_name(a, v));
				ReportSample *x,
						   *y;
				StatsComparison cmp;
				const char *cells[lengthof(hdr)];
				bool		ok,
							by_instance;
				double	   *mx,
						   *my;
				int			kx,
							ky;

				if (sb < 0 || cb < 0 || vb < 0)
					continue;
				x = report_sample(a, s, c, v);
				y = report_sample(b, sb, cb, vb);
				mx = pg_malloc(sizeof(double) * (x->n + 1));
				my = pg_malloc(sizeof(double) * (y->n + 1));
				kx = instance_means(x, mx);
				ky = instance_means(y, my);
				/* restarted in both: instances are the samples, else the runs */
				by_instance = kx >= 2 && ky >= 2;
				ok = (by_instance ? stats_compare(mx, kx, my, ky, &a->opt, &cmp)
					  : stats_compare(x->tps, x->n, y->tps, y->n, &a->opt, &cmp)) == STATS_OK;
				cells[0] = a->spec.scripts[s];
				cells[1] = psprintf("%d", a->spec.clients[c]);
				cells[2] = report_variant_name(a, v);
				cells[3] = report_median_pm(x);
				cells[4] = report_median_pm(y);
				report_comparison_cells(&cmp, ok, &cells[5]);
				cells[8] = by_instance ? psprintf("%d+%d instances", kx, ky)
					: psprintf("%d+%d runs", x->n, y->n);
				cells[9] = ok ? report_verdict_text(&cmp) : "-";
				table_add_row(t, cells);
				rows++;
			}
	if (rows > 0)
	{
		fprintf(out, "\nthe same variant in both experiments (A = %s, B = %s):\n",
				escape_text(a->dir, ESCAPE_TERMINAL), escape_text(b->dir, ESCAPE_TERMINAL));
		table_print(t, out);
		fprintf(out, "n: the server starts of each (the mean of each instance is one sample) when both restarted their servers, else all runs\n");
	}
	table_free(t);
	return rows;
}

/* Each experiment's own effect, side by side: is it reproduced? */
static int
print_effects(const ReportData *a, const ReportData *b, FILE *out)
{
	static const char *const hdr[] = {"script", "clients", "variant", "effect in A",
	"verdict in A", "effect in B", "verdict in B", "CIs"};
	TextTable  *t = table_create(lengthof(hdr), hdr);
	int			rows = 0;

	for (int i = 0; i < a->ncells; i++)
	{
		const ReportCell *x = &a->cells[i];
		const ReportCell *y = report_find_cell(b, x->script, x->clients, x->name);
		const char *cells[lengthof(hdr)];
		const StatsComparison *ex,
				   *ey;

		if (y == NULL)
			continue;
		/* each experiment's answer: under rounds = auto its deciding look */
		ex = report_cell_answer(a, x);
		ey = report_cell_answer(b, y);
		cells[0] = x->script;
		cells[1] = psprintf("%d", x->clients);
		cells[2] = psprintf("%s vs %s", x->name, x->base_name);
		cells[3] = effect_text(a, x);
		cells[4] = report_cell_verdict(a, x);
		cells[5] = effect_text(b, y);
		cells[6] = report_cell_verdict(b, y);
		cells[7] = ex == NULL || ey == NULL || !ex->has_ci || !ey->has_ci ? "-" :
			(ex->ci_low <= ey->ci_high && ey->ci_low <= ex->ci_high) ? "overlap" : "disjoint";
		table_add_row(t, cells);
		rows++;
	}
	if (rows > 0)
	{
		fprintf(out, "\neach experiment's effect against its baseline:\n");
		table_print(t, out);
	}
	table_free(t);
	return rows;
}

int
cmd_compare(int argc, char **argv)
{
	const char *baseline = report_parse_options(argc, argv, "compare", compare_usage);
	char	   *error = NULL;
	ReportData *a,
			   *b;

	if (argc - optind != 2)
		usage_error("compare", "two results directories are needed, DIR_A and DIR_B; %d given",
					argc - optind);
	if ((a = report_load(argv[optind], baseline, &error)) == NULL ||
		(b = report_load(argv[optind + 1], baseline, &error)) == NULL)
		return log_error_status(error, EXIT_USAGE);
	if (print_same_variant(a, b, stdout) + print_effects(a, b, stdout) == 0)
	{
		log_errorf("the two experiments have no cell in common");
		pg_log_error_detail("A cell is a script, a client count and a variant name found in both.");
		return EXIT_RUNTIME_ERROR;
	}
	return 0;
}
