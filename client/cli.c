/*-------------------------------------------------------------------------
 *
 * cli.c
 *		What every part of the client shares of the command line: the
 *		program's name, usage errors the way pgbench reports them (exit
 *		status 2), and errors built elsewhere with their hint.
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
	pg_log_error("%s", msg);
	if (command)
		pg_log_error_hint("Try \"%s %s --help\" for more information.", progname, command);
	else
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
	exit(EXIT_USAGE);
}

/*
 * Log an error message built elsewhere: its text up to a "\nhint: " line as
 * the error, the rest as the hint.
 */
void
log_error_text(const char *text)
{
	const char *hint = strstr(text, "\nhint: ");

	if (hint == NULL)
	{
		pg_log_error("%s", text);
		return;
	}
	pg_log_error("%.*s", (int) (hint - text), text);
	pg_log_error_hint("%s", hint + strlen("\nhint: "));
}
