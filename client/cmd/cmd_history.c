/*-------------------------------------------------------------------------
 *
 * cmd_history.c
 *		"pgbench_ext history DIR...": one experiment's results over builds
 *		or dates as a series, with its change points — where it shifted, by
 *		how much, with a CI — and a plot of the series with them marked.
 *
 * Each results directory is one point of the history, in the order given
 * (a shell's sorted glob of dated directories is history order): the
 * geometric mean of the counted runs of one variant in one cell (script,
 * clients).  The change points come from common/stats_changepoint.c, the
 * code behind SQL's pgbench_ext.changepoints(), so both give the same
 * answer for the same series and seed.  Directories are read as untrusted
 * data, as "report" reads them.
 *
 * Points of different experiments are not one history: their signatures
 * (the load, farm_machine.c) must agree.  Nor are points of different
 * machines: a machine's own offset would read as a change.  Their
 * fingerprints must agree unless --any-machine says to pool them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "commands.h"
#include "farm.h"
#include "report.h"
#include "safe_file.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>

#include "common/logging.h"
#include "fe_utils/option_utils.h"

typedef struct HistoryOptions
{
	const char *variant;		/* NULL: each directory's first */
	const char *script;			/* NULL: each directory's first */
	int			clients;		/* 0: each directory's first */
	const char *output;			/* directory for the plot and data, or NULL */
	bool		any_machine;
	StatsChangeOptions change;
} HistoryOptions;

static void
history_usage(void)
{
	printf("%s history finds where the results of one experiment, run again and again\n"
		   "over builds or dates, shifted: each results directory is one point (in the\n"
		   "order given), the geometric mean of one variant's counted runs in one cell.\n\n",
		   progname);
	printf("Usage:\n  %s history [OPTION]... DIR...\n\n", progname);
	printf("Options:\n");
	printf("      --variant NAME       the variant whose runs make a point (default: the first)\n");
	printf("      --script NAME        the cell's script (default: the first)\n");
	printf("  -c, --clients N          the cell's client count (default: the first)\n");
	printf("      --alpha A            false-alarm rate of each test on a flat history (default 0.05)\n");
	printf("      --permutations N     shuffles per test (default 999)\n");
	printf("      --min-segment N      fewest points between change points (default 3)\n");
	printf("      --seed N             seed of the shuffles (default 1)\n");
	printf("  -o, --output DIR         write history.svg, history.dat and changepoints.csv there\n");
	printf("      --any-machine        pool points of machines whose fingerprints differ\n");
	printf("  -?, --help               show this help, then exit\n");
	printf("\nThe same from psql: SELECT * FROM pgbench_ext.changepoints(ARRAY[...]);\n");
}

