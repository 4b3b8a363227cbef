/*-------------------------------------------------------------------------
 *
 * cmd_run.c
 *		"pgbench_ext run": an experiment file, --resume, --rerun; and what
 *		"pgbench_ext ab" (cmd_ab.c) shares with it: the plan's seed, the
 *		checks and the pre-flight before the runner (cmd_run.h).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_check.h"
#include "cmd_run.h"
#include "commands.h"
#include "build.h"
#include "build_seeds.h"
#include "experiment.h"
#include "profile_spec.h"
#include "report.h"
#include "results.h"
#include "preflight.h"
#include "runner.h"
#include "stats.h"
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
	printf("      --build-only         build the variants that name a source tree, print\n"
		   "                           where each is installed, run nothing\n");
	printf("  -v, --verbose            at the end, the noise by level and the designs too\n");
	printf("  -?, --help               show this help, then exit\n");
	printf("\nThe experiment file format: docs/experiments.md of pgbench_ext's sources.\n");
}

/* The plan seed: given, or drawn now and recorded with the experiment. */
void
run_choose_seed(ExperimentSpec *spec, const char *seed_arg)
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

/*
 * --build-only: build every variant that names a source tree (or find it
 * in the build cache), say where each is installed, and run nothing — the
 * builds of a long experiment done beforehand, or an installation for
 * other tools (CI builds its PostgreSQL 18 so, and the tests that build
 * the same tree reuse it).
 */
static int
build_only(ExperimentSpec *spec)
{
	char	   *error = NULL;
	bool		any = false;

	if (!experiment_check_variants(spec, &error) || !build_check(spec, &error))
	{
		log_error_text(error);
		pg_log_error_hint("Nothing was built.");
		return EXIT_USAGE;
	}

	for (int i = 0; i < spec->nvariants; i++)
		any |= spec->variants[i].source != NULL;
	if (!any)
	{
		log_errorf("--build-only: no variant names a source tree, so there is nothing to build");
		pg_log_error_hint("Give a variant --source DIR (source = DIR in a file); see docs/building.md.");
		return EXIT_USAGE;
	}
	runner_catch_interrupts();
	if (!build_variants(spec, &error))
	{
		log_error_text(error);
		return runner_failure_status();
	}
	for (int i = 0; i < spec->nvariants; i++)
		if (spec->variants[i].source != NULL)
			printf("variant %s: bindir %s\n", spec->variants[i].name,
				   escape_text(spec->variants[i].bindir, ESCAPE_TERMINAL));
	return 0;
}

int
run_execute(ExperimentSpec *spec, RunOptions *ropts, const char *command)
{
	char	   *error;
	PreflightResult preflight;

	if (!build_seeds_expand(spec, &error))
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	profile_resolve(spec);
	quiet_resolve(spec);
	if (ropts->build_only)
		return build_only(spec);
	if (!validate_experiment(spec, ropts->results_dir, ropts->resume))
	{
		pg_log_error_hint("Nothing was run. Try \"%s %s --help\" for the options.", progname, command);
		return EXIT_USAGE;
	}
	/* what the host allows, before our servers load it; then the design it suggests */
	preflight = check_print(spec, !ropts->resume);
	ropts->preflight = &preflight;
	fflush(stdout);
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
		{"build-only", no_argument, NULL, 5},
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
	while ((c = cli_getopt(argc, argv, "o:v", long_options, "run")) != -1)
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
			case 5:
				ropts.build_only = true;
				break;
			default:
				pg_log_error_hint("Try \"%s run --help\" for more information.", progname);
				exit(EXIT_USAGE);
		}
	}

	experiment_init(&spec);
	if (ropts.resume)
	{
		if (optind < argc || ropts.rerun_of || seed_arg || ropts.build_only)
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
	run_choose_seed(&spec, seed_arg);
	if (ropts.results_dir == NULL)
		ropts.results_dir = timestamped_dir("results");
	return run_execute(&spec, &ropts, "run");
}
