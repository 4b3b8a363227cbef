/*-------------------------------------------------------------------------
 *
 * quiet.c
 *		Quieting the servers of a run: the system calls that carry out the
 *		keys of quiet_keys.c.
 *
 * Every start of a server draws a new address-space layout, every pgbench
 * draws its own keys, and a server free to move between CPUs spends much
 * of a short transaction waking a process on another one.  These keys
 * remove such draws where the user wants them removed; docs/calibration.md
 * has what each did to the noise and to a known effect on this project's
 * test machine (bench/quiet.sh), and the defaults follow those figures.
 *
 * Pinning uses sched_setaffinity(), which any user may apply to processes
 * of their own (and root to the server account's): the postmaster and the
 * processes it already started are moved, the backends it forks later
 * inherit its set.  Address-space randomization is turned off with
 * personality(ADDR_NO_RANDOMIZE) in this process just around the start of
 * the server, which pg_ctl and the postmaster inherit.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "procfs.h"
#include "quiet.h"
#include "settings.h"
#include "common/string.h"
#include "pqexpbuffer.h"

#include <sys/personality.h>

/* The most processes of one server that pinning expects */
#define QUIET_MAX_SERVER_PROCESSES 4096

/* ---- CPU sets ---- */

bool
quiet_cpu_slot(int slot, cpu_set_t *set, char **error)
{
	int			cpus[CPU_SETSIZE];
	int			n = usable_cpus(cpus);

	if (n < 0)
		return fail_with(error, "could not read the CPUs this process may use: %m");
	if (n < QUIET_CPU_SLOTS)
		return fail_with(error, "pin = on needs at least %d CPUs for this process; it may use %d; set pin = off",
						 QUIET_CPU_SLOTS, n);
	CPU_ZERO(set);
	for (int i = slot * n / QUIET_CPU_SLOTS; i < (slot + 1) * n / QUIET_CPU_SLOTS; i++)
		CPU_SET(cpus[i], set);
	return true;
}

/* "0-1,3" as /proc's Cpus_allowed_list writes it */
char *
quiet_cpu_list(const cpu_set_t *set)
{
	PQExpBufferData buf;

	initPQExpBuffer(&buf);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
	{
		int			last = cpu;

		if (!CPU_ISSET(cpu, set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		appendPQExpBuffer(&buf, "%s%d", buf.len ? "," : "", cpu);
		if (last > cpu)
			appendPQExpBuffer(&buf, "-%d", last);
		cpu = last;
	}
	return buf.data;
}

bool
quiet_pin_server(pid_t postmaster, const cpu_set_t *set, char **error)
{
	pid_t		children[QUIET_MAX_SERVER_PROCESSES];
	int			n;

	if (sched_setaffinity(postmaster, sizeof(*set), set) != 0)
		return fail_with(error, "could not pin the server (pid %d) to CPUs %s: %m",
						 (int) postmaster, quiet_cpu_list(set));
	if ((n = procfs_children(postmaster, children, lengthof(children))) < 0)
		return fail_with(error, "could not read /proc to pin the server's processes: %m");
	for (int i = 0; i < n; i++)
	{
		/* a process that ended meanwhile is no longer ours to pin */
		if (sched_setaffinity(children[i], sizeof(*set), set) != 0 && errno != ESRCH)
			return fail_with(error, "could not pin the server's process %d to CPUs %s: %m",
							 (int) children[i], quiet_cpu_list(set));
	}
	return true;
}

/* ---- address-space randomization ---- */

bool
quiet_aslr_off_begin(int *saved, char **error)
{
	*saved = personality(0xffffffff);
	if (*saved == -1 || personality((unsigned long) *saved | ADDR_NO_RANDOMIZE) == -1)
		return fail_with(error, "could not turn address-space randomization off for the server (personality: %m); "
						 "a seccomp filter (a container's, say) refuses it: set aslr = on");
	return true;
}

void
quiet_aslr_off_end(int saved)
{
	(void) personality((unsigned long) saved);
}

/* ---- what is in force ---- */

json_t *
quiet_process_facts(pid_t pid)
{
	json_t	   *facts = json_object();
	char	   *status = psprintf("/proc/%d/status", (int) pid);
	char	   *cpus = procfs_value(status, "Cpus_allowed_list");
	char	   *huge = procfs_value(status, "HugetlbPages");
	char	   *path = psprintf("/proc/%d/personality", (int) pid);
	FILE	   *f;
	unsigned int persona;

	if (cpus)
		json_object_set_new(facts, "cpus", json_string(cpus));
	/* "HugetlbPages:   147456 kB", since Linux 4.4 */
	if (huge)
		json_object_set_new(facts, "huge_pages_kb", json_integer(atol(huge)));
	if ((f = fopen(path, "re")) != NULL)
	{
		if (fscanf(f, "%x", &persona) == 1)
			json_object_set_new(facts, "aslr", json_boolean((persona & ADDR_NO_RANDOMIZE) == 0));
		fclose(f);
	}
	return facts;
}

unsigned long long
quiet_round_seed(unsigned long long experiment_seed, int round)
{
	uint64		seed = experiment_seed * UINT64CONST(6364136223846793005) +
		(uint64) round * UINT64CONST(1442695040888963407);

	/* pgbench reads --random-seed as an unsigned 64-bit number; keep it short */
	return seed % UINT64CONST(1000000000000);
}

/*
 * Read every relation of the run database's public schema into shared
 * buffers (pg_prewarm, contrib), so that a run starts warm without a
 * warm-up run's cost.  The extension came with the template (setup.c),
 * which is where a missing pg_prewarm is told.
 */
bool
quiet_prewarm(PGconn *conn, char **error)
{
	PGresult   *res;
	bool		ok;

	res = PQexec(conn, "SELECT pg_prewarm(c.oid) FROM pg_class c "
				 "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i', 't', 'm')");
	ok = PQresultStatus(res) == PGRES_TUPLES_OK;
	if (!ok)
		*error = psprintf("could not prewarm the run database: %s", PQerrorMessage(conn));
	PQclear(res);
	return ok;
}
