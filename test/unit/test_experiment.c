/*-------------------------------------------------------------------------
 *
 * test_experiment.c
 *	  Unit tests (TAP) of the experiment file's parser and its checks
 *	  (client/spec/experiment.c, experiment_check.c), on small experiment files
 *	  written from strings: the defaults, every kind of value a key takes
 *	  (lists, durations, auto, names of variants and their settings), and
 *	  for each way a file can be wrong the message that names the line, the
 *	  key and what it accepts: a syntax error, a key outside a section, an
 *	  unknown section or key (with the known keys), each key's bad values,
 *	  variants that run on nothing or on two things, clusters named wrong,
 *	  and the keys that need one another (rounds = auto and budget,
 *	  min_rounds, reference, pilot, warmup).  What needs the machine (a
 *	  bindir's programs, a script file) is validate.c's, not tested here.
 *
 * test/unit/test_experiment.c
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "experiment.h"

#include <unistd.h>

#include "test_client_util.h"

static char *dir;
static int	nfile;

static char *
write_file(const char *text)
{
	char	   *path = psprintf("%s/e%d.ini", dir, ++nfile);
	FILE	   *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	return path;
}

/*
 * text read as an experiment file into spec and checked as a whole (check):
 * NULL, or the error
 */
static char *
read_spec(const char *text, bool check, ExperimentSpec *spec)
{
	char	   *path = write_file(text);
	char	   *error = NULL;
	bool		ok;

	experiment_init(spec);
	ok = experiment_read_ini(spec, path, &error) && (!check || experiment_check(spec, &error));
	unlink(path);
	return ok ? NULL : error;
}

#define VARIANTS "[variant A]\nbindir = /x\n[variant B]\nbindir = /x\n"

/* the file's error contains want (and error is checked as a whole) */
static void
refused(const char *text, const char *want, const char *what)
{
	ExperimentSpec spec;
	char	   *error = read_spec(text, true, &spec);

	ok(error != NULL && strstr(error, want) != NULL, "%s", what);
	if (error == NULL || strstr(error, want) == NULL)
		diag("got \"%s\", want it to contain \"%s\"", error ? error : "(no error)", want);
}

static void
test_defaults_and_values(void)
{
	ExperimentSpec spec;
	char	   *error;

	error = read_spec("[experiment]\n" VARIANTS, true, &spec);
	ok(error == NULL, "an experiment of two variants and no keys%s%s", error ? ": " : "", error ? error : "");
	ok(spec.scale == 10 && spec.nclients == 1 && spec.clients[0] == 1 && spec.duration_s == 30 &&
	   spec.rounds == 6 && spec.warmup == 0 && spec.nscripts == 1 &&
	   strcmp(spec.scripts[0], "tpcb-like") == 0 && strcmp(spec.protocol, "simple") == 0,
	   "the defaults: scale 10, 1 client, 30 s, 6 rounds, tpcb-like, simple protocol");
	ok(spec.restart_auto && spec.pilot_auto && spec.pilot_rounds == PILOT_DEFAULT_ROUNDS &&
	   !spec.rounds_auto && !spec.seed_given, "restart = auto, pilot = auto, fixed rounds, no seed given");
	ok(spec.nvariants == 2 && strcmp(spec.variants[0].name, "A") == 0 &&
	   strcmp(spec.variants[1].bindir, "/x") == 0 && spec.variants[0].extension,
	   "two variants in file order, the extension on");
	ok(!spec.quiet.prewarm && !spec.quiet.prewarm_given, "prewarm = auto: off until a counted profile takes it");
	error = read_spec("[experiment]\nprewarm = on\n" VARIANTS, true, &spec);
	ok(error == NULL && spec.quiet.prewarm && spec.quiet.prewarm_given, "prewarm = on: given");
	error = read_spec("[experiment]\nprewarm = off\n" VARIANTS, true, &spec);
	ok(error == NULL && !spec.quiet.prewarm && spec.quiet.prewarm_given, "prewarm = off: given, so no profile overrides it");
	error = read_spec("[experiment]\nprewarm = auto\n" VARIANTS, true, &spec);
	ok(error == NULL && !spec.quiet.prewarm && !spec.quiet.prewarm_given, "prewarm = auto: as if not set");

	error = read_spec("; a comment\n[experiment]\nscale = 3\nclients = 1, 4,16\nduration = 90\n"
					  "rounds = auto\nbudget = 2h\nmin_rounds = 12\nwarmup = 1\n"
					  "script = select-only,simple-update\nprotocol = prepared\nseed = 42\n"
					  "restart = 3\npilot = off\nreference = 0.94\n"
					  "[variant base]\nbindir = /usr/x\nset = work_mem = 64MB\nset = fsync=off\n"
					  "[variant other]\ncluster = base\nsession_set = enable_seqscan=off\n", true, &spec);
	ok(error == NULL, "a file of every kind of value%s%s", error ? ": " : "", error ? error : "");
	ok(spec.scale == 3 && spec.nclients == 3 && spec.clients[0] == 1 && spec.clients[1] == 4 &&
	   spec.clients[2] == 16, "clients: a list, blanks around its commas");
	ok(spec.duration_s == 90, "duration: seconds");
	ok(spec.rounds_auto && spec.budget_s == 7200 && spec.min_rounds == 12,
	   "rounds = auto with a budget of 2h and min_rounds");
	ok(spec.nscripts == 2 && strcmp(spec.scripts[1], "simple-update") == 0, "script: a list");
	ok(strcmp(spec.protocol, "prepared") == 0 && spec.seed == 42 && spec.seed_given,
	   "protocol and seed");
	ok(!spec.restart_auto && spec.restart_every == 3, "restart = 3: every 3 rounds");
	ok(!spec.pilot_auto && spec.pilot_rounds == 0, "pilot = off: none");
	ok(spec.reference == 0.94, "reference 0.94");
	ok(spec.variants[0].nsettings == 2 && strcmp(spec.variants[0].settings[1], "fsync=off") == 0,
	   "set: each line one setting, in file order");
	ok(spec.variants[1].cluster && strcmp(spec.variants[1].cluster, "base") == 0 && spec.variants[1].nsession_settings == 1,
	   "a variant on another's cluster, with its session settings");

	error = read_spec("[experiment]\nrounds = 8\nrestart = never\n" VARIANTS, true, &spec);
	ok(error == NULL && !spec.restart_auto && spec.restart_every == 0, "restart = never");
}

