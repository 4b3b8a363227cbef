/*-------------------------------------------------------------------------
 *
 * cmd_agent_bisect.h
 *		The bisect hook of an agent's bisect jobs (cmd_agent_bisect.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_AGENT_BISECT_H
#define PGBENCH_EXT_CMD_AGENT_BISECT_H

#include "farm_agent.h"

extern int	agent_bisect(const AgentBisectJob *job, AgentBisectAnswer *answer, char **error);

#endif							/* PGBENCH_EXT_CMD_AGENT_BISECT_H */
