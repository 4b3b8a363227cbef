/*-------------------------------------------------------------------------
 *
 * client.h
 *		What every source file of the pgbench_ext driver needs: PostgreSQL's
 *		frontend headers, the exit statuses, the program's name and the way
 *		errors are reported (cli.c), the way an untrusted string is written
 *		(escape.h), and the clock (cli.c).  Each
 *		module's own declarations are in its header: conn.h, table.h,
 *		layout.h, commands.h, and the headers named after their files.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CLIENT_H
#define PGBENCH_EXT_CLIENT_H

#include "postgres_fe.h"

#include "libpq-fe.h"

#include "escape.h"

#ifndef PGBENCH_EXT_VERSION
#error "PGBENCH_EXT_VERSION must be defined by the Makefile (from pgbench_ext.control)"
#endif

/* Exit statuses, as documented in --help. */
#define EXIT_RUNTIME_ERROR	1
#define EXIT_USAGE			2

extern const char *progname;

/* cli.c */
/* PG 18 replaced the suffix pg_attribute_noreturn() by the prefix pg_noreturn */
#if PG_VERSION_NUM >= 180000
pg_noreturn extern void usage_error(const char *command, const char *fmt,...) pg_attribute_printf(2, 3);
pg_noreturn extern void usage_hint_exit(const char *command);
#else
extern void usage_error(const char *command, const char *fmt,...) pg_attribute_printf(2, 3) pg_attribute_noreturn();
extern void usage_hint_exit(const char *command) pg_attribute_noreturn();
#endif
extern void log_error_text(const char *text);
extern int	log_error_status(const char *text, int status);
extern void log_warning_text(const char *text);
extern void log_errorf(const char *fmt,...) pg_attribute_printf(1, 2);
extern void log_warningf(const char *fmt,...) pg_attribute_printf(1, 2);
extern bool fail_with(char **error, const char *fmt,...) pg_attribute_printf(2, 3);
extern bool parse_bool_word(const char *value, bool *result);
extern bool parse_int(const char *value, int min, int max, int *result);
extern bool string_in(const char *s, char *const *list, int n);

/* Seconds since some fixed point, monotonic; a duration as "3m05s" */
extern double now_seconds(void);
extern char *format_duration(double s);

struct option;
extern int	cli_getopt(int argc, char **argv, const char *optstring,
					   const struct option *longopts, const char *command);
extern int	cli_int(const char *arg, const char *name, int min, int max);


#endif							/* PGBENCH_EXT_CLIENT_H */
