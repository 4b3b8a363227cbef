/*-------------------------------------------------------------------------
 *
 * cmd_calibrate.c
 *		"pgbench_ext calibrate": how often does the harness cry wolf on this
 *		machine, and how small an effect can it see?
 *
 * Each phase (docs/calibrate.md: aa/, size/, delay/, and with --restart
 * aa-restart/ and delay-restart/) is an ordinary experiment in its own
 * results directory; calibrate.c judges them.  calibration.json records
 * what the phases' experiment.json files do not: the split into
 * comparisons, the target and each phase's elapsed time.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "commands.h"
#include "calibrate.h"
#include "experiment.h"
#include "results.h"
#include "runner.h"
#include "safe_file.h"
#include "stats.h"
#include "progress.h"
#include "quiet.h"

#include <getopt.h>
#include <math.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/logging.h"

static void
calibrate_usage(void)
{
	printf("%s calibrate: how often do verdicts err on this machine, and how noisy is it?\n\n",
		   progname);
	printf("It measures the false-positive rate of the verdicts (A/A), the detection\n"
		   "rate of a known injected slowdown, and the noise.\n\n");
	printf("Usage:\n");
	printf("  %s calibrate [OPTION]...\n", progname);
	printf("\nOptions:\n");
	printf("      --bindir=DIR         installation to calibrate (default: %s)\n", PGBENCH_EXT_PG_BINDIR);
	printf("  -b, --script=NAME        pgbench script (default select-only)\n");
	printf("  -c, --clients=N          clients (default 2)\n");
	printf("  -s, --scale=N            scale (default 10)\n");
	printf("  -T, --duration=SECONDS   length of each run (default 10)\n");
	printf("      --blocks=K           comparisons per phase (default 20)\n");
	printf("      --rounds=R           rounds per comparison (default 6)\n");
	printf("      --rounds=auto --budget=DURATION  each comparison budgeted (rounds = auto):\n"
		   "                           A/A, then 2%% and 5%% slowdowns, --blocks of each\n");
	printf("      --target=PCT         injected slowdown in percent (default 3)\n");
	printf("      --skip-aa            only the injected-slowdown phase\n");
	printf("      --size-rounds=N      first measure the target as a setting over N rounds and\n"
		   "                           scale the setting to hit the target (default 0: the\n"
		   "                           target is the setting)\n");
	printf("      --setting=PCT        the inject_slowdown_pct that gives the target here, if\n"
		   "                           known from an earlier measurement (default: the target)\n");
	printf("      --delay-ns=N         inject a fixed wait of N ns at each commit instead\n");
	printf("      --restart=N          across servers: the A/A and the slowdown on two clusters,\n"
		   "                           started once and restarted every N rounds (--rounds / N\n"
		   "                           instance pairs per comparison, at least 6)\n");
	printf("      --schedule=auto|interleaved|duet  every phase's (default auto, as run: a duet\n"
		   "                           where both variants have servers of their own)\n");
	printf("      --counted            counted instructions instead (profile = counted, -c 1):\n"
		   "                           an A/A of two servers of --bindir over --rounds rounds\n"
		   "                           (default 10) of -t transactions (default 100)\n");
	printf("  -t, --transactions=N     with --counted: transactions per run\n");
	printf("      --known-cost-bindir=DIR  with --counted: then A against this build of the same\n"
		   "                           source with test/fixtures/xact-known-cost.patch\n");
	printf("  -o, --output=DIR         results directory (default calibration-YYYYMMDD-HHMMSS)\n");
	printf("      --reanalyse=DIR      run nothing: analyse a finished calibration again\n"
		   "                           (with its recorded --blocks, --rounds, --target\n"
		   "                           unless given)\n");
	printf("  -?, --help               show this help, then exit\n");
}

/* experiment_set(), a value it refuses being a usage error */
static void
set_key(ExperimentSpec *spec, const char *section, const char *key, const char *value)
{
	char	   *error;

	if (!experiment_set(spec, section, key, value, &error))
		usage_error("calibrate", "%s", error);
}

