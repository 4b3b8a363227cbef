/*-------------------------------------------------------------------------
 *
 * cmd_submit.c
 *		"pgbench_ext submit FILE [--machines SELECTOR] [--repeat N]
 *		CONNINFO": an experiment file into the queue of the results
 *		database (the table pgbench_ext.jobs), for the agents of the
 *		machines it names to run ("agent", farm_agent.c).
 *
 * The file is checked as "run --check" checks it before anything is
 * queued: an agent should not be the first to find a misspelt key.  Its
 * text is queued, not its path, so that what runs is what was checked;
 * the paths inside it (installations, source trees, patches, scripts) are
 * those of the agents' hosts, and the job lists them as what it needs
 * built.  Each repetition gets its own plan seed, drawn here (unless the
 * file gives one) and kept with the job, so that a job taken again after
 * its agent died is the same experiment.
 *
 * With --watch REPO:BRANCH the job is a watch (docs/farm.md, "A watched
 * branch"): it stays in the queue, and an agent that takes it builds the
 * branch's head as the variant --variant names (a variant built from a
 * source tree) whenever the head has moved by the schedule (--every), then
 * queues it again.  The repository is a path on the agents' hosts, so it
 * is checked only for its form here.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cmd_run.h"
#include "commands.h"
#include "conn.h"
#include "experiment.h"
#include "safe_read.h"

#include <getopt.h>
#include <stdlib.h>

#include "common/logging.h"
#include "fe_utils/option_utils.h"
#include "pqexpbuffer.h"

/* an experiment file is a page of keys; a megabyte is not one */
#define SUBMIT_MAX_BYTES (1024 * 1024)

static void
submit_usage(void)
{
	printf("%s submit: how is an experiment queued for the farm's machines to run?\n\n", progname);
	printf("It checks an experiment file as \"run --check\" does, then puts its text\n"
		   "into the results database's queue (pgbench_ext.jobs), once or --repeat\n"
		   "times, for the agents (\"%s agent\") of the machines it names.\n\n", progname);
	printf("Usage:\n  %s submit [OPTION]... FILE [CONNINFO]\n\n", progname);
	printf("Options:\n");
	printf("      --machines=SELECTOR  which hosts may run it: a machine's fingerprint,\n"
		   "                           a host name, or \"any\" (default)\n");
	printf("      --repeat=N           queue N runs of the experiment, each its own job\n"
		   "                           with its own plan seed (default 1)\n");
	printf("      --watch=REPO:BRANCH  a watch: build and run the head of BRANCH of the\n"
		   "                           git repository REPO each time it moves\n");
	printf("      --variant=NAME       with --watch: the variant built from the head\n"
		   "                           (default: the file's one variant with source)\n");
	printf("      --every=N-commits|DURATION  with --watch: when the head has moved by\n"
		   "                           N commits, or after DURATION (30min, 6h, 1d) when\n"
		   "                           it has moved at all (default 1-commits)\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nPaths in the file are paths on the agents' hosts. Then: %s jobs CONNINFO\n", progname);
}

/* The file's text, as queued. */
static char *
read_text(const char *path)
{
	char	   *error = NULL;
	FILE	   *f = safe_fopen_read(path, SUBMIT_MAX_BYTES, &error);
	PQExpBufferData text;
	char		buf[8192];
	size_t		n;

	if (f == NULL)
	{
		log_error_text(error);
		exit(EXIT_USAGE);
	}
	initPQExpBuffer(&text);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		appendBinaryPQExpBuffer(&text, buf, n);
	fclose(f);
	if (memchr(text.data, '\0', text.len) != NULL)
		usage_error("submit", "\"%s\" is no experiment file: it holds a NUL byte", path);
	return text.data;
}

/*
 * What the variants need on the agent's host, as the file names it: a
 * source tree to build (with its patches), an installation, or a server.
 */
