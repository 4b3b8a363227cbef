/*-------------------------------------------------------------------------
 *
 * profile_spec.c
 *		The profile keys, and every check of them that can be made before
 *		the first run: the tools, the kernel's permission to sample, the
 *		binaries' symbols.
 *
 *		profile = off | counted | sampled
 *		cache_sim = on | off		counted: simulated D1/LL misses too
 *		sample_event = auto | cpu-clock | cycles
 *		sample_rate = HZ			samples per CPU-second
 *		counted_view = on | off		after a timed experiment's runs, the
 *									same variants counted (counted_view.c)
 *		counted_view_rounds = N		its rounds (default 10)
 *		counted_view_transactions = N	its transactions a run (default 1000)
 *
 * valgrind and perf are found as $PGBENCH_EXT_VALGRIND and $PGBENCH_EXT_PERF
 * when set, else on PATH.  perf records as the account that owns the
 * servers (the server account when we are root, else ourselves): that
 * account may sample its own processes' user space at
 * kernel.perf_event_paranoid <= 2, and the recording sees nothing else.
 * The event is cycles where the CPU's counters are available to it,
 * cpu-clock (a timer) where not, as on most virtual machines.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "counted_view_spec.h"
#include "profile.h"
#include "experiment.h"
#include "profile_spec.h"
#include "profile_symbols.h"
#include "subprocess.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include "common/logging.h"

#define PARANOID_FILE "/proc/sys/kernel/perf_event_paranoid"

const char *
profile_mode_name(ProfileMode mode)
{
	switch (mode)
	{
		case PROFILE_OFF:
			return "off";
		case PROFILE_COUNTED:
			return "counted";
		case PROFILE_SAMPLED:
			return "sampled";
	}
	return "?";
}

const char *const profile_keys[] = {"profile", "cache_sim", "sample_event", "sample_rate", "counted_view",
"counted_view_rounds", "counted_view_transactions", NULL};

bool
profile_set_key(ProfileSpec *p, const char *key, const char *value, char **error)
{
	*error = NULL;
	if (strcmp(key, "profile") == 0)
	{
		if (strcmp(value, "off") == 0)
			p->mode = PROFILE_OFF;
		else if (strcmp(value, "counted") == 0)
			p->mode = PROFILE_COUNTED;
		else if (strcmp(value, "sampled") == 0)
			p->mode = PROFILE_SAMPLED;
		else
			*error = psprintf("profile must be off, counted (instructions under valgrind) or sampled (perf during ordinary runs), got \"%s\"", value);
	}
	else if (strcmp(key, "cache_sim") == 0)
	{
		if (!parse_bool_word(value, &p->cache_sim))
			*error = psprintf("cache_sim must be on or off, got \"%s\"", value);
	}
	else if (strcmp(key, "sample_event") == 0)
	{
		if (strcmp(value, "auto") == 0)
			p->sample_event = NULL;
		else if (strcmp(value, "cpu-clock") == 0 || strcmp(value, "cycles") == 0)
			p->sample_event = pg_strdup(value);
		else
			*error = psprintf("sample_event must be auto, cpu-clock or cycles, got \"%s\"", value);
	}
	else if (strcmp(key, "sample_rate") == 0)
	{
		if (!parse_int(value, 1, 10000, &p->sample_rate))
			*error = psprintf("sample_rate must be a whole number of samples per CPU-second from 1 to 10000, got \"%s\"", value);
	}
	else if (strcmp(key, "counted_view_rounds") == 0)
	{
		if (!parse_int(value, 2, 1000, &p->counted_view_rounds))
			*error = psprintf("counted_view_rounds must be a whole number of rounds from 2 to 1000, got \"%s\"", value);
	}
	else if (strcmp(key, "counted_view_transactions") == 0)
	{
		if (!parse_int(value, 20, 1000000, &p->counted_view_transactions))
			*error = psprintf("counted_view_transactions must be a whole number of transactions a run from 20 to 1000000, got \"%s\"", value);
	}
	else if (strcmp(key, "counted_view") == 0)
	{
		if (!parse_bool_word(value, &p->counted_view))
			*error = psprintf("counted_view must be on or off, got \"%s\"", value);
	}
	else
		return false;
	return *error == NULL;
}

void
profile_spec_to_json(const ProfileSpec *p, json_t *experiment)
{
	if (p->counted_view)
		json_object_set_new(experiment, "counted_view", json_true());
	if (p->counted_view_rounds)
		json_object_set_new(experiment, "counted_view_rounds", json_integer(p->counted_view_rounds));
	if (p->counted_view_transactions)
		json_object_set_new(experiment, "counted_view_transactions", json_integer(p->counted_view_transactions));
	if (p->mode == PROFILE_OFF)
		return;
	json_object_set_new(experiment, "profile", json_string(profile_mode_name(p->mode)));
	if (p->mode == PROFILE_COUNTED)
		json_object_set_new(experiment, "cache_sim", json_boolean(p->cache_sim));
	if (p->mode == PROFILE_SAMPLED)
	{
		json_object_set_new(experiment, "sample_event",
							json_string(p->sample_event ? p->sample_event : "auto"));
		json_object_set_new(experiment, "sample_rate",
							json_integer(p->sample_rate ? p->sample_rate : PROFILE_SAMPLE_RATE));
	}
}

/* ---- the tools ---- */

