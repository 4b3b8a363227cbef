/*-------------------------------------------------------------------------
 *
 * farm_html.c
 *		The pages of "pgbench_ext history -o DIR": per history (one
 *		experiment's signature on one machine) history.html, with its plot,
 *		its change points (each with its bisect's answer where one was
 *		given) and its points (each linked to its results directory's
 *		report); and DIR/index.html, the farm at a glance: its machines,
 *		their queues (from the results database), its histories and their
 *		latest change points.
 *
 * Every name on these pages (results directories, host names, variants,
 * dates, a bisect's patch names) is read from results that may be anyone's:
 * all of it is escaped as HTML text by escape.c, and what goes into a link
 * is a path made relative and percent-encoded first.  A page is
 * self-contained as report.html is (report_doc.c: inline style, the plot
 * inlined as SVG); its links go only to files beside it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "farm.h"
#include "report.h"
#include "safe_file.h"

#include <limits.h>
#include <sys/stat.h>

#define HISTORY_PAGE	"history.html"
#define INDEX_PAGE		"index.html"

/*
 * A path as the path of a URL: bytes other than letters, digits and
 * "-._~/" as %XX, so that a "#", "?", "%", a space or a quote in a
 * directory's name is part of the path and ends nothing.
 */
static char *
url_path(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	char	   *out = pg_malloc(strlen(path) * 3 + 1);
	char	   *o = out;

	for (const unsigned char *c = (const unsigned char *) path; *c; c++)
	{
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			(*c >= '0' && *c <= '9') || strchr("-._~/", *c) != NULL)
			*o++ = (char) *c;
		else
		{
			*o++ = '%';
			*o++ = hex[*c >> 4];
			*o++ = hex[*c & 15];
		}
	}
	*o = '\0';
	return out;
}

/*
 * The path of file "to" from directory "from", both absolute and without
 * "." or ".." (realpath's), so that the pages and what they link to can
 * move together.
 */
static char *
relative_path(const char *from, const char *to)
{
	size_t		common = 0;
	const char *rest;
	char	   *up = pg_strdup("");

	while (from[common] != '\0' && from[common] == to[common])
		common++;
	/* back to the last "/" both share, unless they part at one */
	if (!((from[common] == '\0' || from[common] == '/') &&
		  (to[common] == '\0' || to[common] == '/')))
		while (common > 0 && from[common] != '/')
			common--;
	for (const char *c = from + common; *c; c++)
		if (*c == '/' && c[1] != '\0')
			up = psprintf("%s../", up);
	for (rest = to + common; *rest == '/'; rest++)
		;
	if (*up == '\0' && *rest == '\0')
		return pg_strdup(".");
	return psprintf("%s%s", up, rest);
}

/*
 * The link from a page in dir_real to the file name in directory dir, or
 * NULL when it is not there.  The directory is resolved, the file not: a
 * report.html that is a symbolic link (a results directory is anyone's)
 * is not linked, so that a link leads into the directory it names.
 */
static char *
link_to(const char *dir_real, const char *dir, const char *name)
{
	char	   *real = realpath(dir, NULL);
	struct stat st;
	char	   *href = NULL;

	if (real == NULL)
		return NULL;
	if (lstat(psprintf("%s/%s", real, name), &st) == 0 && S_ISREG(st.st_mode))
		href = url_path(relative_path(dir_real, psprintf("%s/%s", real, name)));
	free(real);
	return href;
}

/* A table cell: text escaped, as a link to href when there is one. */
static void
cell(FILE *f, const char *text, const char *href)
{
	fprintf(f, "<td>");
	if (href != NULL)
	{
		fprintf(f, "<a href=\"");
		escape_write(f, href, ESCAPE_HTML);
		fprintf(f, "\">");
	}
	escape_write(f, text, ESCAPE_HTML);
	fprintf(f, href != NULL ? "</a></td>" : "</td>");
}

static void
row_begin(FILE *f, const char *id)
{
	if (id != NULL)
		fprintf(f, "<tr id=\"%s\">", id);
	else
		fprintf(f, "<tr>");
}

/* A machine as a reader knows it: its host name, then its fingerprint. */
static char *
machine_name(const FarmMachine *m)
{
	if (m->hostname == NULL || m->hostname[0] == '\0')
		return psprintf("machine %s", m->fingerprint);
	return psprintf("%s (%s)", m->hostname, m->fingerprint);
}

