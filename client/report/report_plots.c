/*-------------------------------------------------------------------------
 *
 * report_plots.c
 *		Plots of a results directory, drawn by gnuplot as SVG into
 *		DIR/plots/, with the data files beside them so that a plot can be
 *		redrawn or restyled by hand.
 *
 * gnuplot is found as $PGBENCH_EXT_GNUPLOT if set (an empty value turns
 * plots off), else as "gnuplot" on PATH.  Without it, or when it fails,
 * no plot is drawn and the reason goes into the reports.
 *
 * The plots are listed in docs/reports.md (the SVG files of plots/);
 * the forest plot, drawn without gnuplot, is report_forest.c's.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

#include "pqexpbuffer.h"
#include "results.h"
#include "safe_file.h"
#include "subprocess.h"
#include "safe_read.h"

#include <math.h>

/* per-second plots only of runs at least this long (seconds of -P 1 lines) */
#define PROGRESS_MIN_SECONDS 10
#include <unistd.h>

char *
report_find_gnuplot(char **note)
{
	const char *env = getenv("PGBENCH_EXT_GNUPLOT");
	const char *path;
	char	   *copy,
			   *dir,
			   *save;

	if (env != NULL)
	{
		if (*env == '\0')
		{
			*note = pg_strdup("plots are turned off (PGBENCH_EXT_GNUPLOT is empty)");
			return NULL;
		}
		if (access(env, X_OK) == 0)
			return pg_strdup(env);
		*note = psprintf("PGBENCH_EXT_GNUPLOT names \"%s\", which is not an executable file", env);
		return NULL;
	}
	path = getenv("PATH");
	copy = pg_strdup(path ? path : "");
	for (dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
	{
		char	   *candidate = psprintf("%s/gnuplot", dir);

		if (access(candidate, X_OK) == 0)
			return candidate;
	}
	*note = pg_strdup("gnuplot was not found on PATH (install gnuplot-nox, or set PGBENCH_EXT_GNUPLOT), "
					  "then run the command again");
	return NULL;
}

/*
 * The colour of a variant: the same in every plot; Okabe-Ito's, apart for
 * every common colour-vision deficiency and in a grey print.
 */
static const char *
colour(int v)
{
	static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
	"#E69F00", "#56B4E9", "#000000", "#999999"};

	return palette[v % lengthof(palette)];
}

typedef struct PlotSet
{
	const ReportData *r;
	char	   *dir;			/* DIR/plots */
	FILE	   *script;			/* the gnuplot script being written */
	char	  **svgs;
	char	  **titles;			/* of each SVG, for its <title> and caption */
	int			nsvgs;
} PlotSet;

/*
 * s as a gnuplot string: single-quoted, where gnuplot substitutes nothing
 * (in double quotes it runs `backquoted` commands and reads escapes), a
 * quote doubled.  s holds no control character: a line break would end
 * the command.
 */
static char *
gp_single_quoted(const char *s)
{
	PQExpBufferData q;

	initPQExpBuffer(&q);
	appendPQExpBufferChar(&q, '\'');
	for (; *s; s++)
	{
		if (*s == '\'')
			appendPQExpBufferStr(&q, "''");
		else
			appendPQExpBufferChar(&q, *s);
	}
	appendPQExpBufferChar(&q, '\'');
	return q.data;
}

/*
 * Text (a title, a name) as a gnuplot string, escaped first as for the
 * terminal (escape.c): a control character or a byte that is not UTF-8 is
 * shown as "\x1b" in the plot, and the SVG gnuplot writes stays UTF-8.
 * Names reach the script only so; the terminal's noenhanced keeps "_" and
 * "^" from being markup.
 */
char *
report_gp_quote(const char *s)
{
	char	   *shown = escape_text(s, ESCAPE_TERMINAL);
	char	   *quoted = gp_single_quoted(shown);

	free(shown);
	return quoted;
}

/*
 * A path as a gnuplot string, its bytes as they are: gnuplot must write
 * the very file the client cleared (safe_remove_file()), so nothing in it
 * is escaped, and a directory whose path holds a control character, which
 * a line of the script cannot, gets no plots (report_gp_path_ok()).
 */
char *
report_gp_path(const char *path)
{
	return gp_single_quoted(path);
}

