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
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "subprocess.h"

/*
 * Run the training load with the installation in bindir; profile_dir must
 * be writable by the server account (the backends write the profile).
 * Everything goes to log.  The cluster lives in work_dir and is removed.
 */
bool
pgo_train(const char *bindir, const char *work_dir, const char *log)
{
	char	   *script;
	char	   *argv[4];

	/* the socket in work_dir: private, and reachable by the server account */
	script = psprintf("set -e; D=%1$s/data; S=%1$s; "
					  "trap '%2$s/pg_ctl -D $D -m immediate stop >/dev/null 2>&1 || true' EXIT; "
					  "rm -rf $D; %2$s/initdb -D $D -A trust -U postgres >/dev/null; "
					  "%2$s/pg_ctl -D $D -l %1$s/server.log -w -o \"-k $S -c listen_addresses=''\" start; "
					  "%2$s/pgbench -h $S -U postgres -i -q -s 1 postgres; "
					  "for b in tpcb-like select-only; do "
					  "%2$s/pgbench -h $S -U postgres -n -b $b -c 2 -j 2 -T %3$d --random-seed=%4$d postgres; done; "
					  "%2$s/pg_ctl -D $D -m fast -w stop; rm -rf $D",
					  work_dir, bindir, PGO_TRAINING_SECONDS, PGO_TRAINING_SEED);
	argv[0] = "/bin/sh";
	argv[1] = "-c";
	argv[2] = script;
	argv[3] = NULL;
	return run_logged(argv, true, log) == 0;
}
