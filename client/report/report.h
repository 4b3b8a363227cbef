/*-------------------------------------------------------------------------
 *
 * report.h
 *		The analysis of one results directory, and everything drawn from it:
 *		the terminal table, report.md, report.html, plots and exports.
 *
 * A report is three stages, and report_render() runs them top to bottom:
 * load reads experiment.json, runs.csv and runs/NNNN.* once into a
 * ReportData; analysis computes every figure once into it (the cells and
 * their verdicts, geomeans, noise and levels, designs, build-seed pairs,
 * environment differences, counters, probe, layouts, looks, profiles);
 * the writers only format it, from a const ReportData, so the terminal,
 * the Markdown, the HTML, summary.json and benchstat.txt can never
 * disagree.  A writer calls only writers, the format, the accessors and
 * the base (the stages below) and no statistics of common/ (but the names
 * of their enums); the analysis only the analysis, the format, the
 * accessors and the base; the load only the accessors.  Nothing here
 * talks to a server: a results directory alone is enough to re-render a
 * report anywhere.
 *
 * The map below lists the report's files in an order where every call
 * from one of them into another goes down, to a file listed later, never
 * up; a function passed as an argument counts as a call of the file that
 * calls it.  A reader who starts at report_render.c and reads the files
 * in this order reads each once, and finds what a file calls below it.
 * Calls out of the map (results.c, experiment.c, common/, ...) call no
 * file of it back.  test/t/003_no_cycles.pl reads the stages and the
 * order from this map and checks both.
 *
 *   stage     file
 *   all       report_render.c        the three stages, in one call; load and analyze
 *   load      report_data.c          results directory read back (report_read)
 *   analysis  report_analysis.c      the analysis in order (report_analyze)
 *   analysis  report_answer.c        each cell's one answer and verdict; geomeans
 *   analysis  report_sequential.c    rounds = auto: each cell's looks, block by block
 *   analysis  report_levels.c        the unit of a verdict, noise by level, designs
 *   analysis  report_build_seeds.c   with build seeds: B@seedK against A@seedK
 *   analysis  report_env.c           differences between variants' environment()
 *   analysis  report_metrics.c       counters per transaction, judged like tps
 *   analysis  report_probe.c         the snapshot probe's figures, B against A
 *   analysis  report_layout.c        what the patch moved: the struct-layout diffs
 *   analysis  profile_report.c       the profiles' metrics and functions compared
 *   analysis  report_compare.c       B against A in a cell: tps or any figure
 *   analysis  report_lines.c         the warnings and other lines it adds
 *   write     report_table.c         the terminal table
 *   write     report_sections.c      the sections of report.md and report.html
 *   write     report_export.c        summary.json and benchstat.txt
 *   write     report_plots.c         gnuplot SVG plots
 *   write     report_forest.c        the forest plot of the answers (SVG, text)
 *   write     report_metrics_write.c the counters' section
 *   write     report_probe_write.c   the probe's lines, section and JSON
 *   write     report_layout_write.c  the layouts' lines, section and JSON
 *   write     report_sequential_write.c  the looks' section and JSON
 *   write     profile_report_write.c the profiles' tables, sections, JSON, flame graphs
 *   write     profile_flame.c        a flame graph as SVG
 *   write     report_doc.c           a small Markdown/HTML document writer
 *   format    report_format.c        figures as text and JSON, computing none
 *   access    report_access.c        the accessors every stage reads the data with
 *   base      profile_data.c         the profiles' stacks and indexes
 *
 * cmd_report.c is "pgbench_ext report", and the options compare shares
 * (commands.h).  The report_*.c files declare what they offer here, as one
 * family (test/t/003_no_cycles.pl), in the map's order; profile_report.c
 * has profile_report.h, profile_report_write.c profile_report_write.h,
 * profile_flame.c profile_flame.h and profile_data.c profile_data.h.
 * profile_spec.c (the experiment's "profile" key) is outside the map, as
 * experiment.c is, which calls it too.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_REPORT_H
#define PGBENCH_EXT_REPORT_H

#include "budget.h"
#include "experiment.h"
#include "layout.h"
#include "results.h"
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
	bool		after_start;	/* the warm-up run after a start (round 0) */
	int			partner;		/* schedule = duet: the variant planned beside it, -1 for none */
	char	   *build;			/* the levels */
	int			build_seed;
	int			instance;
	char	   *status;			/* ok, failed, interrupted */
	char	   *reason;
	double		tps;			/* NAN when absent */
	double		latency_avg_ms;
	double		duration_s;
	double		wall_s;			/* NAN for a run that failed before its end */
	double		reset_s;
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
	SnapshotFigures snapshot;	/* the snapshot probe's, NAN when not probed */
	json_t	   *detail;			/* runs/NNNN.json, or NULL */
	/* per-second tps of its -P 1 lines (runs/NNNN.err), read when needed */
	bool		seconds_read;
	int			nseconds;
	double	   *seconds;
} ReportRun;