/* "+5.03% [+4.77%, +5.30%]" */
static char *
shift_text(const StatsChangePoint *c)
{
	if (!c->has_ci)
		return psprintf("%+.2f%%", c->shift_pct);
	return psprintf("%+.2f%% [%+.2f%%, %+.2f%%]", c->shift_pct, 100.0 * (c->ci_low - 1),
					100.0 * (c->ci_high - 1));
}

/* The change points' table of one history's page. */
static void
change_table(Doc *d, const char *dir_real, const FarmHistory *h, const StatsChangeOptions *o)
{
	static const char *const headers[] = {
		"first point after", "written at", "shift [CI]", "p", "points before", "points after", "bisect"
	};

	doc_heading(d, 2, "Change points");
	if (h->k == 0)
	{
		doc_para(d, "No change point at alpha %g.", o->alpha);
		return;
	}
	doc_para(d, "Each change with its shift (geometric mean after / before, up to the neighbouring changes) "
			 "and its %g%% confidence interval; the bisect that looked for its cause where one was given.",
			 100.0 * (1 - o->alpha));
	doc_table_begin(d, lengthof(headers), headers);
	for (int i = 0; i < h->k; i++)
	{
		const StatsChangePoint *c = &h->cp[i];
		const FarmPoint *p = &h->pts[c->index];

		row_begin(d->out, psprintf("c%d", i + 1));
		cell(d->out, psprintf("%d", c->index + 1), psprintf("#p%d", c->index + 1));
		cell(d->out, p->written_at, NULL);
		cell(d->out, shift_text(c), NULL);
		cell(d->out, psprintf("%.3g", c->p_value), NULL);
		cell(d->out, psprintf("%d", c->n_before), NULL);
		cell(d->out, psprintf("%d", c->n_after), NULL);
		if (h->bisect_dir[i] == NULL)
			cell(d->out, "none given", NULL);
		else
		{
			char	   *md = link_to(dir_real, h->bisect_dir[i], "bisect.md");

			cell(d->out, h->bisect_answer[i], md);
		}
		fprintf(d->out, "</tr>\n");
	}
	doc_table_end(d);
}

/* The points' table: each linked to its report where that is readable. */
static void
point_table(Doc *d, const char *dir_real, const FarmHistory *h)
{
	static const char *const headers[] = {
		"point", "written at", "tps (geomean)", "runs", "variant", "results"
	};
	int			next = 0;

	doc_heading(d, 2, "Points");
	doc_para(d, "Each point the geometric mean tps of one experiment's counted runs of the variant; "
			 "its report where its results directory holds one, else the directory's path.");
	doc_table_begin(d, lengthof(headers), headers);
	for (int i = 0; i < h->n; i++)
	{
		const FarmPoint *p = &h->pts[i];
		bool		changed = next < h->k && h->cp[next].index == i;

		if (changed)
			next++;
		row_begin(d->out, psprintf("p%d", i + 1));
		cell(d->out, psprintf("%d%s", i + 1, changed ? " (change)" : ""),
			 changed ? psprintf("#c%d", next) : NULL);
		cell(d->out, p->written_at, NULL);
		cell(d->out, psprintf("%.2f", p->value), NULL);
		cell(d->out, psprintf("%d", p->runs), NULL);
		cell(d->out, p->variant ? p->variant : "", NULL);
		cell(d->out, p->label, link_to(dir_real, p->label, "report.html"));
		fprintf(d->out, "</tr>\n");
	}
	doc_table_end(d);
}

/* dir/history.html: one history */
static bool
write_history_page(const char *out_real, const FarmHistory *h, const StatsChangeOptions *o,
				   char **error)
{
	char	   *dir_real = realpath(h->dir, NULL);
	FILE	   *f;
	Doc			d = {0};

	if (dir_real == NULL)
	{
		*error = psprintf("could not resolve \"%s\": %m", h->dir);
		return false;
	}
	if ((f = safe_fopen_write(psprintf("%s/%s", h->dir, HISTORY_PAGE), false, error)) == NULL)
		return false;
	d.out = f;
	d.format = DOC_HTML;
	doc_begin(&d, psprintf("History of experiment %s on %s", h->pts[0].signature,
						   machine_name(&h->pts[0].machine)));
	fprintf(f, "<p><a href=\"%s\">All histories and machines</a></p>\n",
			url_path(relative_path(dir_real, psprintf("%s/%s", out_real, INDEX_PAGE))));
	doc_para(&d, "%s: %d point%s, %d change point%s at alpha %g (%d permutations, seed %llu, "
			 "at least %d points between changes).", h->what, h->n, h->n == 1 ? "" : "s",
			 h->k, h->k == 1 ? "" : "s", o->alpha, o->permutations, o->seed, o->min_segment);
	if (h->plot_note != NULL)
		doc_para(&d, "No plot: %s", h->plot_note);
	else
		doc_svg(&d, psprintf("%s/history.svg", h->dir),
				"tps of each point (geometric mean of its runs), each segment's level, "
				"and a dashed line with its shift at each change point");
	change_table(&d, dir_real, h, o);
	point_table(&d, dir_real, h);
	doc_end(&d);
	free(dir_real);
	return safe_fclose(f, error);
}

