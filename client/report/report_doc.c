/*-------------------------------------------------------------------------
 *
 * report_doc.c
 *		A document writer with two outputs, Markdown and self-contained
 *		HTML, so that report.md and report.html are written by the same
 *		section code and always hold the same tables.
 *
 * The HTML has its style inline and its plots inlined as <svg> elements:
 * it opens offline, from a mail attachment or a CI artifact, with no
 * external asset.
 *
 * In report.h's map: a writer, the last.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"
#include "safe_read.h"

/*
 * Text into the document, as text whatever it holds (names and values come
 * from a results directory that may be anyone's), escaped by escape.c:
 * HTML's special characters as entities; in Markdown a backslash before
 * what would change the document's structure ("|" would split a table
 * cell, "<" start raw HTML, "`" a code span) and before a backslash
 * itself ("_" and "*" can only make a name italic, and stay as written);
 * control characters, a line break included, and bytes that are not
 * UTF-8 shown as "\x1b", so a table row stays one line.
 */
static void
put_escaped(Doc *d, const char *s)
{
	escape_write(d->out, s, d->format == DOC_HTML ? ESCAPE_HTML : ESCAPE_MARKDOWN);
}

void
doc_begin(Doc *d, const char *title)
{
	d->ncols = 0;
	if (d->format == DOC_MARKDOWN)
	{
		fprintf(d->out, "# ");
		put_escaped(d, title);
		fprintf(d->out, "\n\n");
		return;
	}
	fprintf(d->out, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
	put_escaped(d, title);
	/*
	 * One screen wide at most (1,400 px): wide tables scroll inside their
	 * box, plots shrink to the page; the details are collapsed sections.
	 */
	fprintf(d->out, "</title>\n<style>\n"
			"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;"
			"margin:0 auto;padding:1em 1.5em;max-width:1320px}\n"
			"h1{font-size:1.4em;margin:.3em 0 .6em;overflow-wrap:anywhere}\n"
			"h2{font-size:1.2em;margin:.8em 0 .4em}h3{font-size:1.05em}\n"
			"details{border-top:1px solid #ddd;padding:.2em 0}\n"
			"summary{cursor:pointer}summary h2{display:inline-block;margin:.3em 0}\n"
			".t{overflow-x:auto;max-width:100%%}\n"
			"table{border-collapse:collapse;margin:.6em 0;font-size:13px;font-variant-numeric:tabular-nums}\n"
			"td,th{border:1px solid #bbb;padding:.2em .5em;text-align:right;vertical-align:top}\n"
			"td{white-space:nowrap}td:last-child{white-space:normal;max-width:40em}\n"
			"th{background:#eee}td:first-child,th:first-child{text-align:left}\n"
			"pre{background:#f6f6f6;padding:.5em;overflow-x:auto}\n"
			"svg{max-width:100%%;height:auto}\n"
			"figure{margin:1em 0}figcaption{font-size:90%%;color:#444}\n"
			"@media print{details{border:0}summary{list-style:none}}\n"
			"</style></head><body>\n<h1>");
	put_escaped(d, title);
	fprintf(d->out, "</h1>\n");
}

void
doc_end(Doc *d)
{
	if (d->format == DOC_HTML && d->in_details)
		fprintf(d->out, "</details>\n");
	d->in_details = false;
	if (d->format == DOC_HTML)
		fprintf(d->out, "</body></html>\n");
}

/* Text into the document, escaped as its format needs. */
void
doc_text(Doc *d, const char *text)
{
	put_escaped(d, text);
}

/*
 * From here on, each section of the HTML is collapsed under its heading:
 * the summary above stays open, the details are a click away.
 */
void
doc_collapse_sections(Doc *d)
{
	d->collapse = true;
}

void
doc_heading(Doc *d, int level, const char *text)
{
	if (d->format == DOC_MARKDOWN)
	{
		fprintf(d->out, "%.*s ", level, "######");
		put_escaped(d, text);
		fprintf(d->out, "\n\n");
		return;
	}
	if (level == 2 && d->collapse)
	{
		fprintf(d->out, "%s<details><summary>", d->in_details ? "</details>\n" : "");
		d->in_details = true;
	}
	fprintf(d->out, "<h%d>", level);
	put_escaped(d, text);
	fprintf(d->out, "</h%d>%s\n", level, level == 2 && d->collapse ? "</summary>" : "");
}

/*
 * A collapsed part of a section (in Markdown too: GitHub and most
 * renderers fold <details>); its summary escaped as HTML in both, since
 * it is inside an HTML element.
 */
void
doc_details_begin(Doc *d, const char *summary)
{
	DocFormat	format = d->format;

	fprintf(d->out, "<details><summary>");
	d->format = DOC_HTML;
	put_escaped(d, summary);
	d->format = format;
	fprintf(d->out, format == DOC_HTML ? "</summary>\n" : "</summary>\n\n");
}

void
doc_details_end(Doc *d)
{
	fprintf(d->out, d->format == DOC_HTML ? "</details>\n" : "</details>\n\n");
}

void
doc_para(Doc *d, const char *fmt,...)
{
	va_list		ap;
	char		buf[4096];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (d->format == DOC_HTML)
		fprintf(d->out, "<p>");
	put_escaped(d, buf);
	fprintf(d->out, d->format == DOC_HTML ? "</p>\n" : "\n\n");
}

void
doc_table_begin(Doc *d, int ncols, const char *const *headers)
{
	d->ncols = ncols;
	if (d->format == DOC_HTML)
		fprintf(d->out, "<div class=\"t\"><table><tr>");
	else
		fprintf(d->out, "|");
	for (int i = 0; i < ncols; i++)
	{
		fprintf(d->out, d->format == DOC_HTML ? "<th>" : " ");
		put_escaped(d, headers[i]);
		fprintf(d->out, d->format == DOC_HTML ? "</th>" : " |");
	}
	if (d->format == DOC_HTML)
		fprintf(d->out, "</tr>\n");
	else
	{
		fprintf(d->out, "\n|");
		for (int i = 0; i < ncols; i++)
			fprintf(d->out, i == 0 ? " --- |" : " ---: |");
		fprintf(d->out, "\n");
	}
}

void
doc_table_row(Doc *d, const char *const *cells)
{
	doc_table_row_marked(d, cells, -1, NULL);
}

/*
 * A row whose cell "col" is in colour (HTML; Markdown has none): a
 * verdict, coloured as in the forest plot.
 */
void
doc_table_row_marked(Doc *d, const char *const *cells, int col, const char *colour)
{
	fprintf(d->out, d->format == DOC_HTML ? "<tr>" : "|");
	for (int i = 0; i < d->ncols; i++)
	{
		if (d->format == DOC_HTML && i == col && colour != NULL)
			fprintf(d->out, "<td style=\"color:%s;font-weight:bold\">", colour);
		else
			fprintf(d->out, d->format == DOC_HTML ? "<td>" : " ");
		put_escaped(d, cells[i] ? cells[i] : "");
		fprintf(d->out, d->format == DOC_HTML ? "</td>" : " |");
	}
	fprintf(d->out, d->format == DOC_HTML ? "</tr>\n" : "\n");
}

void
doc_table_end(Doc *d)
{
	fprintf(d->out, d->format == DOC_HTML ? "</table></div>\n" : "\n");
	d->ncols = 0;
}

/*
 * A plot: Markdown links the SVG file beside it; HTML inlines the SVG
 * element itself, without the XML prolog and DOCTYPE gnuplot writes, its
 * <title> ("Gnuplot") replaced by the caption, which a screen reader and
 * a hovering pointer show.
 */
void
doc_svg(Doc *d, const char *svg_path, const char *caption)
{
	FILE	   *f;
	char		buf[8192];
	bool		in_svg = false;
	const char *base = strrchr(svg_path, '/');

	base = base ? base + 1 : svg_path;
	if (d->format == DOC_MARKDOWN)
	{
		/*
		 * The caption may hold a script's name: escaped as all text, and
		 * brackets, which would end the link's text, as parentheses.
		 */
		char	   *text = pg_strdup(caption);

		for (char *c = text; *c; c++)
			*c = *c == '[' ? '(' : *c == ']' ? ')' : *c;
		fprintf(d->out, "![");
		put_escaped(d, text);
		fprintf(d->out, "](plots/%s)\n\n", base);
		pfree(text);
		return;
	}
	if ((f = safe_fopen_read_optional(svg_path, SAFE_MAX_SVG)) == NULL)
		return;
	fprintf(d->out, "<figure>\n");
	while (fgets(buf, sizeof(buf), f))
	{
		char	   *start = buf;

		if (!in_svg)
		{
			if ((start = strstr(buf, "<svg")) == NULL)
				continue;
			in_svg = true;
		}
		if (strcmp(start, "<title>Gnuplot</title>\n") == 0)
		{
			fprintf(d->out, "<title>");
			put_escaped(d, caption);
			fprintf(d->out, "</title>\n");
			continue;
		}
		fwrite(start, 1, strlen(start), d->out);
	}
	fclose(f);
	fprintf(d->out, "<figcaption>");
	put_escaped(d, caption);
	fprintf(d->out, "</figcaption></figure>\n");
}
