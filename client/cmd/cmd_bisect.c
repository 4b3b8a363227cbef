/*-------------------------------------------------------------------------
 *
 * cmd_bisect.c
 *		"pgbench_ext bisect": the first state of a patch series or of a
 *		range of commits that differs from the good end, by counted
 *		instructions per transaction or by tps under rounds = auto.
 *
 * The input is an ordinary experiment file with one variant built from
 * source: its [experiment] keys are each step's, and its variant the one
 * every state is built as.  The variant's patch keys are the series
 * (state k: the source with the first k patches), or, with --commits
 * GOOD..BAD, the variant's source is a git checkout and state k the k-th
 * commit of "git rev-list --first-parent --reverse GOOD..BAD" (state 0:
 * GOOD).  Everything that can be checked is checked before the first
 * build: the series applies in order (on a scratch copy of the files it
 * touches), the ends are states, the step's experiment passes "run"'s own
 * checks.  The steps and the state file: bisect_step.c; the report:
 * bisect_report.c; the search: bisect_search.c.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "digest.h"
#include "cmd_bisect.h"
#include "cmd_run.h"
#include "commands.h"
#include "experiment.h"
#include "profile.h"
#include "report.h"
#include "results.h"
#include "safe_file.h"
#include "safe_read.h"
#include "subprocess.h"
#include "validate.h"
#include "words.h"

#include <getopt.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/logging.h"
#include "fe_utils/option_utils.h"

static void
bisect_usage(void)
{
	printf("%s bisect: which patch or commit of a series first changes performance?\n\n", progname);
	printf("It finds the first state of a patch series or of a range of commits that\n"
		   "differs from the good end, building each state it measures.\n\n");
	printf("Usage:\n");
	printf("  %s bisect FILE [-o DIR] [--good K] [--bad K] [--retries N] [--seed N]\n", progname);
	printf("  %s bisect FILE --commits GOOD..BAD [-o DIR] [--retries N] [--seed N]\n", progname);
	printf("  %s bisect --resume DIR\n", progname);
	printf("\nFILE is an experiment file (docs/experiments.md) with one variant built from\n"
		   "source (source = DIR): its patch keys, in order, are the series (state k: the\n"
		   "first k patches applied).  Each step is an experiment of two variants of it,\n"
		   "the good end and the state the search names, by profile = counted\n"
		   "(instructions per transaction) or by tps with rounds = auto.\n");
	printf("\nOptions:\n");
	printf("  -o, --output=DIR         the bisect's directory (default: bisect-YYYYMMDD-HHMMSS)\n");
	printf("      --good=K             the good end's state (default 0: no patch)\n");
	printf("      --bad=K              the bad end's state (default: every patch)\n");
	printf("      --commits=GOOD..BAD  the states are these commits of the variant's source,\n"
		   "                           a git checkout, not its patches\n");
	printf("      --retries=N          an undecided step is measured again with twice the\n"
		   "                           rounds (or budget), up to N times (default 1)\n");
	printf("      --seed=N             plan seed of every step (default: random, recorded)\n");
	printf("      --resume=DIR         go on with an interrupted bisect\n");
	printf("  -v, --verbose            each step's report with the noise by level and the designs\n");
	printf("  -?, --help               show this help, then exit\n");
	printf("\nThe exit status is 0 with an answer (a first differing state, or none), 1 when\n"
		   "a step stays undecided or fails, 2 for a usage error.  See docs/farm.md, Bisect.\n");
}

static void
parse_args(int argc, char **argv, BisectArgs *a)
{
	static struct option long_options[] = {
		{"output", required_argument, NULL, 'o'},
		{"good", required_argument, NULL, 1},
		{"bad", required_argument, NULL, 2},
		{"commits", required_argument, NULL, 3},
		{"retries", required_argument, NULL, 4},
		{"seed", required_argument, NULL, 5},
		{"resume", required_argument, NULL, 6},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, '?'},
		{NULL, 0, NULL, 0}
	};
	int			c;
	bool		ends_given = false;

	memset(a, 0, sizeof(*a));
	a->bad = -1;
	a->retries = 1;
	while ((c = cli_getopt(argc, argv, "o:v", long_options, "bisect")) != -1)
	{
		if (c == 'o')
			a->dir = optarg;
		else if (c == 'v')
			report_verbose = true;
		else if (c == 1 || c == 2)
		{
			if (!option_parse_int(optarg, c == 1 ? "--good" : "--bad", 0, MAX_LIST, c == 1 ? &a->good : &a->bad))
				exit(EXIT_USAGE);
			ends_given = true;
		}
		else if (c == 3)
			a->commits = optarg;
		else if (c == 4)
		{
			if (!option_parse_int(optarg, "--retries", 0, 4, &a->retries))
				exit(EXIT_USAGE);
		}
		else if (c == 5)
			a->seed = optarg;
		else if (c == 6)
		{
			a->dir = optarg;
			a->resume = true;
		}
		else
		{
			pg_log_error_hint("Try \"%s bisect --help\" for more information.", progname);
			exit(EXIT_USAGE);
		}
	}
	if (a->resume)
	{
		if (optind < argc || ends_given || a->commits || a->seed)
			usage_error("bisect", "--resume takes only the bisect's directory: the series and the experiment are the ones recorded there");
		return;
	}
	if (optind >= argc)
		usage_error("bisect", "no experiment file given");
	if (optind + 1 < argc)
		usage_error("bisect", "too many command-line arguments (first is \"%s\")", argv[optind + 1]);
	a->file = argv[optind];
	if (a->commits && ends_given)
		usage_error("bisect", "--good and --bad number the states of a patch series: with --commits, the range GOOD..BAD gives the ends");
}

/*
 * What a bisect's experiment must be: one variant, built from source, one
 * cell, measured by counted instructions or by tps under rounds = auto.
 * False with error when it is not.
 */
