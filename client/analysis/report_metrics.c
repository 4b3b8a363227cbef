/*-------------------------------------------------------------------------
 *
 * report_metrics.c
 *		The server's counters per transaction, judged like tps: for each
 *		comparison every counter of its runs (CPU, context switches,
 *		buffer hits and reads, WAL, latency and its percentiles, the
 *		counters() figures and wait samples) compared on the comparison's
 *		own unit with the same statistics, with its CI and a verdict.
 *
 * A comparison has dozens of counters, and some would "move" by chance at
 * any alpha: the verdict of a counter is Benjamini-Hochberg's across the
 * counters of its comparison (q < alpha and the whole CI beyond the noise
 * threshold, stats_fdr_discovery()), as the profiles' functions are.  The
 * rows of each comparison are stored in its cell, what moved first,
 * largest change first; report_metrics_write.c writes them.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

#include <math.h>

/* A counter of a run: a runs.csv column, a counters() figure, or waits. */
typedef enum MetricKind
{
	METRIC_LATENCY,
	METRIC_CSV,
	METRIC_COUNTER,
	METRIC_WAIT
} MetricKind;

typedef struct Metric
{
	MetricKind	kind;
	char	   *label;
	size_t		offset;			/* METRIC_CSV: of a double in ReportRun */
	bool		per_tx;			/* METRIC_CSV: divide by transactions */
	char	   *scope;			/* METRIC_COUNTER: scope and metric; */
	char	   *name;			/* METRIC_WAIT: wait event type and event */
} Metric;

/* Latencies and percentiles of counters() are per statement already. */
static bool
metric_is_raw(const char *name)
{
	return strstr(name, "_ms") != NULL || strstr(name, "_us_avg") != NULL;
}

/* "LWLock:WALWrite": a wait event of runs/NNNN.json's wait_profile */
static char *
wait_key(json_t *w)
{
	return psprintf("%s:%s", report_json_str(w, "wait_event_type", ""),
					report_json_str(w, "wait_event", ""));
}

static double
counter_of_run(const Metric *m, const ReportRun *run)
{
	double		v = NAN;
	json_t	   *j;

	switch (m->kind)
	{
		case METRIC_LATENCY:
			return run->latency_avg_ms;
		case METRIC_CSV:
			v = *(const double *) ((const char *) run + m->offset);
			return m->per_tx ? (run->transactions > 0 ? v / run->transactions : NAN) : v;
		case METRIC_COUNTER:
			j = json_object_get(json_object_get(json_object_get(run->detail, "counters"), m->scope), m->name);
			if (!json_is_number(j))
				return NAN;
			v = json_number_value(j);
			if (metric_is_raw(m->name))
				return v;
			return run->transactions > 0 ? v / run->transactions : NAN;
		case METRIC_WAIT:
			{
				size_t		i;
				json_t	   *w;
				double		sum = 0;
				bool		found = false;

				json_array_foreach(json_object_get(run->detail, "wait_profile"), i, w)
				{
					if (strcmp(wait_key(w), m->name) == 0)
						sum += json_number_value(json_object_get(w, "samples")), found = true;
				}
				return found && run->transactions > 0 ? sum / run->transactions : NAN;
			}
	}
	return NAN;
}

static int
add_metric(Metric *ms, int n, int max, Metric m)
{
	for (int i = 0; i < n; i++)
		if (ms[i].kind == m.kind && strcmp(ms[i].label, m.label) == 0)
			return n;
	if (n < max)
		ms[n++] = m;
	return n;
}

#define MAX_METRICS 64

/* Every metric at least one counted run has, in a stable order. */
static int
collect_metrics(const ReportData *r, Metric *ms)
{
	static const struct
	{
		const char *label;
		size_t		offset;
		bool		per_tx;
	}			csv[] = {
		{"CPU user µs/tx", offsetof(ReportRun, cpu_user_us_per_tx), false},
		{"CPU system µs/tx", offsetof(ReportRun, cpu_sys_us_per_tx), false},
		{"voluntary switches/tx", offsetof(ReportRun, voluntary_per_tx), false},
		{"involuntary switches/tx", offsetof(ReportRun, involuntary_per_tx), false},
		{"buffer hits/tx", offsetof(ReportRun, blks_hit), true},
		{"buffer reads/tx", offsetof(ReportRun, blks_read), true},
		{"WAL bytes/tx", offsetof(ReportRun, wal_bytes), true},
	};
	int			n = 0;

	n = add_metric(ms, n, MAX_METRICS, (Metric) {METRIC_LATENCY, "latency average ms"});
	for (int i = 0; i < lengthof(csv); i++)
	{
		Metric		m = {METRIC_CSV, (char *) csv[i].label, csv[i].offset, csv[i].per_tx};

		for (int k = 0; k < r->nruns; k++)
			if (report_run_counted(&r->runs[k]) && isfinite(counter_of_run(&m, &r->runs[k])))
			{
				n = add_metric(ms, n, MAX_METRICS, m);
				break;
			}
	}
	for (int k = 0; k < r->nruns; k++)
	{
		const char *scope;
		json_t	   *group;
		size_t		i;
		json_t	   *w;

		if (!report_run_counted(&r->runs[k]) || r->runs[k].detail == NULL)
			continue;
		json_object_foreach(json_object_get(r->runs[k].detail, "counters"), scope, group)
		{
			const char *name;
			json_t	   *val;

			/* bookkeeping (when the counters were reset), not a measurement */
			if (strcmp(scope, "meta") == 0)
				continue;

			json_object_foreach(group, name, val)
			{
				bool		raw = metric_is_raw(name);
				Metric		m = {METRIC_COUNTER,
					psprintf("%s %s%s", scope, name, raw ? "" : "/tx"), 0, true,
				pg_strdup(scope), pg_strdup(name)};

				n = add_metric(ms, n, MAX_METRICS, m);
			}
		}
		json_array_foreach(json_object_get(r->runs[k].detail, "wait_profile"), i, w)
		{
			char	   *key = wait_key(w);
			Metric		m = {METRIC_WAIT, psprintf("wait samples/tx %s", key), 0, true, NULL, key};

			if (i < 10)
				n = add_metric(ms, n, MAX_METRICS, m);
		}
	}
	return n;
}

