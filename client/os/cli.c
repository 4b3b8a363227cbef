/*-------------------------------------------------------------------------
 *
 * cli.c
 *		What every part of the client shares of the command line: the
 *		program's name, usage errors the way pgbench reports them (exit
 *		status 2), errors built elsewhere with their hint, the words a key
 *		or flag takes for on and off, and the clock of every duration.
 *
 * Kept apart from main.c so that the modules which report errors do not
 * depend on the command dispatch that calls them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"

#include "common/logging.h"
#include "fe_utils/option_utils.h"

#include <getopt.h>
#include <time.h>

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
	pg_log_error("%s", escape_text(msg, ESCAPE_TERMINAL_LINES));
	usage_hint_exit(command);
}

/* The hint of a usage error already said, then the usage status. */
void
usage_hint_exit(const char *command)
{
	if (command)
		pg_log_error_hint("Try \"%s %s --help\" for more information.", progname, command);
	else
		pg_log_error_hint("Try \"%s --help\" for more information.", progname);
	exit(EXIT_USAGE);
}

/*
 * *error set to a message formatted as psprintf() formats it (%m too),
 * and false: the return of a function that says why it failed.
 */
bool
fail_with(char **error, const char *fmt,...)
{
	int			save_errno = errno;
	size_t		len = 128;

	for (;;)
	{
		char	   *buf = pg_malloc(len);
		va_list		ap;
		size_t		needed;

		errno = save_errno;
		va_start(ap, fmt);
		needed = pvsnprintf(buf, len, fmt, ap);
		va_end(ap);
		if (needed < len)
		{
			*error = buf;
			return false;
		}
		pg_free(buf);
		len = needed;
	}
}

/* A whole number from min to max given to option name, or a usage error. */
int
cli_int(const char *arg, const char *name, int min, int max)
{
	int			value;

	if (!option_parse_int(arg, name, min, max, &value))
		exit(EXIT_USAGE);
	return value;
}

/*
 * The long option that arg ("--name" or "--name=value") names, itself or
 * abbreviated, or NULL; *matches counts the options it abbreviates.
 */
static const struct option *
long_option_named(const char *arg, const struct option *longopts, int *matches)
{
	size_t		len = strcspn(arg + 2, "=");
	const struct option *found = NULL;

	*matches = 0;
	for (const struct option *o = longopts; o->name; o++)
	{
		if (strncmp(o->name, arg + 2, len) != 0)
			continue;
		if (strlen(o->name) == len)
		{
			*matches = 1;
			return o;
		}
		found = o;
		(*matches)++;
	}
	return *matches == 1 ? found : NULL;
}

/*
 * getopt_long() for a command (NULL: the options before it), with the
 * client's own messages instead of getopt's, which would echo an argument
 * raw, control characters and all: an unknown or ambiguous option, a
 * missing argument or one an option does not take is a usage error (exit
 * status 2) that shows the argument escaped, and so is a "--help" (whose
 * value in the commands' tables is '?') after other arguments.  Every
 * command's loop calls it.
 */
int
cli_getopt(int argc, char **argv, const char *optstring,
		   const struct option *longopts, const char *command)
{
	char		quiet[64];
	bool		plus = optstring[0] == '+';
	int			longindex = -1;
	int			c;
	int			matches;
	const char *arg;
	const struct option *o;

	/* a leading ':' (after '+'): a missing argument returns ':' */
	snprintf(quiet, sizeof(quiet), "%s:%s", plus ? "+" : "", optstring + plus);
	opterr = 0;
	c = getopt_long(argc, argv, quiet, longopts, &longindex);
	if (c != '?' && c != ':')
		return c;
	if (longindex >= 0 || (c == '?' && optopt == '?'))
		usage_error(command, "\"--help\" must be the first argument");
	/*
	 * glibc has stepped past a long option it refused, and past a short one
	 * missing its argument (the last argument); a short option it does not
	 * know is optopt, 0 for a long one.
	 */
	arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
	o = strncmp(arg, "--", 2) == 0 ? long_option_named(arg, longopts, &matches) : NULL;
	if (c == ':')
	{
		if (strncmp(arg, "--", 2) == 0)
			usage_error(command, "option \"%s\" requires an argument", arg);
		usage_error(command, "option \"-%c\" requires an argument", optopt);
	}
	if (o != NULL && optopt != 0 && o->val == optopt && o->has_arg == no_argument)
		usage_error(command, "option \"--%s\" does not take an argument", o->name);
	if (optopt != 0)
		usage_error(command, "unrecognized option \"-%c\"", optopt);
	if (strncmp(arg, "--", 2) == 0 && matches > 1)
		usage_error(command, "option \"%.*s\" is ambiguous", (int) strcspn(arg, "="), arg);
	usage_error(command, "unrecognized option \"%s\"", arg);
}

/*
 * Log a message built elsewhere at level: its text up to a "\nhint: " line
 * as the message, the rest as the hint.  Messages echo names and values
 * from the command line, experiment files and results directories, so the
 * whole text is escaped (escape.c): a control character in them is shown,
 * never obeyed; the message's own line breaks and tabs stay.
 */
static void
log_text(enum pg_log_level level, const char *text)
{
	char	   *clean = escape_text(text, ESCAPE_TERMINAL_LINES);
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
 * then logged as log_text() logs, control characters escaped (the values
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

/* log_error_text(), then status: the return of a command that failed */
int
log_error_status(const char *text, int status)
{
	log_text(PG_LOG_ERROR, text);
	return status;
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

/* Whether s is one of the n strings of list, exactly */
bool
string_in(const char *s, char *const *list, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

/* A whole number from min to max, white space after it allowed */
bool
parse_int(const char *value, int min, int max, int *result)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || end == value || v < min || v > max)
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0')
		return false;
	*result = (int) v;
	return true;
}

/*
 * Seconds on the monotonic clock, for every duration, deadline and budget
 * (as pgbench's pg_time_now()): a step of the wall clock (NTP) must not
 * lengthen or shorten a budget.  Timestamps written to files take the
 * wall clock (time()).
 */
double
now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* "1h02m", "3m05s", "42s" */
char *
format_duration(double s)
{
	int			t = (int) (s + 0.5);

	if (t >= 3600)
		return psprintf("%dh%02dm", t / 3600, (t % 3600) / 60);
	if (t >= 60)
		return psprintf("%dm%02ds", t / 60, t % 60);
	return psprintf("%ds", t);
}