static bool
check_template(const ExperimentSpec *spec, const BisectArgs *a, char **error)
{
	const VariantSpec *v = &spec->variants[0];

	if (spec->nvariants != 1)
		*error = psprintf("%s has %d variants: a bisect's experiment file describes one, the variant every state is built as",
						  a->file, spec->nvariants);
	else if (v->source == NULL)
		*error = psprintf("variant \"%s\" is not built from source: set source = DIR (a PostgreSQL source tree)", v->name);
	else if (v->build_seeds > 1 || v->cluster || v->conninfo)
		*error = psprintf("variant \"%s\": build_seeds, cluster and conninfo do not apply to a bisect's states", v->name);
	else if (spec->nscripts != 1 || spec->nclients != 1)
		*error = psprintf("a bisect's experiment has one cell: one script and one client count (found %d and %d)",
						  spec->nscripts, spec->nclients);
	else if (spec->profile.mode != PROFILE_COUNTED && !spec->rounds_auto)
		*error = psprintf("a step answers same, differs or undecided by profile = counted (instructions per transaction) "
						  "or by tps with rounds = auto and a budget: set one of them in %s", a->file);
	else if (spec->profile.mode == PROFILE_COUNTED && spec->rounds_auto)
		*error = pg_strdup("profile = counted takes a number of rounds, not rounds = auto");
	else if (spec->reference > 0)
		*error = psprintf("%s sets reference: a bisect sets it itself, the halfway point between the ends for each middle step; drop it",
						  a->file);
	/* two builds are two servers: by tps, their starts are a level of their own */
	else if (spec->profile.mode != PROFILE_COUNTED && !spec->restart_auto && spec->restart_every == 0)
		*error = pg_strdup("by tps a step compares two builds, each on a server of its own: with restart = never "
						   "the variance between server starts is not measured and no verdict can be reached; "
						   "set restart = auto (or a number of rounds)");
	else
		return true;
	return false;
}

