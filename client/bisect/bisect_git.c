/*-------------------------------------------------------------------------
 *
 * bisect_git.c
 *		The git work of "pgbench_ext bisect --commits": the range's commits
 *		read once, when the bisect begins, and each state's tree exported
 *		into the bisect's directory.
 *
 * bisect.json is data that may come from anyone (a colleague's bisect
 * copied to print its report, say), so nothing it holds may make git run
 * a command or reach outside the bisect's directory:
 *
 * - git never runs in the repository: it runs in a scratch repository of
 *   its own, made for each call, whose only link to the user's is that
 *   repository's object store as an alternate.  No configuration, hook,
 *   filter, textconv or fsmonitor of the user's repository is read, so a
 *   ".gitattributes" naming a filter finds no driver; git reads objects
 *   only, and checks each one's name against its content.
 * - the repository's git directory must belong to the user running the
 *   client and be writable by no one else (an object store planted by
 *   someone else is refused), and the account that runs git can read it.
 * - a state's commit is a full object name (40 or 64 hex digits), checked
 *   as such and passed after "--": never an option, a path or a name git
 *   would resolve.
 * - git and tar run as the build account (the invoking user, unless that
 *   is root), which also owns DIR/sources and unpacks every export there
 *   afresh in each process: a tree left in DIR/sources, with whatever it
 *   holds, is never used as it was found.
 *
 * The range's refs (GOOD..BAD as the user wrote them) are resolved once,
 * when the bisect begins, by "git rev-parse" in the repository the user
 * named; that resolves names and runs nothing of its configuration.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "safe_file.h"
#include "subprocess.h"
#include "words.h"

#include <sys/stat.h>
#include <unistd.h>

#include "common/logging.h"

/* A full object name: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits. */
bool
bisect_commit_name_ok(const char *name)
{
	size_t		n = name ? strspn(name, "0123456789abcdef") : 0;

	return name != NULL && name[n] == '\0' && (n == 40 || n == 64);
}

/*
 * The repository's git directory: a directory (not a link) of the user
 * running the client, writable by no one else, with an object store the
 * build account can read.
 */
bool
bisect_git_check(const char *gitdir, char **error)
{
	const char *parts[] = {gitdir, psprintf("%s/objects", gitdir)};
	struct stat st;

	if (gitdir[0] != '/' || strpbrk(gitdir, "\n\r") != NULL)
	{
		*error = psprintf("the repository \"%s\" is not an absolute path", gitdir);
		return false;
	}
	for (int i = 0; i < lengthof(parts); i++)
	{
		if (lstat(parts[i], &st) != 0 || !S_ISDIR(st.st_mode))
			*error = psprintf("\"%s\" is not a directory of a git repository", parts[i]);
		else if (st.st_uid != geteuid())
			*error = psprintf("the repository \"%s\" does not belong to you: refusing to read commits from it", parts[i]);
		else if (st.st_mode & (S_IWGRP | S_IWOTH))
			*error = psprintf("the repository \"%s\" is writable by others: refusing to read commits from it", parts[i]);
		else
			continue;
		return false;
	}
	if (!unprivileged_can_access(parts[1], R_OK | X_OK))
	{
		*error = psprintf("the account that runs the builds cannot read the repository's objects in \"%s\"\n"
						  "hint: Make the repository readable by that account, or clone it where it can read it.",
						  parts[1]);
		return false;
	}
	return true;
}

/* ---- git, run in a scratch repository of its own ---- */

/* The scratch repository removed: its contents as the build account, then itself. */
static void
drop_scratch(const char *dir)
{
	char	   *ignored;
	struct stat st;

	(void) unprivileged_remove(dir, &ignored);
	if (lstat(dir, &st) == 0)
		(void) rmtree(dir, true);
}

/*
 * A scratch bare repository, the build account's, whose object store
 * borrows the repository's: its own configuration, nothing else.
 */
static char *
scratch_repository(const char *gitdir, char **error)
{
	const char *tmp = getenv("TMPDIR");
	char	   *dir = safe_mkdtemp(psprintf("%s/pgbench_ext-git-", tmp && *tmp == '/' ? tmp : "/tmp"), error);

	if (dir == NULL)
		return NULL;
	if (!give_to_server_account(dir, error) ||
		!unprivileged_mkdir(psprintf("%s/refs", dir), error) ||
		!unprivileged_mkdir(psprintf("%s/objects", dir), error) ||
		!unprivileged_mkdir(psprintf("%s/objects/info", dir), error) ||
		!unprivileged_write(psprintf("%s/HEAD", dir), "ref: refs/heads/none\n", error) ||
		!unprivileged_write(psprintf("%s/objects/info/alternates", dir),
							psprintf("%s/objects\n", gitdir), error))
	{
		drop_scratch(dir);
		return NULL;
	}
	return dir;
}

