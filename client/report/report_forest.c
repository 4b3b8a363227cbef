/*-------------------------------------------------------------------------
 *
 * report_forest.c
 *		The forest plot of every comparison's answer: an SVG at the top of
 *		report.md and report.html, and a text plot under the terminal's
 *		verdict table.  A writer: it draws the answers report_answer.c
 *		stored in the cells and computes none.
 *
 * The forest plot draws each comparison as a row: its estimate and CI on a
 * log-ratio axis, the ±noise band shaded, coloured and labelled by its
 * verdict, with n beside it.  The SVG is written by hand rather than by
 * gnuplot: it must exist whether or not gnuplot is installed, since it is
 * the answer, and its layout (a text column per row) is a table more than
 * a chart.  Its colours are the Okabe-Ito palette, told apart by people
 * with any common colour-vision deficiency, and each verdict has a marker
 * of its own as well, so that a grey print still tells them apart.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "safe_file.h"
#include "table.h"

#include <math.h>

/* Okabe-Ito: apart for every common colour-vision deficiency */
const char *
report_class_colour(ReportClass k)
{
	static const char *const colours[] = {
		[REPORT_FASTER] = "#009E73",	/* bluish green */
		[REPORT_SLOWER] = "#D55E00",	/* vermillion */
		[REPORT_LEANS_FASTER] = "#009E73",	/* faster's, its marker hollow */
		[REPORT_LEANS_SLOWER] = "#D55E00",
		[REPORT_NO_CHANGE] = "#0072B2", /* blue */
		[REPORT_SAME] = "#CC79A7",	/* reddish purple */
		[REPORT_UNDECIDED] = "#E69F00", /* orange */
		[REPORT_INSUFFICIENT] = "#666666",
	};

	return colours[k];
}

/*
 * The log-ratio range of the plot: every estimate and CI, and the noise
 * band, with a margin; at least ±5% so that a tight A/A is not a blur.
 */
static void
forest_range(const ReportData *r, double *lo, double *hi)
{
	*lo = log(1 - 5 * r->opt.noise);
	*hi = log(1 + 5 * r->opt.noise);
	for (int i = 0; i < r->ncells; i++)
	{
		const StatsComparison *cmp = report_cell_answer(r, &r->cells[i]);

		if (cmp == NULL || !cmp->has_estimate)
			continue;
		*lo = fmin(*lo, log(cmp->has_ci ? cmp->ci_low : cmp->estimate));
		*hi = fmax(*hi, log(cmp->has_ci ? cmp->ci_high : cmp->estimate));
	}
	{
		double		margin = 0.06 * (*hi - *lo);

		*lo -= margin;
		*hi += margin;
	}
}

/* "+12%", "-50%", "0" for a tick of the axis */
static char *
tick_label(double ratio)
{
	double		pct = 100 * (ratio - 1);

	if (fabs(pct) < 1e-9)
		return pg_strdup("0");
	return psprintf("%+.*f%%", fabs(pct) < 1 ? 1 : 0, pct);
}

/*
 * Ticks of a log-ratio axis from lo to hi over width units: round
 * changes, each at least min_gap units from the one before, 0 always.
 */
static int
forest_ticks(double lo, double hi, double width, double min_gap, double *ticks)
{
	static const double pcts[] = {-95, -90, -80, -60, -50, -40, -30, -20, -10, -5, -2, -1,
		-0.5, 0, 0.5, 1, 2, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000, 2000};
	double		last = -INFINITY;
	double		zero = (0 - lo) / (hi - lo) * width;
	int			n = 0;

	for (int i = 0; i < lengthof(pcts); i++)
	{
		double		ratio = 1 + pcts[i] / 100;
		double		x = (log(ratio) - lo) / (hi - lo) * width;

		if (x < 0 || x > width)
			continue;
		/* 0 is always drawn: keep room for it */
		if (pcts[i] != 0 && (x - last < min_gap || fabs(x - zero) < min_gap))
			continue;
		ticks[n++] = ratio;
		last = x;
	}
	return n;
}

