/*-------------------------------------------------------------------------
 *
 * cmd_run.c
 *		"pgbench_ext run" (an experiment file, --resume, --rerun) and
 *		"pgbench_ext ab" (the same experiment given as flags).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "commands.h"
#include "layout_seeds.h"
#include "experiment.h"
#include "profile.h"
#include "report.h"
#include "results.h"
#include "preflight.h"
#include "runner.h"
#include "validate.h"

#include <getopt.h>
#include <time.h>
#include <unistd.h>

#include "common/logging.h"
#include "common/pg_prng.h"
#include "fe_utils/option_utils.h"

static void
run_usage(void)
{
	printf("%s run executes an experiment: every variant in every cell, in randomized\n"
		   "interleaved rounds, with each run recorded as it ends.\n\n", progname);
	printf("Usage:\n");
	printf("  %s run FILE [-o DIR] [--seed N]\n", progname);
	printf("  %s run --resume DIR\n", progname);
	printf("  %s run --rerun DIR -o NEWDIR [--seed N]\n", progname);
	printf("\nOptions:\n");
	printf("  -o, --output=DIR         results directory (default: results-YYYYMMDD-HHMMSS)\n");
	printf("      --resume=DIR         continue an interrupted experiment where it stopped\n");
	printf("      --rerun=DIR          repeat DIR's resolved experiment (same plan seed)\n");
	printf("      --seed=N             plan seed (default: random, recorded)\n");
	printf("      --max-restarts=N     postmaster deaths tolerated per variant (default 3)\n");
	printf("  -v, --verbose            at the end, the noise by level and the designs too\n");
	printf("  -?, --help               show this help, then exit\n");
	printf("\nThe experiment file format: docs/experiments.md of pgbench_ext's sources.\n");
}

static void
ab_usage(void)
{
	printf("%s ab compares variants given as flags, without an experiment file.\n\n", progname);
	printf("Usage:\n");
	printf("  %s ab [EXPERIMENT OPTION]... --variant NAME [VARIANT OPTION]... --variant NAME ...\n", progname);
	printf("\nExperiment options (the keys of [experiment]):\n");
	printf("  -s, --scale=N            pgbench scale factor (default 10)\n");
	printf("  -c, --clients=LIST       client counts, e.g. 1,2,4 (default 1)\n");
	printf("  -j, --jobs=N|clients|cpus|auto   pgbench threads (default auto)\n");
	printf("  -T, --duration=SECONDS   length of each run (default 30)\n");
	printf("  -t, --transactions=N     transactions per client instead of a duration\n");
	printf("  -r, --rounds=N|auto      rounds; each runs every variant once per cell (default 6);\n"
		   "                           auto: blocks of rounds until decided or the budget is spent\n");
	printf("      --budget=DURATION    with --rounds auto: the most time the runs take (30m, 2h, 900s)\n");
	printf("      --min-rounds=N       with --rounds auto: rounds before the first look (default 0)\n");
	printf("      --warmup=N           leading rounds recorded but not counted (default 0)\n");
	printf("  -b, --script=LIST        tpcb-like, simple-update, select-only or files\n");
	printf("  -M, --protocol=MODE      simple, extended or prepared\n");
	printf("      --unlogged           pgbench -i --unlogged-tables\n");
	printf("      --reset=every-run|never  fresh copy of the data before each run or not\n");
	printf("      --restart=N|never|auto  restart every managed server every N rounds, a\n"
		   "                           warm-up run after each start (default auto: see the manual)\n");
	printf("      --pgbench-args=ARGS  further pgbench options, passed through\n");
	printf("      --seed=N             plan seed\n");
	printf("      --schedule=interleaved|duet  one run at a time, or both sides of a pair at\n"
		   "                           once, each on half of the CPUs (default interleaved)\n");
	printf("      --pin=on|off         each server and its pgbench on half of the CPUs,\n"
		   "                           swapped every round (default off)\n");
	printf("      --aslr=on|off        address-space randomization of managed servers (default on)\n");
	printf("      --pgbench-seed=shared|own  one --random-seed per round for every variant (default shared)\n");
	printf("      --prewarm=on|off     pg_prewarm the run database before each run (default off)\n");
	printf("      --snapshot-probe[=on|off]  time GetSnapshotData() under every run's load\n");
	printf("      --snapshot-probe-interval=MS  pause between two probes (default 100)\n");
	printf("      --profile=off|counted|sampled  profiles of the servers (docs/profiles.md)\n");
	printf("      --cache-sim=on|off   counted: simulated cache misses too\n");
	printf("      --sample-event=auto|cpu-clock|cycles  sampled: the event perf samples\n");
	printf("      --sample-rate=HZ     sampled: samples per CPU-second (default %d)\n", PROFILE_SAMPLE_RATE);
	printf("  -o, --output=DIR         results directory\n");
	printf("  -v, --verbose            at the end, the noise by level and the designs too\n");
	printf("\nVariant options (the keys of [variant NAME]; apply to the last --variant):\n");
	printf("      --variant=NAME       start a variant\n");
	printf("      --bindir=DIR         installation to run a managed cluster of\n");
	printf("      --conninfo=STRING    or an existing server (not managed)\n");
	printf("      --set=NAME=VALUE     a server setting (repeatable)\n");
	printf("      --cluster=NAME       run on variant NAME's server, not one of its own\n");
	printf("      --session-set=NAME=VALUE  a setting for this variant's connections only\n"
		   "                           (repeatable; libpq options -c)\n");
	printf("      --extension=on|off   load pgbench_ext (default on)\n");
	printf("      --initdb-args=ARGS   extra initdb options\n");
	printf("      --source=DIR         build from this PostgreSQL source tree\n"
		   "                           (docs/building.md), with:\n");
	printf("      --patch=FILE         a patch to apply (repeatable)\n");
	printf("      --cflags=FLAGS       CFLAGS for configure (default -O2)\n");
	printf("      --configure=ARGS     extra configure arguments\n");
	printf("      --lto=on|off         link-time optimization\n");
	printf("      --pgo=on|off         profile-guided optimization (a training load first)\n");
	printf("      --layout-seeds=N     N builds with shuffled function order\n");
	printf("\nExample:\n");
	printf("  %s ab -b select-only -c 2 -T 10 -r 6 \\\n"
		   "     --variant A --bindir $(pg_config --bindir) --set synchronous_commit=on \\\n"
		   "     --variant B --bindir $(pg_config --bindir) --set synchronous_commit=off\n", progname);
}

/* The plan seed: given, or drawn now and recorded with the experiment. */
static void
choose_seed(ExperimentSpec *spec, const char *seed_arg)
{
	char	   *error;

	if (seed_arg)
	{
		if (!experiment_set(spec, "experiment", "seed", seed_arg, &error))
			usage_error("run", "%s", error);
		return;
	}
	if (!spec->seed_given)
	{
		pg_prng_state rng;
		uint64		entropy = (uint64) time(NULL) ^ ((uint64) getpid() << 32);
		FILE	   *urandom = fopen("/dev/urandom", "rbe");

		if (urandom)
		{
			if (fread(&entropy, sizeof(entropy), 1, urandom) != 1)
				entropy ^= (uint64) clock();
			fclose(urandom);
		}
		pg_prng_seed(&rng, entropy);
		/* short enough to type back in with --seed */
		spec->seed = pg_prng_uint64(&rng) % UINT64CONST(1000000000000);
		spec->seed_given = true;
	}
}