/* Whether gnuplot's script can name files in dir; if not, *note says why. */
bool
report_gp_path_ok(const char *dir, char **note)
{
	for (const unsigned char *p = (const unsigned char *) dir; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return fail_with(note, "the path of \"%s\" holds a control character, which gnuplot's script cannot hold",
							 dir);
	return true;
}

/* A file of DIR/plots as a gnuplot string. */
static char *
gp_path(const PlotSet *ps, const char *name)
{
	return report_gp_path(psprintf("%s/%s", ps->dir, name));
}

/*
 * End a data block; an empty one gets a NaN point, since gnuplot does not
 * count an empty block and the "index" of every later one would shift.
 */
static void
end_block(FILE *f, int lines)
{
	fprintf(f, "%s\n\n", lines == 0 ? "NaN NaN NaN NaN\n" : "");
}

/* A data file of DIR/plots, or NULL (then its plot is left out). */
static FILE *
open_data(PlotSet *ps, const char *name)
{
	char	   *error;

	return safe_fopen_write(psprintf("%s/%s", ps->dir, name), false, &error);
}

/* Close a data file, renamed into place (else its plot draws nothing). */
static void
close_data(FILE *f)
{
	char	   *error;

	(void) safe_fclose(f, &error);
}

static void
begin_plot(PlotSet *ps, const char *name, const char *ttl, const char *xlabel, const char *ylabel)
{
	char	   *svg = psprintf("%s.svg", name);

	ps->svgs = pg_realloc(ps->svgs, sizeof(char *) * (ps->nsvgs + 1));
	ps->titles = pg_realloc(ps->titles, sizeof(char *) * (ps->nsvgs + 1));
	ps->titles[ps->nsvgs] = pg_strdup(ttl);
	ps->svgs[ps->nsvgs++] = psprintf("%s/%s", ps->dir, svg);
	fprintf(ps->script, "reset\nset terminal svg size 800,420 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
			"set output %s\nset title %s\nset xlabel %s\nset ylabel %s\n"
			"set key outside right top\nset grid\n",
			gp_path(ps, svg), report_gp_quote(ttl), report_gp_quote(xlabel), report_gp_quote(ylabel));
}

/* tps vs clients, median and its CI, per variant and script */
static void
plot_scaling(PlotSet *ps)
{
	const ReportData *r = ps->r;
	FILE	   *f = open_data(ps, "tps_clients.dat");
	bool		first = true;

	if (f == NULL)
		return;
	begin_plot(ps, "tps_clients", "tps vs clients (median, CI bars)", "clients", "tps");
	fprintf(ps->script, "set logscale x 2\nset offsets graph 0.05, graph 0.05, 0, 0\nset yrange [0:*]\nplot");
	for (int s = 0; s < r->spec.nscripts; s++)
		for (int v = 0; v < r->spec.nvariants; v++)
		{
			int			lines = 0;

			fprintf(f, "# %s %s\n", r->spec.scripts[s], report_variant_name(r, v));
			for (int c = 0; c < r->spec.nclients; c++)
			{
				ReportSample *smp = report_sample(r, s, c, v);
				const StatsSummary *m = &smp->summary;

				if (smp->has_summary)
					fprintf(f, "%d %.6g %.6g %.6g\n", r->spec.clients[c], m->median,
							m->has_median_ci ? m->median_ci_low : m->min,
							m->has_median_ci ? m->median_ci_high : m->max), lines++;
			}
			end_block(f, lines);
			fprintf(ps->script, "%s %s index %d using 1:2:3:4 with yerrorlines lc rgb '%s' dt %d title %s",
					first ? "" : ",", gp_path(ps, "tps_clients.dat"), s * r->spec.nvariants + v,
					colour(v), s + 1,
					report_gp_quote(r->spec.nscripts > 1
							 ? psprintf("%s %s", report_variant_name(r, v), r->spec.scripts[s])
							 : report_variant_name(r, v)));
			first = false;
		}
	fprintf(ps->script, "\n");
	close_data(f);
}

/* What a points plot shows of a run: NAN leaves the run out. */
typedef double (*RunFigure) (const ReportRun *run);

static double
run_latency(const ReportRun *run)
{
	return run->latency_avg_ms;
}

static double
run_cpu(const ReportRun *run)
{
	return run->cpu_user_us_per_tx +
		(isfinite(run->cpu_sys_us_per_tx) ? run->cpu_sys_us_per_tx : 0);
}

/*
 * One point per counted run, a colour per variant.  x is the run id
 * (session order: drift and interleaving show), or the client count on a
 * log scale, each variant shifted a little so that their columns of points
 * stand side by side.  Drawn only when some run has the figure.
 */
static void
plot_run_points(PlotSet *ps, const char *name, const char *ttl, bool by_clients,
				const char *ylabel, RunFigure figure)
{
	const ReportData *r = ps->r;
	char	   *file = psprintf("%s.dat", name);
	FILE	   *f;
	int			points = 0;

	for (int i = 0; i < r->nruns; i++)
		if (report_run_counted(&r->runs[i]) && isfinite(figure(&r->runs[i])))
			points++;
	if (points == 0 || (f = open_data(ps, file)) == NULL)
		return;
	begin_plot(ps, name, ttl, by_clients ? "clients" : "run", ylabel);
	if (by_clients)
		fprintf(ps->script, "set logscale x 2\nset offsets graph 0.05, graph 0.05, 0, 0\n");
	fprintf(ps->script, "set yrange [0:*]\nplot");
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		double		shift = pow(2.0, 0.08 * (v - (r->spec.nvariants - 1) / 2.0));
		int			lines = 0;

		fprintf(f, "# %s: %s %s\n", report_variant_name(r, v), by_clients ? "clients" : "run_id", ylabel);
		for (int i = 0; i < r->nruns; i++)
		{
			const ReportRun *run = &r->runs[i];
			double		y = figure(run);

			if (strcmp(run->variant, report_variant_name(r, v)) != 0 ||
				!report_run_counted(run) || !isfinite(y))
				continue;
			fprintf(f, "%.4f %.6g\n", by_clients ? run->clients * shift : run->run_id, y);
			lines++;
		}
		end_block(f, lines);
		fprintf(ps->script, "%s %s index %d using 1:2 with points pt 7 ps 0.8 lc rgb '%s' title %s",
				v ? "," : "", gp_path(ps, file), v, colour(v), report_gp_quote(report_variant_name(r, v)));
	}
	fprintf(ps->script, "\n");
	close_data(f);
}