static void
test_durations(void)
{
	int			s = 0;

	ok(experiment_parse_duration("45", &s) && s == 45, "a bare number is seconds");
	ok(experiment_parse_duration("2h30m", &s) && s == 9000, "2h30m");
	ok(experiment_parse_duration("7d", &s) && s == 7 * 86400, "7d, the most");
	ok(!experiment_parse_duration("7d1s", &s), "past 7 days: refused");
	ok(!experiment_parse_duration("1h30", &s), "1h30: the unit of 30 missing");
	ok(!experiment_parse_duration("0s", &s) && !experiment_parse_duration("", &s) &&
	   !experiment_parse_duration("5x", &s) && !experiment_parse_duration("-5", &s),
	   "0s, nothing, an unknown unit, a sign: refused");
}

static void
test_errors(void)
{
	ExperimentSpec spec;
	char	   *error;

	experiment_init(&spec);
	ok(!experiment_read_ini(&spec, psprintf("%s/none.ini", dir), &error) &&
	   strstr(error, "could not open experiment file") != NULL, "a file not there");
	error = read_spec("[experiment]\nscale = 1\n[experiment\n", false, &spec);
	ok(error && strstr(error, ".ini:3: syntax error (expected [section], key = value, or a ; comment)"),
	   "a syntax error: its line");
	error = read_spec("scale = 1\n", false, &spec);
	ok(error && strstr(error, ".ini:1: key \"scale\" is outside any [section]"), "a key before any section");
	error = read_spec("[experiment]\n\nbogus = 1\n", false, &spec);
	ok(error && strstr(error, ".ini:3: unknown key \"bogus\" in [experiment]; known keys: scale, clients"),
	   "an unknown key: its line and the known keys");
	refused("[experimnet]\nscale = 1\n", "unknown section [experimnet]; expected [experiment] or [variant NAME]",
			"an unknown section");
	refused("[variant]\nbindir = /x\n", "a [variant] section needs a name", "a variant without a name");
	refused("[variant A]\nbindir = /x\nbogus = 1\n", "unknown key \"bogus\" in [variant A]; known keys: bindir, conninfo",
			"an unknown variant key: the known ones");

	refused("[experiment]\nclients = 1,0\n" VARIANTS, "clients must be whole numbers from 1 to 10000, got \"0\"",
			"zero clients");
	refused("[experiment]\nclients = 10001\n" VARIANTS, "clients must be whole numbers from 1 to 10000, got \"10001\"",
			"too many clients");
	refused("[experiment]\nduration = 0\n" VARIANTS, "duration must be a whole number in range, got \"0\"",
			"zero duration");
	refused("[experiment]\nrounds = 0\n" VARIANTS,
			"rounds must be a whole number from 1 to 100000 or \"auto\" (with a budget), got \"0\"", "zero rounds");
	refused("[experiment]\nrounds = many\n" VARIANTS, "rounds must be a whole number", "rounds not a number");
	refused("[experiment]\nprotocol = carrier-pigeon\n" VARIANTS,
			"protocol must be simple, extended or prepared, got \"carrier-pigeon\"", "an unknown protocol");
	refused("[experiment]\nbudget = 8d\nrounds = auto\n" VARIANTS, "budget must be a duration such as 900s",
			"a budget past 7 days");
	refused("[experiment]\nreference = 0\nrounds = auto\nbudget = 1h\n" VARIANTS,
			"reference must be a ratio B/A from 0.01 to 100", "a reference of 0");
	refused("[experiment]\nrestart = sometimes\n" VARIANTS,
			"restart must be a number of rounds (1 to 100000), \"never\" or \"auto\", got \"sometimes\"",
			"restart: a word it does not know");
	refused("[experiment]\nprewarm = maybe\n" VARIANTS,
			"prewarm must be auto (on under profile = counted, else off), on (pg_prewarm", "prewarm neither auto, on nor off");
	refused("[experiment]\njobs = many\n" VARIANTS, "jobs must be a number, \"clients\", \"cpus\" or \"auto\"",
			"jobs: a word it does not know");
	refused("[experiment]\nscript = a\x01" "b\n" VARIANTS, "has a control character",
			"a script name with a control character");

	refused("[experiment]\n[variant A]\nbindir = /x\n", "an experiment needs at least two variants, found 1",
			"one variant");
	refused(VARIANTS "[variant C]\nbindir = /x\nconninfo = host=/tmp\n",
			"variant \"C\" has both bindir and conninfo; give one", "bindir and conninfo");
	refused(VARIANTS "[variant C]\nset = fsync=off\n",
			"variant \"C\" needs bindir (an installation to run), source (a PostgreSQL source tree to build) or conninfo",
			"neither bindir nor conninfo nor source");
	refused(VARIANTS "[variant C]\nbindir = /x\nsource = /y\n", "variant \"C\" has source and bindir; give one",
			"source and bindir");
	refused(VARIANTS "[variant C]\nbindir = /x\npatch = x.patch\n",
			"variant \"C\": patch, cflags, configure, pgo, lto, symbols and build_seeds apply only to variants built from a source tree",
			"a patch without a source tree");
	refused(VARIANTS "[variant C]\nconninfo = host=/tmp\nset = fsync=off\n",
			"set and initdb_args apply only to bindir variants", "settings of a server not managed");
	refused(VARIANTS "[variant C]\nsource = /x\nsymbols = yes please\n",
			"symbols must be on or off, got \"yes please\" in variant \"C\"", "symbols: not a boolean");
	refused(VARIANTS "[variant C]\nsource = /x\nbuild_seeds = 65\n",
			"build_seeds must be a whole number from 1 to 64, got \"65\" in variant \"C\"", "build_seeds past 64");
	refused("[variant A]\nbindir = /x\nset = fsync\n", "set must be name=value, got \"fsync\" in variant \"A\"",
			"a setting without a value");
	refused(VARIANTS "[variant C]\ncluster = D\n", "variant \"C\": cluster = D names no other variant of this experiment",
			"a cluster of no variant");
	refused(VARIANTS "[variant C]\ncluster = C\n", "cluster = C names no other variant", "a cluster of itself");
	refused(VARIANTS "[variant C]\ncluster = A\nbindir = /x\n",
			"variant \"C\" runs on variant \"A\"'s cluster: its bindir, conninfo, source, set and initdb_args are \"A\"'s",
			"a cluster and a bindir");
	refused(VARIANTS "[variant C]\ncluster = A\n[variant D]\ncluster = C\n",
			"variant \"D\": cluster = C names a variant that runs on variant \"A\"'s cluster itself; name \"A\"",
			"a cluster of a variant on another's");
	refused(VARIANTS "[variant C]\ncluster = A\nsession_set = work_mem\n",
			"session_set must be name=value, got \"work_mem\" in variant \"C\"", "a session setting without a value");

	refused("[experiment]\nrounds = auto\n" VARIANTS, "rounds = auto needs a budget", "rounds = auto without a budget");
	refused("[experiment]\nbudget = 1h\n" VARIANTS, "budget applies only to rounds = auto; with rounds = 6",
			"a budget with fixed rounds");
	refused("[experiment]\nmin_rounds = 10\n" VARIANTS, "min_rounds applies only to rounds = auto",
			"min_rounds with fixed rounds");
	refused("[experiment]\nreference = 0.9\n" VARIANTS, "reference applies only to rounds = auto",
			"a reference with fixed rounds");
	refused("[experiment]\ntransactions = 100\nrounds = auto\nbudget = 1h\n" VARIANTS,
			"rounds = auto needs runs of a fixed duration", "rounds = auto of a transaction count");
	refused("[experiment]\ntransactions = 100\npilot = 3\n" VARIANTS, "pilot needs runs of a fixed duration",
			"a pilot of a transaction count");
	refused("[experiment]\nrounds = 2\nwarmup = 2\n" VARIANTS, "warmup (2) must be smaller than rounds (2)",
			"warm-ups that leave no round");
	error = read_spec("[experiment]\nrounds = 3\nwarmup = 2\n" VARIANTS, true, &spec);
	ok(error == NULL, "one round left after the warm-ups: taken");
}

int
main(void)
{
	dir = client_test_begin("test_experiment");
	test_defaults_and_values();
	test_durations();
	test_errors();
	rmdir(dir);
	return done_testing();
}
