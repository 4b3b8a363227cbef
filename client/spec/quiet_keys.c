/*-------------------------------------------------------------------------
 *
 * quiet_keys.c
 *		The [experiment] keys that quiet the servers of a run: set, checked,
 *		written to experiment.json, and the choice made for those left to
 *		auto (schedule, aslr).  quiet.c carries them out.
 *
 * Every start of a server draws a new address-space layout, every pgbench
 * draws its own keys, and a server free to move between CPUs spends much
 * of a short transaction waking a process on another one.  These keys
 * remove such draws where the user wants them removed; docs/calibration.md
 * has what each did to the noise and to a known effect on this project's
 * test machine (bench/quiet.sh), and the defaults follow those figures.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"
#include "procfs.h"
#include "quiet_keys.h"
#include "settings.h"

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
		q->prewarm_given = strcmp(value, "auto") != 0;
		q->prewarm = false;
		if (q->prewarm_given && !parse_bool_word(value, &q->prewarm))
			*error = psprintf("prewarm must be auto (on under profile = counted, else off), "
							  "on (pg_prewarm the benchmark's relations before each run) or off, got \"%s\"", value);
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
	json_object_update_new(experiment,
						   json_pack("{s:b, s:b, s:s, s:b, s:s, s:s, s:s}", "pin", q->pin, "aslr", q->aslr,
									 "pgbench_seed", q->shared_seed ? "shared" : "own",
									 "prewarm", q->prewarm, "huge_pages", quiet_huge_pages_name(q->huge_pages),
									 "schedule", quiet_schedule_name(q->schedule),
									 "swap_interval", quiet_swap_name(q->swap_ms)));
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
 * What the managed servers run: binaries of their own where some variant is
 * built from source (each build is its binary) or two bindirs name
 * different directories, else one binary; unknown while a managed variant
 * has neither key (experiment_check() names it).  *why says which
 * variants, or the one binary's directory; *servers counts the managed
 * servers looked at.
 */
ServerBinaries
quiet_server_binaries(const ExperimentSpec *spec, char **why, int *servers)
{
	const VariantSpec *first = NULL;
	char	   *first_bindir = NULL;

	*why = NULL;
	*servers = 0;
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		char	   *bindir;

		if (v->cluster || v->conninfo)
			continue;
		(*servers)++;
		if (v->bindir == NULL && v->source == NULL)
			return SERVER_BINARIES_UNKNOWN;
		if (v->source)
		{
			*why = psprintf("variant \"%s\" is built from source, so the servers run binaries of their own", v->name);
			return SERVER_BINARIES_OWN;
		}
		bindir = canonical_bindir(v->bindir);
		if (first == NULL)
		{
			first = v;
			first_bindir = bindir;
		}
		else if (strcmp(bindir, first_bindir) != 0)
		{
			*why = psprintf("variants \"%s\" and \"%s\" run different binaries", first->name, v->name);
			return SERVER_BINARIES_OWN;
		}
	}
	*why = first_bindir;
	return SERVER_BINARIES_ONE;
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
	char	   *why;
	int			servers;
	ServerBinaries binaries;

	/* given, or turned off by profile = counted */
	if (q->aslr_given || !q->aslr)
		return;
	binaries = quiet_server_binaries(spec, &why, &servers);
	if (binaries == SERVER_BINARIES_OWN)
		q->aslr_why = psprintf("on: %s (each start draws its layout; restarts average the draws)", why);
	if (binaries != SERVER_BINARIES_ONE || servers < 2)
		return;
	q->aslr = false;
	q->aslr_why = psprintf("off: every server runs %s/postgres, so both sides start with the same address-space layout",
						   why);
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
			return fail_with(error, "variant \"%s\" sets huge_pages itself, and the experiment's huge_pages = %s would override it; "
							 "set the experiment's huge_pages = server to compare huge page settings",
							 spec->variants[i].name, quiet_huge_pages_name(spec->quiet.huge_pages));
	if (spec->quiet.schedule != SCHEDULE_DUET || (obstacle = duet_obstacle(spec)) == NULL)
		return true;
	*error = psprintf("schedule = duet cannot run: %s; set schedule = interleaved (or auto)", obstacle);
	return false;
}
