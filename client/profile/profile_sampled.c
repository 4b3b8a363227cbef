/*-------------------------------------------------------------------------
 *
 * profile_sampled.c
 *		Sampled profiles: perf record of a variant's server during each of
 *		its runs, and per run the CPU time (or cycles) per transaction of
 *		every function, from perf script.
 *
 * What is sampled (the postmaster, its long-lived children and every
 * process it forks while perf is attached), the event (user space only;
 * profile_spec.c chooses it) and why no backend of the run escapes (perf
 * enabled through its control descriptors right before pgbench starts,
 * stopped with SIGINT once it has ended): docs/profiles.md, "Sampled: how".
 *
 * perf record and perf script run as the account that owns the server
 * (profile_perf_as_server), in and on a directory that account owns
 * (clusters/NAME/perf); perf script's text comes back through a pipe, and
 * its data file is removed without following links.  Symbols are those
 * of each variant's own binaries, which perf finds by the paths mapped.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_counted.h"
#include "profile_sampled.h"
#include "profile_spec.h"
#include "profile_parse.h"
#include "safe_file.h"
#include "subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define ACK_TIMEOUT_MS	30000
#define STOP_TIMEOUT_S	30

struct SampledRun
{
	Experiment *x;
	const PlannedRun *pr;
	Cluster    *server;
	const char *event;
	char	   *perf;
	char	   *dir;			/* clusters/NAME/perf */
	int			dirfd;
	char	   *data_name;		/* run-NNNN.data in dir */
	char	   *log_path;		/* runs/NNNN.perf.log: perf's own words */
	char	   *pids;			/* "PM,PID,..." */
	pid_t		perf_pid;
	int			ctl;			/* write end of perf's control pipe */
	int			ack;			/* read end of its acknowledgements */
	char	   *problem;
};

