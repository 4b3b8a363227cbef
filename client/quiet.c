/*-------------------------------------------------------------------------
 *
 * quiet.c
 *		Quieting the servers of a run: the keys, and the system calls that
 *		carry them out.
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

const char *const quiet_keys[] = {"schedule", "pin", "aslr", "pgbench_seed", "prewarm", "huge_pages", "swap_interval", NULL};

void
quiet_init(QuietSpec *q)
{
	memset(q, 0, sizeof(*q));
	q->aslr = true;
	q->shared_seed = true;
	q->schedule = SCHEDULE_INTERLEAVED;
	q->swap_ms = QUIET_SWAP_DEFAULT_MS;
}

const char *
quiet_schedule_name(ScheduleMode mode)
{
	return mode == SCHEDULE_DUET ? "duet" : "interleaved";
}

/* swap_interval as the key takes it: "off" or "100ms" */
char *
quiet_swap_name(int swap_ms)
{
	return swap_ms > 0 ? psprintf("%dms", swap_ms) : pg_strdup("off");
}

const char *
quiet_huge_pages_name(HugePagesMode mode)
{
	return mode == HUGE_PAGES_ON ? "on" : mode == HUGE_PAGES_OFF ? "off" : "server";
}

bool
quiet_set_key(QuietSpec *q, const char *key, const char *value, char **error)
{
	*error = NULL;
	if (strcmp(key, "pin") == 0)
	{
		if (!parse_bool_word(value, &q->pin))
			*error = psprintf("pin must be on (each server and its pgbench on half of the CPUs, swapped every round) or off, got \"%s\"", value);
	}
	else if (strcmp(key, "aslr") == 0)
	{
		q->aslr_given = strcmp(value, "auto") != 0;
		q->aslr = true;
		if (q->aslr_given && !parse_bool_word(value, &q->aslr))
			*error = psprintf("aslr must be auto (off where every server runs one binary, else on), "
							  "on (each server start draws its address-space layout) or off, got \"%s\"", value);
	}
	else if (strcmp(key, "pgbench_seed") == 0)
	{
		if (strcmp(value, "shared") == 0)
			q->shared_seed = true;
		else if (strcmp(value, "own") == 0)
			q->shared_seed = false;
		else
			*error = psprintf("pgbench_seed must be shared (one --random-seed per round for every variant) or own (pgbench draws its own), got \"%s\"", value);
	}
	else if (strcmp(key, "prewarm") == 0)
	{
		if (!parse_bool_word(value, &q->prewarm))
			*error = psprintf("prewarm must be on (pg_prewarm the benchmark's relations before each run) or off, got \"%s\"", value);
	}
	else if (strcmp(key, "huge_pages") == 0)
	{
		bool		on;

		if (strcmp(value, "server") == 0)
			q->huge_pages = HUGE_PAGES_SERVER;
		else if (parse_bool_word(value, &on))
			q->huge_pages = on ? HUGE_PAGES_ON : HUGE_PAGES_OFF;
		else
			*error = psprintf("huge_pages must be on (the managed servers' shared memory in huge pages, reserved for them as root), off, or server (the servers' own setting), got \"%s\"", value);
	}
	else if (strcmp(key, "swap_interval") == 0)
	{
		char	   *end;
		long		ms = strtol(value, &end, 10);

		if (strcmp(value, "off") == 0 || strcmp(value, "0") == 0)
			q->swap_ms = 0;
		else if (end != value && (*end == '\0' || strcmp(end, "ms") == 0) &&
				 ms >= QUIET_SWAP_MIN_MS && ms <= QUIET_SWAP_MAX_MS)
			q->swap_ms = (int) ms;
		else
			*error = psprintf("swap_interval must be off (a duet's sides trade CPUs between rounds only) or %d to %d milliseconds "
							  "(how often they trade them within a run; default %dms), got \"%s\"",
							  QUIET_SWAP_MIN_MS, QUIET_SWAP_MAX_MS, QUIET_SWAP_DEFAULT_MS, value);
	}
	else if (strcmp(key, "schedule") == 0)
	{
		q->schedule_given = true;
		if (strcmp(value, "interleaved") == 0)
			q->schedule = SCHEDULE_INTERLEAVED;
		else if (strcmp(value, "duet") == 0)
			q->schedule = SCHEDULE_DUET;
		else if (strcmp(value, "auto") == 0)
			q->schedule_given = false;
		else
			*error = psprintf("schedule must be auto (a duet where every variant has a server of its own, else interleaved), interleaved (one run at a time) or duet (both sides of a pair at once), got \"%s\"", value);
	}
	else
		return false;
	return *error == NULL;
}