/* One variant in one cell. */
typedef struct ReportSample
{
	int			n;
	double	   *tps;			/* counted runs, in run order */
	int		   *rounds;
	int		   *run_ids;
	int		   *instances;		/* of each run's server */
	int		   *seeds;			/* each run's build seed (0: none) */
	int		   *run_index;		/* into ReportData.runs */
	int		   *of_side;		/* a figure's sample: each run's place in its cell's */
	bool		has_summary;
	StatsSummary summary;
	int			outliers;
} ReportSample;

/*
 * The kinds of answer a comparison has: the fixed-rounds verdicts and the
 * decisions of rounds = auto, one colour and one marker each in every plot.
 */
typedef enum ReportClass
{
	REPORT_FASTER,
	REPORT_SLOWER,
	REPORT_LEANS_FASTER,		/* faster by less than the threshold, or beyond it not settled */
	REPORT_LEANS_SLOWER,
	REPORT_NO_CHANGE,
	REPORT_SAME,
	REPORT_UNDECIDED,
	REPORT_INSUFFICIENT
} ReportClass;

/* One server counter of one comparison, B against A (report_metrics.c). */
typedef struct ReportMetricRow
{
	const char *label;
	int			n_a;			/* counted runs with the counter */
	int			n_b;
	double		median_a;		/* the plain median of those runs, NAN when none */
	double		median_b;
	bool		has;
	StatsComparison cmp;		/* lower is not "better": more or less */
	double		q;				/* Benjamini-Hochberg across the comparison's counters */
	bool		moved;
} ReportMetricRow;

/* One row of the verdict table: a variant against the baseline in a cell. */
typedef struct ReportCell
{
	const char *script;
	int			clients;
	int			variant;		/* index into spec.variants; -1 for every seed pooled */
	int			base;			/* the variant it is compared with; -1 when pooled */
	const char *name;			/* B: the variant, or "B@seed*" */
	const char *base_name;		/* A: the baseline, or "A@seed*" */
	ReportSample *a;			/* baseline */
	ReportSample *b;

	/*
	 * The unit of the verdict (report_levels.c): rounds on one server,
	 * instance pairs across servers with restarts, build seed pairs over
	 * every seed; unit_a and unit_b the unit of each run (NULL: rounds).
	 */
	StatsUnit	unit;
	int		   *unit_a;
	int		   *unit_b;
	bool		has_comparison;
	StatsComparison cmp;

	/* where the noise lives, and the cheapest design that would decide */
	bool		has_components;
	StatsComponents run_a;		/* each side's log tps by level */
	StatsComponents run_b;
	StatsComponents ratio;		/* the log ratios of its paired rounds */
	bool		has_design;
	StatsDesign design;

	/*
	 * rounds = auto (report_sequential.c): the look that decided the cell,
	 * or its last; the rounds it saw and the seconds spent by then (NAN
	 * when budget.csv lacks them).
	 */
	bool		has_look;
	StatsLook	look;			/* under rounds = auto, the cell's answer */
	int			look_block;
	int			look_rounds;
	double		look_spent_s;

	/*
	 * The cell's one answer (report_answer.c): the comparison the design
	 * decided (NULL: none), its kind and its verdict as text; and under
	 * rounds = auto the texts of its decision and looks.
	 */
	const StatsComparison *answer;
	ReportClass klass;
	StatsDecision outcome;		/* summary.json's "decision" */
	char	   *verdict;
	char	   *decision;
	char	   *look_text;
	char	   *look_stopped;	/* "look 3 of 9, 15 rounds, 1m15s", and why it stopped */

	/* its server counters, what moved first (report_metrics.c) */
	ReportMetricRow *metrics;
	int			nmetrics;
	int			nmetrics_moved;
} ReportCell;

typedef struct ReportNoise
{
	double		cv_median;		/* median over cells of each cell's CV */
	bool		has_cv;
	int			outliers;
	int			counted;		/* runs counted */
	bool		has_trend;
	StatsTrend	trend;			/* of drift: its units' tps / cell median */
	StatsDrift	drift;			/* in run order, one value per server start */
	bool		drift_by_start; /* its units are server starts, not runs */
} ReportNoise;