static void
base_spec(ExperimentSpec *spec, const CalibrateOptions *o, int rounds)
{
	experiment_init(spec);

	/*
	 * restart = never: one start per phase, each block of rounds judged
	 * round by round (calibrate.c), the scheme these figures measure.
	 */
	set_key(spec, "experiment", "script", o->script);
	set_key(spec, "experiment", "clients", psprintf("%d", o->clients));
	set_key(spec, "experiment", "scale", psprintf("%d", o->scale));
	set_key(spec, "experiment", "duration", psprintf("%d", o->duration_s));
	set_key(spec, "experiment", "rounds", psprintf("%d", rounds));
	set_key(spec, "experiment", "seed", psprintf("%d", (int) time(NULL) % 1000000));
	set_key(spec, "variant A", "bindir", o->bindir);
	set_key(spec, "experiment", "restart", "never");
	/* a read-only load leaves the data as it found it: skip the copies */
	if (strcmp(o->script, "select-only") == 0)
		set_key(spec, "experiment", "reset", "never");
}

static int
run_phase(const CalibrateOptions *o, ExperimentSpec *spec, const char *dir)
{
	RunOptions	ropts = {0};

	ropts.results_dir = dir;
	ropts.max_restarts = 3;
	ropts.no_summary = true;
	return calibrate_execute(o, spec, &ropts);
}

/* The slowdown the options say, in the slowed variant's connections. */
static void
set_slowdown(ExperimentSpec *spec, const CalibrateOptions *o)
{
	set_key(spec, "variant delayed", "session_set",
			o->delay_ns > 0 ? psprintf("pgbench_ext.inject_delay_ns=%d", o->delay_ns)
			: psprintf("pgbench_ext.inject_slowdown_pct=%g", o->setting_pct));
}

/* A against A with the slowdown the options say, over rounds rounds. */
static int
run_slowed_phase(const CalibrateOptions *o, int rounds, const char *dir)
{
	ExperimentSpec spec;

	base_spec(&spec, o, rounds);
	/* on A's own server: a second cluster would add its layout's luck to the effect */
	set_key(&spec, "variant delayed", "cluster", "A");
	set_slowdown(&spec, o);
	return run_phase(o, &spec, dir);
}

/*
 * Two clusters of one build, restarted every restart rounds (0: started
 * once): A against A2, or (slowed) against the slowed variant on a
 * cluster of its own, over every comparison's rounds.
 */
static int
run_servers_phase(const CalibrateOptions *o, bool slowed, int restart, const char *dir)
{
	ExperimentSpec spec;

	base_spec(&spec, o, o->blocks * o->rounds);
	if (restart > 0)
		set_key(&spec, "experiment", "restart", psprintf("%d", restart));
	set_key(&spec, slowed ? "variant delayed" : "variant A2", "bindir", o->bindir);
	if (slowed)
		set_slowdown(&spec, o);
	return run_phase(o, &spec, dir);
}

/*
 * --rounds auto: every comparison a budgeted experiment of its own
 * (calibrate_budget.c says which), run as "ab --rounds auto" runs one.
 */
static int
run_budgeted_calibration(const CalibrateOptions *o)
{
	char	   *error;

	for (int p = 0; p < CAL_BUDGET_NPHASES; p++)
		for (int k = 1; k <= o->blocks; k++)
		{
			ExperimentSpec spec;
			RunOptions	ropts = {0};
			int			rc;

			base_spec(&spec, o, 6);
			set_key(&spec, "experiment", "rounds", "auto");
			set_key(&spec, "experiment", "budget", psprintf("%d", o->budget_s));
			set_key(&spec, "experiment", "restart", "auto");
			if (p == 0)
				set_key(&spec, "variant A2", "bindir", o->bindir);
			else
			{
				set_key(&spec, "variant slowed", "cluster", "A");
				set_key(&spec, "variant slowed", "session_set",
						psprintf("pgbench_ext.inject_slowdown_pct=%g", calibrate_budget_slowdown_pct[p]));
			}
			ropts.results_dir = calibrate_budget_dir(o, p, k);
			ropts.max_restarts = 3;
			ropts.no_summary = true;
			ropts.quiet_looks = true;
			fprintf(stderr, "calibrate: rounds = auto, %s %d of %d (a budget of %d s)\n",
					p == 0 ? "A against an identical A" : psprintf("A against A slowed down by %g%%", calibrate_budget_slowdown_pct[p]),
					k, o->blocks, o->budget_s);
			if ((rc = calibrate_execute(o, &spec, &ropts)) != 0)
				return rc;
		}
	if (!calibrate_budget_report(o, stdout, &error))
		return log_error_status(error, EXIT_RUNTIME_ERROR);
	return 0;
}