/* One counter of one comparison while it is compared: its samples and the row kept. */
typedef struct MetricRow
{
	const Metric *metric;
	ReportSample a;				/* the counter of each side's counted runs */
	ReportSample b;
	ReportMetricRow row;
} MetricRow;

/* The counter of each run of a cell's side, in the side's order, and its sample. */
static void
metric_sample(const ReportData *r, const ReportSample *side, const Metric *m, ReportSample *out)
{
	double	   *x = pg_malloc(sizeof(double) * (side->n + 1));

	for (int i = 0; i < side->n; i++)
		x[i] = counter_of_run(m, &r->runs[side->run_index[i]]);
	report_figure_sample(side, x, out);
	pg_free(x);
}

/* Moved first, larger changes first; then the rest in the metrics' order. */
static int
row_order(const void *x, const void *y)
{
	const MetricRow *a = x;
	const MetricRow *b = y;
	double		da = a->row.moved ? fabs(log(a->row.cmp.estimate)) : -1;
	double		db = b->row.moved ? fabs(log(b->row.cmp.estimate)) : -1;

	if (da != db)
		return da > db ? -1 : 1;
	return a->metric < b->metric ? -1 : a->metric > b->metric;
}

/* Every counter of cell c compared, adjusted and sorted; *nrows of them. */
static MetricRow *
compare_metrics(const ReportData *r, const ReportCell *c, const Metric *ms, int nm, int *nrows)
{
	MetricRow  *rows = pg_malloc0(sizeof(MetricRow) * (nm + 1));
	double	   *p = pg_malloc(sizeof(double) * (nm + 1));
	int			n = 0;

	for (int m = 0; m < nm; m++)
	{
		MetricRow  *row = &rows[n];

		row->metric = &ms[m];
		metric_sample(r, c->a, &ms[m], &row->a);
		metric_sample(r, c->b, &ms[m], &row->b);
		/* a command type the load never ran is noise in the table */
		if (row->a.n == 0 && row->b.n == 0)
		{
			report_free_figure_sample(&row->a);
			report_free_figure_sample(&row->b);
			continue;
		}
		row->row.has = row->a.n > 0 && row->b.n > 0 &&
			report_compare_samples(r, c, &row->a, &row->b, false, &row->row.cmp);
		p[n] = row->row.has && row->row.cmp.has_p ? row->row.cmp.p_value : 1.0;
		n++;
	}
	if (n > 0 && stats_bh_adjust(p, n, p) == STATS_OK)
		for (int i = 0; i < n; i++)
		{
			rows[i].row.q = p[i];
			rows[i].row.moved = rows[i].row.has &&
				stats_fdr_discovery(&rows[i].row.cmp, p[i], &r->opt);
		}
	pfree(p);
	qsort(rows, n, sizeof(MetricRow), row_order);
	*nrows = n;
	return rows;
}

/*
 * Every counter of every comparison (but the pooled rows of build seeds),
 * compared once into its cell for the section report_metrics_write.c
 * writes; whether any run has counters of the extension at all.
 */
void
report_metrics_load(ReportData *r)
{
	Metric	   *ms = pg_malloc(sizeof(Metric) * MAX_METRICS);
	int			nm = collect_metrics(r, ms);

	for (int i = 0; i < nm; i++)
		if (ms[i].kind == METRIC_COUNTER || ms[i].kind == METRIC_WAIT)
			r->any_counters = true;
	for (int i = 0; i < r->ncells; i++)
	{
		ReportCell *c = &r->cells[i];
		int			nrows;
		MetricRow  *rows;

		if (c->variant < 0)
			continue;
		rows = compare_metrics(r, c, ms, nm, &nrows);
		c->metrics = pg_malloc0(sizeof(ReportMetricRow) * (nrows + 1));
		c->nmetrics = nrows;
		for (int k = 0; k < nrows; k++)
		{
			ReportMetricRow *m = &c->metrics[k];

			*m = rows[k].row;
			m->label = rows[k].metric->label;
			m->n_a = rows[k].a.n;
			m->n_b = rows[k].b.n;
			m->median_a = m->n_a > 0 ? report_median(rows[k].a.tps, m->n_a) : NAN;
			m->median_b = m->n_b > 0 ? report_median(rows[k].b.tps, m->n_b) : NAN;
			if (m->moved)
				c->nmetrics_moved++;
			report_free_figure_sample(&rows[k].a);
			report_free_figure_sample(&rows[k].b);
		}
		pfree(rows);
	}
}