/* git's argv in the scratch repository: "git --git-dir=SCRATCH" then args. */
static char **
scratch_git_argv(const char *scratch, char *const *args)
{
	int			n = 0;
	char	  **argv;

	while (args[n])
		n++;
	argv = palloc0(sizeof(char *) * (n + 3));
	argv[0] = "git";
	argv[1] = psprintf("--git-dir=%s", scratch);
	memcpy(argv + 2, args, sizeof(char *) * n);
	return argv;
}

/* What git prints, run as the build account (cwd NULL: the scratch repository's). */
static char *
git_output(char *const *argv, int *status)
{
	ChildSpec	cs = CHILD_SPEC_INIT;

	cs.argv = argv;
	cs.unprivileged = true;
	cs.interruptible = true;
	return child_output(&cs, true, status);
}

/* ---- the range, when the bisect begins ---- */

/*
 * "git rev-parse ARGS" in the user's checkout, which only the start of a
 * bisect does: its first line of output, and git's exit status.
 */
static char *
checkout_rev_parse(const char *checkout, char *const *args, int *status)
{
	Argv		a = {0};
	char	   *out;

	argv_add(&a, "git");
	argv_add(&a, "-c");
	argv_add(&a, "safe.directory=*");
	argv_add(&a, "-C");
	argv_add(&a, checkout);
	argv_add(&a, "rev-parse");
	argv_add_words(&a, args);
	out = git_output(a.args, status);
	out[strcspn(out, "\n")] = '\0';
	return out;
}

/* One name of the user's (GOOD or BAD) as a full commit name. */
static char *
resolve_commit(const char *checkout, const char *name, char **error)
{
	char	   *args[] = {"--verify", "--quiet", "--end-of-options", psprintf("%s^{commit}", name), NULL};
	int			status;
	char	   *out = checkout_rev_parse(checkout, args, &status);

	if (status != 0 || !bisect_commit_name_ok(out))
	{
		*error = psprintf("git in \"%s\" failed: \"%s\" is not a commit there", checkout, name);
		return NULL;
	}
	return out;
}

/* The git directory of a checkout, absolute (its common one, for a worktree). */
static char *
git_directory(const char *checkout, char **error)
{
	char	   *args[] = {"--path-format=absolute", "--git-common-dir", NULL};
	int			status;
	char	   *out = checkout_rev_parse(checkout, args, &status);

	if (status != 0 || out[0] != '/')
	{
		*error = psprintf("git in \"%s\" failed: it is not a git checkout the account that runs the builds can read (%s)",
						  checkout, out);
		return NULL;
	}
	return out;
}

/*
 * The states of --commits GOOD..BAD of the checkout: GOOD, then the
 * first-parent commits after it, each with its subject; b->git is set to
 * the repository's git directory.
 */
bool
bisect_git_commits(Bisect *b, const char *checkout, const char *range, char **error)
{
	const char *dots = strstr(range, "..");
	char	   *good_name = dots ? pnstrdup(range, dots - range) : NULL;
	char	   *good;
	char	   *bad;
	char	   *scratch;
	char	   *out;
	int			status;

	if (good_name == NULL || *good_name == '\0' || dots[2] == '\0' || dots[2] == '.')
	{
		*error = psprintf("--commits takes GOOD..BAD (two commits of the variant's source), got \"%s\"", range);
		return false;
	}
	if ((b->git = git_directory(checkout, error)) == NULL || !bisect_git_check(b->git, error) ||
		(good = resolve_commit(checkout, good_name, error)) == NULL ||
		(bad = resolve_commit(checkout, dots + 2, error)) == NULL ||
		(scratch = scratch_repository(b->git, error)) == NULL)
		return false;
	{
		char	   *log[] = {"rev-list", "--first-parent", "--reverse", "--no-commit-header",
		"--format=%H %h %s", psprintf("^%s", good), bad, "--", NULL};

		out = git_output(scratch_git_argv(scratch, log), &status);
	}
	drop_scratch(scratch);
	if (status != 0)
	{
		*error = psprintf("git in \"%s\" failed: %s", checkout, out);
		return false;
	}
	b->points = palloc0(sizeof(BisectPoint) * (BISECT_MAX_COMMITS + 2));
	b->points[0].commit = good;
	b->points[0].label = psprintf("%.12s (%s)", good, good_name);
	b->npoints = 1;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n"))
	{
		char	   *sp = strchr(line, ' ');

		if (sp == NULL || b->npoints > BISECT_MAX_COMMITS || !bisect_commit_name_ok(pnstrdup(line, sp - line)))
		{
			*error = psprintf("--commits %s: more than %d commits, or git's output unread", range, BISECT_MAX_COMMITS);
			return false;
		}
		b->points[b->npoints].commit = pnstrdup(line, sp - line);
		b->points[b->npoints++].label = pg_strdup(sp + 1);
	}
	return true;
}

