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
#include "experiment.h"

/*
 * What a watch job needs of git, which farm/ may not call (bisect/ is of
 * its rank): the command (cmd_agent_watch.c) hands it these.
 */
typedef struct AgentGit
{
	/* the commits of branch after last (NULL: the head alone, counted 1), and its head */
	bool		(*commits) (const char *repo, const char *branch, const char *last,
							int *count, char **head, char **error);
	/* commit's tree exported under dir as the build account: its path */
	char	   *(*export) (const char *repo, const char *commit, const char *dir, char **error);
} AgentGit;

/*
 * A bisect job as its agent hands it to the command's hook (bisect/, of
 * farm/'s rank, runs it): the watch's experiment read (its seed set), the
 * file it was read from, and what the job names.
 */
typedef struct AgentBisectJob
{
	ExperimentSpec *spec;
	const char *file;
	const char *repo;
	const char *variant;		/* the watched variant, the one each state is built as */
	const char *good;			/* the commits around the change point */
	const char *bad;
	const char *dir;			/* the bisect's directory, resumed when it holds one */
} AgentBisectJob;

/* A bisect's answer: the culprit, or none and why. */
typedef struct AgentBisectAnswer
{
	char	   *culprit;		/* the first commit that differs from good, or NULL */
	double		shift_pct;		/* its result against good's, in %, with its CI (NaN: none) */
	double		ci_low;
	double		ci_high;
	char	   *why;			/* without a culprit: no difference, or undecided and how to go on */
} AgentBisectAnswer;

/* 0 with an answer, else an exit status with error (interrupted: run_interrupted) */
typedef int (*AgentBisect) (const AgentBisectJob *job, AgentBisectAnswer *answer, char **error);

typedef struct AgentOptions
{
	bool		once;			/* take one job, run it, exit */
	int			poll_s;			/* between two looks at an empty queue */
	int			timeout_s;		/* a running job's heartbeat older than this:
								 * its agent is dead, the job is taken again */
	const char *state_dir;		/* the jobs' results directories */
	const AgentGit *git;		/* NULL: this agent takes no watches */
	AgentBisect bisect;			/* NULL: nor bisects */
} AgentOptions;

/* the default of --timeout, and how often an agent beats within it */
#define AGENT_TIMEOUT_S 120
#define AGENT_BEATS_PER_TIMEOUT 4

extern int	farm_agent(const ConnOptions *conn, const AgentOptions *opts);

#endif							/* PGBENCH_EXT_FARM_AGENT_H */