/*
 * Where run i of a cell goes on the rounds axis: its round, a variant's
 * runs shifted a little beside the others'; a warm-up run (round 0: after
 * a start) half a round before the rounds that follow it.
 */
static double
round_x(const ReportData *r, const ReportRun *run, int v, int last_round)
{
	double		shift = 0.12 * (v - (r->spec.nvariants - 1) / 2.0) / Max(1, r->spec.nvariants - 1);

	return (run->round > 0 ? run->round : last_round + 0.5) + shift;
}

/*
 * tps by round of one cell: a line per variant and server start (the line
 * breaks where its server restarted), warm-up runs as open circles, each
 * restart a dashed vertical line.  The experiment as it ran: drift,
 * restarts, a variant's bad round show here before any statistic.
 */
static void
plot_cell_rounds(PlotSet *ps, int s, int c, int k)
{
	const ReportData *r = ps->r;
	char	   *name = k == 0 ? pg_strdup("tps_rounds") : psprintf("tps_rounds_%d", k + 1);
	char	   *file = psprintf("%s.dat", name);
	FILE	   *f = open_data(ps, file);
	PQExpBufferData arrows;
	int			points = 0;

	if (f == NULL)
		return;
	initPQExpBuffer(&arrows);
	for (int v = 0; v < r->spec.nvariants; v++)
		for (int warm = 0; warm <= 1; warm++)
		{
			int			lines = 0,
						last_round = 0,
						prev_round = 0, /* of the variant's previous counted run */
						instance = 0;

			fprintf(f, "# %s %s: round tps (%s)\n", report_variant_name(r, v), r->spec.scripts[s],
					warm ? "warm-up runs" : "counted runs, a block per server start");
			for (int i = 0; i < r->nruns; i++)
			{
				const ReportRun *run = &r->runs[i];

				if (run->clients != r->spec.clients[c] || strcmp(run->script, r->spec.scripts[s]) != 0)
					continue;
				if (run->round > 0 && !run->warmup)
					last_round = run->round;
				if (strcmp(run->variant, report_variant_name(r, v)) != 0 ||
					strcmp(run->status, "ok") != 0 || !(isfinite(run->tps) && run->tps > 0) ||
					run->warmup != (warm == 1))
					continue;
				/*
				 * A new server start: the line breaks, and the restart is
				 * marked before the warm-ups that followed it.
				 */
				if (!warm && lines > 0 && run->instance != instance)
				{
					fprintf(f, "\n");
					appendPQExpBuffer(&arrows, "set arrow from %.2f, graph 0 to %.2f, graph 1 nohead dt 2 lc rgb '#888888'\n",
									  prev_round + 0.25, prev_round + 0.25);
				}
				if (!warm)
				{
					instance = run->instance;
					prev_round = run->round;
				}
				fprintf(f, "%.3f %.6g\n", round_x(r, run, v, last_round), run->tps);
				lines++;
			}
			end_block(f, lines);
			points += lines;
		}
	close_data(f);
	/* a cell with no run yet (an experiment cut short) has nothing to draw: gnuplot would fail */
	if (points == 0)
	{
		termPQExpBuffer(&arrows);
		return;
	}
	begin_plot(ps, name, psprintf("tps by round, %s, %d client%s", r->spec.scripts[s],
								  r->spec.clients[c], r->spec.clients[c] == 1 ? "" : "s"),
			   "round (dashed: a restart of the servers)", "tps");
	fprintf(ps->script, "%sset yrange [0:*]\nset xrange [0:*]\nplot", arrows.data);
	for (int v = 0; v < r->spec.nvariants; v++)
		fprintf(ps->script, "%s %s index %d using 1:2 with linespoints pt 7 ps 0.6 lc rgb '%s' title %s, "
				"%s index %d using 1:2 with points pt 6 ps 0.9 lc rgb '%s' notitle",
				v ? "," : "", gp_path(ps, file), 2 * v, colour(v), report_gp_quote(report_variant_name(r, v)),
				gp_path(ps, file), 2 * v + 1, colour(v));
	fprintf(ps->script, ", NaN with points pt 6 ps 0.9 lc rgb '#333333' title 'warm-up (not counted)'\n");
	termPQExpBuffer(&arrows);
}