/* ---- a state's tree ---- */

/* Where state's commit is exported: DIR/sources/HASH. */
char *
bisect_commit_source(const Bisect *b, int state)
{
	return psprintf("%s/sources/%s", b->dir, b->points[state].commit);
}

/*
 * DIR/sources, the build account's: made and given to it, or, when it is
 * there, a directory of that account's (not a link, not another's).
 */
static bool
sources_directory(const Bisect *b, char **error)
{
	char	   *sources = psprintf("%s/sources", b->dir);
	const struct passwd *account = need_server_account() ? server_account(error) : NULL;
	struct stat st;

	if (need_server_account() && account == NULL)
		return false;
	if (!unprivileged_can_access(b->dir, X_OK))
	{
		*error = psprintf("the account that runs the builds cannot enter the bisect's directory \"%s\" to export commits into it\n"
						  "hint: Let it pass through (chmod o+x \"%s\"); it reads nothing else there.", b->dir, b->dir);
		return false;
	}
	if (lstat(sources, &st) != 0)
		return safe_mkdir(sources, 0755, 0, error) && give_to_server_account(sources, error);
	if (!S_ISDIR(st.st_mode) || st.st_uid != (account ? account->pw_uid : geteuid()) ||
		(st.st_mode & (S_IWGRP | S_IWOTH)))
	{
		*error = psprintf("\"%s\" is not a directory of the account that runs the builds, or others may write it: refusing to export into it\n"
						  "hint: Remove it; the bisect exports each commit there again.", sources);
		return false;
	}
	return true;
}

/*
 * State's tree, "git archive" into "tar -x" as the build account, made
 * afresh the first time this process needs it (b->exported).
 */
bool
bisect_git_export(Bisect *b, int state, char **error)
{
	char	   *to = bisect_commit_source(b, state);
	char	   *scratch;
	char	   *archive[] = {"archive", "--format=tar", "--", b->points[state].commit, NULL};
	ChildSpec	writer = CHILD_SPEC_INIT;
	int			rc;

	if (b->exported[state])
		return true;
	if (!bisect_commit_name_ok(b->points[state].commit) || !bisect_git_check(b->git, error) ||
		!sources_directory(b, error) ||
		!unprivileged_remove(to, error) || !unprivileged_mkdir(to, error) ||
		(scratch = scratch_repository(b->git, error)) == NULL)
		return false;
	printf("exporting commit %s into %s\n", b->points[state].commit, escape_text(to, ESCAPE_TERMINAL));
	fflush(stdout);
	writer.argv = scratch_git_argv(scratch, archive);
	writer.unprivileged = true;
	writer.err_fd = STDERR_FILENO;
	writer.interruptible = true;
	rc = untar_as_server_account(&writer, to, NULL);
	drop_scratch(scratch);
	if (rc != 0)
	{
		*error = psprintf("could not export commit %s of \"%s\" into \"%s\"", b->points[state].commit, b->git, to);
		return false;
	}

	/*
	 * The build cache tells trees apart by their files' names, sizes and
	 * times, and git archive gives every file its commit's time: two
	 * commits of one second (a rebase, a script) that change a file's
	 * bytes but not its size would be one build.  The commit, named in
	 * the origin a build's key includes, keeps them apart.
	 */
	if (!unprivileged_write(psprintf("%s/.pgbench_ext_origin", to),
							psprintf("git commit %s\n", b->points[state].commit), error))
		return false;
	b->exported[state] = true;
	return true;
}
