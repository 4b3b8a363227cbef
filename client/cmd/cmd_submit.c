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

/* The experiment read and checked as "run --check" does, or exit 2. */
static void
check_file(const char *path, ExperimentSpec *spec)
{
	char	   *error = NULL;

	experiment_init(spec);
	if (!experiment_read_ini(spec, path, &error))
	{
		log_error_text(error);
		pg_log_error_hint("Nothing was queued.");
		exit(EXIT_USAGE);
	}
	profile_resolve_aslr(spec);
	quiet_resolve(spec);
	if (!experiment_check(spec, &error))
	{
		log_errorf("%s: %s", path, error);
		pg_log_error_hint("Nothing was queued. docs/experiments.md has the keys.");
		exit(EXIT_USAGE);
	}
}

/* The jobs, in one transaction: all of them or none. */
static void
queue_jobs(PGconn *conn, ExperimentSpec *spec, const char *const *values, int repeat)
{
	bool		file_seed = spec->seed_given;

	PQclear(exec_or_die(conn, "BEGIN"));
	for (int k = 1; k <= repeat; k++)
	{
		const char *params[7] = {values[0], values[1], values[2], NULL, values[3],
		psprintf("%d", k), psprintf("%d", repeat)};
		PGresult   *res;

		spec->seed_given = file_seed;
		run_choose_seed(spec, NULL);
		params[3] = psprintf("%llu", (unsigned long long) spec->seed);
		res = PQexecParams(conn,
						   "INSERT INTO pgbench_ext.jobs (name, experiment, builds, seed, machines, repeat_index, repeat_count) "
						   "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING job_id",
						   7, NULL, params, NULL, NULL, 0);
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
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	ExperimentSpec spec;
	const char *machines = "any";
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
	opts.conninfo = argc - optind == 2 ? argv[optind + 1] : NULL;

	check_file(argv[optind], &spec);
	path = realpath(argv[optind], NULL);
	values[0] = path ? path : argv[optind];
	values[1] = read_text(argv[optind]);
	values[2] = builds_json(&spec);
	values[3] = machines;
	conn = connect_checked(&opts);
	queue_jobs(conn, &spec, values, repeat);
	PQfinish(conn);
	return 0;
}
