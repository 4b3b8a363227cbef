/*-------------------------------------------------------------------------
 *
 * report_metrics_write.c
 *		The section of report.md and report.html on the server's counters
 *		per transaction: for each comparison what moved, largest change
 *		first, and what did not, collapsed under it.
 *
 * A writer: every row, its medians, CI, q and verdict are the ones
 * report_metrics.c computed into the cells.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

static char *
fmt_value(double v)
{
	if (v >= 1000)
		return psprintf("%.0f", v);
	if (v >= 10)
		return psprintf("%.1f", v);
	return psprintf("%.3g", v);
}

static void
metric_row(Doc *d, const ReportMetricRow *row)
{
	const char *cells[8];

	cells[0] = row->label;
	cells[1] = row->n_a > 0 ? fmt_value(row->median_a) : "-";
	cells[2] = row->n_b > 0 ? fmt_value(row->median_b) : "-";
	report_comparison_cells(&row->cmp, row->has, &cells[3]);
	/* q in the place of p: the verdict is Benjamini-Hochberg's */
	cells[5] = row->has && row->cmp.has_p ? psprintf("%.3g", row->q) : "-";
	cells[7] = !row->has ? "insufficient" : row->moved ? (row->cmp.estimate > 1 ? "more" : "less") : "~";
	doc_table_row_marked(d, cells, 7, row->moved ? "#222" : NULL);
}

void
report_metrics_section(const ReportData *r, Doc *d)
{
	doc_heading(d, 2, "Server counters per transaction");
	doc_para(d, "Each counter per transaction of the counted runs, B against A on the unit of the "
			 "comparison's verdict (n) with its statistics; q: p adjusted by Benjamini-Hochberg "
			 "across the counters of the comparison. more or less: q < %g and the whole CI beyond "
			 "±%g%%; ~: not so. What moved comes first; the rest is folded under it.",
			 r->opt.alpha, 100 * r->opt.noise);
	for (int v = 0; v < r->spec.nvariants; v++)
		if (!r->spec.variants[v].extension)
			doc_para(d, "Variant %s ran without the extension: it has no server counters.",
					 report_variant_name(r, v));
	if (!r->any_counters)
		doc_para(d, "No run has counters from pgbench_ext.counters() (runs/NNNN.json); "
				 "shown are the figures from runs.csv.");
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		const char *hdr[] = {"metric (median of runs)", c->base_name, c->name, "B/A", "CI", "q",
		"n", "verdict"};
		int			nrows = c->nmetrics,
					moved = c->nmetrics_moved;
		const ReportMetricRow *rows = c->metrics;

		if (c->variant < 0)
			continue;
		doc_heading(d, 3, psprintf("%s: %d of %d counters moved", report_cell_title(c), moved, nrows));
		if (moved == 0)
			doc_para(d, "No counter moved.");
		else
		{
			doc_table_begin(d, lengthof(hdr), hdr);
			for (int k = 0; k < moved; k++)
				metric_row(d, &rows[k]);
			doc_table_end(d);
		}
		if (moved < nrows)
		{
			doc_details_begin(d, psprintf("%d counters that did not move", nrows - moved));
			doc_table_begin(d, lengthof(hdr), hdr);
			for (int k = moved; k < nrows; k++)
				metric_row(d, &rows[k]);
			doc_table_end(d);
			doc_details_end(d);
		}
	}
}
