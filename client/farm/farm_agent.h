/*-------------------------------------------------------------------------
 *
 * farm_agent.h
 *		An agent of the queue: a host that takes the jobs meant for it from
 *		the results database, runs and imports them (farm_agent.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_FARM_AGENT_H
#define PGBENCH_EXT_FARM_AGENT_H

#include "client.h"
#include "conn.h"

typedef struct AgentOptions
{
	bool		once;			/* take one job, run it, exit */
	int			poll_s;			/* between two looks at an empty queue */
	int			timeout_s;		/* a running job's heartbeat older than this:
								 * its agent is dead, the job is taken again */
	const char *state_dir;		/* the jobs' results directories */
} AgentOptions;

/* the default of --timeout, and how often an agent beats within it */
#define AGENT_TIMEOUT_S 120
#define AGENT_BEATS_PER_TIMEOUT 4

extern int	farm_agent(const ConnOptions *conn, const AgentOptions *opts);

#endif							/* PGBENCH_EXT_FARM_AGENT_H */