typedef struct ReportData
{
	char	   *dir;
	json_t	   *experiment;		/* experiment.json */
	ExperimentSpec spec;
	int			baseline;
	StatsOptions opt;
	int			restart_rounds; /* rounds per instance; 0: never */
	StatsDesignCost cost;		/* measured: a build, a restart, a round */
	double		design_effect;	/* the change the designs are for */

	ReportRun  *runs;
	int			nruns;

	/*
	 * rounds = auto: the plan experiment.json records, the blocks whose
	 * rounds the runs complete, the seconds budget.csv says they took,
	 * and why the experiment stopped (report_sequential.c).
	 */
	bool		sequential;
	BudgetPlan	budget;
	int			blocks_done;
	double		spent_s;
	bool		all_decided;
	const char *stop_why;

	/* samples[(s * nclients + c) * nvariants + v] */
	ReportSample *samples;
	/* base-paired duets: as samples, each variant's runs per partner (one more index) */
	ReportSample *partner_samples;
	ReportCell *cells;			/* script-major, then clients, then variant */
	int			ncells;

	/* per variant: geomean over cells of the ratio against the baseline */
	bool		has_geomean[MAX_VARIANTS];
	double		geomean_ratio[MAX_VARIANTS];
	double		geomean_tps[MAX_VARIANTS];	/* of the cells' medians */
	ReportNoise noise[MAX_VARIANTS];

	char	  **warnings;
	int			nwarnings;
	/* differences the experiment is about though no key names them: the release */
	char	  **declared;
	int			ndeclared;

	/* with build seeds: a verdict per seed and over all seeds */
	char	  **seed_lines;
	int			nseed_lines;

	/* the snapshot probe's comparisons (report_probe.c), none if no run was probed */
	struct ReportProbeRow *probe_rows;
	int			nprobe_rows;
	/* and what its probes saw, per variant and cell */
	struct ReportProbeContext *probe_context;
	int			nprobe_context;

	/* whether any run has counters of the extension (report_metrics.c) */
	bool		any_counters;

	/* struct-layout diffs against the baseline worth showing (report_layout.c) */
	struct ReportLayoutDiff *layout_diffs;
	int			nlayout_diffs;

	/* profile = counted or sampled: profile_report.c, else NULL */
	struct ProfileReport *profile;

	/*
	 * counted_view = on: the counted experiment in COUNTED_VIEW_DIR, read
	 * and analyzed as a results directory of its own (report_render.c),
	 * or NULL with counted_view_note saying why not.
	 */
	struct ReportData *counted_view;
	const char *counted_view_note;
} ReportData;

typedef struct ProfileReport ProfileReport;

/* One figure of the snapshot probe in one cell, B against A. */
typedef struct ReportProbeRow
{
	const ReportCell *cell;
	const char *mode;			/* "full" or "reuse" */
	const char *statistic;		/* "median" or "p90" of the run's probes */
	int			n_a;			/* counted runs with the figure */
	int			n_b;
	double		median_a;		/* median over those runs, NAN when none */
	double		median_b;
	bool		has_comparison;
	StatsComparison cmp;		/* lower is better */
} ReportProbeRow;

/* What the snapshot probe saw in one variant and cell: medians over its counted runs. */
typedef struct ReportProbeContext
{
	const char *script;
	int			clients;
	int			variant;
	int			probed;			/* counted runs with probes */
	int			runs;			/* counted runs */
	double		xcnt;			/* NAN when none has the figure */
	double		procs;
	double		probes;			/* probes per run */
	double		duty;			/* the share of the window a probe was in flight */
} ReportProbeContext;

/* The layouts of a variant and the baseline, as saved at setup. */
typedef struct ReportLayoutDiff
{
	int			variant;
	LayoutDiff *diff;			/* NULL when a layout is missing or unreadable */
	char	   *problem;		/* then why */
} ReportLayoutDiff;

/* One figure of a run, in a file's own table of figures; NAN (or <= 0) when absent. */
typedef double (*ReportRunValue) (const ReportRun *run);

/* report_doc.c's document, which the writers pass each other */
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

	/*
	 * HTML: once the summary is written, every section (a level-2
	 * heading) is a collapsed <details> up to the next one.
	 */
	bool		collapse;
	bool		in_details;
} Doc;