/* The files a patch touches, as -p1 names them, added to *files. */
static bool
patch_files(const char *patch, char ***files, int *n, char **error)
{
	FILE	   *f = safe_fopen_read(patch, SAFE_MAX_LOG, error);
	char		line[4096];

	if (f == NULL)
		return false;
	while (fgets(line, sizeof(line), f))
	{
		char	   *name;
		char	   *slash;

		if (strncmp(line, "--- ", 4) != 0 && strncmp(line, "+++ ", 4) != 0)
			continue;
		name = line + 4;
		name[strcspn(name, "\t\n")] = '\0';
		if ((slash = strchr(name, '/')) == NULL || strcmp(name, "/dev/null") == 0)
			continue;
		name = slash + 1;
		if (strstr(name, "..") || *name == '\0')
		{
			*error = psprintf("patch \"%s\" names a file outside the tree (\"%s\")", patch, name);
			fclose(f);
			return false;
		}
		*files = pg_realloc(*files, sizeof(char *) * (*n + 2));
		(*files)[(*n)++] = pg_strdup(name);
	}
	fclose(f);
	return true;
}

/*
 * Copy the files of the series that exist in source into scratch, paths
 * kept: read by the invoking user, written by the build account ("tar -c |
 * tar -x", as a build copies its tree).
 */
static bool
copy_touched(const char *source, char *const *patches, int npatches, const char *scratch, char **error)
{
	char	  **files = NULL;
	int			n = 0;
	char	  **present;
	int			npresent = 0;

	for (int i = 0; i < npatches; i++)
		if (!patch_files(patches[i], &files, &n, error))
			return false;
	present = palloc0(sizeof(char *) * (n + 1));
	for (int i = 0; i < n; i++)
		if (access(psprintf("%s/%s", source, files[i]), F_OK) == 0)
			present[npresent++] = files[i];
	if (npresent == 0)
		return true;
	if (!copy_to_server_account(source, NULL, present, scratch, NULL))
	{
		*error = psprintf("could not copy the files the series touches from \"%s\"", source);
		return false;
	}
	return true;
}

/*
 * The series applies in order, each patch on the state before it: checked
 * with patch itself, as the build account, on a scratch copy of the files
 * the series touches, before any build.  The patch is read by the client.
 */
static bool
check_series_applies(const char *source, char *const *patches, int npatches, char **error)
{
	const char *tmp = getenv("TMPDIR");
	char	   *scratch = safe_mkdtemp(psprintf("%s/pgbench_ext-bisect-", tmp && *tmp ? tmp : "/tmp"), error);
	char	   *ignored;
	bool		ok;

	if (scratch == NULL)
		return false;
	ok = give_to_server_account(scratch, error) && copy_touched(source, patches, npatches, scratch, error);
	for (int k = 0; ok && k < npatches; k++)
	{
		char	   *argv[] = {"patch", "-p1", "--batch", "--forward", "--silent", "-d", scratch, NULL};
		ChildSpec	cs = CHILD_SPEC_INIT;
		int			status;
		char	   *out;

		cs.argv = argv;
		cs.unprivileged = true;
		cs.interruptible = true;
		if ((cs.in_fd = open_regular_file(patches[k], true)) < 0)
		{
			*error = psprintf("could not open patch \"%s\": %m", patches[k]);
			ok = false;
			break;
		}
		out = child_output(&cs, true, &status);
		close(cs.in_fd);
		if (status != 0)
		{
			*error = psprintf("patch %d of the series (\"%s\") does not apply to state %d (the source with the %d patch%s before it):\n%s",
							  k + 1, patches[k], k, k, k == 1 ? "" : "es", out);
			ok = false;
		}
	}
	(void) unprivileged_remove(scratch, &ignored);
	(void) rmtree(scratch, true);
	return ok;
}

