/*-------------------------------------------------------------------------
 *
 * pgo.c
 *		The training load of a profile-guided build (pgo = on): a throwaway
 *		cluster of the instrumented installation runs pgbench, and its
 *		processes write the profile that the second compilation uses.
 *
 * The load is pgbench's tpcb-like and select-only at scale 1 with its own
 * random seed (PGO_TRAINING_SEED, recorded in build.json), never the
 * measurement's: the profile must not be tuned to the exact transactions
 * it is then measured on.
 *
 * The cluster is a managed cluster like any other (cluster.c: private
 * socket directory, no TCP, registered so that every exit path stops it),
 * and its pg_hba.conf rejects every host line: only the local socket gets
 * in.  Everything runs as the build account.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "pgo.h"
#include "cluster.h"
#include "subprocess.h"

static bool
training_pgbench(const Cluster *c, const char *log, char **error, char **args)
{
	ChildSpec	spec = CHILD_SPEC_INIT;
	char	   *argv[16];
	int			argc = 0;

	argv[argc++] = psprintf("%s/pgbench", c->bindir);
	while (*args)
		argv[argc++] = *args++;
	argv[argc++] = cluster_conninfo(c, "postgres");
	argv[argc] = NULL;
	spec.argv = argv;
	spec.unprivileged = true;
	spec.interruptible = true;
	spec.log_path = log;
	if (child_run(&spec) != 0)
		return fail_with(error, "pgbench %s failed", argv[1]);
	return true;
}

/*
 * Run the training load with the installation in bindir; work_dir belongs
 * to the build account, which the server runs as and which writes the
 * profile.  The load's output goes to log; the cluster lives in work_dir
 * and is removed.
 */
bool
pgo_train(const char *bindir, const char *work_dir, const char *log, char **error)
{
	VariantSpec v = {0};
	Cluster		c;
	char	   *clusters = psprintf("%s/clusters", work_dir);
	char	   *seconds = psprintf("%d", PGO_TRAINING_SECONDS);
	char	   *seed = psprintf("--random-seed=%d", PGO_TRAINING_SEED);
	char	   *init[] = {"-i", "-q", "-s", "1", NULL};
	char	   *tpcb[] = {"-n", "-b", "tpcb-like", "-c", "2", "-j", "2", "-T", seconds, seed, NULL};
	char	   *select[] = {"-n", "-b", "select-only", "-c", "2", "-j", "2", "-T", seconds, seed, NULL};
	bool		ok;

	v.name = "pgo-training";
	v.bindir = (char *) bindir;
	v.extension = false;		/* installed only into the final build */
	v.initdb_args = "--auth-host=reject";
	/* the account creates the cluster's directory, so root never writes there */
	if (!unprivileged_mkdir(clusters, error) ||
		!unprivileged_mkdir(psprintf("%s/%s", clusters, v.name), error) ||
		!cluster_prepare(&c, &v, work_dir, NULL, NULL, error))
		return false;
	ok = cluster_start(&c, error) &&
		training_pgbench(&c, log, error, init) &&
		training_pgbench(&c, log, error, tpcb) &&
		training_pgbench(&c, log, error, select);
	cluster_stop(&c);			/* removes its socket directory too */
	/* a failed training keeps its cluster's logs */
	return ok && unprivileged_remove(clusters, error);
}