/* A row's label: the cell, unless every row is of one cell. */
static char *
row_label(const ReportData *r, const ReportCell *c)
{
	if (r->spec.nscripts == 1 && r->spec.nclients == 1)
		return psprintf("%s vs %s", c->name, c->base_name);
	return report_cell_title(c);
}

/* "-56.11% [-57.84%, -54.78%]", or what there is of it */
char *
report_answer_figures(const StatsComparison *cmp)
{
	if (cmp == NULL || !cmp->has_estimate)
		return pg_strdup("no estimate");
	if (!cmp->has_ci)
		return psprintf("%s, no CI", report_pct(cmp->estimate));
	return psprintf("%s [%s, %s]", report_pct(cmp->estimate), report_pct(cmp->ci_low),
					report_pct(cmp->ci_high));
}

/* The verdict's marker, centred on (x, y): its shape tells it in grey too. */
static void
svg_marker(FILE *f, ReportClass k, double x, double y)
{
	const char *col = report_class_colour(k);

	switch (k)
	{
		case REPORT_FASTER:
			fprintf(f, "<path d=\"M%.1f %.1fl6 10h-12z\" fill=\"%s\"/>\n", x, y - 6, col);
			break;
		case REPORT_SLOWER:
			fprintf(f, "<path d=\"M%.1f %.1fl6 -10h-12z\" fill=\"%s\"/>\n", x, y + 6, col);
			break;
		case REPORT_LEANS_FASTER:
			fprintf(f, "<path d=\"M%.1f %.1fl6 10h-12z\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					x, y - 6, col);
			break;
		case REPORT_LEANS_SLOWER:
			fprintf(f, "<path d=\"M%.1f %.1fl6 -10h-12z\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					x, y + 6, col);
			break;
		case REPORT_SAME:
			fprintf(f, "<path d=\"M%.1f %.1fl6 6l-6 6l-6 -6z\" fill=\"%s\"/>\n", x, y - 6, col);
			break;
		case REPORT_NO_CHANGE:
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"/>\n", x, y, col);
			break;
		case REPORT_UNDECIDED:
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					x, y, col);
			break;
		case REPORT_INSUFFICIENT:
			fprintf(f, "<path d=\"M%.1f %.1fl10 10m0 -10l-10 10\" stroke=\"%s\" stroke-width=\"2\"/>\n",
					x - 5, y - 5, col);
			break;
	}
}

/* SVG text at (x, y), its content escaped: names come from the results directory. */
static void
svg_text(Doc *d, double x, double y, const char *attrs, const char *text)
{
	fprintf(d->out, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, *attrs ? " " : "", attrs);
	doc_text(d, text);
	fprintf(d->out, "</text>\n");
}

typedef struct ForestGeometry
{
	double		lo,
				hi;				/* log ratios at the plot's edges */
	double		x0,
				width;			/* the plot area, in px */
	double		top;			/* y of the first row */
	int			row_h;
	double		n_dx;			/* the n column's offset from the verdict's */
} ForestGeometry;

static double
forest_x(const ForestGeometry *g, double ratio)
{
	return g->x0 + (log(ratio) - g->lo) / (g->hi - g->lo) * g->width;
}

/* One comparison: its label, CI, estimate, figures, verdict and n. */
static void
svg_row(const ReportData *r, Doc *d, const ForestGeometry *g, int i)
{
	const ReportCell *c = &r->cells[i];
	const StatsComparison *cmp = report_cell_answer(r, c);
	ReportClass k = c->klass;
	const char *col = report_class_colour(k);
	double		y = g->top + i * g->row_h + g->row_h / 2.0;
	double		tx = g->x0 + g->width + 16;
	char	   *attrs;

	if (i % 2 == 1)
		fprintf(d->out, "<rect x=\"0\" y=\"%.1f\" width=\"100%%\" height=\"%d\" fill=\"#000\" fill-opacity=\"0.04\"/>\n",
				y - g->row_h / 2.0, g->row_h);
	svg_text(d, g->x0 - 10, y + 4, "text-anchor=\"end\"", row_label(r, c));
	if (cmp != NULL && cmp->has_ci)
		fprintf(d->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"3\"/>\n",
				forest_x(g, cmp->ci_low), y, forest_x(g, cmp->ci_high), y, col);
	if (cmp != NULL && cmp->has_estimate)
		svg_marker(d->out, k, forest_x(g, cmp->estimate), y);
	svg_text(d, tx, y + 4, "", report_answer_figures(cmp));
	attrs = psprintf("font-weight=\"bold\" fill=\"%s\"", col);
	svg_text(d, tx + 200, y + 4, attrs, report_cell_verdict(r, c));
	svg_text(d, tx + 200 + g->n_dx, y + 4, "fill=\"#444\"", cmp != NULL ? report_comparison_n(cmp) : "-");
}