static char *
builds_json(const ExperimentSpec *spec)
{
	json_t	   *builds = json_array();
	char	   *text;

	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		json_t	   *b = json_pack("{s:s}", "variant", v->name);

		if (v->source)
		{
			json_t	   *patches = json_array();

			for (int p = 0; p < v->npatches; p++)
				json_array_append_new(patches, json_string(v->patches[p]));
			json_object_set_new(b, "source", json_string(v->source));
			json_object_set_new(b, "patches", patches);
		}
		else if (v->bindir)
			json_object_set_new(b, "bindir", json_string(v->bindir));
		else if (v->cluster)
			json_object_set_new(b, "cluster", json_string(v->cluster));
		else if (v->conninfo)
			json_object_set_new(b, "server", json_true());
		json_array_append_new(builds, b);
	}
	text = json_dumps(builds, JSON_COMPACT);
	json_decref(builds);
	return text;
}

/*
 * The experiment read, and checked as "run --check" does (resolved as the
 * agent's run will resolve it), or exit 2.  spec is left as the file has
 * it: the jobs' builds and a watch's checks are of the file's variants,
 * not of their build seeds.
 */
static void
check_file(const char *path, ExperimentSpec *spec)
{
	char	   *error = NULL;
	ExperimentSpec resolved;

	experiment_init(spec);
	if (!experiment_read_ini(spec, path, &error))
	{
		log_error_text(error);
		pg_log_error_hint("Nothing was queued.");
		exit(EXIT_USAGE);
	}
	resolved = *spec;
	if (!experiment_resolve(&resolved, false, &error) || !experiment_check(&resolved, &error))
	{
		log_errorf("%s: %s", path, error);
		pg_log_error_hint("Nothing was queued. docs/experiments.md has the keys.");
		exit(EXIT_USAGE);
	}
}

/* A watch's columns of jobs: all NULL for a job run once. */
typedef struct Watch
{
	const char *kind;
	char	   *repo;
	char	   *branch;
	const char *variant;
	char	   *every_commits;
	char	   *every;
} Watch;

/*
 * A branch name as git takes one in "refs/heads/NAME" and no option:
 * printable, no space, no "..", "@{", "~^:?*[\\", not starting with "-"
 * or "/" nor ending with "/", ".", ".lock".
 */
static bool
branch_name_ok(const char *name)
{
	size_t		n = strlen(name);

	if (n == 0 || name[0] == '-' || name[0] == '/' || name[n - 1] == '/' || name[n - 1] == '.' ||
		strstr(name, "..") || strstr(name, "@{") || strstr(name, "//") ||
		(n >= 5 && strcmp(name + n - 5, ".lock") == 0))
		return false;
	for (const char *p = name; *p; p++)
		if ((unsigned char) *p <= ' ' || *p == 0x7f || strchr("~^:?*[\\", *p))
			return false;
	return true;
}

/* --every: "N-commits" (or "N-commit"), or a duration "N" + s, min, h or d. */
static void
parse_every(const char *arg, Watch *w)
{
	char	   *end;
	long		n = strtol(arg, &end, 10);
	static const struct
	{
		const char *unit;
		long		seconds;
	}			units[] = {{"s", 1}, {"min", 60}, {"h", 3600}, {"d", 86400}};

	if (end == arg || n < 1 || n > 100000 || arg[0] == '+' || arg[0] == ' ')
		usage_error("submit", "--every \"%s\" is neither N-commits nor a duration such as 30min, 6h or 1d", arg);
	if (strcmp(end, "-commits") == 0 || strcmp(end, "-commit") == 0)
	{
		w->every_commits = psprintf("%ld", n);
		w->every = NULL;
		return;
	}
	for (int i = 0; i < lengthof(units); i++)
		if (strcmp(end, units[i].unit) == 0 && n <= 366L * 86400 / units[i].seconds)
		{
			w->every = psprintf("%ld seconds", n * units[i].seconds);
			w->every_commits = NULL;
			return;
		}
	usage_error("submit", "--every \"%s\" is neither N-commits nor a duration such as 30min, 6h or 1d (at most a year)", arg);
}

