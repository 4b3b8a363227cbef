/*-------------------------------------------------------------------------
 *
 * validate.c
 *		Checks made before the first long run, one clear message each.
 *
 * An experiment can take hours; a typo should cost seconds.  What can be
 * checked on this machine without starting anything is checked here; a
 * trial start of every server (setup.c) catches bad settings with the
 * server's own words.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build.h"
#include "experiment.h"
#include "profile_spec.h"
#include "safe_file.h"
#include "settings.h"
#include "subprocess.h"
#include "validate.h"

#include <sys/stat.h>
#include <unistd.h>

#include "common/logging.h"

/* "postgres (PostgreSQL) 15.20 (Debian ...)" -> 15, or 0 */
static int
major_version_of(const char *bindir)
{
	char	   *argv[] = {psprintf("%s/postgres", bindir), "-V", NULL};
	ChildSpec	spec = CHILD_SPEC_INIT;
	int			status;
	char	   *line;
	char	   *paren;

	spec.argv = argv;
	spec.unprivileged = true;	/* whoever built it, it never runs as root */
	spec.interruptible = true;
	line = child_output(&spec, false, &status);
	paren = strstr(line, ") ");
	return status == 0 && paren ? atoi(paren + 2) : 0;
}

static bool
check_bindir(const VariantSpec *v, int *major)
{
	static const char *const programs[] = {"postgres", "initdb", "pg_ctl", "pgbench"};
	struct stat st;

	if (stat(v->bindir, &st) != 0 || !S_ISDIR(st.st_mode))
	{
		log_errorf("variant \"%s\": bindir \"%s\" is not a directory", v->name, v->bindir);
		pg_log_error_hint("Give the bin directory of a PostgreSQL installation, e.g. $(pg_config --bindir).");
		return false;
	}
	for (int i = 0; i < lengthof(programs); i++)
	{
		char	   *path = psprintf("%s/%s", v->bindir, programs[i]);

		if (access(path, X_OK) != 0)
		{
			log_errorf("variant \"%s\": bindir \"%s\" has no executable %s", v->name, v->bindir, programs[i]);
			pg_log_error_hint("A variant's bindir must hold postgres, initdb, pg_ctl and pgbench.");
			return false;
		}
	}
	*major = major_version_of(v->bindir);
	return true;
}

/*
 * An existing results directory (of -o DIR, or of --resume) is written
 * into only if it is ours and private, and so is everything the client
 * enters in it (safe_file.c): another user's directory in /tmp could hold
 * links to files of ours, or a clusters/ link to a directory of ours.
 */
static bool
results_dir_ours(const char *dir)
{
	char	   *error;

	if (safe_results_dir(dir, true, &error))
		return true;
	log_error_text(error);
	return false;
}

/*
 * The results directory must be new (or empty), and — when servers will run
 * as another account — reachable by that account.
 */
static bool
check_results_dir(const char *dir)
{
	struct stat st;
	char	   *parent;
	char	   *slash;

	if (stat(dir, &st) == 0)
	{
		char	   *exp = psprintf("%s/experiment.json", dir);
		char	   *csv = psprintf("%s/runs.csv", dir);

		if (access(exp, F_OK) == 0 || access(csv, F_OK) == 0)
		{
			log_errorf("results directory \"%s\" already holds an experiment", dir);
			pg_log_error_hint("Continue it with \"%s run --resume %s\", or choose a new directory with -o.", progname,
							  escape_text(dir, ESCAPE_TERMINAL));
			return false;
		}
		if (!S_ISDIR(st.st_mode))
		{
			log_errorf("results directory \"%s\" exists and is not a directory", dir);
			return false;
		}
		if (access(dir, W_OK) != 0)
		{
			log_errorf("results directory \"%s\" is not writable", dir);
			return false;
		}
		return results_dir_ours(dir);
	}
	parent = pg_strdup(dir);
	slash = strrchr(parent, '/');
	if (slash == parent)
		parent = "/";
	else if (slash)
		*slash = '\0';
	else
		parent = ".";
	if (access(parent, W_OK) != 0)
	{
		log_errorf("cannot create results directory \"%s\": \"%s\" is not writable", dir, parent);
		return false;
	}
	return true;
}

/*
 * As root, managed clusters live in the results directory but run as the
 * server account, which must be able to reach it (not the case under
 * /root, for instance).
 */
static bool
check_server_account_reach(const char *dir)
{
	char	   *error;
	const struct passwd *pw;
	char	   *abs = make_absolute_path(dir);
	char	   *probe;

	if (!need_server_account())
		return true;
	if ((pw = server_account(&error)) == NULL)
	{
		log_error_text(error);
		pg_log_error_hint("Create the account, or name another with PGBENCH_EXT_OS_USER.");
		return false;
	}
	/* walk up to the first existing directory and ask as that account */
	probe = pg_strdup(abs);
	while (access(probe, F_OK) != 0 && strrchr(probe, '/') != probe)
		*strrchr(probe, '/') = '\0';
	if (!unprivileged_can_access(probe, X_OK))
	{
		log_errorf("the servers run as user \"%s\", who cannot reach \"%s\"", pw->pw_name, probe);
		pg_log_error_hint("Put the results under a directory that user can enter, such as /tmp or /var/tmp.");
		return false;
	}
	return true;
}

bool
validate_experiment(const ExperimentSpec *spec, const char *results_dir, bool resume)
{
	char	   *error;
	int			first_major = 0;

	if (!experiment_check(spec, &error) || !build_check(spec, &error))
	{
		log_error_text(error);
		return false;
	}
	for (int i = 0; i < spec->nvariants; i++)
	{
		const VariantSpec *v = &spec->variants[i];
		int			major = 0;

		if (v->bindir == NULL)
			continue;
		if (!check_bindir(v, &major))
			return false;
		if (!settings_check_libraries(v, v->bindir, &error))
		{
			log_error_text(error);
			return false;
		}
		if (first_major == 0)
			first_major = major;
		else if (major != 0 && major != first_major)
			log_warningf("variants run different major versions (%d and %d): the comparison includes everything that changed between them",
						 first_major, major);
	}
	for (int i = 0; i < spec->nscripts; i++)
	{
		if (!experiment_is_builtin_script(spec->scripts[i]) && access(spec->scripts[i], R_OK) != 0)
		{
			log_errorf("script \"%s\" is neither a builtin (tpcb-like, simple-update, select-only) nor a readable file",
						 spec->scripts[i]);
			return false;
		}
		/* pgbench runs as the server account, which must read the script too */
		if (!experiment_is_builtin_script(spec->scripts[i]) && need_server_account() &&
			!unprivileged_can_access(spec->scripts[i], R_OK))
		{
			log_errorf("pgbench runs as the server account, which cannot read script \"%s\"",
						 spec->scripts[i]);
			pg_log_error_hint("Put the script where that account can read it, such as /tmp.");
			return false;
		}
	}
	if (!profile_validate(spec))
		return false;
	if (resume ? !results_dir_ours(results_dir) : !check_results_dir(results_dir))
		return false;
	return check_server_account_reach(results_dir);
}