/* The latest change point of h (by the date of its first point), or NULL */
static const StatsChangePoint *
latest_change(const FarmHistory *h)
{
	const StatsChangePoint *latest = NULL;

	for (int i = 0; i < h->k; i++)
		if (latest == NULL ||
			strcmp(h->pts[h->cp[i].index].written_at, h->pts[latest->index].written_at) >= 0)
			latest = &h->cp[i];
	return latest;
}

static char *
change_summary(const FarmHistory *h, const StatsChangePoint *c)
{
	if (c == NULL)
		return pg_strdup("none");
	return psprintf("%s before point %d, %s", shift_text(c), c->index + 1,
					h->pts[c->index].written_at);
}

/*
 * The latest change point of the histories of any of the fingerprints fps
 * (by the date of its first point), or NULL; *at its history.
 */
static const StatsChangePoint *
latest_of(const FarmHistory *h, int nh, char *const *fps, int nfp, int *at)
{
	const StatsChangePoint *latest = NULL;

	for (int j = 0; j < nh; j++)
	{
		const StatsChangePoint *c;
		bool		mine = false;

		for (int f = 0; f < nfp && !mine; f++)
			mine = strcmp(h[j].pts[0].machine.fingerprint, fps[f]) == 0;
		if (!mine || (c = latest_change(&h[j])) == NULL)
			continue;
		if (latest == NULL ||
			strcmp(h[j].pts[c->index].written_at, h[*at].pts[latest->index].written_at) >= 0)
		{
			latest = c;
			*at = j;
		}
	}
	return latest;
}

/* A cell of the latest change point of history at, linked to its page */
static void
latest_cell(Doc *d, const char *out_real, const FarmHistory *h, int at,
			const StatsChangePoint *latest)
{
	if (latest == NULL)
		cell(d->out, "none", NULL);
	else
		cell(d->out, psprintf("%s: %s", h[at].pts[0].signature, change_summary(&h[at], latest)),
			 link_to(out_real, h[at].dir, HISTORY_PAGE));
}

/* The index's machines: one row per fingerprint, in the order first seen. */
static void
machine_table(Doc *d, const char *out_real, const FarmHistory *h, int nh)
{
	static const char *const headers[] = {
		"fingerprint", "host name", "experiments", "histories", "latest change point"
	};

	doc_heading(d, 2, "Machines");
	doc_table_begin(d, lengthof(headers), headers);
	for (int i = 0; i < nh; i++)
	{
		const FarmMachine *m = &h[i].pts[0].machine;
		int			experiments = 0,
					histories = 0,
					at = -1;
		const StatsChangePoint *latest;
		bool		seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(h[j].pts[0].machine.fingerprint, m->fingerprint) == 0;
		if (seen)
			continue;
		for (int j = i; j < nh; j++)
		{
			if (strcmp(h[j].pts[0].machine.fingerprint, m->fingerprint) != 0)
				continue;
			experiments += h[j].n;
			histories++;
		}
		row_begin(d->out, NULL);
		cell(d->out, m->fingerprint, NULL);
		cell(d->out, m->hostname ? m->hostname : "", NULL);
		cell(d->out, psprintf("%d", experiments), NULL);
		cell(d->out, psprintf("%d", histories), NULL);
		latest = latest_of(h, nh, &m->fingerprint, 1, &at);
		latest_cell(d, out_real, h, at, latest);
		fprintf(d->out, "</tr>\n");
	}
	doc_table_end(d);
}

/*
 * The index's queues: one row per agent of the results database, with the
 * latest change point of the histories of its machine and its results.
 */