void
quiet_spec_to_json(const QuietSpec *q, json_t *experiment)
{
	json_object_set_new(experiment, "pin", json_boolean(q->pin));
	json_object_set_new(experiment, "aslr", json_boolean(q->aslr));
	json_object_set_new(experiment, "pgbench_seed", json_string(q->shared_seed ? "shared" : "own"));
	json_object_set_new(experiment, "prewarm", json_boolean(q->prewarm));
	json_object_set_new(experiment, "huge_pages", json_string(quiet_huge_pages_name(q->huge_pages)));
	json_object_set_new(experiment, "schedule", json_string(quiet_schedule_name(q->schedule)));
	json_object_set_new(experiment, "swap_interval", json_string(quiet_swap_name(q->swap_ms)));
}

/*
 * What keeps a duet from running, in words, or NULL: a duet needs every
 * variant on a server of its own that this tool starts (two runs at once
 * cannot share one run database), and nothing that serves one run at a
 * time (profiles, the snapshot probe).
 */
static char *
duet_obstacle(const ExperimentSpec *spec)
{
	if (spec->profile.mode != PROFILE_OFF || spec->snapshot_probe)
		return psprintf("it runs two variants at once, without %s",
						spec->snapshot_probe ? "the snapshot probe" : "profiles");
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];

		if (v->cluster || v->conninfo || v->snapshot_probe == PROBE_ON)
			return psprintf("it needs every variant on a server of its own that %s starts; variant \"%s\" %s",
							progname, v->name,
							v->cluster ? "shares another variant's server (cluster =)" :
							v->conninfo ? "names a running server (conninfo =)" :
							"has the snapshot probe on");
	}
	return NULL;
}

/*
 * The CPUs this process may use, in order, into cpus (CPU_SETSIZE of them)
 * unless NULL; how many, or -1 when they cannot be read.
 */
static int
usable_cpus(int *cpus)
{
	cpu_set_t	mine;
	int			n = 0;

	if (sched_getaffinity(0, sizeof(mine), &mine) != 0)
		return -1;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &mine))
		{
			if (cpus)
				cpus[n] = cpu;
			n++;
		}
	return n;
}

/*
 * schedule = auto (the default): a duet wherever one can run — two or more
 * variants, each on a server of its own, nothing that serves one run at a
 * time, and a CPU set for each side — because both sides of a round then
 * meet the host's interference together (docs/calibration.md measures
 * what that does to the noise and the time to decide); else interleaved.
 */
static void
resolve_schedule(ExperimentSpec *spec)
{
	QuietSpec  *q = &spec->quiet;
	char	   *obstacle;
	int			cpus;

	if (q->schedule_given)
		return;
	obstacle = duet_obstacle(spec);
	cpus = Max(usable_cpus(NULL), 0);
	q->schedule = SCHEDULE_INTERLEAVED;
	if (spec->nvariants < 2)
		q->schedule_why = pg_strdup("interleaved: one variant");
	else if (obstacle != NULL)
		q->schedule_why = psprintf("interleaved: a duet cannot run here (%s)", obstacle);
	else if (cpus < QUIET_CPU_SLOTS)
		q->schedule_why = psprintf("interleaved: a duet needs %d CPUs for this process, which may use %d",
								   QUIET_CPU_SLOTS, cpus);
	else
	{
		q->schedule = SCHEDULE_DUET;
		q->schedule_why = psprintf("duet: both runs of a pair at once, each side on %d of the %d CPUs, traded %s%s",
								   cpus / QUIET_CPU_SLOTS, cpus,
								   q->swap_ms > 0 ? psprintf("every %dms within a run", q->swap_ms) : "every round",
								   spec->nvariants > 2 ? "; every variant beside its baseline, the baseline once for each" : "");
	}
}

/* a bindir as a path that names its directory alone (symbolic links resolved) */
static char *
canonical_bindir(const char *bindir)
{
	char	   *real = realpath(bindir, NULL);

	return real ? real : pg_strdup(bindir);
}

/*
 * aslr = auto (the default): off where two or more servers of their own all
 * run one binary, on otherwise.  A start's address-space layout was most of
 * the offset between two servers' starts (docs/calibration.md): with one
 * binary and randomization off, both sides have the same layout at every
 * start, so no draw differs between them.  Two binaries would each keep one
 * layout at every start, and the difference of those two draws would read
 * as the change, where restarts could not show it: there, randomization
 * stays on and restarts average the draws.
 */
