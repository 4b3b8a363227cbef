/*-------------------------------------------------------------------------
 *
 * farm_plot.c
 *		The files of "pgbench_ext history --output DIR": the series
 *		(history.dat), its change points (changepoints.csv), and a gnuplot
 *		SVG of the series with each change point marked and each segment's
 *		level drawn (history.svg, from history.gp, kept to redraw by hand).
 *
 * gnuplot is found and run as the reports' plots do (report_plots.c); when
 * it is missing or fails, the data files are still written and *note
 * says why there is no plot.  Every file goes through safe_file.c.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "farm.h"
#include "report.h"
#include "safe_file.h"

#include <math.h>

/* history.dat: point, value, runs, label; then the segments' levels */
static bool
write_data(const char *dir, const FarmPoint *pts, int n,
		   const StatsChangePoint *cp, int k, char **error)
{
	FILE	   *f = safe_fopen_write(psprintf("%s/history.dat", dir), false, error);
	int			start = 0;

	if (f == NULL)
		return false;
	fprintf(f, "# point tps_geomean runs\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "%d %.6g %d\n", i + 1, pts[i].value, pts[i].runs);

	/* block 1: each segment's geometric mean, as a level from end to end */
	fprintf(f, "\n\n# segment: first_point last_point level\n");
	for (int s = 0; s <= k; s++)
	{
		int			end = s < k ? cp[s].index : n;
		double		sum = 0.0;

		for (int i = start; i < end; i++)
			sum += log(pts[i].value);
		if (end > start)
			fprintf(f, "%.1f %.6g\n%.1f %.6g\n\n", start + 0.5, exp(sum / (end - start)),
					end + 0.5, exp(sum / (end - start)));
		start = end;
	}
	return safe_fclose(f, error);
}

/* changepoints.csv: one line per change point */
static bool
write_changes(const char *dir, const FarmPoint *pts, const StatsChangePoint *cp,
			  int k, char **error)
{
	FILE	   *f = safe_fopen_write(psprintf("%s/changepoints.csv", dir), false, error);

	if (f == NULL)
		return false;
	fprintf(f, "point,results,shift,shift_pct,ci_low,ci_high,p_value,n_before,n_after\n");
	for (int i = 0; i < k; i++)
	{
		/* a directory name may hold a quote or a comma: quoted as CSV */
		const char *label = pts[cp[i].index].label;

		fprintf(f, "%d,\"", cp[i].index + 1);
		for (const char *c = label; *c; c++)
		{
			if (*c == '"')
				fputc('"', f);
			fputc(*c, f);
		}
		fprintf(f, "\",%.6g,%.4f,", cp[i].shift, cp[i].shift_pct);
		if (cp[i].has_ci)
			fprintf(f, "%.6g,%.6g", cp[i].ci_low, cp[i].ci_high);
		else
			fprintf(f, ",");
		fprintf(f, ",%.4g,%d,%d\n", cp[i].p_value, cp[i].n_before, cp[i].n_after);
	}
	return safe_fclose(f, error);
}

/* history.gp, then gnuplot on it: history.svg */
static bool
draw(const char *dir, const StatsChangePoint *cp, int k, char **note)
{
	char	   *gnuplot = report_find_gnuplot(note);
	char	   *script = psprintf("%s/history.gp", dir);
	char	   *data = report_gp_path(psprintf("%s/history.dat", dir));
	FILE	   *f;

	if (gnuplot == NULL || !report_gp_path_ok(dir, note))
		return false;
	if ((f = safe_fopen_write(script, false, note)) == NULL)
		return false;
	fprintf(f, "# drawn by pgbench_ext history; run gnuplot on this file to redraw\n"
			"set terminal svg size 800,420 dynamic noenhanced font 'sans,11' background '#ffffff'\n"
			"set output %s\nset title 'history: tps (geometric mean of each point''s runs) and change points'\n"
			"set xlabel 'point'\nset ylabel 'tps'\nset key outside right top\nset grid\n",
			report_gp_path(psprintf("%s/history.svg", dir)));
	for (int i = 0; i < k; i++)
		fprintf(f, "set arrow %d from first %.1f, graph 0 to first %.1f, graph 1 nohead lc rgb '#d62728' dt 2\n"
				"set label %d %s at first %.1f, graph 0.95 offset 0.5,0 tc rgb '#d62728'\n",
				i + 1, cp[i].index + 0.5, cp[i].index + 0.5, i + 1,
				report_gp_quote(psprintf("%+.1f%%", cp[i].shift_pct)), cp[i].index + 0.5);
	fprintf(f, "plot %s index 0 using 1:2 with linespoints pt 7 ps 0.7 lc rgb '#1f77b4' title 'point', "
			"%s index 1 using 1:2 with lines lw 2 lc rgb '#2ca02c' title 'segment level'\n", data, data);
	if (!safe_fclose(f, note))
		return false;
	/* gnuplot writes through a link found in its place: away with it first */
	if (!safe_remove_file(psprintf("%s/history.svg", dir), note))
		return false;
	return report_run_gnuplot(gnuplot, script, note);
}

/*
 * The history's files into dir (made if missing).  False with *note the
 * error when a file cannot be written; true with *note set when only the
 * plot could not be drawn.
 */
bool
farm_write_history(const char *dir, const FarmPoint *pts, int n,
				   const StatsChangePoint *cp, int k, char **note)
{
	*note = NULL;
	if (!safe_mkdir(dir, 0755, 0, note) ||
		!write_data(dir, pts, n, cp, k, note) ||
		!write_changes(dir, pts, cp, k, note))
		return false;
	if (!draw(dir, cp, k, note) && *note == NULL)
		*note = pg_strdup("gnuplot drew nothing");
	return true;
}