/* ---- all: report_render.c ---- */

/* everything at once, the terminal table to out, files into the directory */
extern int	report_render(const char *dir, const char *baseline, FILE *out);

/* the load and the analysis at once (compare, calibrate); the cells alone (a look) */
extern ReportData *report_load(const char *dir, const char *baseline, char **error);
extern ReportData *report_load_cells(const char *dir, const char *baseline, char **error);

/*
 * Whether the terminal gets everything (levels, designs, noise, the
 * profiles' tables) or one screen: the verdicts, their forest plot, the
 * warnings and the report's path.  Set by --verbose of run, ab and report.
 */
extern bool report_verbose;

/* ---- load: a results directory read back (report_data.c) ---- */
extern ReportData *report_read(const char *dir, const char *baseline, char **error);

/* ---- analysis: every figure computed once into the ReportData ---- */

/* report_analysis.c: the analysis in order; the cells alone, for a look */
extern void report_analyze(ReportData *r);
extern void report_analyze_cells(ReportData *r);

/* report_answer.c: the one answer of each comparison, and the geomeans */
extern void report_answer_geomeans(ReportData *r);
extern void report_cell_answers(ReportData *r);

/* report_sequential.c */
extern void report_sequential_load(ReportData *r);
extern void report_look_texts(const ReportData *r, ReportCell *c);

/* report_levels.c: units of the verdicts, noise by level, designs */
extern void report_compare_cell(ReportData *r, ReportCell *cell);
extern bool report_started_once(const ReportData *r, const ReportCell *c);
extern void report_pooled_seed_cells(ReportData *r);
extern void report_measure_costs(ReportData *r);
extern void report_cell_levels(ReportData *r, ReportCell *cell);
extern bool report_cell_design_low(const ReportData *r, const ReportCell *c, StatsDesign *out);

/* report_build_seeds.c */
extern void build_seeds_verdicts(ReportData *r);

/* report_env.c */
extern void report_environment_warnings(ReportData *r);

/* report_metrics.c, report_probe.c, report_layout.c; profile_report.c has profile_report.h */
extern void report_metrics_load(ReportData *r);
extern void report_probe_load(ReportData *r);
#define REPORT_LAYOUT_LINE_SIZE 64
extern void report_layout_load(ReportData *r);

/* report_compare.c: B against A in a cell, tps or any figure of its runs */
extern double report_median(double *x, int n);
extern void report_figure_sample(const ReportSample *side, const double *values,
								 ReportSample *out);
extern void report_free_figure_sample(ReportSample *s);
extern bool report_compare_figure(const ReportData *r, const ReportCell *c,
								  const double *values_a, const double *values_b,
								  bool higher_is_better, StatsComparison *out);
extern bool report_compare_samples(const ReportData *r, const ReportCell *c,
								   const ReportSample *a, const ReportSample *b,
								   bool higher_is_better, StatsComparison *out);
extern bool report_look_cell(const ReportData *r, const ReportCell *c,
							 const StatsBudgetPlan *plan, int blocks_done,
							 const double *info, const double *z,
							 StatsLook *out, int *block);
extern bool report_compare_rounds(const ReportData *r, const ReportCell *c, int first, int last,
								  StatsComparison *out);

/* report_lines.c: the warnings, declarations and seeds' lines the analysis adds */
extern void report_warn(ReportData *r, const char *fmt,...) pg_attribute_printf(2, 3);
extern void report_declare(ReportData *r, const char *fmt,...) pg_attribute_printf(2, 3);
extern void report_add_seed_line(ReportData *r, char *line);

/* ---- write: the outputs, from a const ReportData ---- */

/* report_table.c */
extern void report_print_table(const ReportData *r, FILE *out, bool verbose);

/* report_sections.c, and the sections of report_*_write.c */
extern void report_write_doc(const ReportData *r, Doc *d, const char *forest,
							 const char *plots_note, char **plots, char **titles, int nplots);
extern void report_metrics_section(const ReportData *r, Doc *d);
extern void report_probe_section(const ReportData *r, Doc *d);
extern void report_layout_section(const ReportData *r, Doc *d);
extern void report_sequential_section(const ReportData *r, Doc *d);

/* report_export.c */
extern json_t *report_summary_json(const ReportData *r);
extern bool report_write_benchstat(const ReportData *r, const char *path, char **error);

/*
 * report_plots.c: the SVG files drawn (*note says why none were); gnuplot,
 * as $PGBENCH_EXT_GNUPLOT or on PATH (NULL and a note why not); text as a
 * gnuplot string, a path as one and whether a path can be; running a
 * script with it.
 */