static pid_t
profile_postmaster_pid(const Cluster *server)
{
	char	   *problem;
	int			dirfd = profile_open_dir(server->datadir, &problem);
	FILE	   *f;
	long		pid = 0;

	if (dirfd < 0)
		return 0;
	if ((f = profile_open_in_dir(dirfd, "postmaster.pid", &problem)) != NULL)
	{
		if (fscanf(f, "%ld", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	close(dirfd);
	return pid > 0 ? (pid_t) pid : 0;
}

/*
 * The postmaster and the children that live as long as it: not client
 * backends (ours would be sampled idle, the reset's may be exiting) nor
 * autovacuum workers, which come and go and are followed by inheritance.
 */
static char *
pids_to_attach(pid_t postmaster, PGconn *conn, char **problem)
{
	PGresult   *res = PQexec(conn, "SELECT pid FROM pg_catalog.pg_stat_activity "
							 "WHERE backend_type NOT IN ('client backend', 'autovacuum worker') "
							 "AND pid IS NOT NULL");
	char	   *pids = psprintf("%d", (int) postmaster);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		*problem = psprintf("could not list the server's processes: %s", PQerrorMessage(conn));
		PQclear(res);
		return NULL;
	}
	for (int i = 0; i < PQntuples(res); i++)
		pids = psprintf("%s,%s", pids, PQgetvalue(res, i, 0));
	PQclear(res);
	return pids;
}

SampledRun *
sampled_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn)
{
	SampledRun *sr = pg_malloc0(sizeof(SampledRun));
	pid_t		postmaster;

	sr->x = x;
	sr->pr = pr;
	sr->server = cluster_server(&x->variants[pr->variant].cluster);
	sr->event = x->spec->profile.event;
	sr->dirfd = sr->ctl = sr->ack = -1;
	sr->dir = psprintf("%s/perf", sr->server->dir);
	sr->data_name = psprintf("run-%04d.data", pr->run_id);
	sr->log_path = results_run_path(x->dir, pr->run_id, ".perf.log");
	if ((sr->perf = profile_perf_path(&sr->problem)) == NULL || sr->event == NULL)
	{
		if (sr->problem == NULL)
			sr->problem = pg_strdup("no perf event was chosen for this experiment");
		return sr;
	}
	if (!safe_mkdir(sr->dir, 0700, SAFE_GIVE, &sr->problem))
		return sr;
	if ((sr->dirfd = profile_open_dir(sr->dir, &sr->problem)) < 0)
		return sr;
	if ((postmaster = profile_postmaster_pid(sr->server)) == 0)
	{
		sr->problem = psprintf("could not read the postmaster's pid in %s/postmaster.pid", sr->server->datadir);
		return sr;
	}
	sr->pids = pids_to_attach(postmaster, conn, &sr->problem);
	return sr;
}

static char *
log_tail(const SampledRun *sr)
{
	char	   *tail = tail_of_file(sr->log_path, 3);

	return *tail ? tail : pg_strdup("(perf printed nothing)");
}

/* Start perf, events off, then turn them on and wait for its word. */
void
sampled_start(SampledRun *sr)
{
	int			ctl[2],
				ack[2];
	char	   *argv[32];
	int			argc = 0;
	int			rate = sr->x->spec->profile.sample_rate;
	int			log;
	char		reply[16] = "";
	size_t		got = 0;
	ChildSpec	record = CHILD_SPEC_INIT;

	if (sr->problem)
		return;
	if (pipe2(ctl, O_CLOEXEC) != 0 || pipe2(ack, O_CLOEXEC) != 0)
	{
		sr->problem = psprintf("could not create pipes for perf: %m");
		return;
	}
	argv[argc++] = sr->perf;
	argv[argc++] = "record";
	argv[argc++] = "-q";
	argv[argc++] = "-e";
	argv[argc++] = psprintf("%s:u", sr->event);
	if (strcmp(sr->event, "cpu-clock") == 0)
	{
		/* a fixed period in ns: every sample stands for the same CPU time */
		argv[argc++] = "-c";
		argv[argc++] = psprintf("%d", 1000000000 / rate);
	}
	else
	{
		argv[argc++] = "-F";
		argv[argc++] = psprintf("%d", rate);
	}
	argv[argc++] = "-g";		/* call chains by frame pointers */
	argv[argc++] = "-N";		/* no copies of the binaries into ~/.debug */
	argv[argc++] = "-D";
	argv[argc++] = "-1";
	argv[argc++] = psprintf("--control=fd:%d,%d", ctl[0], ack[1]);
	argv[argc++] = "-o";
	argv[argc++] = psprintf("%s/%s", sr->dir, sr->data_name);
	argv[argc++] = "-p";
	argv[argc++] = sr->pids;
	argv[argc] = NULL;

	/* perf's words are appended, as perf script's are after them */
	if ((log = safe_open_write(sr->log_path, true, &sr->problem)) < 0)
	{
		close(ctl[0]);
		close(ctl[1]);
		close(ack[0]);
		close(ack[1]);
		return;
	}
	record.argv = argv;
	/* the two ends perf is named by --control */
	record.keep_fds[0] = ctl[0];
	record.keep_fds[1] = ack[1];
	record.unprivileged = profile_perf_as_server();
	record.interruptible = true;
	record.out_fd = record.err_fd = log;
	sr->perf_pid = child_start(&record);
	if (log >= 0)
		close(log);
	close(ctl[0]);
	close(ack[1]);
	sr->ctl = ctl[1];
	sr->ack = ack[0];
	if (sr->perf_pid < 0)
	{
		sr->problem = psprintf("could not start perf: %m");
		return;
	}
	if (write(sr->ctl, "enable\n", 7) != 7)
	{
		sr->problem = psprintf("perf exited before it could be enabled: %s", log_tail(sr));
		return;
	}
	while (got < 4)
	{
		struct pollfd pfd = {sr->ack, POLLIN, 0};
		ssize_t		n;

		if (poll(&pfd, 1, ACK_TIMEOUT_MS) <= 0 ||
			(n = read(sr->ack, reply + got, sizeof(reply) - 1 - got)) <= 0)
		{
			sr->problem = psprintf("perf did not start sampling: %s", log_tail(sr));
			return;
		}
		got += n;
	}
	if (strncmp(reply, "ack\n", 4) != 0)
		sr->problem = psprintf("perf answered \"%.4s\" to enable", reply);
}

/* After pgbench: SIGINT makes perf write its file and exit. */
void
sampled_stop(SampledRun *sr)
{
	int			status = 0;
	double		deadline = now_seconds() + STOP_TIMEOUT_S;

	if (sr->perf_pid > 0)
	{
		kill(sr->perf_pid, SIGINT);
		while (waitpid(sr->perf_pid, &status, WNOHANG) == 0)
		{
			if (now_seconds() > deadline)
			{
				kill(sr->perf_pid, SIGKILL);
				waitpid(sr->perf_pid, &status, 0);
				if (sr->problem == NULL)
					sr->problem = psprintf("perf did not stop within %d s of SIGINT", STOP_TIMEOUT_S);
				break;
			}
			pg_usleep(50000);
		}
		/* perf exits 0, or by the signal it was asked to stop with */
		if (sr->problem == NULL &&
			!(WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 128 + SIGINT)) &&
			!(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT))
			sr->problem = psprintf("perf record failed (%s %d): %s",
								   WIFSIGNALED(status) ? "signal" : "exit status",
								   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
								   log_tail(sr));
		sr->perf_pid = 0;
	}
	if (sr->ctl >= 0)
		close(sr->ctl);
	if (sr->ack >= 0)
		close(sr->ack);
	sr->ctl = sr->ack = -1;
}

