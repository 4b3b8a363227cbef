/*-------------------------------------------------------------------------
 *
 * cmd_history.c
 *		"pgbench_ext history DIR...": one experiment's results over builds
 *		or dates as a series, with its change points — where it shifted, by
 *		how much, with a CI — and a plot of the series with them marked.
 *
 * docs/farm.md describes the points (each results directory, in the order
 * given, or the imported experiments of a results database), why points
 * of other experiments or machines are refused unless --any-machine or
 * --farm says otherwise, and the pages --output writes.  The change points
 * come from common/stats_changepoint.c, the code behind SQL's
 * pgbench_ext.changepoints(), so both give the same answer for the same
 * series and seed.  Directories are read as untrusted data, as "report"
 * reads them.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "commands.h"
#include "conn.h"
#include "farm.h"
#include "report.h"
#include "safe_file.h"

#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <sys/stat.h>

#include "common/logging.h"
#include "fe_utils/option_utils.h"

typedef struct HistoryOptions
{
	const char *variant;		/* NULL: each directory's first */
	const char *script;			/* NULL: each directory's first */
	int			clients;		/* 0: each directory's first */
	const char *output;			/* directory for the plot and data, or NULL */
	bool		any_machine;
	bool		farm;			/* one history per (signature, machine) */
	ConnOptions conn;			/* the results database, if any */
	bool		database;
	char	  **bisects;		/* --bisect POINT=DIR, as given */
	int			nbisects;
	StatsChangeOptions change;
} HistoryOptions;

static void
history_usage(void)
{
	printf("%s history: where did one cell's tps shift over a series of experiments?\n\n",
		   progname);
	printf("The series is one experiment run again and again over builds or dates:\n"
		   "each results directory is one point (in the order given), the geometric\n"
		   "mean of one variant's counted runs in one cell.\n\n");
	printf("Usage:\n  %s history [OPTION]... DIR...\n", progname);
	printf("  %s history [OPTION]... CONNINFO\n\n", progname);
	printf("From a results database (CONNINFO or the connection options), a history per\n"
		   "experiment and machine imported, as --farm takes directories.\n\n");
	printf("Options:\n");
	printf("      --variant NAME       the variant whose runs make a point (default: the first)\n");
	printf("      --script NAME        the cell's script (default: the first)\n");
	printf("  -c, --clients N          the cell's client count (default: the first)\n");
	printf("      --alpha A            false-alarm rate of each test on a flat history (default 0.05)\n");
	printf("      --permutations N     shuffles per test (default 999)\n");
	printf("      --min-segment N      fewest points between change points (default 3)\n");
	printf("      --seed N             seed of the shuffles (default 1)\n");
	printf("  -o, --output DIR         write history.svg, history.dat, changepoints.csv and the\n"
		   "                           pages history.html and index.html there\n");
	printf("      --any-machine        pool points of machines whose fingerprints differ\n");
	printf("      --farm               one history per experiment and machine among the directories\n");
	printf("      --bisect POINT=DIR   DIR is the bisect of the change before the results directory POINT\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nThe same from psql: SELECT * FROM pgbench_ext.changepoints(ARRAY[...]);\n");
}

/*
 * The one argument is a connection string when it is not a directory and
 * reads as one ("key=value ...", or a URI): a directory that is missing
 * stays a directory, to be said so.
 */
static bool
is_conninfo(const char *arg)
{
	struct stat st;

	if (stat(arg, &st) == 0 && S_ISDIR(st.st_mode))
		return false;
	return strchr(arg, '=') != NULL || strncmp(arg, "postgresql://", 13) == 0 ||
		strncmp(arg, "postgres://", 11) == 0;
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
		{"farm", no_argument, NULL, 8},
		{"bisect", required_argument, NULL, 9},
		CONN_LONG_OPTIONS,
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
	while ((c = cli_getopt(argc, argv, "c:o:" CONN_SHORT_OPTIONS, long_options, "history")) != -1)
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
			case 8:
				o->farm = true;
				break;
			case 9:
				o->bisects = pg_realloc(o->bisects, sizeof(char *) * (o->nbisects + 1));
				o->bisects[o->nbisects++] = optarg;
				break;
			default:
				good = conn_option(c, optarg, &o->conn);
				o->database |= good;
		}
		if (!good)
			usage_hint_exit("history");
	}
	if (argc - optind == 1 && is_conninfo(argv[optind]))
	{
		o->conn.conninfo = argv[optind++];
		o->database = true;
	}
	if (o->database && optind < argc)
		usage_error("history", "a history is read from results directories or from a database, not both");
	if (optind >= argc && !o->database)
		usage_error("history", "no results directory given");
	o->farm |= o->database;
	if (o->farm && o->any_machine)
		usage_error("history", "%s keeps machines apart: it cannot be given with --any-machine",
					o->database ? "a history from a database" : "--farm");
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
		return fail_with(why, "it has no %s \"%s\"", v < 0 ? "variant" : s < 0 ? "script" : "client count",
						 v < 0 ? o->variant : s < 0 ? o->script : psprintf("%d", o->clients));
	sample = report_sample(r, s, c, v);
	if (sample->n == 0)
		return fail_with(why, "no counted run of %s in (%s, %d clients)", report_variant_name(r, v),
						 r->spec.scripts[s], r->spec.clients[c]);
	p->label = pg_strdup(dir);
	p->variant = pg_strdup(report_variant_name(r, v));
	p->cell = psprintf("%s, %d client%s", r->spec.scripts[s], r->spec.clients[c],
					   r->spec.clients[c] == 1 ? "" : "s");
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

