/*-------------------------------------------------------------------------
 *
 * client.h
 *		Declarations shared by the pgbench_ext driver's source files.
 *
 * One file per job: main.c dispatches commands, conn.c connects and checks
 * versions, table.c prints aligned tables, cmd_*.c implement commands.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CLIENT_H
#define PGBENCH_EXT_CLIENT_H

#include "postgres_fe.h"

#include "libpq-fe.h"

#ifndef PGBENCH_EXT_VERSION
#error "PGBENCH_EXT_VERSION must be defined by the Makefile (from pgbench_ext.control)"
#endif

/* Exit statuses, as documented in --help. */
#define EXIT_RUNTIME_ERROR	1
#define EXIT_USAGE			2

extern const char *progname;

/* main.c */
/* PG 18 replaced the suffix pg_attribute_noreturn() by the prefix pg_noreturn */
#if PG_VERSION_NUM >= 180000
pg_noreturn extern void usage_error(const char *command, const char *fmt,...) pg_attribute_printf(2, 3);
#else
extern void usage_error(const char *command, const char *fmt,...) pg_attribute_printf(2, 3) pg_attribute_noreturn();
#endif
extern void log_error_text(const char *text);

/* conn.c: connection options common to every command that talks to a server */
typedef struct ConnOptions
{
	const char *conninfo;		/* positional CONNINFO, may be NULL */
	const char *host;
	const char *port;
	const char *username;
	const char *dbname;
} ConnOptions;

/* getopt pieces every connecting command shares */
#define CONN_SHORT_OPTIONS "h:p:U:d:"
#define CONN_LONG_OPTIONS \
	{"host", required_argument, NULL, 'h'}, \
	{"port", required_argument, NULL, 'p'}, \
	{"username", required_argument, NULL, 'U'}, \
	{"dbname", required_argument, NULL, 'd'}

extern bool conn_option(int c, const char *arg, ConnOptions *opts);
extern void conn_usage(void);
extern PGconn *connect_or_die(const ConnOptions *opts);
extern PGconn *connect_checked(const ConnOptions *opts);
extern char *describe_conninfo(PGconn *conn);
extern bool check_extension_version(PGconn *conn, char **problem, char **hint);
extern PGresult *exec_or_die(PGconn *conn, const char *sql);

/* table.c: aligned text tables, as psql prints them */
typedef struct TextTable TextTable;

extern TextTable *table_create(int ncols, const char *const *headers);
extern void table_set_max_width(TextTable *t, int col, int width);
extern void table_add_row(TextTable *t, const char *const *cells);
extern void table_print(const TextTable *t, FILE *out);
extern void table_free(TextTable *t);

/* layout_io.c, layout_diff.c: struct layouts of a server, saved or live */
typedef struct LayoutFieldInfo
{
	char	   *name;
	char	   *type;
	int			offset;
	int			size;
} LayoutFieldInfo;

typedef struct LayoutStructInfo
{
	char	   *name;
	int			size;			/* sizeof, from the (total) row */
	int			nfields;
	LayoutFieldInfo *fields;	/* in declaration order */
} LayoutStructInfo;

typedef struct Layout
{
	char	   *source;			/* file name or server description */
	char	   *server_version;
	int			pg_cache_line_size;
	int			nstructs;
	LayoutStructInfo *structs;
} Layout;

extern Layout *layout_from_server(PGconn *conn);
extern Layout *layout_from_file(const char *path);
extern void layout_save(const Layout *layout, const char *path);
extern void layout_print(const Layout *layout, int line_size, FILE *out);
extern void layout_diff(const Layout *a, const Layout *b, int line_size, FILE *out);

/* progress.c */
extern double now_seconds(void);

/* commands: each takes the arguments after its own name */
extern int	cmd_env(int argc, char **argv);
extern int	cmd_layout(int argc, char **argv);
extern int	cmd_run(int argc, char **argv);
extern char *timestamped_dir(const char *prefix);
extern int	cmd_ab(int argc, char **argv);
extern int	cmd_calibrate(int argc, char **argv);
extern int	cmd_report(int argc, char **argv);
extern int	cmd_compare(int argc, char **argv);
extern int	cmd_import(int argc, char **argv);

#endif							/* PGBENCH_EXT_CLIENT_H */
