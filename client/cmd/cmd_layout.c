/*-------------------------------------------------------------------------
 *
 * cmd_layout.c
 *		"pgbench_ext layout": show, save or diff the cache-line layout of
 *		the shared structs GetSnapshotData() reads.
 *
 *	  layout [CONNINFO]					print one server's layout
 *	  layout --save FILE [CONNINFO]		save it as JSON
 *	  layout A B						diff two layouts, each a conninfo
 *										or a saved file
 *	  layout DIR VARIANT_A VARIANT_B	diff two variants of a finished
 *										experiment (their layouts are saved
 *										in DIR when the experiment starts)
 *
 * An argument that names an existing file, or ends in ".json", is read as
 * a saved layout; anything else is a conninfo (a database name, key=value
 * string or URI).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"
#include "conn.h"
#include "commands.h"

#include <getopt.h>
#include <sys/stat.h>

#include "common/logging.h"

#define LAYOUT_DEFAULT_LINE_SIZE 64

static void
layout_usage(void)
{
	printf("%s layout: where do shared structs' fields lie on cache lines; what moved?\n\n", progname);
	printf("It shows where the fields of SnapshotData, PGPROC, PROC_HDR and\n"
		   "VariableCacheData fall on cache lines in a server build, and what changed\n"
		   "between two builds (e.g. a patch that reorders fields).\n\n");
	printf("Usage:\n");
	printf("  %s layout [OPTION]... [CONNINFO]          print one layout\n", progname);
	printf("  %s layout [OPTION]... --save FILE [CONNINFO]\n", progname);
	printf("  %s layout [OPTION]... A B                 diff two layouts\n", progname);
	printf("  %s layout [OPTION]... DIR VARIANT_A VARIANT_B\n"
		   "                        diff two variants of the experiment in results directory DIR\n", progname);
	printf("\nA and B are each a conninfo or a file saved with --save; an argument naming\n"
		   "an existing file or ending in \".json\" is read as a file.\n");
	printf("\nOptions:\n");
	printf("  -s, --save=FILE          write the layout as JSON to FILE instead of printing it\n");
	printf("  -l, --line-size=BYTES    cache line size for the report, a power of two\n"
		   "                           from 16 to 1024 (default %d; PG_CACHE_LINE_SIZE is 128)\n",
		   LAYOUT_DEFAULT_LINE_SIZE);
	printf("  -?, --help               show this help, then exit\n");
	conn_usage();
	printf("\nConnection options apply when there is one server; to diff two servers give\n"
		   "two conninfos.\n");
}

static bool
names_layout_file(const char *arg)
{
	struct stat st;
	size_t		len = strlen(arg);

	if (stat(arg, &st) == 0 && S_ISREG(st.st_mode))
		return true;
	return len > 5 && strcmp(arg + len - 5, ".json") == 0;
}

static Layout *
load_layout(const char *arg, const ConnOptions *opts)
{
	ConnOptions one = *opts;
	PGconn	   *conn;
	Layout	   *layout;

	if (arg != NULL && names_layout_file(arg))
		return layout_from_file(arg);
	one.conninfo = arg;
	conn = connect_checked(&one);
	layout = layout_from_server(conn);
	PQfinish(conn);
	return layout;
}

static int
parse_line_size(const char *arg)
{
	char	   *end;
	long		v = strtol(arg, &end, 10);

	if (*arg == '\0' || *end != '\0' || v < 16 || v > 1024 || (v & (v - 1)) != 0)
		usage_error("layout", "invalid --line-size \"%s\": must be a power of two from 16 to 1024", arg);
	return (int) v;
}

int
cmd_layout(int argc, char **argv)
{
	static struct option long_options[] = {
		CONN_LONG_OPTIONS,
		{"save", required_argument, NULL, 's'},
		{"line-size", required_argument, NULL, 'l'},
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	ConnOptions opts = {0};
	bool		conn_given = false;
	const char *save = NULL;
	int			line_size = LAYOUT_DEFAULT_LINE_SIZE;
	int			nargs;
	int			c;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		layout_usage();
		return 0;
	}
	while ((c = cli_getopt(argc, argv, CONN_SHORT_OPTIONS "s:l:", long_options, "layout")) != -1)
	{
		if (c == 's')
			save = optarg;
		else if (c == 'l')
			line_size = parse_line_size(optarg);
		else if (conn_option(c, optarg, &opts))
			conn_given = true;
		else
			usage_hint_exit("layout");
	}
	nargs = argc - optind;

	if (nargs == 3)
	{
		const char *dir = argv[optind];
		char	   *a = psprintf("%s/layout-%s.json", dir, argv[optind + 1]);
		char	   *b = psprintf("%s/layout-%s.json", dir, argv[optind + 2]);
		struct stat st;

		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
			usage_error("layout", "\"%s\" is not a results directory (three arguments are DIR VARIANT_A VARIANT_B)", dir);
		if (save || conn_given)
			usage_error("layout", "--save and connection options do not apply to a results directory");
		for (int i = 1; i <= 2; i++)
			if (stat(i == 1 ? a : b, &st) != 0)
			{
				log_errorf("results directory \"%s\" holds no layout of variant \"%s\"", dir, argv[optind + i]);
				pg_log_error_hint("Layouts are saved as layout-VARIANT.json when an experiment sets up variants that load pgbench_ext.");
				exit(EXIT_USAGE);
			}
		layout_diff(layout_from_file(a), layout_from_file(b), line_size, stdout);
		return 0;
	}
	if (nargs > 3)
		usage_error("layout", "too many command-line arguments (first is \"%s\")", argv[optind + 3]);
	if (nargs == 2 && save)
		usage_error("layout", "--save takes one layout, but two were given (\"%s\", \"%s\")",
					argv[optind], argv[optind + 1]);
	if (nargs == 2 && conn_given)
		usage_error("layout", "connection options apply to one server; to diff two, give two conninfos");

	if (nargs == 2)
	{
		Layout	   *a = load_layout(argv[optind], &opts);
		Layout	   *b = load_layout(argv[optind + 1], &opts);

		layout_diff(a, b, line_size, stdout);
	}
	else
	{
		Layout	   *layout = load_layout(nargs == 1 ? argv[optind] : NULL, &opts);

		if (save)
		{
			layout_save(layout, save);
			printf("layout of %s saved to \"%s\"\n", escape_text(layout->source, ESCAPE_TERMINAL),
				   escape_text(save, ESCAPE_TERMINAL));
		}
		else
			layout_print(layout, line_size, stdout);
	}
	return 0;
}