/*
 * The points of every history in the results database, and with -o its
 * queue (*queue); exits on an error
 */
static FarmPoint *
database_points(const HistoryOptions *o, int *n, char **source, FarmQueue **queue)
{
	PGconn	   *conn = connect_checked(&o->conn);
	char	   *error = NULL;
	FarmPoint  *pts = farm_db_points(conn, o->variant, o->script, o->clients, n, &error);

	if (pts == NULL)
	{
		log_error_text(error);
		PQfinish(conn);
		exit(EXIT_RUNTIME_ERROR);
	}
	*source = psprintf("%d imported experiment%s of the database %s", *n, *n == 1 ? "" : "s",
					   PQdb(conn));
	if (o->output != NULL)
		*queue = farm_db_queue(conn);
	PQfinish(conn);
	return pts;
}

/* The change points of one history; false (said) on an error of the test */
static bool
find_changes(FarmHistory *h, const HistoryOptions *o)
{
	double	   *values = pg_malloc(sizeof(double) * (h->n + 1));

	for (int i = 0; i < h->n; i++)
		values[i] = h->pts[i].value;
	h->cp = pg_malloc(sizeof(StatsChangePoint) * (h->n + 1));
	if ((h->k = stats_changepoints(values, h->n, &o->change, h->cp, h->n)) < 0)
	{
		log_errorf("could not look for change points: %s", stats_strerror(h->k));
		return false;
	}
	h->bisect_dir = pg_malloc0(sizeof(char *) * (h->k + 1));
	h->bisect_answer = pg_malloc0(sizeof(char *) * (h->k + 1));
	if (h->n > 0)
		h->what = psprintf("variant %s, %s", h->pts[0].variant, h->pts[0].cell);
	return true;
}

/*
 * The points as histories: all of them one, or with --farm one per
 * (signature, machine fingerprint), in the order each is first seen.
 */
static FarmHistory *
group_points(const FarmPoint *pts, int n, const HistoryOptions *o, int *nh)
{
	FarmHistory *h = pg_malloc0(sizeof(FarmHistory) * (n + 1));

	*nh = o->farm ? 0 : 1;
	h[0].pts = pg_malloc(sizeof(FarmPoint) * (n + 1));
	for (int i = 0; i < n; i++)
	{
		int			g = 0;

		while (o->farm && g < *nh &&
			   (strcmp(h[g].pts[0].signature, pts[i].signature) != 0 ||
				strcmp(h[g].pts[0].machine.fingerprint, pts[i].machine.fingerprint) != 0))
			g++;
		if (g == *nh)
		{
			h[g].pts = pg_malloc(sizeof(FarmPoint) * n);
			(*nh)++;
		}
		h[g].pts[h[g].n++] = pts[i];
	}
	return h;
}

/* One history's points: one experiment, and one machine unless pooled */
static bool
check_history(const FarmHistory *h, const HistoryOptions *o)
{
	const FarmPoint *pts = h->pts;
	char	   *error = NULL;

	for (int i = 1; i < h->n; i++)
		if (strcmp(pts[i].signature, pts[0].signature) != 0)
		{
			log_errorf("%s holds another experiment than %s (signatures %s and %s)",
					   pts[i].label, pts[0].label, pts[i].signature, pts[0].signature);
			pg_log_error_hint("A history is of one experiment file's load: the same scripts, scale, clients and duration.  "
							  "Give --farm to take each experiment and machine as a history of its own.");
			return false;
		}
	if (!o->any_machine && !farm_same_machine(pts, h->n, &error))
	{
		log_error_text(error);
		pg_log_error_hint("A history is of one machine; give --any-machine to pool machines anyway, "
						  "or --farm to take each machine as a history of its own.");
		return false;
	}
	return true;
}

/*
 * --bisect POINT=DIR: the bisect in DIR looked for the cause of the change
 * before results directory POINT (as given among the DIRs: a name may
 * hold "=", so POINT is the given directory the argument begins with).
 * Its answer goes on the change point's row; POINT not the first point
 * after a change point is a warning.  A bisect that cannot be read is a
 * usage error, as a results directory that cannot be.
 */
