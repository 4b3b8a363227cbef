/*-------------------------------------------------------------------------
 *
 * cmd_agent_watch.c
 *		The git work of an agent's watch jobs: how far a watched branch has
 *		moved since its last point, and its head's tree exported to be
 *		built.  The agent's loop (farm/) may not call bisect/, which is of
 *		its rank, so the command hands it these as hooks (AgentGit); both
 *		are bisect_git.c's, with its guarantees: git runs as the build
 *		account in a scratch repository that only borrows the watched
 *		repository's objects, so none of that repository's configuration,
 *		hooks or filters runs.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "cmd_agent_watch.h"
#include "subprocess.h"

#include <dirent.h>

/*
 * The first-parent commits of branch after last, oldest first: how many,
 * and the head.  Without a last point the head alone counts as one.
 */
static bool
watch_commits(const char *repo, const char *branch, const char *last,
			  int *count, char **head, char **error)
{
	Bisect		b = {0};

	if (!bisect_git_commits(&b, repo, psprintf("%s..%s", last ? last : branch, branch), error))
		return false;
	*count = last ? b.npoints - 1 : 1;
	*head = b.points[b.npoints - 1].commit;
	return true;
}

/*
 * The trees of the watch's earlier points removed (as the build account,
 * whose DIR/sources is): a build copies its tree into the build cache and
 * a watch's point is never resumed, so they would only fill the disk, one
 * source tree a point.
 */
static bool
drop_old_trees(const char *dir, char **error)
{
	char	   *sources = psprintf("%s/sources", dir);
	DIR		   *d = opendir(sources);
	struct dirent *de;
	bool		ok = true;

	if (d == NULL)
		return true;
	while (ok && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			ok = unprivileged_remove(psprintf("%s/%s", sources, de->d_name), error);
	closedir(d);
	return ok;
}

/* commit's tree exported into DIR/sources/COMMIT as the build account, alone there: that path. */
static char *
watch_export(const char *repo, const char *commit, const char *dir, char **error)
{
	Bisect		b = {0};

	b.dir = (char *) dir;
	if (!drop_old_trees(dir, error) ||
		!bisect_git_commits(&b, repo, psprintf("%s..%s", commit, commit), error))
		return NULL;
	b.exported = palloc0(sizeof(bool));
	if (!bisect_git_export(&b, 0, error))
		return NULL;
	return bisect_commit_source(&b, 0);
}

const AgentGit agent_git = {watch_commits, watch_export};