/* the injected slowdown, in percent, unless --target says otherwise */
#define DEFAULT_TARGET_PCT 3.0

/* What the phases' own experiment.json files do not say: how to split them. */
#define CALIBRATION_FILE "calibration.json"

static bool
write_calibration_file(const CalibrateOptions *o, char **error)
{
	json_t	   *doc = json_pack("{s:i, s:i, s:f}", "blocks", o->blocks,
								"rounds_per_comparison", o->rounds, "target", o->target);
	bool		ok = results_write_json(o->dir, CALIBRATION_FILE, doc, error);

	json_decref(doc);
	return ok;
}

/*
 * A phase's elapsed time into calibration.json (setup, restarts and runs:
 * what the phase cost), for the figures and for --reanalyse.
 */
static void
record_elapsed(const CalibrateOptions *o, const char *phase, double seconds)
{
	char	   *error;
	json_t	   *doc = results_read_json(o->dir, CALIBRATION_FILE, &error);
	json_t	   *elapsed;

	if (doc == NULL)
	{
		log_warningf("%s; the elapsed time of phase %s is not recorded", error, phase);
		return;
	}
	if (!json_is_object(elapsed = json_object_get(doc, "elapsed_s")))
		json_object_set_new(doc, "elapsed_s", elapsed = json_object());
	json_object_set_new(elapsed, phase, json_real(seconds));
	if (!results_write_json(o->dir, CALIBRATION_FILE, doc, &error))
		log_warningf("%s; the elapsed time of phase %s is not recorded", error, phase);
	json_decref(doc);
}

/* A phase's recorded elapsed time; NAN when calibration.json has none. */
static double
recorded_elapsed(const CalibrateOptions *o, const char *phase)
{
	char	   *error;
	json_t	   *doc;
	json_t	   *v;
	double		seconds;

	if (access(psprintf("%s/%s", o->dir, CALIBRATION_FILE), R_OK) != 0 ||
		(doc = results_read_json(o->dir, CALIBRATION_FILE, &error)) == NULL)
		return NAN;
	v = json_object_get(json_object_get(doc, "elapsed_s"), phase);
	seconds = json_is_number(v) ? json_number_value(v) : NAN;
	json_decref(doc);
	return seconds;
}

/*
 * The across-servers figures of the phases in o->dir that ran (aa/ and
 * delay/ count only when their variants were on two servers), printed and
 * appended to calibration.md.
 */
static bool
analyse_servers(CalibrateOptions *o, char **error)
{
	static const struct
	{
		const char *name;
		bool		slowed;
	}			phases[] = {{"aa", false}, {"aa-restart", false}, {"delay", true}, {"delay-restart", true}};
	CalibrationServers s = {0};
	CalibrationServersPhase *p[] = {&s.aa_once, &s.aa_restarted, &s.slowed_once, &s.slowed_restarted};

	for (int i = 0; i < lengthof(phases); i++)
	{
		const char *dir = psprintf("%s/%s", o->dir, phases[i].name);

		if (access(psprintf("%s/runs.csv", dir), R_OK) != 0)
			continue;
		if (!calibrate_analyse_servers(o, dir, phases[i].slowed,
									   recorded_elapsed(o, phases[i].name), p[i], error))
			return false;
		if (p[i]->ran && p[i]->restart_rounds > 0)
			o->restart_rounds = p[i]->restart_rounds;
	}
	return calibrate_report_servers(o, &s, stdout, error);
}

/*
 * The split and target a calibration ran with, for the options not given
 * again.  A calibration from before the file existed keeps the defaults.
 */