static void
queue_table(Doc *d, const char *out_real, const FarmHistory *h, int nh, const FarmQueue *q)
{
	static const char *const headers[] = {
		"host name", "fingerprint", "queued for it", "running", "done", "failed",
		"latest change point"
	};

	doc_heading(d, 2, "Queues");
	if (q == NULL)
	{
		doc_para(d, "No queue to show: these pages are of results directories; the queue is in "
				 "the results database (history CONNINFO -o).");
		return;
	}
	if (q->error != NULL)
	{
		doc_para(d, "The queue could not be read: %s", q->error);
		return;
	}
	if (q->n == 0)
		doc_para(d, "No agent has registered with the database.");
	else
	{
		doc_para(d, "Each agent: the jobs queued that it may take (for any machine, its host name "
				 "or its fingerprints), and the jobs it took last by their state.");
		doc_table_begin(d, lengthof(headers), headers);
		for (int i = 0; i < q->n; i++)
		{
			const FarmAgentQueue *a = &q->agents[i];
			int			at = -1;
			const StatsChangePoint *latest = latest_of(h, nh, a->fingerprints, a->nfp, &at);

			row_begin(d->out, NULL);
			cell(d->out, a->hostname, NULL);
			cell(d->out, a->fingerprint, NULL);
			cell(d->out, psprintf("%d", a->queued), NULL);
			cell(d->out, psprintf("%d", a->running), NULL);
			cell(d->out, psprintf("%d", a->done), NULL);
			cell(d->out, psprintf("%d", a->failed), NULL);
			latest_cell(d, out_real, h, at, latest);
			fprintf(d->out, "</tr>\n");
		}
		doc_table_end(d);
	}
	if (q->unclaimed > 0)
		doc_para(d, "%d queued job%s for machines no agent has registered as.", q->unclaimed,
				 q->unclaimed == 1 ? " is" : "s are");
}

/* The index's histories: one row each, linked to its page. */
static void
history_table(Doc *d, const char *out_real, const FarmHistory *h, int nh)
{
	static const char *const headers[] = {
		"experiment", "cell", "machine", "points", "last point written", "change points",
		"latest change point"
	};

	doc_heading(d, 2, "Histories");
	doc_table_begin(d, lengthof(headers), headers);
	for (int i = 0; i < nh; i++)
	{
		char	   *page = link_to(out_real, h[i].dir, HISTORY_PAGE);

		row_begin(d->out, NULL);
		cell(d->out, h[i].pts[0].signature, page);
		cell(d->out, h[i].what, NULL);
		cell(d->out, machine_name(&h[i].pts[0].machine), NULL);
		cell(d->out, psprintf("%d", h[i].n), NULL);
		cell(d->out, h[i].pts[h[i].n - 1].written_at, NULL);
		cell(d->out, psprintf("%d", h[i].k), NULL);
		cell(d->out, change_summary(&h[i], latest_change(&h[i])), page);
		fprintf(d->out, "</tr>\n");
	}
	doc_table_end(d);
}

/*
 * Each history's page into its directory (made already, with its plot),
 * then out/index.html over them all.  source says where the points came
 * from ("12 results directories", "the database ..."), for the index;
 * queue is the database's queue, NULL from directories.
 */
bool
farm_write_pages(const char *out, const FarmHistory *h, int nh,
				 const StatsChangeOptions *change, const char *source,
				 const FarmQueue *queue, char **error)
{
	char	   *out_real;
	FILE	   *f;
	Doc			d = {0};

	if (!safe_mkdir(out, 0755, 0, error))
		return false;
	if ((out_real = realpath(out, NULL)) == NULL)
	{
		*error = psprintf("could not resolve \"%s\": %m", out);
		return false;
	}
	for (int i = 0; i < nh; i++)
		if (!write_history_page(out_real, &h[i], change, error))
			return false;
	if ((f = safe_fopen_write(psprintf("%s/%s", out, INDEX_PAGE), false, error)) == NULL)
		return false;
	d.out = f;
	d.format = DOC_HTML;
	doc_begin(&d, "Histories and change points");
	doc_para(&d, "%d histor%s (an experiment's signature on one machine) from %s; "
			 "change points at alpha %g.", nh, nh == 1 ? "y" : "ies", source, change->alpha);
	machine_table(&d, out_real, h, nh);
	queue_table(&d, out_real, h, nh, queue);
	history_table(&d, out_real, h, nh);
	doc_end(&d);
	free(out_real);
	return safe_fclose(f, error);
}