/* tps by round, a plot per cell (script, clients) */
static void
plot_rounds(PlotSet *ps)
{
	int			k = 0;

	for (int s = 0; s < ps->r->spec.nscripts; s++)
		for (int c = 0; c < ps->r->spec.nclients; c++)
			plot_cell_rounds(ps, s, c, k++);
}

/* per-second tps and latency of every counted run from its progress lines */
static void
plot_progress(PlotSet *ps)
{
	const ReportData *r = ps->r;
	FILE	   *f = open_data(ps, "progress.dat");
	int			blocks = 0,
				most_seconds = 0;
	PQExpBufferData tps_plot,
				lat_plot;
	bool		seen[MAX_VARIANTS] = {false};

	if (f == NULL)
		return;
	initPQExpBuffer(&tps_plot);
	initPQExpBuffer(&lat_plot);

	for (int i = 0; i < r->nruns; i++)
	{
		const ReportRun *run = &r->runs[i];
		char	   *path = results_run_path(r->dir, run->run_id, ".err");
		FILE	   *err;
		char		line[1024];
		int			v,
					lines = 0;

		if (!report_run_counted(run) || (err = safe_fopen_read_optional(path, SAFE_MAX_LOG)) == NULL)
			continue;
		/* runs.csv names only the experiment's variants (results.c checks) */
		if ((v = report_variant_index(r, run->variant)) < 0)
		{
			fclose(err);
			continue;
		}
		fprintf(f, "# run %d %s c=%d: second tps latency_ms\n", run->run_id, run->variant, run->clients);
		while (fgets(line, sizeof(line), err))
		{
			double		t,
						tps,
						lat;

			if (sscanf(line, "progress: %lf s, %lf tps, lat %lf ms", &t, &tps, &lat) == 3)
				fprintf(f, "%.1f %.6g %.6g\n", t, tps, lat), lines++;
		}
		fclose(err);
		most_seconds = Max(most_seconds, lines);
		end_block(f, lines);
		appendPQExpBuffer(&tps_plot, "%s %s index %d using 1:2 with lines lc rgb '%s' %s",
						  blocks ? "," : "", gp_path(ps, "progress.dat"), blocks, colour(v),
						  seen[v] ? "notitle" : psprintf("title %s", report_gp_quote(run->variant)));
		appendPQExpBuffer(&lat_plot, "%s %s index %d using 1:3 with lines lc rgb '%s' %s",
						  blocks ? "," : "", gp_path(ps, "progress.dat"), blocks, colour(v),
						  seen[v] ? "notitle" : psprintf("title %s", report_gp_quote(run->variant)));
		seen[v] = true;
		blocks++;
	}
	close_data(f);

	/*
	 * A run of a few seconds has a few points: no shape to see, and the
	 * plot would only crowd the page.  With -t the runs' lengths are what
	 * they were, so the longest run's seconds decide.
	 */
	if (blocks == 0 || most_seconds < PROGRESS_MIN_SECONDS)
	{
		char	   *error;

		/* nor is an older rendering's left for a reader to take for this one's */
		(void) safe_remove_file(psprintf("%s/progress_tps.svg", ps->dir), &error);
		(void) safe_remove_file(psprintf("%s/progress_latency.svg", ps->dir), &error);
		return;
	}
	begin_plot(ps, "progress_tps", "tps per second of each run (pgbench -P 1)", "second", "tps");
	fprintf(ps->script, "plot %s\n", tps_plot.data);
	begin_plot(ps, "progress_latency", "latency per second of each run (pgbench -P 1)", "second", "latency (ms)");
	fprintf(ps->script, "plot %s\n", lat_plot.data);
	termPQExpBuffer(&tps_plot);
	termPQExpBuffer(&lat_plot);
}

