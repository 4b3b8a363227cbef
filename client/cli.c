/*-------------------------------------------------------------------------
 *
 * cli.c
 *		What every part of the client shares of the command line: the
 *		program's name, usage errors the way pgbench reports them (exit
 *		status 2), errors built elsewhere with their hint, and the words a
 *		key or flag takes for on and off.
 *
 * Kept apart from main.c so that the modules which report errors do not
 * depend on the command dispatch that calls them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"

#include "common/logging.h"

const char *progname;

/*
 * text fit for the terminal: messages echo names and values from the
 * command line, experiment files and results directories, and an escape
 * sequence among them would drive the terminal.  Control characters
 * (C0, DEL and C1 in UTF-8) become '?'; line breaks and tabs stay, as the
 * messages' own lines need them (values with line breaks are refused).
 */
char *
printable_text(const char *text)
{
	char	   *copy = pg_strdup(text);

	for (unsigned char *p = (unsigned char *) copy; *p; p++)
	{
		if (*p == '\n' || *p == '\t')
			continue;
		if (*p < 0x20 || *p == 0x7f)
			*p = '?';
		else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		{
			p[0] = '?';
			p[1] = '?';
			p++;
		}
	}
	return copy;
}

/*
 * Report a command-line problem the way pgbench does, then exit with the
 * usage status.  command may be NULL for top-level options.
 */
void
usage_error(const char *command, const char *fmt,...)
{
	va_list		ap;
	char		msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pg_log_error("%s", printable_text(msg));
	if (command)
		pg_log_error_hint("Try \"%s %s --help\" for more information.", progname, command);
	else
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
	exit(EXIT_USAGE);
}

/*
 * Log a message built elsewhere at level: its text up to a "\nhint: " line
 * as the message, the rest as the hint; control characters replaced.
 */
static void
log_text(enum pg_log_level level, const char *text)
{
	char	   *clean = printable_text(text);
	const char *hint = strstr(clean, "\nhint: ");

	if (hint == NULL)
	{
		pg_log_generic(level, PG_LOG_PRIMARY, "%s", clean);
		return;
	}
	pg_log_generic(level, PG_LOG_PRIMARY, "%.*s", (int) (hint - clean), clean);
	pg_log_generic(level, PG_LOG_HINT, "%s", hint + strlen("\nhint: "));
}

static void log_textv(enum pg_log_level level, const char *fmt, va_list ap) pg_attribute_printf(2, 0);

/* log_text() of a message still to be formatted */
static void
log_textv(enum pg_log_level level, const char *fmt, va_list ap)
{
	char		text[4096];

	vsnprintf(text, sizeof(text), fmt, ap);
	log_text(level, text);
}

/*
 * pg_log_error() and pg_log_warning() for the client's messages: formatted,
 * then logged as log_text() logs, control characters replaced (the values
 * in them come from the command line, experiment files and results
 * directories).
 */
void
log_errorf(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	log_textv(PG_LOG_ERROR, fmt, ap);
	va_end(ap);
}

void
log_warningf(const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	log_textv(PG_LOG_WARNING, fmt, ap);
	va_end(ap);
}

/* An error message built elsewhere, with its hint. */
void
log_error_text(const char *text)
{
	log_text(PG_LOG_ERROR, text);
}

/* log_error_text() for a warning: the run, or the report, goes on. */
void
log_warning_text(const char *text)
{
	log_text(PG_LOG_WARNING, text);
}

/* on/off, true/false, yes/no, 1/0, as PostgreSQL reads a boolean setting */
bool
parse_bool_word(const char *value, bool *result)
{
	if (pg_strcasecmp(value, "on") == 0 || pg_strcasecmp(value, "true") == 0 ||
		pg_strcasecmp(value, "yes") == 0 || strcmp(value, "1") == 0)
		*result = true;
	else if (pg_strcasecmp(value, "off") == 0 || pg_strcasecmp(value, "false") == 0 ||
			 pg_strcasecmp(value, "no") == 0 || strcmp(value, "0") == 0)
		*result = false;
	else
		return false;
	return true;
}