/* $env if set, else name on PATH; NULL with *problem when neither is there. */
static char *
find_tool(const char *env, const char *name, char **problem)
{
	const char *given = getenv(env);
	const char *path = getenv("PATH");
	char	   *copy;
	char	   *save;

	if (given && *given)
	{
		if (access(given, X_OK) == 0)
			return pg_strdup(given);
		*problem = psprintf("%s names \"%s\", which is not an executable file", env, given);
		return NULL;
	}
	copy = pg_strdup(path ? path : "");
	for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save))
	{
		char	   *candidate = psprintf("%s/%s", dir, name);

		if (access(candidate, X_OK) == 0)
			return candidate;
	}
	*problem = psprintf("%s is not installed (not found on PATH, and %s is not set)", name, env);
	return NULL;
}

char *
profile_valgrind_path(char **problem)
{
	return find_tool("PGBENCH_EXT_VALGRIND", "valgrind", problem);
}

char *
profile_perf_path(char **problem)
{
	return find_tool("PGBENCH_EXT_PERF", "perf", problem);
}

/* Whether perf records as root: only when we are root and no server account is used. */
bool
profile_perf_as_server(void)
{
	return need_server_account();
}

/*
 * Whether perf can count the hardware event here, as the recording
 * account: "perf stat -x," prints "<not supported>" in the value field
 * where the CPU (or the hypervisor) gives no such counter.
 */
static bool
perf_event_works(const char *perf, const char *event, char **output)
{
	char	   *ev = psprintf("%s:u", event);
	char	   *argv[] = {(char *) perf, "stat", "-x", ",", "-e", ev, "--", "/bin/true", NULL};
	ChildSpec	probe = CHILD_SPEC_INIT;
	int			status;

	probe.argv = argv;
	probe.unprivileged = profile_perf_as_server();
	*output = child_output(&probe, true, &status);
	return status == 0 && strstr(*output, "<not supported>") == NULL &&
		strstr(*output, "<not counted>") == NULL;
}

static int
read_paranoid(void)
{
	const char *path = getenv("PGBENCH_EXT_PERF_PARANOID_FILE");
	FILE	   *f = fopen(path && *path ? path : PARANOID_FILE, "re");
	int			level = INT_MIN;

	if (f == NULL)
		return INT_MIN;
	if (fscanf(f, "%d", &level) != 1)
		level = INT_MIN;
	fclose(f);
	return level;
}

