/*-------------------------------------------------------------------------
 *
 * report.h
 *		The analysis of one results directory, and everything drawn from it:
 *		the terminal table, report.md, report.html, plots and exports.
 *
 * report_data.c reads experiment.json, runs.csv and runs/NNNN.* back and
 * computes every figure once (ReportData); the writers only format it, so
 * the terminal, the Markdown, the HTML, summary.json and benchstat.txt can
 * never disagree.  Nothing here talks to a server: a results directory
 * alone is enough to re-render a report anywhere.
 *
 *   report_data.c      load and compute (cells, geomean, noise, warnings)
 *   report_env.c       differences between variants' environment() rows
 *   report_table.c     the terminal table
 *   report_doc.c       a small Markdown/HTML document writer
 *   report_sections.c  the sections of report.md and report.html
 *   report_plots.c     gnuplot SVG plots
 *   report_export.c    summary.json and benchstat.txt
 *   cmd_report.c       "pgbench_ext report" and "pgbench_ext compare"
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_REPORT_H
#define PGBENCH_EXT_REPORT_H

#include "experiment.h"
#include "stats.h"

#include <jansson.h>

/* Fewer runs than this per side draws a warning (95% median CI needs 6). */
#define REPORT_MIN_RUNS 6

/* One line of runs.csv, plus what runs/NNNN.json holds. */
typedef struct ReportRun
{
	int			run_id;
	int			round;
	char	   *variant;
	char	   *script;
	int			clients;
	bool		warmup;
	char	   *status;			/* ok, failed, interrupted */
	char	   *reason;
	double		tps;			/* NAN when absent */
	double		latency_avg_ms;
	long long	transactions;
	int			checkpoints;
	int			autovacuums;
	/* per transaction, NAN when absent (variant without the extension) */
	double		cpu_user_us_per_tx;
	double		cpu_sys_us_per_tx;
	double		voluntary_per_tx;
	double		involuntary_per_tx;
	double		blks_hit;
	double		blks_read;
	double		wal_bytes;
	json_t	   *detail;			/* runs/NNNN.json, or NULL */
} ReportRun;

/* One variant in one cell. */
typedef struct ReportSample
{
	int			n;
	double	   *tps;			/* counted runs, in run order */
	int		   *rounds;
	int		   *run_ids;
	bool		has_summary;
	StatsSummary summary;
	int			outliers;
} ReportSample;

/* One row of the verdict table: a variant against the baseline in a cell. */
typedef struct ReportCell
{
	const char *script;
	int			clients;
	int			variant;		/* index into spec.variants; != baseline */
	ReportSample *a;			/* baseline */
	ReportSample *b;
	bool		has_comparison;
	StatsComparison cmp;		/* round by round when rounds allow (cmp.n_pairs) */
} ReportCell;

typedef struct ReportNoise
{
	double		cv_median;		/* median over cells of each cell's CV */
	bool		has_cv;
	int			outliers;
	int			counted;		/* runs counted */
	bool		has_trend;
	StatsTrend	trend;			/* tps / cell median, in run order */
} ReportNoise;

typedef struct ReportData
{
	char	   *dir;
	json_t	   *experiment;		/* experiment.json */
	ExperimentSpec spec;
	int			baseline;
	StatsOptions opt;

	ReportRun  *runs;
	int			nruns;

	/* samples[(s * nclients + c) * nvariants + v] */
	ReportSample *samples;
	ReportCell *cells;			/* script-major, then clients, then variant */
	int			ncells;

	/* per variant: geomean over cells of the ratio against the baseline */
	bool		has_geomean[MAX_VARIANTS];
	double		geomean_ratio[MAX_VARIANTS];
	double		geomean_tps[MAX_VARIANTS];	/* of the cells' medians */
	ReportNoise noise[MAX_VARIANTS];

	char	  **warnings;
	int			nwarnings;

	/* with layout seeds: a verdict per seed and over all seeds */
	char	  **seed_lines;
	int			nseed_lines;

	/* profile = counted or sampled: profile_report.c, else NULL */
	struct ProfileReport *profile;
} ReportData;

typedef struct ProfileReport ProfileReport;

/* report_data.c */
extern ReportData *report_load(const char *dir, const char *baseline, char **error);
extern ReportSample *report_sample(const ReportData *r, int script, int clients, int variant);
extern int	report_script_index(const ReportData *r, const char *script);
extern int	report_variant_index(const ReportData *r, const char *name);
extern int	report_clients_index(const ReportData *r, int clients);
extern const ReportCell *report_find_cell(const ReportData *r, const char *script,
										  int clients, const char *variant);
extern const char *report_variant_name(const ReportData *r, int v);
extern void report_warn(ReportData *r, const char *fmt,...) pg_attribute_printf(2, 3);
extern void report_add_seed_line(ReportData *r, char *line);
extern bool report_run_counted(const ReportRun *run);
extern double report_median(double *x, int n);
extern const char *report_json_str(json_t *obj, const char *key, const char *dflt);
extern char *report_pct(double ratio);
extern char *report_median_pm(const ReportSample *s);
extern char *report_verdict_text(const StatsComparison *cmp);
extern void report_comparison_cells(const StatsComparison *cmp, bool ok, const char **cells);
extern char *report_comparison_n(const StatsComparison *cmp);
extern bool report_compare_samples(const ReportData *r, const ReportSample *a,
								   const ReportSample *b, bool higher_is_better,
								   StatsComparison *out);

/* report_env.c */
extern void report_environment_warnings(ReportData *r);

/* report_table.c */
extern void report_print_table(const ReportData *r, FILE *out);

/* report_doc.c: headings, paragraphs and tables in Markdown or HTML */
typedef enum DocFormat
{
	DOC_MARKDOWN,
	DOC_HTML
} DocFormat;

typedef struct Doc
{
	FILE	   *out;
	DocFormat	format;
	int			ncols;			/* of the open table, 0 if none */
} Doc;

extern void doc_begin(Doc *d, const char *title);
extern void doc_end(Doc *d);
extern void doc_heading(Doc *d, int level, const char *text);
extern void doc_para(Doc *d, const char *fmt,...) pg_attribute_printf(2, 3);
extern void doc_table_begin(Doc *d, int ncols, const char *const *headers);
extern void doc_table_row(Doc *d, const char *const *cells);
extern void doc_table_end(Doc *d);
extern void doc_svg(Doc *d, const char *svg_path, const char *caption);

/* report_sections.c */
extern void report_write_doc(const ReportData *r, Doc *d, const char *plots_note,
							 char **plots, int nplots);

/* report_plots.c: returns the SVG files drawn; *note says why none were */
extern char **report_draw_plots(const ReportData *r, int *nplots, char **note);

/* report_export.c */
extern json_t *report_summary_json(const ReportData *r);
extern bool report_write_benchstat(const ReportData *r, const char *path, char **error);

/* Everything at once: terminal table to out, files into the directory. */
extern int	report_render(const char *dir, const char *baseline, FILE *out);

#endif							/* PGBENCH_EXT_REPORT_H */
