/*-------------------------------------------------------------------------
 *
 * cmd_report.c
 *		"pgbench_ext report DIR": re-render the verdict table, report.md,
 *		report.html, the plots, summary.json and benchstat.txt from a
 *		results directory alone (report_render(), which the end of "run"
 *		and "ab" calls too), or of several on several machines (farm_report.c).
 *		Its options are compare's too (cmd_compare.c).
 *
 * A results directory may come from anyone: it is read as data (a damaged
 * one is an error naming the file and line, exit status 2), and the files
 * written into it never follow a link planted there.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"
#include "commands.h"
#include "farm.h"
#include "report.h"
#include "results.h"
#include "safe_file.h"

#include <getopt.h>
#include <math.h>

#include "common/logging.h"

/*
 * The options report and compare share: --help, --verbose (report_verbose)
 * and --baseline, which is returned (NULL if not given).  Leaves optind at
 * the first argument.
 */
const char *
report_parse_options(int argc, char **argv, const char *command, void (*usage) (void))
{
	static struct option long_options[] = {
		{"baseline", required_argument, NULL, 'B'},
		{"verbose", no_argument, NULL, 'v'},
		{NULL, 0, NULL, 0}
	};
	const char *baseline = NULL;
	int			c;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		usage();
		exit(0);
	}
	while ((c = cli_getopt(argc, argv, "v", long_options, command)) != -1)
	{
		if (c == 'v')
			report_verbose = true;
		else if (c == 'B')
			baseline = optarg;
		else
			usage_hint_exit(command);
	}
	return baseline;
}

static void
report_usage(void)
{
	printf("%s report: what did an experiment find, on one machine or across several?\n\n", progname);
	printf("It renders the verdict table, report.md, report.html with its plots,\n"
		   "summary.json and benchstat.txt from a results directory alone.\n\n");
	printf("Usage:\n  %s report [OPTION]... DIR\n", progname);
	printf("  %s report [OPTION]... DIR1 DIR2...\n\n", progname);
	printf("With several directories, one experiment run on several machines: each\n"
		   "directory's verdict and the verdict across machines, the machine being the\n"
		   "top level (written to the terminal only).\n\n");
	printf("Options:\n");
	printf("  --baseline NAME   compare every variant with NAME (default: the first)\n");
	printf("  -v, --verbose     print the noise of each variant and by level, and the\n"
		   "                    designs, under the verdicts too\n");
	printf("  -?, --help        show this help, then exit\n");
	printf("\nPlots need gnuplot on PATH, or PGBENCH_EXT_GNUPLOT naming it (empty: no plots).\n");
}

int
cmd_report(int argc, char **argv)
{
	const char *baseline = report_parse_options(argc, argv, "report", report_usage);

	if (optind >= argc)
		usage_error("report", "no results directory given");
	/* several directories: one experiment on several machines (farm_report.c) */
	if (optind + 1 < argc)
		return farm_report(argv + optind, argc - optind, baseline);
	return report_render(argv[optind], baseline, stdout);
}
