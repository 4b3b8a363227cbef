/*-------------------------------------------------------------------------
 *
 * cmd_env.c
 *		"pgbench_ext env [CONNINFO]": print pgbench_ext.environment().
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"
#include "conn.h"
#include "commands.h"

#include <getopt.h>

#include "common/logging.h"

static void
env_usage(void)
{
	printf("%s env: what about a server and its host can change a benchmark?\n\n", progname);
	printf("It prints build flags, assertions, key settings, every changed setting,\n"
		   "CPU and caches.\n\n");
	printf("Usage:\n");
	printf("  %s env [OPTION]... [CONNINFO]\n", progname);
	printf("\nOptions:\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
}

int
cmd_env(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	static const char *const headers[] = {"category", "name", "value", "note"};
	ConnOptions opts = {0};
	PGconn	   *conn;
	PGresult   *res;
	TextTable  *table;
	int			c;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		env_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS, long_options, "env")) != -1)
		if (!conn_option(c, optarg, &opts))
			usage_hint_exit("env");
	if (optind < argc)
		opts.conninfo = argv[optind++];
	if (optind < argc)
		usage_error("env", "too many command-line arguments (first is \"%s\")", argv[optind]);

	conn = connect_checked(&opts);
	res = exec_or_die(conn,
					  "SELECT category, name, value, note FROM pgbench_ext.environment()");

	table = table_create(4, headers);
	table_set_max_width(table, 2, 64);
	table_set_max_width(table, 3, 40);
	for (int r = 0; r < PQntuples(res); r++)
	{
		const char *cells[4];

		for (int f = 0; f < 4; f++)
			cells[f] = PQgetisnull(res, r, f) ? NULL : PQgetvalue(res, r, f);
		table_add_row(table, cells);
	}
	table_print(table, stdout);
	table_free(table);
	PQclear(res);
	PQfinish(conn);
	return 0;
}
