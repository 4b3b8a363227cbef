/*-------------------------------------------------------------------------
 *
 * farm_heartbeat.h
 *		An agent's heartbeat while it runs a job (farm_heartbeat.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_FARM_HEARTBEAT_H
#define PGBENCH_EXT_FARM_HEARTBEAT_H

#include "client.h"

typedef struct Heartbeat Heartbeat;

extern Heartbeat *heartbeat_start(PGconn *conn, const char *job_id, const char *attempt,
								  int interval_s);
extern bool heartbeat_stop(Heartbeat *hb, char **problem);

#endif							/* PGBENCH_EXT_FARM_HEARTBEAT_H */
