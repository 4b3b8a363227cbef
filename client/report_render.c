/*-------------------------------------------------------------------------
 *
 * report_render.c
 *		Every output of a report from a results directory: the verdict
 *		table on the terminal, summary.json, benchstat.txt, the plots, the
 *		profiles' files, report.md and report.html.  The "report" command
 *		and the end of "run" and "ab" both call report_render().
 *
 * Files are written into the results directory without following a link
 * planted there (safe_file.c).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile.h"
#include "report.h"
#include "results.h"
#include "safe_file.h"

#include "common/logging.h"

static bool
write_doc(const ReportData *r, DocFormat format, const char *name,
		  const char *note, char **plots, int nplots)
{
	char	   *path = psprintf("%s/%s", r->dir, name);
	char	   *error;
	Doc			d = {safe_fopen_write(path, false, &error), format};

	if (d.out == NULL)
	{
		log_error_text(error);
		return false;
	}
	report_write_doc(r, &d, note, plots, nplots);
	if (!safe_fclose(d.out, &error))
	{
		log_error_text(error);
		return false;
	}
	return true;
}

int
report_render(const char *dir, const char *baseline, FILE *out)
{
	char	   *error = NULL;
	ReportData *r = report_load(dir, baseline, &error);
	char	   *note = NULL;
	char	  **plots;
	int			nplots;
	json_t	   *summary;

	if (r == NULL)
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	report_print_table(r, out);

	summary = report_summary_json(r);
	/* a link or FIFO planted where the report writes is refused input */
	if (!results_write_json(dir, "summary.json", summary, &error) ||
		!report_write_benchstat(r, psprintf("%s/benchstat.txt", dir), &error))
	{
		log_error_text(error);
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	}
	json_decref(summary);
	plots = report_draw_plots(r, &nplots, &note);
	if (!profile_write_files(r, &error))
	{
		log_error_text(error);
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	}
	if (!write_doc(r, DOC_MARKDOWN, "report.md", note, plots, nplots) ||
		!write_doc(r, DOC_HTML, "report.html", note, plots, nplots))
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	if (nplots == 0)
		fprintf(out, "no plots: %s\n", note);
	fprintf(out, "report: %s/report.html (and report.md, summary.json, benchstat.txt)\n", dir);
	return 0;
}