static const char *
recording_account(void)
{
	char	   *error;
	const struct passwd *pw;

	if (!profile_perf_as_server())
		return "the user running pgbench_ext";
	pw = server_account(&error);
	return pw ? psprintf("\"%s\"", pw->pw_name) : "the server account";
}

/* ---- before anything runs ---- */

/*
 * A start's addresses move instruction counts (docs/profiles.md): a counted
 * profile's servers start without randomization unless aslr is given.
 * Before quiet_resolve(), which then leaves aslr = auto alone.
 */
static void
profile_resolve_aslr(ExperimentSpec *spec)
{
	if (spec->profile.mode == PROFILE_COUNTED && !spec->quiet.aslr_given && spec->quiet.aslr)
	{
		spec->quiet.aslr = false;
		printf("profile = counted: servers start without address-space randomization (aslr = off; set aslr = on to keep it)\n");
	}
}

/*
 * Variants that share a server share its shared buffers, and a round gives
 * them one pgbench seed: the first to run reads the round's pages, the
 * other finds them, about 1,000 instructions per transaction apart at
 * scale 1 (docs/counted-noise.md).  So a counted profile's runs start with
 * the run database in shared buffers unless prewarm is given.
 */
static void
profile_resolve_prewarm(ExperimentSpec *spec)
{
	if (spec->profile.mode == PROFILE_COUNTED && !spec->quiet.prewarm_given && !spec->quiet.prewarm)
	{
		spec->quiet.prewarm = true;
		printf("profile = counted: every run starts with the run database in shared buffers (prewarm = on; set prewarm = off to start cold)\n");
	}
}

/*
 * The profile's keys left to auto, as a run takes them; probe_perf: and the
 * sampled event chosen by trying perf, which the dry run does not.
 */
void
profile_resolve(ExperimentSpec *spec, bool probe_perf)
{
	ProfileSpec *p = &spec->profile;
	char	   *problem;
	char	   *perf;

	if (p->mode == PROFILE_OFF && !p->counted_view)
		return;
	/*
	 * Source builds carry symbols and frame pointers: symbols = on, the
	 * key a tps experiment's builds have when asked for it (build.c).
	 * With counted_view the timed runs' builds are so too, so that the
	 * counted runs count the very binaries that were timed.
	 */
	for (int i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].source)
			spec->variants[i].symbols = true;
	if (p->mode == PROFILE_OFF)
		return;
	profile_resolve_aslr(spec);
	profile_resolve_prewarm(spec);
	if (p->mode == PROFILE_COUNTED && spec->transactions == 0)
	{
		spec->transactions = PROFILE_COUNTED_TRANSACTIONS;
		spec->duration_s = 0;
		printf("profile = counted: every run makes %d transactions per client (the transactions key), not a duration\n",
			   spec->transactions);
	}
	if (p->mode == PROFILE_SAMPLED && probe_perf)
	{
		char	   *output;

		if (p->sample_rate == 0)
			p->sample_rate = PROFILE_SAMPLE_RATE;
		if (p->sample_event)
			p->event = pg_strdup(p->sample_event);
		else if ((perf = profile_perf_path(&problem)) != NULL)
			p->event = pg_strdup(perf_event_works(perf, "cycles", &output) ? "cycles" : "cpu-clock");
	}
}

static bool
refuse(const char *hint, const char *fmt,...) pg_attribute_printf(2, 3);

static bool
refuse(const char *hint, const char *fmt,...)
{
	va_list		ap;
	char		buf[2048];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	log_error_text(buf);
	if (hint)
		pg_log_error_hint("%s", escape_text(hint, ESCAPE_TERMINAL_LINES));
	return false;
}

/*
 * A binary a profile can name functions in: symbols at all (a stripped
 * .symtab is fine, .dynsym still names exported functions), and for
 * counted profiles PostgresMain, where callgrind starts counting.
 */