static int
execute(ExperimentSpec *spec, RunOptions *ropts, const char *command)
{
	char	   *error;

	if (!layout_seeds_expand(spec, &error))
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	profile_resolve(spec);
	if (!validate_experiment(spec, ropts->results_dir, ropts->resume))
	{
		pg_log_error_hint("Nothing was run. Try \"%s %s --help\" for the options.", progname, command);
		return EXIT_USAGE;
	}
	if (!ropts->resume)
		preflight_choose_restart(spec);
	return runner_execute(spec, ropts);
}

/* Read a results directory's recorded specification. */
static void
load_recorded_spec(ExperimentSpec *spec, const char *dir)
{
	char	   *error;
	json_t	   *doc = results_read_spec(dir, spec, &error);

	if (doc == NULL)
	{
		if (access(psprintf("%s/experiment.json", dir), F_OK) != 0)
			log_errorf("\"%s\" is not a results directory of pgbench_ext: %s", dir, error);
		else
			log_errorf("the experiment recorded in \"%s\" is refused: %s", dir, error);
		exit(EXIT_USAGE);
	}
	json_decref(doc);
}

int
cmd_run(int argc, char **argv)
{
	static struct option long_options[] = {
		{"output", required_argument, NULL, 'o'},
		{"resume", required_argument, NULL, 1},
		{"rerun", required_argument, NULL, 2},
		{"seed", required_argument, NULL, 3},
		{"max-restarts", required_argument, NULL, 4},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	const char *seed_arg = NULL;
	int			c;
	char	   *error;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		run_usage();
		return 0;
	}
	ropts.max_restarts = 3;
	while ((c = getopt_long(argc, argv, "o:v", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 'o':
				ropts.results_dir = optarg;
				break;
			case 'v':
				report_verbose = true;
				break;
			case 1:
				ropts.results_dir = optarg;
				ropts.resume = true;
				break;
			case 2:
				ropts.rerun_of = optarg;
				break;
			case 3:
				seed_arg = optarg;
				break;
			case 4:
				if (!option_parse_int(optarg, "--max-restarts", 0, 100, &ropts.max_restarts))
					exit(EXIT_USAGE);
				break;
			default:
				pg_log_error_hint("Try \"%s run --help\" for more information.", progname);
				exit(EXIT_USAGE);
		}
	}

	experiment_init(&spec);
	if (ropts.resume)
	{
		if (optind < argc || ropts.rerun_of || seed_arg)
			usage_error("run", "--resume takes only the results directory: the experiment is the one recorded there");
		load_recorded_spec(&spec, ropts.results_dir);
	}
	else if (ropts.rerun_of)
	{
		if (optind < argc)
			usage_error("run", "--rerun takes no experiment file: it repeats the one recorded in \"%s\"", ropts.rerun_of);
		if (ropts.results_dir == NULL)
			usage_error("run", "--rerun needs -o NEWDIR for the new results");
		load_recorded_spec(&spec, ropts.rerun_of);
	}
	else
	{
		if (optind >= argc)
			usage_error("run", "no experiment file given");
		if (optind + 1 < argc)
			usage_error("run", "too many command-line arguments (first is \"%s\")", argv[optind + 1]);
		if (!experiment_read_ini(&spec, argv[optind], &error))
		{
			log_error_text(error);
			exit(EXIT_USAGE);
		}
	}
	choose_seed(&spec, seed_arg);
	if (ropts.results_dir == NULL)
		ropts.results_dir = timestamped_dir("results");
	return execute(&spec, &ropts, "run");
}

static const char *
option_name(const struct option *options, int code)
{
	for (; options->name; options++)
		if (options->val == code)
			return options->name;
	return "?";
}

int
cmd_ab(int argc, char **argv)
{
	/* short options and the [experiment] / [variant] key each flag sets */
	static const struct
	{
		int			code;
		const char *key;
		bool		variant;
	}			keys[] = {
		{'s', "scale", false}, {'c', "clients", false}, {'j', "jobs", false},
		{'T', "duration", false}, {'t', "transactions", false}, {'r', "rounds", false},
		{10, "warmup", false}, {'b', "script", false}, {'M', "protocol", false},
		{11, "unlogged", false}, {12, "reset", false}, {13, "pgbench_args", false},
		{14, "seed", false}, {15, "snapshot_probe", false}, {16, "snapshot_probe_interval", false},
		{17, "restart", false}, {35, "profile", false}, {36, "cache_sim", false},
		{37, "sample_event", false}, {38, "sample_rate", false},
		{39, "budget", false}, {40, "min_rounds", false},
		{41, "pin", false}, {42, "aslr", false}, {43, "pgbench_seed", false},
		{44, "prewarm", false}, {45, "schedule", false},
		{21, "bindir", true}, {22, "conninfo", true}, {23, "set", true},
		{24, "extension", true}, {25, "initdb_args", true},
		{26, "source", true}, {27, "patch", true}, {28, "cflags", true},
		{29, "configure", true}, {30, "lto", true}, {31, "layout_seeds", true},
		{32, "pgo", true}, {33, "cluster", true}, {34, "session_set", true},
	};
	static struct option long_options[] = {
		{"scale", required_argument, NULL, 's'},
		{"clients", required_argument, NULL, 'c'},
		{"jobs", required_argument, NULL, 'j'},
		{"duration", required_argument, NULL, 'T'},
		{"transactions", required_argument, NULL, 't'},
		{"rounds", required_argument, NULL, 'r'},
		{"warmup", required_argument, NULL, 10},
		{"budget", required_argument, NULL, 39},
		{"min-rounds", required_argument, NULL, 40},
		{"script", required_argument, NULL, 'b'},
		{"protocol", required_argument, NULL, 'M'},
		{"unlogged", no_argument, NULL, 11},
		{"reset", required_argument, NULL, 12},
		{"pgbench-args", required_argument, NULL, 13},
		{"seed", required_argument, NULL, 14},
		{"snapshot-probe", optional_argument, NULL, 15},
		{"snapshot-probe-interval", required_argument, NULL, 16},
		{"restart", required_argument, NULL, 17},
		{"profile", required_argument, NULL, 35},
		{"cache-sim", required_argument, NULL, 36},
		{"sample-event", required_argument, NULL, 37},
		{"sample-rate", required_argument, NULL, 38},
		{"pin", required_argument, NULL, 41},
		{"aslr", required_argument, NULL, 42},
		{"pgbench-seed", required_argument, NULL, 43},
		{"prewarm", required_argument, NULL, 44},
		{"schedule", required_argument, NULL, 45},
		{"variant", required_argument, NULL, 20},
		{"bindir", required_argument, NULL, 21},
		{"conninfo", required_argument, NULL, 22},
		{"set", required_argument, NULL, 23},
		{"extension", required_argument, NULL, 24},
		{"initdb-args", required_argument, NULL, 25},
		{"source", required_argument, NULL, 26},
		{"patch", required_argument, NULL, 27},
		{"cflags", required_argument, NULL, 28},
		{"configure", required_argument, NULL, 29},
		{"lto", required_argument, NULL, 30},
		{"layout-seeds", required_argument, NULL, 31},
		{"pgo", required_argument, NULL, 32},
		{"cluster", required_argument, NULL, 33},
		{"session-set", required_argument, NULL, 34},
		{"output", required_argument, NULL, 'o'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	char	   *section = NULL;
	int			c;
	char	   *error;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		ab_usage();
		return 0;
	}
	experiment_init(&spec);
	ropts.max_restarts = 3;
	while ((c = getopt_long(argc, argv, "s:c:j:T:t:r:b:M:o:v", long_options, NULL)) != -1)
	{
		bool		handled = false;

		if (c == 'o')
		{
			ropts.results_dir = optarg;
			continue;
		}
		if (c == 'v')
		{
			report_verbose = true;
			continue;
		}
		if (c == 20)
		{
			section = psprintf("variant %s", optarg);
			/* a variant with no further flags still exists */
			if (!experiment_set(&spec, section, "extension", "on", &error))
				usage_error("ab", "%s", error);
			continue;
		}
		for (int i = 0; i < lengthof(keys); i++)
		{
			if (keys[i].code != c)
				continue;
			if (keys[i].variant && section == NULL)
				usage_error("ab", "--%s must follow a --variant NAME", option_name(long_options, c));
			if (!experiment_set(&spec, keys[i].variant ? section : "experiment", keys[i].key,
								c == 11 || (c == 15 && optarg == NULL) ? "on" : optarg, &error))
				usage_error("ab", "%s", error);
			handled = true;
		}
		if (!handled)
		{
			pg_log_error_hint("Try \"%s ab --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (optind < argc)
		usage_error("ab", "too many command-line arguments (first is \"%s\")", argv[optind]);
	choose_seed(&spec, NULL);
	if (ropts.results_dir == NULL)
		ropts.results_dir = timestamped_dir("results");
	return execute(&spec, &ropts, "ab");
}
