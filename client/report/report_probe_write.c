/*-------------------------------------------------------------------------
 *
 * report_probe_write.c
 *		The snapshot probe in the outputs: its rows under the terminal's
 *		verdict table, its section of report.md and report.html, and its
 *		part of summary.json.
 *
 * A writer: the rows, their medians and comparisons, and what the probes
 * saw, are the ones report_probe.c computed.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "snapshot_probe.h"

#include <math.h>

static char *
ns_text(double ns)
{
	return isfinite(ns) ? psprintf("%.1f", ns) : pg_strdup("-");
}

/*
 * "GetSnapshotData, full (median of each run's probes), under the run's
 * load: 51.2 -> 44.0 ns (-14.10%, CI [...], p 0.0312, 6 rounds), faster"
 */
static char *
probe_sentence(const ReportData *r, const ReportProbeRow *row)
{
	const char *cells[4];

	report_comparison_cells(&row->cmp, row->has_comparison, cells);
	return psprintf("GetSnapshotData, %s (%s of each run's probes), under the run's load: "
					"%s → %s ns (%s, CI %s, p %s, %s), %s",
					row->mode, row->statistic, ns_text(row->median_a), ns_text(row->median_b),
					cells[0], cells[1], cells[2], cells[3],
					row->has_comparison ? report_verdict_text(&row->cmp) : "-");
}

void
report_probe_print(const ReportData *r, FILE *out)
{
	const ReportCell *shown = NULL;

	if (r->nprobe_rows == 0)
		return;
	fprintf(out, "\nsnapshot probe: ns per GetSnapshotData() call, lower is better\n");
	for (int i = 0; i < r->nprobe_rows; i++)
	{
		const ReportProbeRow *row = &r->probe_rows[i];

		if (row->cell != shown)
			fprintf(out, "%s\n", report_cell_title(row->cell));
		shown = row->cell;
		fprintf(out, "  %s\n", probe_sentence(r, row));
	}
}

/* What the probes saw, per variant and cell: medians over the counted runs. */
static void
probe_context_table(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"script", "clients", "variant", "runs probed",
	"xcnt", "backends", "probes per run", "in flight"};

	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->nprobe_context; i++)
	{
		const ReportProbeContext *x = &r->probe_context[i];
		const char *cells[lengthof(hdr)];

		cells[0] = x->script;
		cells[1] = psprintf("%d", x->clients);
		cells[2] = report_variant_name(r, x->variant);
		cells[3] = psprintf("%d of %d", x->probed, x->runs);
		cells[4] = isfinite(x->xcnt) ? psprintf("%.1f", x->xcnt) : "-";
		cells[5] = isfinite(x->procs) ? psprintf("%.0f", x->procs) : "-";
		cells[6] = psprintf("%.0f", x->probes);
		cells[7] = isfinite(x->duty) ? psprintf("%.2f%%", 100 * x->duty) : "-";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
}

void
report_probe_section(const ReportData *r, Doc *d)
{
	static const char *const hdr[] = {"script", "clients", "variant", "figure",
	"baseline ns", "ns", "B/A", "CI", "p", "n", "verdict", "why"};
	const ReportCell *shown = NULL;

	if (r->nprobe_rows == 0)
		return;
	doc_heading(d, 2, "GetSnapshotData under the run's load");
	doc_para(d, "During every run a session of the runner's own timed %d calls of "
			 "GetSnapshotData() (pgbench_ext.snapshot_bench), in 'full' mode (a proc-array "
			 "scan every call) and 'reuse' mode (the cached path, which commits invalidate) "
			 "in turn, with a pause of %d ms after each probe. Each run gives the median and "
			 "the p90 of its probes per mode; B is compared with A on those figures with the "
			 "statistics of the tps verdict (lower is better).",
			 SNAPSHOT_PROBE_CALLS, r->spec.snapshot_probe_interval_ms);
	for (int i = 0; i < r->nprobe_rows; i++)
	{
		if (r->probe_rows[i].cell != shown)
			doc_para(d, "%s:", report_cell_title(r->probe_rows[i].cell));
		shown = r->probe_rows[i].cell;
		doc_para(d, "%s", probe_sentence(r, &r->probe_rows[i]));
	}
	doc_table_begin(d, lengthof(hdr), hdr);
	for (int i = 0; i < r->nprobe_rows; i++)
	{
		const ReportProbeRow *row = &r->probe_rows[i];
		const char *cells[lengthof(hdr)];

		cells[0] = row->cell->script;
		cells[1] = psprintf("%d", row->cell->clients);
		cells[2] = report_variant_name(r, row->cell->variant);
		cells[3] = psprintf("%s, %s", row->mode, row->statistic);
		cells[4] = ns_text(row->median_a);
		cells[5] = ns_text(row->median_b);
		report_comparison_cells(&row->cmp, row->has_comparison, &cells[6]);
		cells[10] = row->has_comparison ? report_verdict_text(&row->cmp) : "-";
		cells[11] = row->has_comparison ? row->cmp.reason : "";
		doc_table_row(d, cells);
	}
	doc_table_end(d);
	doc_para(d, "What the probes saw (medians over the counted runs): xcnt of the last snapshot "
			 "of a probe, backends in the proc array, and the share of the probing window "
			 "during which a probe was in flight.");
	probe_context_table(r, d);
}

static json_t *
median_json(int n, double median)
{
	return json_pack("{s:i, s:o}", "n", n, "median", isfinite(median) ? json_real(median) : json_null());
}

json_t *
report_probe_json(const ReportData *r)
{
	json_t	   *rows = json_array();

	for (int i = 0; i < r->nprobe_rows; i++)
	{
		const ReportProbeRow *row = &r->probe_rows[i];

		json_array_append_new(rows,
							  json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:b, s:o, s:o, s:o, s:s}",
										"script", row->cell->script,
										"clients", row->cell->clients,
										"baseline", row->cell->base_name,
										"variant", report_variant_name(r, row->cell->variant),
										"mode", row->mode,
										"statistic", row->statistic,
										"unit", "ns per call",
										"higher_is_better", false,
										"a", median_json(row->n_a, row->median_a),
										"b", median_json(row->n_b, row->median_b),
										"comparison", report_comparison_json(&row->cmp, row->has_comparison, row->cell->unit),
										"sentence", probe_sentence(r, row)));
	}
	return rows;
}
