/*-------------------------------------------------------------------------
 *
 * valgrind_server.h
 *		A managed server under valgrind's callgrind (valgrind_server.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_VALGRIND_SERVER_H
#define PGBENCH_EXT_VALGRIND_SERVER_H

#include "cluster.h"

/* the files each process writes: CALLGRIND_PREFIX PID[.PART] */
#define CALLGRIND_PREFIX	"callgrind.out."

extern bool valgrind_server_use(Cluster *c, bool cache_sim, char **error);
extern bool valgrind_server_started(const Cluster *c);
extern bool valgrind_server_settled(const Cluster *c, PGconn *conn, char **problem);
extern char *valgrind_callgrind_dir(const Cluster *server);

#endif							/* PGBENCH_EXT_VALGRIND_SERVER_H */
