/*-------------------------------------------------------------------------
 *
 * cmd_ab.c
 *		"pgbench_ext ab": an experiment given as flags, each flag one key of
 *		an experiment file, then run as "pgbench_ext run" runs a file
 *		(cmd_run.c).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_check.h"
#include "cmd_run.h"
#include "run_execute.h"
#include "commands.h"
#include "experiment.h"
#include "profile.h"
#include "counted_view_spec.h"
#include "report.h"
#include "runner.h"

#include <getopt.h>

#include "common/logging.h"

static void
ab_usage(void)
{
	printf("%s ab: which variants given as flags are faster, and is it real?\n\n", progname);
	printf("The experiment of \"%s run FILE\", given as flags instead of a file.\n\n", progname);
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
	printf("      --reference=RATIO    with --rounds auto: the looks decide which side of B/A = RATIO\n"
		   "                           B lies on, with no noise band (default: against 1, with it)\n");
	printf("      --warmup=N           leading rounds recorded but not counted (default 0)\n");
	printf("  -b, --script=LIST        tpcb-like, simple-update, select-only or files\n");
	printf("  -M, --protocol=MODE      simple, extended or prepared\n");
	printf("      --unlogged           pgbench -i --unlogged-tables\n");
	printf("      --reset=every-run|never  fresh copy of the data before each run or not\n");
	printf("      --restart=N|never|auto  restart every managed server every N rounds, a\n"
		   "                           warm-up run after each start (default auto: see the manual)\n");
	printf("      --pilot=auto|off|N   N paired rounds before the first counted one that forecast\n"
		   "                           the time to decide (default auto: %d, on a loaded host\n"
		   "                           whose noise at such a load was never measured)\n", PILOT_DEFAULT_ROUNDS);
	printf("      --pgbench-args=ARGS  further pgbench options, passed through\n");
	printf("      --seed=N             plan seed\n");
	printf("      --schedule=auto|interleaved|duet  one run at a time, or both sides of a\n"
		   "                           pair at once, each on half of the CPUs (default auto:\n"
		   "                           a duet where every variant has a server of its own)\n");
	printf("      --swap-interval=MS|off  a duet's sides trade their CPUs this often within\n"
		   "                           a run (default %dms; off: between rounds only)\n", QUIET_SWAP_DEFAULT_MS);
	printf("      --pin=on|off         each server and its pgbench on half of the CPUs,\n"
		   "                           swapped every round (default off)\n");
	printf("      --aslr=auto|on|off   address-space randomization of managed servers (default\n"
		   "                           auto: off where every server runs one binary, else on)\n");
	printf("      --pgbench-seed=shared|own  one --random-seed per round for every variant (default shared)\n");
	printf("      --prewarm=auto|on|off  pg_prewarm the run database before each run (default\n"
		   "                           auto: on under --profile counted, else off)\n");
	printf("      --huge-pages=on|off|server  shared memory of managed servers in huge pages\n"
		   "                           (on: reserved for them as root; default server: their own setting)\n");
	printf("      --snapshot-probe[=on|off]  time GetSnapshotData() under every run's load\n");
	printf("      --snapshot-probe-interval=MS  pause between two probes (default 100)\n");
	printf("      --profile=off|counted|sampled  profiles of the servers (docs/profiles.md)\n");
	printf("      --cache-sim=on|off   counted: simulated cache misses too\n");
	printf("      --sample-event=auto|cpu-clock|cycles  sampled: the event perf samples\n");
	printf("      --sample-rate=HZ     sampled: samples per CPU-second (default %d)\n", PROFILE_SAMPLE_RATE);
	printf("      --counted-view[=on|off]  after the runs, the same variants counted under\n"
		   "                           valgrind (1 client) into DIR/counted/, their\n"
		   "                           instructions per transaction beside tps\n");
	printf("      --counted-view-rounds=N  its rounds (default %d)\n", COUNTED_VIEW_ROUNDS);
	printf("      --counted-view-transactions=N  its transactions a run (default %d)\n",
		   PROFILE_COUNTED_TRANSACTIONS);
	printf("  -o, --output=DIR         results directory\n");
	printf("      --build-only         build the variants given --source, print where each\n"
		   "                           is installed, run nothing\n");
	printf("      --check              print the pre-flight, as \"%s run FILE --check\" does for a\n"
		   "                           file (what the host allows, whether the budget can\n"
		   "                           decide 2%%), run nothing\n", progname);
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
	printf("      --symbols=on|off     symbols and frame pointers, as a profile's builds have\n");
	printf("      --build-seeds=N      N builds with shuffled function order\n");
	printf("\nExample:\n");
	printf("  %s ab -b select-only -c 2 -T 10 -r 6 \\\n"
		   "     --variant A --bindir $(pg_config --bindir) --set synchronous_commit=on \\\n"
		   "     --variant B --bindir $(pg_config --bindir) --set synchronous_commit=off\n", progname);
}

/*
 * ab's flags.  Each but the last six sets the key of its name ("-" for
 * "_"): one of [experiment], or with a code from VARIANT_KEY (above any
 * short option's) one of [variant NAME].
 */