/* The states of a patch series: none, then each patch's file name. */
static void
patch_points(Bisect *b, VariantSpec *v)
{
	b->npatches = v->npatches;
	b->patches = palloc0(sizeof(char *) * (v->npatches + 1));
	b->points = palloc0(sizeof(BisectPoint) * (v->npatches + 1));
	b->points[0].label = pg_strdup("(no patch)");
	for (int i = 0; i < v->npatches; i++)
	{
		const char *slash = strrchr(v->patches[i], '/');

		b->patches[i] = make_absolute_path(v->patches[i]);
		b->points[i + 1].label = pg_strdup(slash ? slash + 1 : v->patches[i]);
	}
	b->npoints = v->npatches + 1;
	v->npatches = 0;
}

/*
 * The series and its ends, from the file's variant and the options.  False
 * with error, and a hint when it is not the usual one.
 */
static bool
make_series(Bisect *b, ExperimentSpec *spec, const BisectArgs *a, char **error, const char **hint)
{
	VariantSpec *v = &spec->variants[0];

	if (a->commits)
	{
		if (v->npatches > 0)
		{
			*error = psprintf("with --commits the states are commits: variant \"%s\" must have no patch keys", v->name);
			return false;
		}
		if (!bisect_git_commits(b, make_absolute_path(v->source), a->commits, error))
			return false;
	}
	else
		patch_points(b, v);
	b->good = a->good;
	b->bad = a->bad < 0 ? b->npoints - 1 : a->bad;
	if (b->npoints < 2)
		*error = psprintf("%s has fewer than 2 states: %s", a->commits ? a->commits : a->file,
						  a->commits ? "the range holds no commit after GOOD" : "give the series as the variant's patch keys, in order");
	else if (b->bad >= b->npoints || b->good >= b->bad)
		*error = psprintf("the good end (state %d) must come before the bad end (state %d), both among states 0 to %d",
						  b->good, b->bad, b->npoints - 1);
	else if (!b->git && !check_series_applies(v->source, b->patches, b->bad, error))
		*hint = "Nothing was built.  Fix the series, or end the bisect before that patch with --bad.";
	else
		return true;
	return false;
}

/*
 * The first step's experiment passes run's checks (the host, the build
 * keys, the profiler), in the bisect's directory, before anything is
 * built.  Of a commit range, the checkout stands for every state.
 */
static bool
check_first_step(Bisect *b)
{
	char	   *git = b->git;
	json_t	   *sj;
	ExperimentSpec spec;
	char	   *error;
	bool		ok;

	b->git = NULL;
	ok = bisect_step_spec(b, b->bad, 0, &sj, &error) && experiment_from_json(&spec, sj, &error);
	b->git = git;
	if (!ok)
	{
		log_error_text(error);
		return false;
	}
	if (!experiment_resolve(&spec, true, &error))
	{
		log_error_text(error);
		return false;
	}
	return validate_experiment(&spec, psprintf("%s/step-1", b->dir), false);
}

/*
 * The series kept in the bisect's directory, DIR/patches/NN-NAME, so that
 * bisect.json names its patches by file name only; b->patches become the
 * copies.
 */
static bool
keep_patches(Bisect *b, char **error)
{
	char	   *dir = psprintf("%s/%s", b->dir, BISECT_PATCH_DIR);

	if (b->npatches > 0 && !safe_mkdir(dir, 0755, 0, error))
		return false;
	for (int i = 0; i < b->npatches; i++)
	{
		char	   *copy = psprintf("%s/%02d-%s", dir, i + 1, b->points[i + 1].label);
		FILE	   *in = safe_fopen_read(b->patches[i], SAFE_MAX_LOG, error);
		FILE	   *out = in ? safe_fopen_write(copy, false, error) : NULL;
		char		buf[8192];
		size_t		n;

		if (out == NULL)
		{
			if (in)
				fclose(in);
			return false;
		}
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
			fwrite(buf, 1, n, out);
		fclose(in);
		if (!safe_fclose(out, error))
			return false;
		b->patches[i] = copy;
	}
	return true;
}

