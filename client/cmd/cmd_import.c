/*-------------------------------------------------------------------------
 *
 * cmd_import.c
 *		"pgbench_ext import DIR... [CONNINFO]": load results directories of
 *		any number of hosts into the extension's tables of one database
 *		(experiments, variants, runs, and the farm's machines and
 *		experiment_sources), so that experiments can be analysed from psql:
 *		pgbench_ext.experiment_report() gives the same figures as the
 *		terminal table, from the same C code; history() and farm_compare()
 *		take them across dates and machines.
 *
 * Here the arguments; what a directory puts in the database, and why
 * importing it again adds nothing, is farm_import.c's.  Every directory is
 * read and checked before anything is imported, then each goes in its own
 * transaction: an experiment is imported whole or not at all.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "conn.h"
#include "commands.h"
#include "farm_import.h"

#include <getopt.h>
#include <sys/stat.h>

#include "common/logging.h"

static void
import_usage(void)
{
	printf("%s import: how are results of many hosts queried together from psql?\n\n", progname);
	printf("It loads results directories, of any number of hosts, into the\n"
		   "extension's tables of one database (pgbench_ext.experiments, variants, runs,\n"
		   "machines, experiment_sources, and the profile_* tables when an experiment\n"
		   "has profiles) for analysis from psql.  Importing a directory again adds only\n"
		   "the runs that are not there yet.\n\n");
	printf("Usage:\n  %s import [OPTION]... DIR... [CONNINFO]\n\n", progname);
	printf("Options:\n");
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nThen: SELECT * FROM pgbench_ext.experiment_report(EXPERIMENT_ID);\n");
	printf("      SELECT * FROM pgbench_ext.profile_compare(EXPERIMENT_ID);\n");
	printf("      SELECT * FROM pgbench_ext.history(SIGNATURE, VARIANT, SCRIPT, CLIENTS);\n");
	printf("      SELECT * FROM pgbench_ext.farm_compare(SIGNATURE, BASELINE, VARIANT, SCRIPT, CLIENTS);\n");
}

/*
 * One results directory in its own transaction; a failure ends the
 * command (what went in before it stays, each directory being whole).
 */
static void
import_dir(PGconn *conn, const FarmImport *d)
{
	FarmImported r;
	char	   *error = NULL;
	int			status;

	PQclear(exec_or_die(conn, "BEGIN"));
	if ((status = farm_import_load(conn, d, &r, &error)) != 0)
	{
		log_error_text(error);
		PQexec(conn, "ROLLBACK");
		PQfinish(conn);
		exit(status);
	}
	PQclear(exec_or_die(conn, "COMMIT"));
	/* profile_import() prepares its statements anew for each experiment */
	PQclear(exec_or_die(conn, "DEALLOCATE ALL"));
	farm_import_print(d, &r);
}

/*
 * Whether the last argument is the connection string (a database name, a
 * key=value string or a URI) rather than one more directory: it is no
 * directory.
 */
static bool
is_conninfo(const char *arg)
{
	struct stat st;

	return !(stat(arg, &st) == 0 && S_ISDIR(st.st_mode));
}

int
cmd_import(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	int			c,
				ndirs;
	FarmImport *dirs;
	PGconn	   *conn;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		import_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS, long_options, "import")) != -1)
		if (!conn_option(c, optarg, &opts))
			usage_hint_exit("import");
	if (argc - optind >= 2 && is_conninfo(argv[argc - 1]))
		opts.conninfo = argv[--argc];
	if (optind >= argc)
		usage_error("import", "no results directory given");

	/* every directory is checked before anything is imported */
	ndirs = argc - optind;
	dirs = pg_malloc0(sizeof(FarmImport) * ndirs);
	for (int i = 0; i < ndirs; i++)
	{
		char	   *error = NULL,
				   *hint = NULL;

		if (!farm_import_read(argv[optind + i], &dirs[i], &error, &hint))
		{
			log_error_text(error);
			pg_log_error_hint("%s", hint);
			exit(EXIT_USAGE);
		}
	}
	conn = connect_checked(&opts);
	for (int i = 0; i < ndirs; i++)
		import_dir(conn, &dirs[i]);
	PQfinish(conn);
	return 0;
}
