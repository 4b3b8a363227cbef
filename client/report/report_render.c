/*-------------------------------------------------------------------------
 *
 * report_render.c
 *		Every output of a report from a results directory: the verdict
 *		table and its forest plot on the terminal, summary.json,
 *		benchstat.txt, the forest plot and the other plots, the profiles'
 *		files, report.md and report.html.  The "report" command
 *		and the end of "run" and "ab" both call report_render().
 *
 * It reads as the three stages of report.h's map: report_read() loads the
 * directory once, report_analyze() computes every figure into the
 * ReportData, and the writers, which take it const, format it.  Files are
 * written into the results directory without following a link planted
 * there (safe_file.c).  report_load() runs the load and the analysis alone
 * (compare, calibrate), report_load_cells() the load and the cells' answers
 * (the look after a block, farm).  With counted_view = on, report_render()
 * loads and analyzes the counted experiment in its subdirectory too.  The
 * first file of the map: every other is below it, and it is called from
 * outside the map alone.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "counted_view_spec.h"
#include "profile_report_write.h"
#include "profile_spec.h"
#include "report.h"
#include "results.h"
#include "safe_file.h"

#include <sys/stat.h>

#include "common/logging.h"

bool		report_verbose = false;

static bool
write_doc(const ReportData *r, DocFormat format, const char *name, const char *forest,
		  const char *note, char **plots, char **titles, int nplots)
{
	char	   *path = psprintf("%s/%s", r->dir, name);
	char	   *error;
	Doc			d = {safe_fopen_write(path, false, &error), format};

	if (d.out == NULL)
	{
		log_error_text(error);
		return false;
	}
	report_write_doc(r, &d, forest, note, plots, titles, nplots);
	if (!safe_fclose(d.out, &error))
	{
		log_error_text(error);
		return false;
	}
	return true;
}

/*
 * The verdict table and the lines under it, as the terminal shows them.
 * They quote names and values of the results directory everywhere (cells,
 * labels, warnings, the probe's, the layouts' and the profiles' lines), so
 * the whole text is escaped once on its way out (escape.c); the tables and
 * the forest plot have padded what they hold as it is shown, and escaping
 * it again changes nothing.
 */
static void
print_table(const ReportData *r, FILE *out)
{
	char	   *text = NULL;
	size_t		len = 0;
	FILE	   *mem = open_memstream(&text, &len);

	if (mem == NULL)
		pg_fatal("out of memory");
	report_print_table(r, mem, report_verbose);
	profile_print_counted_view(r, mem);
	if (fclose(mem) != 0)
		pg_fatal("out of memory");
	escape_write(out, text, ESCAPE_TERMINAL_LINES);
	free(text);
}

/*
 * Every output, from r as the analysis left it: the terminal table (unless
 * out is NULL: the files alone), summary.json, benchstat.txt, the forest
 * plot, the other plots, the profiles' files, report.md and report.html.
 * Returns the exit status.
 */
static int
write_outputs(const ReportData *r, FILE *out)
{
	char	   *error = NULL;
	char	   *note = NULL;
	char	  **plots;
	char	  **titles = NULL;
	int			nplots;
	json_t	   *summary;
	char	   *forest;

	if (out)
		print_table(r, out);
	summary = report_summary_json(r);
	/* a link or FIFO planted where the report writes is refused input */
	if (!results_write_json(r->dir, "summary.json", summary, &error) ||
		!report_write_benchstat(r, psprintf("%s/benchstat.txt", r->dir), &error))
	{
		log_error_text(error);
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	}
	json_decref(summary);
	/* the forest plot needs no gnuplot: it is the answer, drawn always */
	forest = psprintf("%s/plots/forest.svg", r->dir);
	if (!safe_mkdir(psprintf("%s/plots", r->dir), 0755, 0, &error) ||
		!report_draw_forest(r, forest, &error))
	{
		log_error_text(error);
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	}
	plots = report_draw_plots(r, &nplots, &titles, &note);
	if (!profile_write_files(r, &error))
	{
		log_error_text(error);
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	}
	if (!write_doc(r, DOC_MARKDOWN, "report.md", forest, note, plots, titles, nplots) ||
		!write_doc(r, DOC_HTML, "report.html", forest, note, plots, titles, nplots))
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	if (out == NULL)
		return 0;
	if (nplots == 0)
		fprintf(out, "no plots: %s\n", escape_text(note, ESCAPE_TERMINAL));
	fprintf(out, "report: %s/report.html (and report.md, summary.json, benchstat.txt)\n",
			escape_text(r->dir, ESCAPE_TERMINAL));
	return 0;
}

/*
 * counted_view = on: its counted experiment, COUNTED_VIEW_DIR of the
 * directory, read and analyzed as a results directory of its own.  It is
 * the directory itself, not a link out of it, and a counted experiment
 * (which has no counted view of its own: nothing nests further).  Not
 * there yet or refused: a note says so, and the rest of the report stands.
 */
static void
load_counted_view(ReportData *r, const char *baseline)
{
	char	   *dir = psprintf("%s/%s", r->dir, COUNTED_VIEW_DIR);
	struct stat st;
	char	   *error = NULL;
	ReportData *cv;

	if (!r->spec.profile.counted_view || r->spec.profile.mode == PROFILE_COUNTED)
		return;
	if (lstat(dir, &st) != 0)
	{
		r->counted_view_note = psprintf("not run yet (%s/ is not there; \"%s run --resume %s\" runs it)",
										COUNTED_VIEW_DIR, progname, r->dir);
		return;
	}
	if (!S_ISDIR(st.st_mode))
	{
		r->counted_view_note = psprintf("%s/ is not a directory (a link or a file?): not read", COUNTED_VIEW_DIR);
		return;
	}
	if ((cv = report_read(dir, baseline, &error)) == NULL)
	{
		r->counted_view_note = psprintf("%s/ cannot be read: %s", COUNTED_VIEW_DIR, error);
		return;
	}
	if (cv->spec.profile.mode != PROFILE_COUNTED)
	{
		r->counted_view_note = psprintf("%s/ holds an experiment that is not counted (profile = %s): not read",
										COUNTED_VIEW_DIR, profile_mode_name(cv->spec.profile.mode));
		return;
	}
	report_analyze(cv);
	r->counted_view = cv;
}

/*
 * A results directory read back (report_read()) and analyzed: every figure
 * (report_analyze()), or the cells and their answers alone.
 */
static ReportData *
read_and_analyze(const char *dir, const char *baseline, bool cells_only, char **error)
{
	ReportData *r = report_read(dir, baseline, error);

	if (r == NULL)
		return NULL;
	if (cells_only)
	{
		report_analyze_cells(r);
		report_cell_answers(r);
	}
	else
		report_analyze(r);
	return r;
}

/* The three stages, top to bottom: load, analyze, write (out NULL: files only). */
int
report_render(const char *dir, const char *baseline, FILE *out)
{
	char	   *error = NULL;
	ReportData *r = read_and_analyze(dir, baseline, false, &error);

	if (r == NULL)
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	/* only the report shows it: compare and calibrate read no counted view */
	load_counted_view(r, baseline);
	return write_outputs(r, out);
}

/* The look after a block (runner.c): the cells and their answers alone. */
ReportData *
report_load_cells(const char *dir, const char *baseline, char **error)
{
	return read_and_analyze(dir, baseline, true, error);
}

/* A results directory loaded and analyzed, for compare and calibrate. */
ReportData *
report_load(const char *dir, const char *baseline, char **error)
{
	return read_and_analyze(dir, baseline, false, error);
}