static void
read_calibration_file(CalibrateOptions *o, bool blocks_given, bool rounds_given,
					  bool target_given)
{
	char	   *error;
	json_t	   *doc;

	if (access(psprintf("%s/%s", o->dir, CALIBRATION_FILE), R_OK) != 0)
		return;
	doc = results_read_json(o->dir, CALIBRATION_FILE, &error);
	if (doc == NULL)
	{
		log_warningf("%s; using the defaults and the options given", error);
		return;
	}
	if (!blocks_given && json_is_integer(json_object_get(doc, "blocks")))
		o->blocks = json_integer_value(json_object_get(doc, "blocks"));
	if (!rounds_given && json_is_integer(json_object_get(doc, "rounds_per_comparison")))
		o->rounds = json_integer_value(json_object_get(doc, "rounds_per_comparison"));
	if (!target_given && json_is_number(json_object_get(doc, "target")))
		o->target = json_number_value(json_object_get(doc, "target"));
	json_decref(doc);
}

/*
 * The figures of a finished calibration again (after a fix to the analysis,
 * or with other --blocks/--rounds splits), from its directories alone: the
 * run length and delay are read back from the recorded experiments, the
 * split and target from calibration.json unless given again.
 */
static int
reanalyse(CalibrateOptions *o)
{
	CalibrationResult result = {0};
	char	   *error;
	ExperimentSpec spec;
	json_t	   *doc = results_read_spec(psprintf("%s/delay", o->dir), &spec, &error);

	if (doc == NULL)
	{
		log_errorf("\"%s\" is not a finished calibration: %s", o->dir, error);
		return EXIT_USAGE;
	}
	o->duration_s = spec.duration_s;
	o->clients = spec.clients[0];
	o->script = spec.scripts[0];
	/* the slowdown the phase ran with; without a recorded target, the target */
	calibrate_recorded_slowdown(&spec, &o->delay_ns, &o->setting_pct);
	if (isnan(o->target))
		o->target = (o->setting_pct > 0 ? o->setting_pct : DEFAULT_TARGET_PCT) / 100.0;
	if (access(psprintf("%s/size/runs.csv", o->dir), R_OK) == 0 &&
		!calibrate_analyse_sizing(o, psprintf("%s/size", o->dir), &result, &error))
		return log_error_status(error, EXIT_RUNTIME_ERROR);
	o->skip_aa = access(psprintf("%s/aa/runs.csv", o->dir), R_OK) != 0;
	if ((!o->skip_aa && !calibrate_analyse_aa(o, psprintf("%s/aa", o->dir), &result, &error)) ||
		!calibrate_analyse_delay(o, psprintf("%s/delay", o->dir), &result, &error) ||
		!calibrate_report(o, &result, stdout, &error) ||
		((access(psprintf("%s/aa-restart/runs.csv", o->dir), R_OK) == 0 ||
		  access(psprintf("%s/delay-restart/runs.csv", o->dir), R_OK) == 0) &&
		 !analyse_servers(o, &error)))
	{
		log_error_text(error);
		return safe_file_refused() ? EXIT_USAGE : EXIT_RUNTIME_ERROR;
	}
	return 0;
}