extern char **report_draw_plots(const ReportData *r, int *nplots, char ***titles, char **note);
extern char *report_find_gnuplot(char **note);
extern char *report_gp_quote(const char *s);
extern char *report_gp_path(const char *path);
extern bool report_gp_path_ok(const char *dir, char **note);
extern bool report_run_gnuplot(const char *gnuplot, const char *script_path, char **note);

/* report_forest.c: the forest plot of the answers */
extern char *report_answer_figures(const StatsComparison *cmp);
extern const char *report_class_colour(ReportClass k);
extern bool report_draw_forest(const ReportData *r, const char *path, char **error);
extern void report_print_forest(const ReportData *r, FILE *out);

/* report_probe_write.c, report_layout_write.c, report_sequential_write.c */
extern void report_probe_print(const ReportData *r, FILE *out);
extern json_t *report_probe_json(const ReportData *r);
extern void report_layout_print(const ReportData *r, FILE *out);
extern json_t *report_layout_json(const ReportData *r);
extern json_t *report_look_json(const ReportData *r, const ReportCell *c);

/* report_doc.c: headings, paragraphs and tables in Markdown or HTML */
extern void doc_begin(Doc *d, const char *title);
extern void doc_end(Doc *d);
extern void doc_heading(Doc *d, int level, const char *text);
extern void doc_para(Doc *d, const char *fmt,...) pg_attribute_printf(2, 3);
extern void doc_table_begin(Doc *d, int ncols, const char *const *headers);
extern void doc_table_row(Doc *d, const char *const *cells);
extern void doc_table_row_marked(Doc *d, const char *const *cells, int col, const char *colour);
extern void doc_table_end(Doc *d);
extern void doc_svg(Doc *d, const char *svg_path, const char *caption);
extern void doc_text(Doc *d, const char *text);
extern void doc_collapse_sections(Doc *d);
extern void doc_details_begin(Doc *d, const char *summary);
extern void doc_details_end(Doc *d);

/* ---- format: report_format.c, figures as text and JSON, computing none ---- */
extern const char *report_json_str(json_t *obj, const char *key, const char *dflt);
extern json_t *report_json_num(bool has, double v);
extern json_t *report_comparison_json(const StatsComparison *cmp, bool ok, StatsUnit unit);
extern char *report_pct(double ratio);
extern char *report_median_pm(const ReportSample *s);
extern char *report_verdict_text(const StatsComparison *cmp);
extern char *report_verdict_words(const StatsComparison *cmp, const char *up, const char *down,
								  int decimals);
extern char *report_direction_range(const StatsComparison *cmp, const char *up, const char *down,
									int decimals);
extern const char *report_decision_word(StatsDecision d);
extern void report_comparison_cells(const StatsComparison *cmp, bool ok, const char **cells);
extern char *report_comparison_n(const StatsComparison *cmp);

/*
 * ---- access: report_access.c, which reads what the load and the analysis
 * left and computes nothing; every stage calls these ----
 */
extern ReportSample *report_sample(const ReportData *r, int script, int clients, int variant);
extern void report_sample_alloc(ReportSample *smp, int nruns);
extern void report_summarize_sample(const ReportData *r, ReportSample *smp);
extern ReportSample *report_side_sample(const ReportData *r, int script, int clients, int variant,
										int other);
extern int	report_script_index(const ReportData *r, const char *script);
extern int	report_variant_index(const ReportData *r, const char *name);
extern int	report_baseline_of(const ReportData *r, int v);
extern char *report_cell_title(const ReportCell *c);
extern bool report_has_seed_baselines(const ReportData *r);
extern int	report_clients_index(const ReportData *r, int clients);
extern const ReportCell *report_find_cell(const ReportData *r, const char *script,
										  int clients, const char *variant);
extern const char *report_variant_name(const ReportData *r, int v);
extern bool report_run_counted(const ReportRun *run);
extern double report_run_tps(const ReportRun *run);
extern const StatsComparison *report_cell_answer(const ReportData *r, const ReportCell *c);
extern char *report_cell_verdict(const ReportData *r, const ReportCell *c);
extern StatsDecision report_look_decision(const ReportCell *c);
extern char *report_decision_text(const ReportData *r, const ReportCell *c);
extern char *report_look_text(const ReportData *r, const ReportCell *c);

#endif							/* PGBENCH_EXT_REPORT_H */
