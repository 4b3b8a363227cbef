/*-------------------------------------------------------------------------
 *
 * main.c
 *		pgbench_ext driver: command dispatch, --help and --version.
 *
 * Usage follows src/bin/pgbench: getopt_long, libpq's PG* environment
 * variables honoured, errors as "pgbench_ext: error: ..." with a hint.
 * Usage errors exit with status 2, run-time errors with status 1.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "commands.h"

#include <getopt.h>

#include "common/logging.h"

typedef struct Command
{
	const char *name;
	int			(*run) (int argc, char **argv);
	const char *summary;
} Command;

static const Command commands[] = {
	{"run", cmd_run, "run an experiment file (or --resume, --rerun one; --check: the dry run)"},
	{"ab", cmd_ab, "compare variants given as flags"},
	{"calibrate", cmd_calibrate, "measure false positives, detection and noise on this machine"},
	{"report", cmd_report, "what an experiment found, on one machine or across several"},
	{"compare", cmd_compare, "whether a variant or an effect changed between two experiments"},
	{"import", cmd_import, "load results directories of any hosts into one database"},
	{"history", cmd_history, "where one cell's tps shifted over a series of experiments"},
	{"bisect", cmd_bisect, "the first patch or commit of a series that changes performance"},
	{"submit", cmd_submit, "queue an experiment file for the farm's machines"},
	{"jobs", cmd_jobs, "list the queue's jobs and their states"},
	{"agent", cmd_agent, "take and run this host's queued jobs, importing their results"},
	{"env", cmd_env, "show the server's build, settings and host facts"},
	{"layout", cmd_layout, "show, save or diff the cache-line layout of shared structs"},
};

static void
usage(void)
{
	printf("%s: is a build, patch or setting of PostgreSQL faster, and is it real?\n\n", progname);
	printf("It compares builds, patches and settings with pgbench and gives each\n"
		   "difference a verdict with its confidence interval.\n\n");
	printf("Usage:\n");
	printf("  %s [OPTION]... COMMAND [ARG]...\n\n", progname);
	printf("Commands:\n");
	for (int i = 0; i < lengthof(commands); i++)
		printf("  %-10s %s\n", commands[i].name, commands[i].summary);
	printf("\nOptions:\n");
	printf("  -V, --version            output version information, then exit\n");
	printf("  -?, --help               show this help, then exit\n");
	printf("\n\"%s COMMAND --help\" shows the options of one command.\n", progname);
	printf("Connection options follow libpq: PGHOST, PGPORT, PGUSER, PGDATABASE and\n"
		   "the other PG* environment variables apply where no option overrides them.\n");
	printf("\nExit status: 0 success, 1 run-time error, 2 usage error.\n");
}

int
main(int argc, char **argv)
{
	static struct option long_options[] = {
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0}
	};
	int			c;

	pg_logging_init(argv[0]);
	progname = get_progname(argv[0]);

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		usage();
		exit(0);
	}

	/*
	 * Options before the command name are global; "+" stops getopt at the
	 * first non-option so each command parses its own.  cli_getopt() says
	 * what was wrong with an option, and exits.
	 */
	while ((c = cli_getopt(argc, argv, "+V", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 'V':
				printf("%s (pgbench_ext) %s\n", progname, PGBENCH_EXT_VERSION);
				exit(0);
			default:
				usage_hint_exit(NULL);
		}
	}

	if (optind >= argc)
		usage_error(NULL, "no command given");

	for (int i = 0; i < lengthof(commands); i++)
	{
		if (strcmp(argv[optind], commands[i].name) == 0)
		{
			/* The command sees its own name as argv[0], as getopt expects. */
			int			sub_argc = argc - optind;
			char	  **sub_argv = argv + optind;

			/*
			 * Restart getopt for the command.  glibc needs optind = 0 to
			 * forget the "+" (stop at the first argument) mode used above.
			 */
#ifdef __GLIBC__
			optind = 0;
#else
			optind = 1;
#endif
			return commands[i].run(sub_argc, sub_argv);
		}
	}

	usage_error(NULL, "unrecognized command \"%s\"", argv[optind]);
}
