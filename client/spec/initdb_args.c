/*-------------------------------------------------------------------------
 *
 * initdb_args.c
 *		A variant's initdb_args, read the way initdb itself reads its
 *		command line: with initdb's own option table and getopt_long().
 *
 * initdb of PostgreSQL 16 and later writes -c NAME=VALUE / --set into
 * postgresql.conf, past the checks settings.c makes of "set"; a check of
 * the words' spelling misses what getopt_long() also accepts: a long
 * option abbreviated ("--se=listen_addresses=*"), a short one bundled
 * after others ("-kcport=5432"), its value in the next word.  So the
 * words are parsed with the same table and the same getopt_long() (that
 * of the C library initdb is linked with), and every option that sets a
 * server setting is refused, as are the options that name the data
 * directory (the client names it) and anything initdb would not take.
 *
 * getopt_long() keeps its state in globals, and initdb_args may come from
 * "ab" flags while the client's own command line is being parsed: the scan
 * runs in a child process (run_in_child()), whose message comes back.
 *
 * The table is initdb.c's of PostgreSQL 18, a superset of the older
 * releases' (an option an older initdb lacks fails there, in initdb.log).
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "initdb_args.h"
#include "subprocess.h"

#include <getopt.h>

/* src/bin/initdb/initdb.c, PostgreSQL 18 */
static const struct option initdb_long_options[] = {
	{"pgdata", required_argument, NULL, 'D'},
	{"encoding", required_argument, NULL, 'E'},
	{"locale", required_argument, NULL, 1},
	{"lc-collate", required_argument, NULL, 2},
	{"lc-ctype", required_argument, NULL, 3},
	{"lc-monetary", required_argument, NULL, 4},
	{"lc-numeric", required_argument, NULL, 5},
	{"lc-time", required_argument, NULL, 6},
	{"lc-messages", required_argument, NULL, 7},
	{"no-locale", no_argument, NULL, 8},
	{"text-search-config", required_argument, NULL, 'T'},
	{"auth", required_argument, NULL, 'A'},
	{"auth-local", required_argument, NULL, 10},
	{"auth-host", required_argument, NULL, 11},
	{"pwprompt", no_argument, NULL, 'W'},
	{"pwfile", required_argument, NULL, 9},
	{"username", required_argument, NULL, 'U'},
	{"help", no_argument, NULL, '?'},
	{"version", no_argument, NULL, 'V'},
	{"debug", no_argument, NULL, 'd'},
	{"show", no_argument, NULL, 's'},
	{"noclean", no_argument, NULL, 'n'},
	{"no-clean", no_argument, NULL, 'n'},
	{"nosync", no_argument, NULL, 'N'},
	{"no-sync", no_argument, NULL, 'N'},
	{"no-instructions", no_argument, NULL, 13},
	{"set", required_argument, NULL, 'c'},
	{"sync-only", no_argument, NULL, 'S'},
	{"waldir", required_argument, NULL, 'X'},
	{"wal-segsize", required_argument, NULL, 12},
	{"data-checksums", no_argument, NULL, 'k'},
	{"allow-group-access", no_argument, NULL, 'g'},
	{"discard-caches", no_argument, NULL, 14},
	{"locale-provider", required_argument, NULL, 15},
	{"builtin-locale", required_argument, NULL, 16},
	{"icu-locale", required_argument, NULL, 17},
	{"icu-rules", required_argument, NULL, 18},
	{"sync-method", required_argument, NULL, 19},
	{"no-data-checksums", no_argument, NULL, 20},
	{"no-sync-data-files", no_argument, NULL, 21},
	{NULL, 0, NULL, 0}
};

#define INITDB_SHORT_OPTIONS "A:c:dD:E:gkL:nNsST:U:WX:"

/* The words of initdb_args (split at blanks, as run_initdb() passes them). */
int
initdb_args_words(const char *args, char **words, int max)
{
	char	   *copy = pg_strdup(args);
	char	   *save = NULL;
	int			n = 0;

	for (char *tok = strtok_r(copy, " \t", &save); tok && n < max; tok = strtok_r(NULL, " \t", &save))
		words[n++] = tok;
	return n;
}

/* The scan itself, in the child: true, or false with *error. */
static bool
scan(const char *variant, const char *args, char **error)
{
	char	   *argv[64];
	char	   *orig[64];
	int			argc = 1;
	int			c;
	bool		ok = true;
	int			save_opterr = opterr;

	argv[0] = "initdb";
	argc += initdb_args_words(args, argv + 1, lengthof(argv) - 2);
	if (argc > lengthof(argv) - 2)
		return fail_with(error, "initdb_args of variant \"%s\" has too many words", variant);
	argv[argc] = NULL;
	memcpy(orig, argv, sizeof(argv));

	/*
	 * A fresh scan (glibc restarts at optind 0) that prints nothing, since
	 * the problems are ours to say.
	 */
	optind = 0;
	opterr = 0;
	while (ok && (c = getopt_long(argc, argv, INITDB_SHORT_OPTIONS, initdb_long_options, NULL)) != -1)
	{
		/* argv is permuted as it is scanned; the words as given are in orig */
		const char *word = orig[Min(Max(optind - 1, 1), argc - 1)];

		switch (c)
		{
			case 'c':
				*error = psprintf("initdb_args of variant \"%s\" may not set server settings (initdb -c/--set %s): give them with set, where they are checked",
								  variant, optarg);
				ok = false;
				break;
			case 'D':
				*error = psprintf("initdb_args of variant \"%s\" may not name the data directory (initdb -D/--pgdata %s): %s makes it in the results directory",
								  variant, optarg, progname);
				ok = false;
				break;
			case '?':
			case ':':
				*error = psprintf("initdb_args of variant \"%s\": \"%s\" is not an option initdb takes as given (unknown, ambiguous, or missing its value)",
								  variant, optopt && optopt != '?' ? psprintf("-%c", optopt) : word);
				ok = false;
				break;
			default:
				break;
		}
	}
	if (ok && optind < argc)
	{
		*error = psprintf("initdb_args of variant \"%s\" may not name the data directory (\"%s\"): %s makes it in the results directory",
						  variant, argv[optind], progname);
		ok = false;
	}
	optind = 1;
	opterr = save_opterr;
	return ok;
}

typedef struct ScanArgs
{
	const char *variant;
	const char *args;
} ScanArgs;

static bool
scan_in_child(void *arg, char **error)
{
	ScanArgs   *a = arg;

	return scan(a->variant, a->args, error);
}

/*
 * Whether initdb_args may be passed to initdb; else *error says which
 * word does what (variant is for the message).
 */
bool
initdb_args_check(const char *variant, const char *args, char **error)
{
	ScanArgs	a = {variant, args};

	return run_in_child(scan_in_child, &a, false, error);
}