/* --watch REPO:BRANCH, split at its last colon and checked for its form. */
static void
parse_watch(const char *arg, Watch *w)
{
	const char *colon = strrchr(arg, ':');

	if (colon == NULL || colon == arg)
		usage_error("submit", "--watch \"%s\" is not REPO:BRANCH", arg);
	w->kind = "watch";
	w->repo = pnstrdup(arg, colon - arg);
	w->branch = pstrdup(colon + 1);
	if (w->repo[0] != '/')
		usage_error("submit", "--watch: the repository \"%s\" is no absolute path (it is a path on the agents' hosts)",
					w->repo);
	if (!branch_name_ok(w->branch))
		usage_error("submit", "--watch: \"%s\" is no branch name git takes", w->branch);
}

/*
 * A change point of a watch is bisected with the watch's file, its other
 * variants left out: the measurement must be one a bisect can answer with
 * (bisect's own checks, cmd_bisect.c), so that a watch is never queued
 * whose bisects would fail only after its builds and runs.
 */
static void
watch_bisectable(const ExperimentSpec *spec, const VariantSpec *v)
{
	if (v->npatches > 0 || v->build_seeds > 1 || v->cluster || v->conninfo)
		usage_error("submit", "--watch: variant \"%s\" is built from each head alone: patch, build_seeds, cluster "
					"and conninfo do not go with a watch", v->name);
	if (spec->nscripts != 1 || spec->nclients != 1)
		usage_error("submit", "--watch: a change point is bisected in one cell: give one script and one client count "
					"(found %d and %d)", spec->nscripts, spec->nclients);
	if (spec->profile.mode != PROFILE_COUNTED && !spec->rounds_auto)
		usage_error("submit", "--watch: a change point's bisect answers by profile = counted or by tps with "
					"rounds = auto and a budget: set one of them");
	if (spec->profile.mode != PROFILE_COUNTED && !spec->restart_auto && spec->restart_every == 0)
		usage_error("submit", "--watch: by tps a bisect compares builds, each on a server of its own: "
					"set restart = auto (or a number of rounds), not never");
}

/*
 * The variant a watch builds from the head: the one named, or the file's
 * only variant built from a source tree; it must be one, and its change
 * points bisectable.
 */
static void
watch_variant(const ExperimentSpec *spec, Watch *w, const char *named)
{
	const VariantSpec *found = NULL;
	int			sources = 0;

	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];

		if (v->source)
			sources++;
		if (named ? strcmp(v->name, named) == 0 : v->source != NULL)
			found = v;
	}
	if (named && found == NULL)
		usage_error("submit", "--variant: the file has no variant \"%s\"", named);
	if (!named && sources == 0)
		usage_error("submit", "--watch: no variant of the file is built from a source tree (source = DIR); the head is built as one");
	if (!named && sources != 1)
		usage_error("submit", "--watch: the file has %d variants with source; name the one built from the head with --variant",
					sources);
	if (found->source == NULL)
		usage_error("submit", "--variant: variant \"%s\" is not built from a source tree (it has no source key)",
					found->name);
	watch_bisectable(spec, found);
	w->variant = found->name;
}