static bool
check_symbols(const VariantSpec *v, ProfileMode mode)
{
	char	   *postgres = psprintf("%s/postgres", v->bindir);
	ElfSymbols	sym;
	char		err[512];

	if (!prof_elf_symbols(postgres, "PostgresMain", &sym, err, sizeof(err)))
		return refuse("A profile reads the functions of the variant's own postgres binary.",
					  "variant \"%s\": %s", v->name, err);
	if (sym.symtab_functions + sym.dynsym_functions == 0 ||
		(mode == PROFILE_COUNTED && !sym.has_wanted))
		return refuse("Use a build that keeps its symbols: a variant built from source (source = DIR) keeps them, "
					  "and a package's debug symbols (Debian: the -dbgsym package) restore them.",
					  "variant \"%s\": %s has no symbols%s: a profile could not name a single function",
					  v->name, postgres,
					  sym.symtab_functions + sym.dynsym_functions == 0 ? " at all"
					  : " for PostgresMain, where counting starts");
	return true;
}

static bool
check_sampled(const ExperimentSpec *spec)
{
	const ProfileSpec *p = &spec->profile;
	char	   *problem = NULL;
	char	   *perf = profile_perf_path(&problem);
	char	   *output;
	int			paranoid = read_paranoid();

	if (perf == NULL)
		return refuse("Install it (Debian: apt-get install linux-perf; \"tools/deps install\" does), or name it with PGBENCH_EXT_PERF.",
					  "profile = sampled needs perf: %s", problem);
	if (profile_perf_as_server() || geteuid() != 0)
	{
		if (paranoid > 2)
			return refuse("As root: sysctl -w kernel.perf_event_paranoid=2 (user-space sampling of one's own processes), "
						  "or use profile = counted, which needs no permission.",
						  "kernel.perf_event_paranoid is %d: %s may not sample even its own processes, "
						  "and the servers' samples are recorded as that account",
						  paranoid, recording_account());
	}
	if (!perf_event_works(perf, "cpu-clock", &output))
		return refuse("perf must be able to sample the servers' account's own processes; its words are above.",
					  "perf cannot sample as %s here: \"perf stat -e cpu-clock:u\" failed:\n%s",
					  recording_account(), output);
	if (p->sample_event && strcmp(p->sample_event, "cycles") == 0 &&
		!perf_event_works(perf, "cycles", &output))
		return refuse("Use sample_event = auto or cpu-clock: virtual machines rarely pass the CPU's counters through.",
					  "sample_event = cycles, but the CPU's cycle counter is not available here:\n%s", output);
	return true;
}

/*
 * What moves a count between servers of one binary (docs/profiles.md, what
 * moves the count): each start's addresses.  Said, not refused: the effect
 * is a few hundredths of a per cent.  (The variants' names do not reach
 * the servers: their clusters are named by index, setup.c.)
 */
static void
warn_counted_layout(const ExperimentSpec *spec)
{
	int			servers = 0;

	for (int i = 0; i < spec->nvariants; i++)
		servers += spec->variants[i].cluster == NULL;
	if (servers > 1 && spec->quiet.aslr)
		log_warningf("profile = counted with servers of their own and aslr = on: every start has other addresses, "
					   "which move instructions per transaction by a few hundredths of a per cent; set aslr = off");
}

/*
 * counted_view = on: a timed experiment whose counted one
 * (counted_view_spec.c) can run, checked with it before the first timed
 * run rather than after the last.
 */
static bool
check_counted_view(const ExperimentSpec *spec)
{
	ExperimentSpec counted;

	if (spec->profile.mode == PROFILE_COUNTED)
		return refuse("Leave counted_view out: the experiment's own runs are counted.",
					  "counted_view adds counted runs to a timed experiment, and profile = counted is counted already");
	for (int i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].conninfo)
			return refuse("Give the variant a bindir (or source) so that its server is one this tool starts, or leave counted_view out.",
						  "variant \"%s\": counted_view counts servers this tool starts under valgrind, not a conninfo server",
						  spec->variants[i].name);
	counted_view_spec(spec, &counted);
	return profile_validate(&counted);
}

