/*-------------------------------------------------------------------------
 *
 * farm_heartbeat.c
 *		An agent's heartbeat: while the agent runs a job, a thread of its
 *		own, on a connection of its own, sets the job's heartbeat_at to now
 *		every interval, so that other agents know the job is in hand.
 *
 * Why a thread: the experiment runs in the agent's process (run_execute(),
 * as "run" runs it) for minutes or hours between two points where it
 * could look at a clock, and a thread dies with its process — an agent
 * killed outright, or its host gone, stops beating at once, and after the
 * takers' timeout the job is taken again.  A child process would have to
 * notice its parent's death instead.
 *
 * The thread uses only its own connection (libpq allows one connection a
 * thread) and malloc; it takes no signal (the main thread's handlers stop
 * the experiment) and logs nothing: what went wrong is kept for
 * heartbeat_stop().  It beats only while the job is still running under
 * the attempt it was taken as; when that is no longer so (another agent
 * took it after a timeout), it stops and says so.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "farm_heartbeat.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>

struct Heartbeat
{
	pthread_t	thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	bool		stop;			/* under lock: the agent is done with the job */
	bool		lost;			/* the job is no longer ours */
	char	   *problem;		/* the last failed beat's error, malloc'd */
	PGconn	   *conn;
	const char *params[2];		/* job_id, attempt */
	int			interval_s;
};

/* One beat; false when the job is no longer this attempt's. */
static bool
beat(Heartbeat *hb)
{
	PGresult   *res = PQexecParams(hb->conn,
								   "UPDATE pgbench_ext.jobs SET heartbeat_at = now() "
								   "WHERE job_id = $1 AND attempt = $2 AND state = 'running'",
								   2, NULL, hb->params, NULL, NULL, 0);
	bool		ours = true;

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		free(hb->problem);
		hb->problem = strdup(PQerrorMessage(hb->conn));
		/* a server restarted: the next beat tries a new connection */
		if (PQstatus(hb->conn) == CONNECTION_BAD)
			PQreset(hb->conn);
	}
	else
		ours = strcmp(PQcmdTuples(res), "0") != 0;
	PQclear(res);
	return ours;
}

static void *
heartbeat_main(void *arg)
{
	Heartbeat  *hb = arg;

	pthread_mutex_lock(&hb->lock);
	while (!hb->stop && !hb->lost)
	{
		struct timespec until;

		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += hb->interval_s;
		while (!hb->stop && pthread_cond_timedwait(&hb->wake, &hb->lock, &until) != ETIMEDOUT)
			;
		if (hb->stop)
			break;
		pthread_mutex_unlock(&hb->lock);
		if (!beat(hb))
			hb->lost = true;
		pthread_mutex_lock(&hb->lock);
	}
	pthread_mutex_unlock(&hb->lock);
	return NULL;
}

/*
 * Beat for job_id as attempt every interval_s seconds on conn (which the
 * heartbeat owns from now on); NULL when no thread could be started.
 */
Heartbeat *
heartbeat_start(PGconn *conn, const char *job_id, const char *attempt, int interval_s)
{
	Heartbeat  *hb = pg_malloc0(sizeof(Heartbeat));
	sigset_t	all,
				old;
	int			rc;

	hb->conn = conn;
	hb->params[0] = pg_strdup(job_id);
	hb->params[1] = pg_strdup(attempt);
	hb->interval_s = Max(interval_s, 1);
	pthread_mutex_init(&hb->lock, NULL);
	pthread_cond_init(&hb->wake, NULL);
	/* the thread is born with every signal blocked: they are the main thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&hb->thread, NULL, heartbeat_main, hb);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
	{
		PQfinish(conn);
		pg_free(hb);
		return NULL;
	}
	return hb;
}

/*
 * Stop beating and close the connection.  False when the job was found to
 * be another attempt's; *problem then, or after a failed beat, says what.
 */
bool
heartbeat_stop(Heartbeat *hb, char **problem)
{
	bool		ours;

	pthread_mutex_lock(&hb->lock);
	hb->stop = true;
	pthread_cond_signal(&hb->wake);
	pthread_mutex_unlock(&hb->lock);
	pthread_join(hb->thread, NULL);
	ours = !hb->lost;
	*problem = !ours ? pg_strdup("the job was taken by another agent: this agent's heartbeat had not been seen within the timeout")
		: hb->problem ? psprintf("a heartbeat failed: %s", hb->problem) : NULL;
	PQfinish(hb->conn);
	free(hb->problem);
	pg_free(hb);
	return ours;
}
