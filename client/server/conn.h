/*-------------------------------------------------------------------------
 *
 * conn.h
 *		Connecting to a server from the command line (conn.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CONN_H
#define PGBENCH_EXT_CONN_H

#include "client.h"

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
extern PGconn *connect_checked(const ConnOptions *opts);
extern char *describe_conninfo(PGconn *conn);
extern bool check_extension_version(PGconn *conn, char **problem, char **hint);
extern PGresult *exec_or_die(PGconn *conn, const char *sql);

#endif							/* PGBENCH_EXT_CONN_H */