/* The axis under the rows: ticks, their labels and what the axis is. */
static void
svg_axis(const ReportData *r, Doc *d, const ForestGeometry *g, double bottom)
{
	double		ticks[32];
	int			nticks = forest_ticks(g->lo, g->hi, g->width, 46, ticks);

	fprintf(d->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
			g->x0, bottom, g->x0 + g->width, bottom);
	for (int t = 0; t < nticks; t++)
	{
		double		x = forest_x(g, ticks[t]);

		fprintf(d->out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
				x, bottom, x, bottom + 5);
		svg_text(d, x, bottom + 18, "text-anchor=\"middle\"", tick_label(ticks[t]));
	}
	svg_text(d, g->x0 + g->width / 2, bottom + 38, "text-anchor=\"middle\"",
			 psprintf("B/A: change of %s against the baseline, log scale; shaded: the ±%g%% noise band",
					  r->opt.higher_is_better ? "tps" : "the figure", 100 * r->opt.noise));
	fprintf(d->out, "<text transform=\"translate(14,%.1f) rotate(-90)\" text-anchor=\"middle\">comparison</text>\n",
			g->top + (bottom - g->top) / 2);
}

/*
 * The forest plot as an SVG file at path.  Its <title> and <desc> say what
 * it shows to a screen reader; the figures are beside each row as text.
 */