/* Options that exclude each other, or need one another. */
static void
check_exclusions(const CalibrateOptions *o, bool target_given, double setting_pct)
{
	if (target_given && o->delay_ns > 0)
		usage_error("calibrate", "--target and --delay-ns exclude each other: the slowdown is either a share of each transaction or a fixed wait");
	if (o->size_rounds > 0 && o->delay_ns > 0)
		usage_error("calibrate", "--size-rounds and --delay-ns exclude each other: sizing scales inject_slowdown_pct, not a fixed wait");
	if (setting_pct > 0 && (o->delay_ns > 0 || o->size_rounds > 0))
		usage_error("calibrate", "--setting excludes --delay-ns and --size-rounds: it is the inject_slowdown_pct they would choose");
	if (o->restart_rounds > 0 && o->reanalyse)
		usage_error("calibrate", "--restart and --reanalyse exclude each other: the restarts a calibration ran with are in its phases' experiment.json");
	if (o->restart_rounds > 0 && o->rounds % o->restart_rounds != 0)
		usage_error("calibrate", "--rounds %d is not a multiple of --restart %d: each comparison must hold whole instance pairs",
					o->rounds, o->restart_rounds);
	if (o->restart_rounds > 0 && o->rounds / o->restart_rounds < 6)
		usage_error("calibrate", "--rounds %d with --restart %d gives %d instance pairs per comparison; the verdict across instance pairs needs at least 6",
					o->rounds, o->restart_rounds, o->rounds / o->restart_rounds);
	if (o->rounds_auto != (o->budget_s > 0))
		usage_error("calibrate", o->rounds_auto ? "--rounds auto needs --budget: the most time each comparison may take"
					: "--budget goes with --rounds auto");
	if (o->rounds_auto && (o->reanalyse || target_given || o->delay_ns > 0 || o->size_rounds > 0 ||
						  setting_pct > 0 || o->skip_aa || o->restart_rounds > 0))
		usage_error("calibrate", "--rounds auto runs its own phases (an A/A, 2%% and 5%% slowdowns): it takes none of --reanalyse, --target, --delay-ns, --size-rounds, --setting, --skip-aa and --restart");
}

/*
 * --counted runs its own phases: of the others' options it takes the
 * installation, the script, the scale, the rounds and the directory.
 */
static void
check_counted_options(CalibrateOptions *o, bool rounds_given)
{
	if (!o->counted)
	{
		if (o->known_cost_bindir || o->transactions > 0)
			usage_error("calibrate", "-t and --known-cost-bindir go with --counted");
		return;
	}
	if (o->transactions == 0)
		o->transactions = 100;
	if (o->rounds_auto || o->reanalyse || o->restart_rounds > 0 || o->size_rounds > 0 ||
		o->delay_ns > 0 || o->skip_aa)
		usage_error("calibrate", "--counted runs its own phases (a counted A/A, a known cost): it takes none of "
					"--rounds auto, --reanalyse, --restart, --size-rounds, --delay-ns and --skip-aa");
	if (!rounds_given)
		o->rounds = 10;
}

/* The options calibrate was given, beside those CalibrateOptions holds */
typedef struct CalibrateGiven
{
	bool		blocks;
	bool		rounds;
	bool		target;
	double		target_pct;
	double		setting_pct;
} CalibrateGiven;

static struct option calibrate_options[] = {
	{"bindir", required_argument, NULL, 1},
	{"script", required_argument, NULL, 'b'},
	{"clients", required_argument, NULL, 'c'},
	{"scale", required_argument, NULL, 's'},
	{"duration", required_argument, NULL, 'T'},
	{"blocks", required_argument, NULL, 2},
	{"rounds", required_argument, NULL, 3},
	{"target", required_argument, NULL, 4},
	{"skip-aa", no_argument, NULL, 5},
	{"delay-ns", required_argument, NULL, 6},
	{"output", required_argument, NULL, 'o'},
	{"reanalyse", required_argument, NULL, 7},
	{"size-rounds", required_argument, NULL, 8},
	{"setting", required_argument, NULL, 9},
	{"restart", required_argument, NULL, 10},
	{"budget", required_argument, NULL, 11},
	{"counted", no_argument, NULL, 12},
	{"transactions", required_argument, NULL, 't'},
	{"known-cost-bindir", required_argument, NULL, 13},
	{"schedule", required_argument, NULL, 14},
	{"help", no_argument, NULL, '?'},
	{NULL, 0, NULL, 0}
};

