/*-------------------------------------------------------------------------
 *
 * cmd_agent_watch.h
 *		The git hooks of an agent's watch jobs (cmd_agent_watch.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CMD_AGENT_WATCH_H
#define PGBENCH_EXT_CMD_AGENT_WATCH_H

#include "farm_agent.h"

extern const AgentGit agent_git;

#endif							/* PGBENCH_EXT_CMD_AGENT_WATCH_H */