bool
report_run_gnuplot(const char *gnuplot, const char *script_path, char **note)
{
	char	   *argv[] = {(char *) gnuplot, (char *) script_path, NULL};
	ChildSpec	spec = CHILD_SPEC_INIT;
	int			rc;
	char	   *out;

	spec.argv = argv;
	out = child_output(&spec, true, &rc);
	if (rc != 0)
	{
		*note = rc == 127 && out[0] == '\0'
			? psprintf("could not start gnuplot \"%s\"", gnuplot)
			: psprintf("gnuplot \"%s\" failed (status %d): %.2000s", gnuplot, rc, out);
		return false;
	}
	return true;
}

char **
report_draw_plots(const ReportData *r, int *nplots, char ***titles, char **note)
{
	PlotSet		ps = {r};
	char	   *gnuplot = report_find_gnuplot(note);
	char	   *script_path;

	*nplots = 0;
	if (gnuplot == NULL || !report_gp_path_ok(r->dir, note))
		return NULL;
	{
		bool		any = false;

		for (int i = 0; i < r->nruns && !any; i++)
			any = report_run_counted(&r->runs[i]);
		if (!any)
		{
			*note = pg_strdup("no counted run to plot yet");
			return NULL;
		}
	}
	ps.dir = psprintf("%s/plots", r->dir);
	if (!safe_mkdir(ps.dir, 0755, 0, note))
		return NULL;
	script_path = psprintf("%s/plots.gp", ps.dir);
	if ((ps.script = safe_fopen_write(script_path, false, note)) == NULL)
		return NULL;
	fprintf(ps.script, "# drawn by pgbench_ext report; run gnuplot on this file to redraw\n");
	plot_rounds(&ps);
	plot_scaling(&ps);
	plot_run_points(&ps, "tps_runs", "tps of each run in session order (drift, interleaving)",
					false, "tps", report_run_tps);
	plot_progress(&ps);
	plot_run_points(&ps, "latency_runs", "latency average of each run", true,
					"latency (ms)", run_latency);
	plot_run_points(&ps, "cpu_per_tx", "server CPU per transaction (user + system)", true,
					"CPU µs / transaction", run_cpu);
	if (!safe_fclose(ps.script, note))
		return NULL;
	/*
	 * gnuplot writes its output through any link found there, and an SVG
	 * it did not draw must not be inlined into report.html: away with them.
	 */
	for (int i = 0; i < ps.nsvgs; i++)
		if (!safe_remove_file(ps.svgs[i], note))
			return NULL;
	if (!report_run_gnuplot(gnuplot, script_path, note))
		return NULL;
	*nplots = ps.nsvgs;
	*titles = ps.titles;
	return ps.svgs;
}