#define VARIANT_KEY 1000
static struct option ab_options[] = {
	{"scale", required_argument, NULL, 's'},
	{"clients", required_argument, NULL, 'c'},
	{"jobs", required_argument, NULL, 'j'},
	{"duration", required_argument, NULL, 'T'},
	{"transactions", required_argument, NULL, 't'},
	{"rounds", required_argument, NULL, 'r'},
	{"warmup", required_argument, NULL, 10},
	{"budget", required_argument, NULL, 39},
	{"min-rounds", required_argument, NULL, 40},
	{"reference", required_argument, NULL, 47},
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
	{"counted-view", optional_argument, NULL, 53},
	{"counted-view-rounds", required_argument, NULL, 54},
	{"counted-view-transactions", required_argument, NULL, 55},
	{"pin", required_argument, NULL, 41},
	{"aslr", required_argument, NULL, 42},
	{"pgbench-seed", required_argument, NULL, 43},
	{"prewarm", required_argument, NULL, 44},
	{"schedule", required_argument, NULL, 45},
	{"huge-pages", required_argument, NULL, 49},
	{"swap-interval", required_argument, NULL, 50},
	{"pilot", required_argument, NULL, 51},
	{"bindir", required_argument, NULL, VARIANT_KEY + 1},
	{"conninfo", required_argument, NULL, VARIANT_KEY + 2},
	{"set", required_argument, NULL, VARIANT_KEY + 3},
	{"extension", required_argument, NULL, VARIANT_KEY + 4},
	{"initdb-args", required_argument, NULL, VARIANT_KEY + 5},
	{"source", required_argument, NULL, VARIANT_KEY + 6},
	{"patch", required_argument, NULL, VARIANT_KEY + 7},
	{"cflags", required_argument, NULL, VARIANT_KEY + 8},
	{"configure", required_argument, NULL, VARIANT_KEY + 9},
	{"lto", required_argument, NULL, VARIANT_KEY + 10},
	{"build-seeds", required_argument, NULL, VARIANT_KEY + 11},
	{"pgo", required_argument, NULL, VARIANT_KEY + 12},
	{"symbols", required_argument, NULL, VARIANT_KEY + 15},
	{"cluster", required_argument, NULL, VARIANT_KEY + 13},
	{"session-set", required_argument, NULL, VARIANT_KEY + 14},
	{"variant", required_argument, NULL, 20},
	{"output", required_argument, NULL, 'o'},
	{"build-only", no_argument, NULL, 48},
	{"check", no_argument, NULL, 52},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, '?'},
	{NULL, 0, NULL, 0}
};

int
cmd_ab(int argc, char **argv)
{
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	char	   *section = NULL;
	bool		check = false;
	int			c;
	char	   *error;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		ab_usage();
		return 0;
	}
	experiment_init(&spec);
	ropts.max_restarts = 3;
	while ((c = cli_getopt(argc, argv, "s:c:j:T:t:r:b:M:o:v", ab_options, "ab")) != -1)
	{
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
		if (c == 48)
		{
			ropts.build_only = true;
			continue;
		}
		if (c == 52)
		{
			check = true;
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
		for (const struct option *o = ab_options; o->name; o++)
		{
			char	   *key;

			if (o->val != c)
				continue;
			if (c >= VARIANT_KEY && section == NULL)
				usage_error("ab", "--%s must follow a --variant NAME", o->name);
			key = pg_strdup(o->name);
			for (char *p = key; *p; p++)
				*p = *p == '-' ? '_' : *p;
			if (!experiment_set(&spec, c >= VARIANT_KEY ? section : "experiment", key,
								c == 11 || ((c == 15 || c == 53) && optarg == NULL) ? "on" : optarg, &error))
				usage_error("ab", "%s", error);
		}
	}
	if (optind < argc)
		usage_error("ab", "too many command-line arguments (first is \"%s\")", argv[optind]);
	if (check && ropts.build_only)
		usage_error("ab", "--check and --build-only exclude each other: the one checks the experiment against this host, the other builds its variants");
	if (check)
		return check_execute(&spec, NULL);
	run_choose_seed(&spec, NULL);
	if (ropts.results_dir == NULL)
		ropts.results_dir = timestamped_dir("results");
	return run_execute(&spec, &ropts, "ab");
}
