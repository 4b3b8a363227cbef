/*-------------------------------------------------------------------------
 *
 * cmd_run.c
 *		"pgbench_ext run": an experiment file, its dry run (--check),
 *		--resume, --rerun; and what "pgbench_ext ab" (cmd_ab.c) shares with
 *		it: the plan's seed (cmd_run.h).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_check.h"
#include "cmd_run.h"
#include "run_execute.h"
#include "commands.h"
#include "experiment.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "stats.h"

#include <getopt.h>
#include <time.h>
#include <unistd.h>

#include "common/logging.h"
#include "common/pg_prng.h"

static void
run_usage(void)
{
	printf("%s run: which variants of an experiment file are faster, and is it real?\n\n", progname);
	printf("It runs every variant in every cell, in randomized interleaved rounds,\n"
		   "records each run as it ends, and prints the verdicts.\n\n");
	printf("Usage:\n");
	printf("  %s run FILE [-o DIR] [--seed N]\n", progname);
	printf("  %s run FILE --check\n", progname);
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
	printf("      --check              the dry run: print the pre-flight (what this host\n"
		   "                           allows, the noise it showed for such a load, the power\n"
		   "                           the budget or rounds has to see 2%%), run nothing\n");
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
		{"check", no_argument, NULL, 6},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	const char *seed_arg = NULL;
	bool		check = false;
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
				ropts.max_restarts = cli_int(optarg, "--max-restarts", 0, 100);
				break;
			case 5:
				ropts.build_only = true;
				break;
			case 6:
				check = true;
				break;
			default:
				usage_hint_exit("run");
		}
	}

	experiment_init(&spec);
	if (check && (ropts.resume || ropts.rerun_of || ropts.build_only))
		usage_error("run", "--check takes an experiment file alone: it checks the experiment against this host and runs nothing");
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
		if (check)
			return check_execute(&spec, argv[optind]);
	}
	run_choose_seed(&spec, seed_arg);
	if (ropts.results_dir == NULL)
		ropts.results_dir = timestamped_dir("results");
	return run_execute(&spec, &ropts, "run");
}