static bool
attach_bisects(FarmHistory *h, int nh, const HistoryOptions *o)
{
	for (int b = 0; b < o->nbisects; b++)
	{
		const char *arg = o->bisects[b];
		const char *dir = NULL;
		bool		placed = false;
		Bisect		bisect;
		char	   *error = NULL;

		for (int g = 0; g < nh && dir == NULL; g++)
			for (int i = 0; i < h[g].n && dir == NULL; i++)
			{
				size_t		len = strlen(h[g].pts[i].label);

				if (strncmp(arg, h[g].pts[i].label, len) == 0 && arg[len] == '=')
					dir = arg + len + 1;
			}
		if (dir == NULL)
		{
			log_errorf("--bisect \"%s\" does not begin with a results directory of the history and \"=\"",
					   escape_text(arg, ESCAPE_TERMINAL));
			pg_log_error_hint("Give --bisect POINT=DIR, POINT one of the results directories as given, DIR a bisect's directory.");
			return false;
		}
		if (!bisect_load(&bisect, dir, &error))
		{
			log_error_text(error);
			return false;
		}
		bisect_replay(&bisect);
		for (int g = 0; g < nh; g++)
			for (int c = 0; c < h[g].k; c++)
				if (strncmp(arg, h[g].pts[h[g].cp[c].index].label, dir - 1 - arg) == 0 &&
					h[g].pts[h[g].cp[c].index].label[dir - 1 - arg] == '\0')
				{
					char	   *answer = bisect_answer_text(&bisect, ESCAPE_TERMINAL);

					for (char *n = answer; *n; n++)
						*n = *n == '\n' ? ' ' : *n;
					h[g].bisect_dir[c] = pg_strdup(dir);
					h[g].bisect_answer[c] = answer;
					placed = true;
				}
		if (!placed)
			log_warningf("no change point is before %.*s: the bisect %s is not shown",
						 (int) (dir - 1 - arg), escape_text(arg, ESCAPE_TERMINAL), escape_text(dir, ESCAPE_TERMINAL));
	}
	return true;
}

/*
 * The files of each history (with --farm, each in OUT/SIGNATURE-FINGERPRINT)
 * and the pages over them.
 */
static bool
write_output(FarmHistory *h, int nh, const char *source, const FarmQueue *queue,
			 const HistoryOptions *o)
{
	char	   *note = NULL;

	if (o->farm && !safe_mkdir(o->output, 0755, 0, &note))
	{
		log_error_text(note);
		return false;
	}
	for (int g = 0; g < nh; g++)
	{
		h[g].dir = o->farm ? psprintf("%s/%s-%s", o->output, h[g].pts[0].signature,
									  h[g].pts[0].machine.fingerprint) : pg_strdup(o->output);
		if (!farm_write_history(h[g].dir, h[g].pts, h[g].n, h[g].cp, h[g].k, &note))
		{
			log_error_text(note);
			return false;
		}
		if ((h[g].plot_note = note) != NULL)
			log_warningf("no plot: %s", note);
		printf("written: %s/history.dat, changepoints.csv%s\n", escape_text(h[g].dir, ESCAPE_TERMINAL),
			   note ? "" : ", history.svg");
	}
	if (nh == 0 || h[0].n == 0)
		return true;			/* no point, no page */
	if (!farm_write_pages(o->output, h, nh, &o->change, source, queue, &note))
	{
		log_error_text(note);
		return false;
	}
	if (nh == 1)
		printf("written: %s/history.html, %s/index.html\n", escape_text(h[0].dir, ESCAPE_TERMINAL),
			   escape_text(o->output, ESCAPE_TERMINAL));
	else
		printf("written: %s/index.html, and history.html beside the files of each of the %d histories\n",
			   escape_text(o->output, ESCAPE_TERMINAL), nh);
	return true;
}

int
cmd_history(int argc, char **argv)
{
	HistoryOptions o;
	FarmPoint  *pts;
	FarmHistory *h;
	int			n = 0,
				nh;
	char	   *source;
	FarmQueue  *queue = NULL;	/* from the database only */

	parse_history_options(argc, argv, &o);
	if (o.database)
		pts = database_points(&o, &n, &source, &queue);
	else
	{
		pts = pg_malloc0(sizeof(FarmPoint) * (argc - optind));
		for (int i = optind; i < argc; i++)
		{
			char	   *why = NULL;

			if (read_point(argv[i], &o, &pts[n], &why))
				n++;
			else
				log_warningf("%s is left out of the history: %s", argv[i], why);
		}
		source = psprintf("%d results director%s", n, n == 1 ? "y" : "ies");
	}
	h = group_points(pts, n, &o, &nh);
	for (int g = 0; g < nh; g++)
	{
		if (!check_history(&h[g], &o))
			return EXIT_USAGE;
		if (!find_changes(&h[g], &o))
			return EXIT_RUNTIME_ERROR;
	}
	if (!attach_bisects(h, nh, &o))
		return EXIT_USAGE;
	for (int g = 0; g < nh; g++)
	{
		if (o.farm)
			printf("%s== experiment %s on machine %s (\"%s\"): %s\n", g > 0 ? "\n" : "",
				   h[g].pts[0].signature, h[g].pts[0].machine.fingerprint,
				   escape_text(h[g].pts[0].machine.hostname, ESCAPE_TERMINAL),
				   escape_text(h[g].what, ESCAPE_TERMINAL));
		print_history(h[g].pts, h[g].n, h[g].cp, h[g].k, &o);
	}
	if (o.output != NULL && !write_output(h, nh, source, queue, &o))
		return EXIT_RUNTIME_ERROR;
	return 0;
}