/* perf script of the run's data, read through a pipe; then the data removed. */
bool
sampled_collect(SampledRun *sr, const RunRecord *rec, Prof *out, char **problem)
{
	char	   *data = psprintf("%s/%s", sr->dir, sr->data_name);
	char	   *argv[] = {sr->perf, "script", "-i", data, "-F", PERF_SCRIPT_FIELDS, NULL};
	int			fds[2];
	pid_t		pid;
	FILE	   *in;
	char		err[512];
	char		drain[1024];
	bool		parsed;
	int			rc;
	int			log;
	ChildSpec	script = CHILD_SPEC_INIT;

	if (sr->problem == NULL && !(rec->transactions > 0))
		sr->problem = pg_strdup("the run made no transactions");
	if (sr->problem == NULL)
	{
		log = safe_open_write(sr->log_path, true, &sr->problem);
		script.argv = argv;
		script.unprivileged = profile_perf_as_server();
		script.interruptible = true;
		script.err_fd = log;
		if (pipe2(fds, O_CLOEXEC) != 0 || (script.out_fd = fds[1], pid = child_start(&script)) < 0)
			sr->problem = psprintf("could not run perf script: %m");
		else
		{
			close(fds[1]);
			in = fdopen(fds[0], "r");
			parsed = prof_parse_perf_script(in, sr->event, out, err, sizeof(err));
			/* read to the end, so that perf script is never left blocked on the pipe */
			while (fgets(drain, sizeof(drain), in) != NULL)
				;
			fclose(in);
			rc = wait_process(pid);
			if (rc != 0)
				sr->problem = psprintf("perf script failed with status %d: %s", rc, log_tail(sr));
			else if (!parsed)
				sr->problem = psprintf("perf script's output could not be read: %s", err);
			else if (out->samples == 0)
				sr->problem = pg_strdup("perf recorded no sample of the server during the run");
			else
			{
				prof_trim_stacks(out, "PostgresMain");
				prof_divide(out, (double) rec->transactions);
			}
		}
		if (log >= 0)
			close(log);
	}
	if (sr->dirfd >= 0)
	{
		unlinkat(sr->dirfd, sr->data_name, 0);
		close(sr->dirfd);
	}
	*problem = sr->problem;
	return sr->problem == NULL;
}
