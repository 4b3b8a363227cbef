/*-------------------------------------------------------------------------
 *
 * report_lines.c
 *		The lines the analysis adds to a report: warnings, the differences
 *		declared though no key names them, and the verdicts of build seeds.
 *
 * Of the analysis stage (report.h's map): every module of the analysis
 * adds its lines here, and the writers print them as they are.  Values of
 * experiment.json are quoted in them, so each line is kept as the terminal
 * shows it (escape.c): one line, its control characters escaped, valid
 * UTF-8 in summary.json; report.md and report.html escape it again for
 * their markup.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "report.h"

#include <stdarg.h>

static void add_line(char ***lines, int *n, const char *fmt, va_list ap) pg_attribute_printf(3, 0);

static void
add_line(char ***lines, int *n, const char *fmt, va_list ap)
{
	char		buf[2048];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	*lines = pg_realloc(*lines, sizeof(char *) * (*n + 1));
	(*lines)[(*n)++] = escape_text(buf, ESCAPE_TERMINAL);
}

void
report_warn(ReportData *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	add_line(&r->warnings, &r->nwarnings, fmt, ap);
	va_end(ap);
}

void
report_declare(ReportData *r, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	add_line(&r->declared, &r->ndeclared, fmt, ap);
	va_end(ap);
}

void
report_add_seed_line(ReportData *r, char *line)
{
	r->seed_lines = pg_realloc(r->seed_lines, sizeof(char *) * (r->nseed_lines + 1));
	r->seed_lines[r->nseed_lines++] = line;
}