/* The command line into o and g; exits on a usage error */
static void
parse_calibrate_options(int argc, char **argv, CalibrateOptions *o, CalibrateGiven *g)
{
	char	   *end;
	int			c;

	while ((c = cli_getopt(argc, argv, "b:c:s:T:t:o:", calibrate_options, "calibrate")) != -1)
	{
		switch (c)
		{
			case 1:
				o->bindir = optarg;
				break;
			case 'b':
				o->script = optarg;
				break;
			case 'c':
				o->clients = cli_int(optarg, "-c/--clients", 1, 1000);
				break;
			case 's':
				o->scale = cli_int(optarg, "-s/--scale", 1, 100000);
				break;
			case 'T':
				o->duration_s = cli_int(optarg, "-T/--duration", 1, 86400);
				break;
			case 2:
				o->blocks = cli_int(optarg, "--blocks", 1, 1000);
				g->blocks = true;
				break;
			case 3:
				o->rounds_auto = strcmp(optarg, "auto") == 0;
				if (!o->rounds_auto)
					o->rounds = cli_int(optarg, "--rounds", 2, 1000);
				g->rounds = true;
				break;
			case 4:
				g->target_pct = strtod(optarg, &end);
				if (*end != '\0' || !(g->target_pct > 0 && g->target_pct < 50))
					usage_error("calibrate", "--target must be a percentage above 0 and below 50, got \"%s\"", optarg);
				g->target = true;
				break;
			case 5:
				o->skip_aa = true;
				break;
			case 6:
				o->delay_ns = cli_int(optarg, "--delay-ns", 1, 100000000);
				break;
			case 'o':
				o->dir = optarg;
				break;
			case 7:
				o->dir = optarg;
				o->reanalyse = true;
				break;
			case 8:
				/*
				 * Fewer than 4 rounds give the slowdown no confidence
				 * interval (3 + 3 runs: no rank sum is beyond chance at 5%),
				 * and without one the sizing cannot decide: refused here,
				 * not after the rounds have run.
				 */
				o->size_rounds = cli_int(optarg, "--size-rounds", 4, 10000);
				break;
			case 9:
				g->setting_pct = strtod(optarg, &end);
				if (*end != '\0' || !(g->setting_pct > 0 && g->setting_pct <= 50))
					usage_error("calibrate", "--setting must be a percentage above 0 and at most 50, got \"%s\"", optarg);
				break;
			case 10:
				o->restart_rounds = cli_int(optarg, "--restart", 1, 1000);
				break;
			case 11:
				if (!experiment_parse_duration(optarg, &o->budget_s))
					usage_error("calibrate", "--budget must be a duration such as 900s, 30m or 2h, got \"%s\"", optarg);
				break;
			case 12:
				o->counted = true;
				break;
			case 't':
				o->transactions = cli_int(optarg, "-t/--transactions", 20, 1000000);
				break;
			case 13:
				o->known_cost_bindir = optarg;
				break;
			case 14:
				{
					char	   *error;

					/* parsed as the key is, and refused before any phase runs */
					if (!quiet_set_key(&o->schedule, "schedule", optarg, &error))
						usage_error("calibrate", "--schedule: %s", error);
				}
				break;
			default:
				usage_hint_exit("calibrate");
		}
	}
	if (optind < argc)
		usage_error("calibrate", "too many command-line arguments (first is \"%s\")", argv[optind]);
}