bool
report_draw_forest(const ReportData *r, const char *path, char **error)
{
	ForestGeometry g = {0};
	Doc			d = {NULL, DOC_HTML};
	int			label_chars = 10,
				verdict_chars = 20;
	int			width,
				height;
	double		bottom;

	if (r->ncells == 0)
		return true;
	for (int i = 0; i < r->ncells; i++)
	{
		label_chars = Max(label_chars, (int) strlen(row_label(r, &r->cells[i])));
		verdict_chars = Max(verdict_chars, table_display_width(report_cell_verdict(r, &r->cells[i])));
	}
	forest_range(r, &g.lo, &g.hi);
	/* a verdict's words are as long as they must be: "slower; beyond 1% not settled" */
	g.n_dx = 20 + Min(verdict_chars, 60) * 7.5;
	g.x0 = 30 + Min(label_chars, 60) * 7.5;
	g.width = 480;
	g.top = 52;
	g.row_h = 28;
	bottom = g.top + r->ncells * g.row_h + 4;
	width = (int) (g.x0 + g.width + 16 + 330 + g.n_dx);
	height = (int) bottom + 50;
	if ((d.out = safe_fopen_write(path, false, error)) == NULL)
		return false;
	fprintf(d.out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
			"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"forest\" width=\"%d\" height=\"%d\" "
			"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\" role=\"img\">\n",
			width, height, width, height);
	fprintf(d.out, "<title>Forest plot: each comparison's estimate and %.0f%% CI of B/A</title>\n"
			"<desc>One row per comparison (cell, variant against the baseline); its verdict, "
			"estimate, CI and n are written beside it.</desc>\n",
			100 * (1 - r->opt.alpha));
	fprintf(d.out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
	svg_text(&d, 10, 18, "font-size=\"14\" font-weight=\"bold\"",
			 r->sequential ? "B/A of each comparison at its deciding (or last) look, with its CI"
			 : psprintf("B/A of each comparison, with its %.0f%% CI", 100 * (1 - r->opt.alpha)));
	svg_text(&d, g.x0 + g.width + 16, 42, "font-weight=\"bold\"", "B/A [CI]");
	svg_text(&d, g.x0 + g.width + 216, 42, "font-weight=\"bold\"", r->sequential ? "decision" : "verdict");
	svg_text(&d, g.x0 + g.width + 216 + g.n_dx, 42, "font-weight=\"bold\"", "n");
	fprintf(d.out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#999\" fill-opacity=\"0.3\"/>\n",
			forest_x(&g, 1 - r->opt.noise), g.top, fmax(1, forest_x(&g, 1 + r->opt.noise) - forest_x(&g, 1 - r->opt.noise)),
			bottom - g.top);
	fprintf(d.out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" stroke-dasharray=\"3 3\"/>\n",
			forest_x(&g, 1), g.top, forest_x(&g, 1), bottom);
	for (int i = 0; i < r->ncells; i++)
		svg_row(r, &d, &g, i);
	svg_axis(r, &d, &g, bottom);
	fprintf(d.out, "</svg>\n");
	return safe_fclose(d.out, error);
}

/* The column of log ratio x in a strip of w characters from lo to hi. */
static int
strip_pos(double x, double lo, double hi, int w)
{
	return (int) lround((x - lo) / (hi - lo) * (w - 1));
}

/* The text plot's strip of one comparison: | no change, [==*==] its CI. */
static char *
text_strip(const ReportData *r, const ReportCell *c, double lo, double hi, int w)
{
	const StatsComparison *cmp = report_cell_answer(r, c);
	char	   *s = pg_malloc(w + 1);
	int			zero = strip_pos(0, lo, hi, w);

	memset(s, ' ', w);
	s[w] = '\0';
	if (cmp != NULL && cmp->has_ci)
	{
		int			a = strip_pos(log(cmp->ci_low), lo, hi, w),
					b = strip_pos(log(cmp->ci_high), lo, hi, w);

		for (int x = a; x <= b; x++)
			s[x] = '=';
		s[a] = '[';
		s[b] = ']';
	}
	if (s[zero] == ' ' || s[zero] == '=')
		s[zero] = '|';
	if (cmp != NULL && cmp->has_estimate)
		s[strip_pos(log(cmp->estimate), lo, hi, w)] = '*';
	return s;
}

/*
 * Under the terminal's table: the same forest as text, one line per
 * comparison, on one log axis for all, then the axis with its ends and 0.
 * A label holds names: it is padded as the terminal shows it (escape.c).
 */
void
report_print_forest(const ReportData *r, FILE *out)
{
	const int	w = 41;
	double		lo,
				hi;
	int			label_w = 0,
				verdict_w = 0;
	char	   *axis = pg_malloc(w + 1);
	char	   *left,
			   *right;
	int			zero;

	if (r->ncells == 0)
		return;
	forest_range(r, &lo, &hi);
	for (int i = 0; i < r->ncells; i++)
	{
		label_w = Max(label_w, table_display_width(escape_text(row_label(r, &r->cells[i]), ESCAPE_TERMINAL)));
		verdict_w = Max(verdict_w, table_display_width(report_cell_verdict(r, &r->cells[i])));
	}
	fprintf(out, "\n");
	for (int i = 0; i < r->ncells; i++)
	{
		const ReportCell *c = &r->cells[i];
		char	   *verdict = report_cell_verdict(r, c);
		char	   *label = escape_text(row_label(r, c), ESCAPE_TERMINAL);

		/* padded by characters: "±" is two bytes */
		fprintf(out, " %s%*s  %s  %s%*s  %s\n", label, label_w - table_display_width(label), "",
				text_strip(r, c, lo, hi, w), verdict, verdict_w - table_display_width(verdict), "",
				report_answer_figures(report_cell_answer(r, c)));
	}
	memset(axis, ' ', w);
	axis[w] = '\0';
	left = tick_label(exp(lo));
	right = tick_label(exp(hi));
	zero = strip_pos(0, lo, hi, w);
	memcpy(axis, left, strlen(left));
	memcpy(axis + w - strlen(right), right, strlen(right));
	if (zero > (int) strlen(left) && zero < w - (int) strlen(right) - 1)
		axis[zero] = '0';
	fprintf(out, " %-*s  %s  B/A, log scale: | no change, [=*=] the CI and estimate\n",
			label_w, "", axis);
}