static void
parse_history_options(int argc, char **argv, HistoryOptions *o)
{
	static struct option long_options[] = {
		{"variant", required_argument, NULL, 1},
		{"script", required_argument, NULL, 2},
		{"clients", required_argument, NULL, 'c'},
		{"alpha", required_argument, NULL, 3},
		{"permutations", required_argument, NULL, 4},
		{"min-segment", required_argument, NULL, 5},
		{"seed", required_argument, NULL, 6},
		{"output", required_argument, NULL, 'o'},
		{"any-machine", no_argument, NULL, 7},
		{NULL, 0, NULL, 0}
	};
	int			c,
				seed;
	char	   *end;

	memset(o, 0, sizeof(*o));
	stats_default_change_options(&o->change);
	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		history_usage();
		exit(0);
	}
	while ((c = cli_getopt(argc, argv, "c:o:", long_options, "history")) != -1)
	{
		bool		good = true;

		switch (c)
		{
			case 1:
				o->variant = optarg;
				break;
			case 2:
				o->script = optarg;
				break;
			case 'c':
				good = option_parse_int(optarg, "-c/--clients", 1, 1000000, &o->clients);
				break;
			case 3:
				o->change.alpha = strtod(optarg, &end);
				if (*end != '\0' || !(o->change.alpha > 0 && o->change.alpha < 1))
					usage_error("history", "--alpha must be a number above 0 and below 1, got \"%s\"", optarg);
				break;
			case 4:
				good = option_parse_int(optarg, "--permutations", 1, 1000000, &o->change.permutations);
				break;
			case 5:
				good = option_parse_int(optarg, "--min-segment", 1, 1000, &o->change.min_segment);
				break;
			case 6:
				good = option_parse_int(optarg, "--seed", 0, INT_MAX, &seed);
				o->change.seed = (unsigned long long) seed;
				break;
			case 'o':
				o->output = optarg;
				break;
			case 7:
				o->any_machine = true;
				break;
			default:
				good = false;
		}
		if (!good)
		{
			pg_log_error_hint("Try \"%s history --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (optind >= argc)
		usage_error("history", "no results directory given");
}

/*
 * The point of one results directory: the geomean of the counted runs of
 * the chosen variant in the chosen cell.  False (with *why) when it has
 * none; a directory that cannot be read is a usage error.
 */
static bool
read_point(const char *dir, const HistoryOptions *o, FarmPoint *p, char **why)
{
	char	   *error = NULL;
	ReportData *r = report_read(dir, NULL, &error);
	int			v,
				s,
				c;
	ReportSample *sample;

	if (r == NULL)
	{
		log_error_text(error);
		pg_log_error_hint("\"%s\" must be a results directory written by \"%s run\" or \"%s ab\".",
						  escape_text(dir, ESCAPE_TERMINAL), progname, progname);
		exit(EXIT_USAGE);
	}
	v = o->variant ? report_variant_index(r, o->variant) : 0;
	s = o->script ? report_script_index(r, o->script) : 0;
	c = o->clients ? report_clients_index(r, o->clients) : 0;
	if (v < 0 || s < 0 || c < 0)
	{
		*why = psprintf("it has no %s \"%s\"", v < 0 ? "variant" : s < 0 ? "script" : "client count",
						v < 0 ? o->variant : s < 0 ? o->script : psprintf("%d", o->clients));
		return false;
	}
	sample = report_sample(r, s, c, v);
	if (sample->n == 0)
	{
		*why = psprintf("no counted run of %s in (%s, %d clients)", report_variant_name(r, v),
						r->spec.scripts[s], r->spec.clients[c]);
		return false;
	}
	p->label = pg_strdup(dir);
	p->written_at = escape_text(report_json_str(r->experiment, "written_at", ""), ESCAPE_TERMINAL);
	p->runs = sample->n;
	stats_geomean(sample->tps, sample->n, &p->value);
	p->machine = farm_machine_of(r->experiment);
	p->signature = farm_signature(r->experiment);
	return true;
}

/* The series and its change points, on the terminal. */
static void
print_history(const FarmPoint *pts, int n, const StatsChangePoint *cp, int k,
			  const HistoryOptions *o)
{
	int			next = 0;

	printf("%5s  %12s  %5s  %-20s  %s\n", "point", "tps (geomean)", "runs", "written at", "results");
	for (int i = 0; i < n; i++)
	{
		if (next < k && cp[next].index == i)
		{
			const StatsChangePoint *c = &cp[next++];

			printf("------ change: %+.2f%%", c->shift_pct);
			if (c->has_ci)
				printf(" [%+.2f%%, %+.2f%%]", 100.0 * (c->ci_low - 1), 100.0 * (c->ci_high - 1));
			printf(", p = %.3g (%d points before, %d after)\n", c->p_value, c->n_before, c->n_after);
		}
		printf("%5d  %12.2f  %5d  %-20s  %s\n", i + 1, pts[i].value, pts[i].runs,
			   pts[i].written_at, escape_text(pts[i].label, ESCAPE_TERMINAL));
	}
	if (n < 2 * o->change.min_segment)
		printf("\nno change point can be found in %d points: it takes at least %d (--min-segment %d on either side)\n",
			   n, 2 * o->change.min_segment, o->change.min_segment);
	else
		printf("\n%d change point%s at alpha %g (%d permutations, seed %llu)\n", k, k == 1 ? "" : "s",
			   o->change.alpha, o->change.permutations, o->change.seed);
}

int
cmd_history(int argc, char **argv)
{
	HistoryOptions o;
	FarmPoint  *pts;
	StatsChangePoint *cp;
	double	   *values;
	int			n = 0,
				k;
	char	   *error = NULL;

	parse_history_options(argc, argv, &o);
	pts = pg_malloc0(sizeof(FarmPoint) * (argc - optind));
	for (int i = optind; i < argc; i++)
	{
		char	   *why = NULL;

		if (read_point(argv[i], &o, &pts[n], &why))
			n++;
		else
			log_warningf("%s is left out of the history: %s", argv[i], why);
	}
	for (int i = 1; i < n; i++)
		if (strcmp(pts[i].signature, pts[0].signature) != 0)
		{
			log_errorf("%s holds another experiment than %s (signatures %s and %s)",
					   pts[i].label, pts[0].label, pts[i].signature, pts[0].signature);
			pg_log_error_hint("A history is of one experiment file's load: the same scripts, scale, clients and duration.");
			return EXIT_USAGE;
		}
	if (!o.any_machine && !farm_same_machine(pts, n, &error))
	{
		log_error_text(error);
		pg_log_error_hint("A history is of one machine; give --any-machine to pool machines anyway.");
		return EXIT_USAGE;
	}
	values = pg_malloc(sizeof(double) * (n + 1));
	for (int i = 0; i < n; i++)
		values[i] = pts[i].value;
	cp = pg_malloc(sizeof(StatsChangePoint) * (n + 1));
	if ((k = stats_changepoints(values, n, &o.change, cp, n)) < 0)
	{
		log_errorf("could not look for change points: %s", stats_strerror(k));
		return EXIT_RUNTIME_ERROR;
	}
	print_history(pts, n, cp, k, &o);
	if (o.output != NULL)
	{
		char	   *note = NULL;

		if (!farm_write_history(o.output, pts, n, cp, k, &note))
		{
			log_error_text(note);
			return EXIT_RUNTIME_ERROR;
		}
		if (note != NULL)
			log_warningf("no plot: %s", note);
		printf("written: %s/history.dat, %s/changepoints.csv%s%s%s\n", escape_text(o.output, ESCAPE_TERMINAL),
			   escape_text(o.output, ESCAPE_TERMINAL), note ? "" : ", ",
			   note ? "" : escape_text(o.output, ESCAPE_TERMINAL), note ? "" : "/history.svg");
	}
	return 0;
}