bool
profile_validate(const ExperimentSpec *spec)
{
	const ProfileSpec *p = &spec->profile;
	char	   *problem = NULL;

	if (p->mode != PROFILE_COUNTED && p->cache_sim)
		return refuse("Set profile = counted, or leave cache_sim out.",
					  "cache_sim applies to counted profiles only (profile = counted)");
	if (p->mode != PROFILE_SAMPLED && (p->sample_event || p->sample_rate))
		return refuse("Set profile = sampled, or leave sample_event and sample_rate out.",
					  "sample_event and sample_rate apply to sampled profiles only (profile = sampled)");
	if (!p->counted_view && (p->counted_view_rounds || p->counted_view_transactions))
		return refuse("Set counted_view = on, or leave counted_view_rounds and counted_view_transactions out.",
					  "counted_view_rounds and counted_view_transactions apply to the counted view only (counted_view = on)");
	if (p->counted_view && !check_counted_view(spec))
		return false;
	if (p->mode == PROFILE_OFF)
		return true;
	for (int i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].conninfo)
			return refuse("Give the variant a bindir (or source) so that its server is one this tool starts.",
						  "variant \"%s\": profiles need servers this tool manages, not a conninfo server",
						  spec->variants[i].name);
	if (p->mode == PROFILE_COUNTED)
	{
		if (profile_valgrind_path(&problem) == NULL)
			return refuse("Install it (Debian: apt-get install valgrind; \"tools/deps install\" does), or name it with PGBENCH_EXT_VALGRIND.",
						  "profile = counted needs valgrind: %s", problem);
		if (spec->transactions < 20)
			return refuse("Give transactions = 20 or more (per client), or leave it out for the default.",
						  "profile = counted runs a fixed number of transactions per client, at least 20; transactions is %d",
						  spec->transactions);
	}
	if (p->mode == PROFILE_COUNTED)
		warn_counted_layout(spec);
	else if (!check_sampled(spec))
		return false;
	/* source variants are built later; their builds keep every symbol */
	for (int i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].bindir && !spec->variants[i].source &&
			!check_symbols(&spec->variants[i], p->mode))
			return false;
	return true;
}

/* What experiment.json records of the profiles: mode, event, symbols. */
json_t *
profile_facts_json(const ExperimentSpec *spec)
{
	const ProfileSpec *p = &spec->profile;
	json_t	   *variants = json_object();
	json_t	   *facts;

	if (p->mode == PROFILE_OFF)
		return NULL;
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		ElfSymbols	sym;
		char		err[512];

		if (v->bindir == NULL)
			continue;
		if (!prof_elf_symbols(psprintf("%s/postgres", v->bindir), NULL, &sym, err, sizeof(err)))
			json_object_set_new(variants, v->name, json_pack("{s:s}", "error", err));
		else
			json_object_set_new(variants, v->name,
								json_pack("{s:b, s:i, s:i, s:b}",
										  "symtab", sym.has_symtab,
										  "symtab_functions", sym.symtab_functions,
										  "dynsym_functions", sym.dynsym_functions,
										  "debug_info", sym.has_debug_info));
	}
	facts = json_pack("{s:s, s:o}", "mode", profile_mode_name(p->mode), "symbols", variants);
	if (p->mode == PROFILE_COUNTED)
		json_object_set_new(facts, "cache_sim", json_boolean(p->cache_sim));
	else
	{
		json_object_set_new(facts, "event", p->event ? json_string(p->event) : json_null());
		json_object_set_new(facts, "sample_rate", json_integer(p->sample_rate));
		json_object_set_new(facts, "recorded_as", json_string(recording_account()));
	}
	return facts;
}