static void
resolve_aslr(ExperimentSpec *spec)
{
	QuietSpec  *q = &spec->quiet;
	const VariantSpec *first = NULL;
	char	   *first_bindir = NULL;
	int			servers = 0;

	/* given, or turned off by profile = counted */
	if (q->aslr_given || !q->aslr)
		return;
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		char	   *bindir;

		if (v->cluster || v->conninfo)
			continue;
		servers++;
		/* resolved before experiment_check(), which names the missing key */
		if (v->bindir == NULL && v->source == NULL)
			return;
		if (v->source)
		{
			q->aslr_why = psprintf("on: variant \"%s\" is built from source, so the servers run binaries of their own "
								   "(each start draws its layout; restarts average the draws)", v->name);
			return;
		}
		bindir = canonical_bindir(v->bindir);
		if (first == NULL)
		{
			first = v;
			first_bindir = bindir;
		}
		else if (strcmp(bindir, first_bindir) != 0)
		{
			q->aslr_why = psprintf("on: variants \"%s\" and \"%s\" run different binaries "
								   "(each start draws its layout; restarts average the draws)", first->name, v->name);
			return;
		}
	}
	if (servers < 2)
		return;
	q->aslr = false;
	q->aslr_why = psprintf("off: every server runs %s/postgres, so both sides start with the same address-space layout",
						   first_bindir);
}

/* the keys left to auto, chosen for this experiment and this host */
void
quiet_resolve(ExperimentSpec *spec)
{
	resolve_schedule(spec);
	resolve_aslr(spec);
}

bool
quiet_check(const ExperimentSpec *spec, char **error)
{
	char	   *obstacle;

	/* the experiment's huge_pages is written after the variant's settings */
	for (int i = 0; i < spec->nvariants && spec->quiet.huge_pages != HUGE_PAGES_SERVER; i++)
		if (settings_have(spec->variants[i].settings, spec->variants[i].nsettings, "huge_pages"))
		{
			*error = psprintf("variant \"%s\" sets huge_pages itself, and the experiment's huge_pages = %s would override it; "
							  "set the experiment's huge_pages = server to compare huge page settings",
							  spec->variants[i].name, quiet_huge_pages_name(spec->quiet.huge_pages));
			return false;
		}
	if (spec->quiet.schedule != SCHEDULE_DUET || (obstacle = duet_obstacle(spec)) == NULL)
		return true;
	*error = psprintf("schedule = duet cannot run: %s; set schedule = interleaved (or auto)", obstacle);
	return false;
}

/* ---- CPU sets ---- */

bool
quiet_cpu_slot(int slot, cpu_set_t *set, char **error)
{
	int			cpus[CPU_SETSIZE];
	int			n = usable_cpus(cpus);

	if (n < 0)
	{
		*error = psprintf("could not read the CPUs this process may use: %m");
		return false;
	}
	if (n < QUIET_CPU_SLOTS)
	{
		*error = psprintf("pin = on needs at least %d CPUs for this process; it may use %d; set pin = off",
						  QUIET_CPU_SLOTS, n);
		return false;
	}
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
	{
		*error = psprintf("could not pin the server (pid %d) to CPUs %s: %m",
						  (int) postmaster, quiet_cpu_list(set));
		return false;
	}
	if ((n = procfs_children(postmaster, children, lengthof(children))) < 0)
	{
		*error = psprintf("could not read /proc to pin the server's processes: %m");
		return false;
	}
	for (int i = 0; i < n; i++)
	{
		/* a process that ended meanwhile is no longer ours to pin */
		if (sched_setaffinity(children[i], sizeof(*set), set) != 0 && errno != ESRCH)
		{
			*error = psprintf("could not pin the server's process %d to CPUs %s: %m",
							  (int) children[i], quiet_cpu_list(set));
			return false;
		}
	}
	return true;
}

/* ---- address-space randomization ---- */

bool
quiet_aslr_off_begin(int *saved, char **error)
{
	*saved = personality(0xffffffff);
	if (*saved == -1 || personality((unsigned long) *saved | ADDR_NO_RANDOMIZE) == -1)
	{
		*error = psprintf("could not turn address-space randomization off for the server (personality: %m); "
						  "a seccomp filter (a container's, say) refuses it: set aslr = on");
		return false;
	}
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
 * warm-up run's cost.
 */
bool
quiet_prewarm(PGconn *conn, char **error)
{
	PGresult   *res;
	bool		ok;

	res = PQexec(conn, "CREATE EXTENSION IF NOT EXISTS pg_prewarm");
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
	{
		*error = psprintf("prewarm = on needs the extension pg_prewarm (PostgreSQL's contrib) in the variant's installation: %s",
						  PQerrorMessage(conn));
		PQclear(res);
		return false;
	}
	PQclear(res);
	res = PQexec(conn, "SELECT pg_prewarm(c.oid) FROM pg_class c "
				 "WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i', 't', 'm')");
	ok = PQresultStatus(res) == PGRES_TUPLES_OK;
	if (!ok)
		*error = psprintf("could not prewarm the run database: %s", PQerrorMessage(conn));
	PQclear(res);
	return ok;
}
