/*-------------------------------------------------------------------------
 *
 * cmd_jobs.c
 *		"pgbench_ext jobs CONNINFO": the queue of the results database as a
 *		table, one job a line: what it runs and for which machines, its
 *		state, the agent that took it and when it last heard from it, and
 *		the experiment its results were imported as.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "commands.h"
#include "conn.h"
#include "table.h"

#include <getopt.h>

#include "common/logging.h"

static void
jobs_usage(void)
{
	printf("%s jobs: what is queued for the farm's machines, and how far has it got?\n\n", progname);
	printf("It lists the jobs of the results database's queue (pgbench_ext.jobs): the\n"
		   "experiment, the machines it is for, its state (queued, running, done,\n"
		   "failed), the host whose agent took it, the seconds since that agent's last\n"
		   "heartbeat, the imported experiment once done, and for a watch its branch\n"
		   "and last commit, for a bisect its commits and answer.\n\n");
	printf("Usage:\n  %s jobs [OPTION]... [CONNINFO]\n\n", progname);
	printf("Options:\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nThen: SELECT * FROM pgbench_ext.experiment_report(EXPERIMENT);\n");
}

int
cmd_jobs(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{NULL, 0, NULL, 0}
	};
	static const char *const headers[] = {"job", "experiment file", "run", "machines", "state",
	"submitted by", "host", "attempt", "heartbeat", "imported as", "error", "watch or bisect"};
	ConnOptions opts = {0};
	PGconn	   *conn;
	PGresult   *res;
	TextTable  *t;
	int			c;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		jobs_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS, long_options, "jobs")) != -1)
	{
		if (!conn_option(c, optarg, &opts))
		{
			pg_log_error_hint("Try \"%s jobs --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (argc - optind > 1)
		usage_error("jobs", "too many command-line arguments (first is \"%s\")", argv[optind + 1]);
	opts.conninfo = optind < argc ? argv[optind] : NULL;
	conn = connect_checked(&opts);
	res = exec_or_die(conn,
					  "SELECT j.job_id, regexp_replace(j.name, '^.*/', ''), j.repeat_index || '/' || j.repeat_count, j.machines, j.state, "
					  "j.submitted_by, coalesce(a.hostname, ''), j.attempt, "
					  "CASE WHEN j.state = 'running' THEN "
					  "round(extract(epoch FROM now() - j.heartbeat_at))::text || ' s ago' ELSE '' END, "
					  "coalesce(j.experiment_id::text, ''), coalesce(j.error, ''), "
					  "CASE j.kind WHEN 'watch' THEN 'watch ' || j.branch || coalesce(' at ' || left(j.last_commit, 12), '') || "
					  "', every ' || coalesce(j.every_commits || ' commit(s)', j.every::text) "
					  "WHEN 'bisect' THEN 'bisect ' || left(j.good, 12) || '..' || left(j.bad, 12) || coalesce(("
					  "SELECT ': culprit ' || left(c.culprit, 12) || ' ' || round(c.culprit_shift_pct::numeric, 1) || '% (CI ' || "
					  "round(c.culprit_ci_low::numeric, 1) || ' to ' || round(c.culprit_ci_high::numeric, 1) || ')' "
					  "FROM pgbench_ext.change_points c WHERE c.bisect_job = j.job_id AND c.culprit IS NOT NULL LIMIT 1), '') "
					  "ELSE '' END "
					  "FROM pgbench_ext.jobs j LEFT JOIN pgbench_ext.agents a ON a.fingerprint = j.agent "
					  "ORDER BY j.job_id");
	t = table_create(lengthof(headers), headers);
	table_set_max_width(t, 1, 30);
	table_set_max_width(t, 10, 60);
	for (int r = 0; r < PQntuples(res); r++)
	{
		const char *cells[lengthof(headers)];

		for (int k = 0; k < lengthof(headers); k++)
			cells[k] = PQgetvalue(res, r, k);
		table_add_row(t, cells);
	}
	table_print(t, stdout);
	table_free(t);
	PQclear(res);
	PQfinish(conn);
	return 0;
}