/* The phases of a calibration of fixed rounds, then its report */
static int
run_calibration_phases(CalibrateOptions *o)
{
	CalibrationResult result = {0};
	char	   *error;
	int			rc;
	int			phase = 0;
	int			nphases;
	double		started;

	nphases = ((o->skip_aa ? 0 : 1) + 1) * (o->restart_rounds > 0 ? 2 : 1) + (o->size_rounds > 0 ? 1 : 0);
	if (!o->skip_aa)
	{
		fprintf(stderr, "calibrate: phase %d of %d, A against an identical A%s (%d comparisons of %d rounds)\n",
				++phase, nphases, o->restart_rounds > 0 ? ", two clusters started once" : "",
				o->blocks, o->rounds);
		started = now_seconds();
		if ((rc = run_servers_phase(o, false, 0, psprintf("%s/aa", o->dir))) != 0)
			return rc;
		record_elapsed(o, "aa", now_seconds() - started);
		if (!calibrate_analyse_aa(o, psprintf("%s/aa", o->dir), &result, &error))
			return log_error_status(error, EXIT_RUNTIME_ERROR);
	}
	if (!o->skip_aa && o->restart_rounds > 0)
	{
		fprintf(stderr, "calibrate: phase %d of %d, A against an identical A, both restarted every %d round%s (%d comparisons of %d instance pairs)\n",
				++phase, nphases, o->restart_rounds, o->restart_rounds == 1 ? "" : "s",
				o->blocks, o->rounds / o->restart_rounds);
		started = now_seconds();
		if ((rc = run_servers_phase(o, false, o->restart_rounds, psprintf("%s/aa-restart", o->dir))) != 0)
			return rc;
		record_elapsed(o, "aa-restart", now_seconds() - started);
	}

	if (o->size_rounds > 0)
	{
		fprintf(stderr, "calibrate: phase %d of %d, sizing: A against A %s (%d rounds)\n",
				++phase, nphases, calibrate_slowdown_text(o), o->size_rounds);
		if ((rc = run_slowed_phase(o, o->size_rounds, psprintf("%s/size", o->dir))) != 0)
			return rc;
		if (!calibrate_analyse_sizing(o, psprintf("%s/size", o->dir), &result, &error))
			return log_error_status(error, EXIT_RUNTIME_ERROR);
		o->setting_pct = result.sized_setting_pct;
	}

	fprintf(stderr, "calibrate: phase %d of %d, A against A %s%s\n",
			++phase, nphases, calibrate_slowdown_text(o),
			o->restart_rounds > 0 ? ", on a cluster of its own started once" : "");
	started = now_seconds();
	if ((rc = o->restart_rounds > 0
		 ? run_servers_phase(o, true, 0, psprintf("%s/delay", o->dir))
		 : run_slowed_phase(o, o->blocks * o->rounds, psprintf("%s/delay", o->dir))) != 0)
		return rc;
	record_elapsed(o, "delay", now_seconds() - started);
	if (o->restart_rounds > 0)
	{
		fprintf(stderr, "calibrate: phase %d of %d, A against A %s, on a cluster of its own, both restarted every %d round%s\n",
				++phase, nphases, calibrate_slowdown_text(o), o->restart_rounds,
				o->restart_rounds == 1 ? "" : "s");
		started = now_seconds();
		if ((rc = run_servers_phase(o, true, o->restart_rounds,
									psprintf("%s/delay-restart", o->dir))) != 0)
			return rc;
		record_elapsed(o, "delay-restart", now_seconds() - started);
	}
	if (!calibrate_analyse_delay(o, psprintf("%s/delay", o->dir), &result, &error) ||
		!calibrate_report(o, &result, stdout, &error) ||
		(o->restart_rounds > 0 && !analyse_servers(o, &error)))
		return log_error_status(error, EXIT_RUNTIME_ERROR);
	return 0;
}

int
cmd_calibrate(int argc, char **argv)
{
	CalibrateOptions o = {0};
	CalibrateGiven g = {0};
	char	   *error;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		calibrate_usage();
		return 0;
	}
	o.bindir = PGBENCH_EXT_PG_BINDIR;
	o.script = "select-only";
	o.clients = 2;
	o.scale = 10;
	o.duration_s = 10;
	o.blocks = 20;
	o.rounds = 6;
	g.target_pct = DEFAULT_TARGET_PCT;
	parse_calibrate_options(argc, argv, &o, &g);
	check_exclusions(&o, g.target, g.setting_pct);
	check_counted_options(&o, g.rounds);
	o.target = g.target_pct / 100.0;
	o.setting_pct = g.setting_pct > 0 ? g.setting_pct : g.target_pct;
	if (o.dir == NULL)
		o.dir = timestamped_dir("calibration");
	/*
	 * Ours and private, as a results directory of run is (it is one); one
	 * to reanalyse that is not there is reanalyse()'s to name.
	 */
	if ((!o.reanalyse || access(o.dir, F_OK) == 0) &&
		!safe_results_dir(o.dir, false, &error))
		return log_error_status(error, EXIT_USAGE);

	if (o.reanalyse)
	{
		if (!g.target)
			o.target = NAN;		/* calibration.json's, or the setting's */
		read_calibration_file(&o, g.blocks, g.rounds, g.target);
		return reanalyse(&o);
	}
	if (o.rounds_auto)
		return run_budgeted_calibration(&o);
	if (o.counted)
		return calibrate_counted(&o);
	if (!write_calibration_file(&o, &error))
		return log_error_status(error, EXIT_RUNTIME_ERROR);

	return run_calibration_phases(&o);
}