/* A new bisect's directory: new, or empty.  False with error and hint. */
static bool
make_dir(const char *dir, char **error, const char **hint)
{
	struct stat st;

	if (access(psprintf("%s/%s", dir, BISECT_STATE_FILE), F_OK) == 0)
	{
		*error = psprintf("\"%s\" already holds a bisect", dir);
		*hint = psprintf("Continue it with \"%s bisect --resume %s\", or choose a new directory with -o.", progname,
						 escape_text(dir, ESCAPE_TERMINAL));
		return false;
	}
	if (stat(dir, &st) == 0 && !safe_results_dir(dir, true, error))
		return false;
	return safe_mkdir_p(dir, 0755, error);
}

/*
 * A new bisect of spec (read from a->file) made ready for bisect_go():
 * everything checked that can be before the first build, its directory
 * made.  False with error, and a hint when it is not "--help"'s, with
 * nothing built; the caller says how it ends (the command exits, an agent
 * fails the job and goes on).
 */
bool
bisect_begin(Bisect *b, ExperimentSpec *spec, const BisectArgs *a, char **error, const char **hint)
{
	*hint = NULL;
	memset(b, 0, sizeof(*b));
	if (!check_template(spec, a, error))
		return false;
	/* so that --resume from elsewhere finds it */
	spec->variants[0].source = make_absolute_path(spec->variants[0].source);
	run_choose_seed(spec, a->seed);
	if (!make_series(b, spec, a, error, hint))
		return false;
	b->counted = spec->profile.mode == PROFILE_COUNTED;
	b->retries = a->retries;
	b->spec = experiment_to_json(spec);
	b->dir = make_absolute_path(a->dir ? a->dir : timestamped_dir("bisect"));
	b->exported = palloc0(sizeof(bool) * (b->npoints + 1));
	if (!make_dir(b->dir, error, hint) || !keep_patches(b, error))
		return false;
	if (!check_first_step(b))
	{
		*error = psprintf("the first step's experiment fails the checks of \"run\" (above)");
		*hint = psprintf("Nothing was built. Try \"%s bisect --help\" for the options.", progname);
		return false;
	}
	printf("bisect of %d states, %d (%s) to %d (%s), by %s: at most %d step%s besides the bad end's\n",
		   b->bad - b->good + 1, b->good, escape_text(b->points[b->good].label, ESCAPE_TERMINAL), b->bad,
		   escape_text(b->points[b->bad].label, ESCAPE_TERMINAL),
		   b->counted ? "counted instructions per transaction" : "tps (rounds = auto)",
		   bisect_max_middle_steps(b->good, b->bad), bisect_max_middle_steps(b->good, b->bad) == 1 ? "" : "s");
	fflush(stdout);
	return true;
}

static int
new_bisect(const BisectArgs *a)
{
	ExperimentSpec spec;
	Bisect		b;
	char	   *error;
	const char *hint;

	experiment_init(&spec);
	if (!experiment_read_ini(&spec, a->file, &error))
	{
		log_error_text(error);
		exit(EXIT_USAGE);
	}
	if (!bisect_begin(&b, &spec, a, &error, &hint))
	{
		if (hint == NULL)
			usage_error("bisect", "%s", error);
		log_error_text(error);
		pg_log_error_hint("%s", hint);
		return EXIT_USAGE;
	}
	return bisect_go(&b, false);
}

int
cmd_bisect(int argc, char **argv)
{
	BisectArgs	a;
	Bisect		b;
	char	   *error;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0))
	{
		bisect_usage();
		return 0;
	}
	parse_args(argc, argv, &a);
	if (!a.resume)
		return new_bisect(&a);
	if (!bisect_load(&b, a.dir, &error))
	{
		log_error_text(error);
		pg_log_error_hint("--resume takes the directory of a bisect that pgbench_ext bisect began.");
		return EXIT_USAGE;
	}
	return bisect_go(&b, true);
}