/* The jobs, in one transaction: all of them or none. */
static void
queue_jobs(PGconn *conn, ExperimentSpec *spec, const char *const *values, int repeat, const Watch *w)
{
	bool		file_seed = spec->seed_given;

	PQclear(exec_or_die(conn, "BEGIN"));
	for (int k = 1; k <= repeat; k++)
	{
		const char *params[13] = {values[0], values[1], values[2], NULL, values[3],
			psprintf("%d", k), psprintf("%d", repeat), w->kind, w->repo, w->branch, w->variant,
		w->every_commits, w->every};
		PGresult   *res;

		spec->seed_given = file_seed;
		run_choose_seed(spec, NULL);
		params[3] = psprintf("%llu", (unsigned long long) spec->seed);
		/* a job run once names only the columns older grants name */
		res = PQexecParams(conn, w->branch ?
						   "INSERT INTO pgbench_ext.jobs (name, experiment, builds, seed, machines, repeat_index, repeat_count, "
						   "kind, repo, branch, variant, every_commits, every) "
						   "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING job_id" :
						   "INSERT INTO pgbench_ext.jobs (name, experiment, builds, seed, machines, repeat_index, repeat_count) "
						   "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING job_id",
						   w->branch ? 13 : 7, NULL, params, NULL, NULL, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
		{
			log_errorf("could not queue the experiment: %s", PQerrorMessage(conn));
			pg_log_error_hint("Nothing was queued. Submitting needs INSERT on pgbench_ext.jobs (docs/farm.md, \"Roles\").");
			PQfinish(conn);
			exit(EXIT_RUNTIME_ERROR);
		}
		printf("queued job %s: %s (%d of %d) for %s, seed %s\n", PQgetvalue(res, 0, 0),
			   escape_text(values[0], ESCAPE_TERMINAL), k, repeat,
			   escape_text(values[3], ESCAPE_TERMINAL), params[3]);
		if (w->branch)
			printf("job %s watches branch %s of %s: variant %s built from each head, %s%s\n",
				   PQgetvalue(res, 0, 0), escape_text(w->branch, ESCAPE_TERMINAL),
				   escape_text(w->repo, ESCAPE_TERMINAL), escape_text(w->variant, ESCAPE_TERMINAL),
				   w->every_commits ? "every " : "at most once in ",
				   w->every_commits ? psprintf("%s commit(s)", w->every_commits) : w->every);
		PQclear(res);
	}
	PQclear(exec_or_die(conn, "COMMIT"));
}

int
cmd_submit(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{"machines", required_argument, NULL, 1},
		{"repeat", required_argument, NULL, 2},
		{"watch", required_argument, NULL, 3},
		{"variant", required_argument, NULL, 4},
		{"every", required_argument, NULL, 5},
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	ExperimentSpec spec;
	const char *machines = "any";
	const char *variant = NULL;
	Watch		watch = {0};
	bool		every_given = false;
	const char *values[4];
	char	   *path;
	int			repeat = 1,
				c;
	PGconn	   *conn;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		submit_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS, long_options, "submit")) != -1)
	{
		if (c == 1)
			machines = optarg;
		else if (c == 2)
		{
			if (!option_parse_int(optarg, "--repeat", 1, 1000, &repeat))
				exit(EXIT_USAGE);
		}
		else if (c == 3)
			parse_watch(optarg, &watch);
		else if (c == 4)
			variant = optarg;
		else if (c == 5)
		{
			parse_every(optarg, &watch);
			every_given = true;
		}
		else if (!conn_option(c, optarg, &opts))
		{
			pg_log_error_hint("Try \"%s submit --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (optind >= argc)
		usage_error("submit", "no experiment file given");
	if (argc - optind > 2)
		usage_error("submit", "too many command-line arguments (first is \"%s\")", argv[optind + 2]);
	if (machines[0] == '\0')
		usage_error("submit", "--machines needs a fingerprint, a host name or \"any\"");
	if (watch.branch == NULL && (variant || every_given))
		usage_error("submit", "--variant and --every are options of a watch: give --watch REPO:BRANCH");
	if (watch.branch && repeat != 1)
		usage_error("submit", "a watch is queued once: --repeat does not go with --watch");
	if (watch.branch && !every_given)
		watch.every_commits = "1";
	opts.conninfo = argc - optind == 2 ? argv[optind + 1] : NULL;

	check_file(argv[optind], &spec);
	if (watch.branch)
		watch_variant(&spec, &watch, variant);
	path = realpath(argv[optind], NULL);
	values[0] = path ? path : argv[optind];
	values[1] = read_text(argv[optind]);
	values[2] = builds_json(&spec);
	values[3] = machines;
	conn = connect_checked(&opts);
	queue_jobs(conn, &spec, values, repeat, &watch);
	PQfinish(conn);
	return 0;
}
