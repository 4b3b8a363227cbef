/*-------------------------------------------------------------------------
 *
 * cache_dir.c
 *		A private cache directory of the client's (source builds, initdb
 *		copies) and the checks that keep anyone else from having put or
 *		changed anything in it.
 *
 * A cache is written by the account the builds and servers run as
 * (subprocess.c: the server account as root, else the invoking user) and
 * trusted only where no third user could have written it: each directory
 * and record belongs to us or that account and is writable by neither
 * group nor others, and no directory above the cache lets anyone else
 * replace it.  build_cache.c and initdb_cache.c name their caches and
 * records; what is common to both checks is here.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "cache_dir.h"
#include "safe_file.h"
#include "subprocess.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

/* The uid the builds run as, and its name. */
static bool
build_account(uid_t *uid, const char **name, char **error)
{
	const struct passwd *pw;

	if (need_server_account())
	{
		if ((pw = server_account(error)) == NULL)
			return false;
	}
	else if ((pw = getpwuid(geteuid())) == NULL)
	{
		*uid = geteuid();
		*name = psprintf("uid %d", (int) *uid);
		return true;
	}
	*uid = pw->pw_uid;
	*name = pg_strdup(pw->pw_name);
	return true;
}

static char *
user_name(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw ? psprintf("user \"%s\"", pw->pw_name) : psprintf("uid %d", (int) uid);
}

/*
 * Whether st (what, at path) can only have been written by us or the
 * build account.  fix is the hint for when it cannot.
 */
bool
cache_trusted(const char *what, const char *path, const struct stat *st, const char *fix, char **error)
{
	uid_t		builder;
	const char *builder_name;

	if (!build_account(&builder, &builder_name, error))
		return false;
	if (st->st_uid != geteuid() && st->st_uid != builder)
		return fail_with(error, "%s \"%s\" belongs to %s, not to you (%s)%s: anything in it could be someone else's\nhint: %s",
						 what, path, user_name(st->st_uid), user_name(geteuid()),
						 builder == geteuid() ? "" : psprintf(" or to user \"%s\", who runs the builds", builder_name),
						 fix);
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return fail_with(error, "%s \"%s\" is writable by %s (mode %04o): anyone could have changed it\nhint: %s",
						 what, path, (st->st_mode & S_IWOTH) ? "others" : "its group",
						 (unsigned int) (st->st_mode & 07777), fix);
	return true;
}

/*
 * Every existing directory above path (itself resolved) must be owned by
 * root or us, and writable by no one else unless it is sticky (as /tmp is:
 * then no one else can rename what we own in it).  Not by the build
 * account, even though it owns the cache itself: the builds run code from
 * patches and source trees as that account, and a directory of it above
 * the cache would let that code swap the whole cache, and what root later
 * trusts in it, for its own.
 */
static bool
ancestors_safe(const char *path, const char *what, const char *env_name, char **error)
{
	/* "/", then "/a", "/a/b" ... up to path's parent, from the top down */
	for (size_t len = 0; path[len]; len++)
	{
		char	   *dir;
		struct stat st;
		bool		foreign;

		if (path[len] != '/')
			continue;
		dir = len == 0 ? pg_strdup("/") : pnstrdup(path, len);
		if (stat(dir, &st) != 0)
			break;				/* not there yet: we create the rest */
		foreign = st.st_uid != 0 && st.st_uid != geteuid();
		if (foreign || ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)))
			return fail_with(error, "directory \"%s\" above the %s %s: someone else could replace the cache\nhint: Name a cache under a directory only you can write with %s=DIR.",
							 dir, what, foreign ? psprintf("belongs to %s", user_name(st.st_uid))
							 : psprintf("is writable by others (mode %04o) and not sticky",
										(unsigned int) (st.st_mode & 07777)),
							 env_name);
	}
	return true;
}

/*
 * Create a cache directory root if it is missing (mode 0700, given to the
 * build account), and check it and what lies above it.  env_name is the
 * environment variable that names it, what its name in messages.
 */
bool
cache_dir_prepare(const char *root, const char *env_name, const char *what, char **error)
{
	char	   *real;
	struct stat st;
	uid_t		builder;
	const char *builder_name;
	const char *fix = psprintf("Name a cache of your own with %s=DIR, or remove \"%s\" and let %s create it.",
							   env_name, root, progname);

	if (!build_account(&builder, &builder_name, error))
		return false;
	if (!ancestors_safe(root, what, env_name, error))
		return false;
	if (stat(root, &st) != 0)
	{
		if (errno != ENOENT)
			return fail_with(error, "could not create the %s \"%s\": %m", what, root);
		if (!safe_mkdir_p(root, 0700, error))
			return false;
		if (!give_to_server_account(root, error))
			return false;
	}
	if ((real = realpath(root, NULL)) == NULL || stat(real, &st) != 0)
		return fail_with(error, "could not use the %s \"%s\": %m", what, root);
	if (!S_ISDIR(st.st_mode))
		return fail_with(error, "%s \"%s\" is not a directory\nhint: %s", what, root, fix);
	if ((strcmp(real, root) != 0 && !ancestors_safe(real, what, env_name, error)) ||
		!cache_trusted(what, root, &st, fix, error))
		return false;
	if (st.st_uid != builder)
		return fail_with(error, "%s \"%s\" belongs to %s, but the builds run as user \"%s\", who cannot write it\nhint: Give it to that user (chown %s \"%s\"), or name another cache with %s=DIR.",
						 what, root, user_name(st.st_uid), builder_name, builder_name, root, env_name);
	return true;
}

/*
 * What the cache directory dir (CACHE/KEY) holds, and whether it may be
 * used: it is finished when it holds the file marker, written last.  kind
 * names the cache in messages ("build").
 */
CacheEntry
cache_entry(const char *dir, const char *marker, const char *kind, char **error)
{
	char	   *json = psprintf("%s/%s", dir, marker);
	char	   *fix = psprintf("Remove it (rm -rf \"%s\"); the next run builds it afresh.", dir);
	struct stat st;

	if (lstat(dir, &st) != 0)
		return ENTRY_ABSENT;
	if (!S_ISDIR(st.st_mode))
	{
		*error = psprintf("%s cache entry \"%s\" is not a directory (a link or a file put there)\nhint: %s",
						  kind, dir, fix);
		return ENTRY_REFUSED;
	}
	if (!cache_trusted(psprintf("%s cache entry", kind), dir, &st, fix, error))
		return ENTRY_REFUSED;
	if (lstat(json, &st) != 0)
		return ENTRY_UNFINISHED;
	if (!S_ISREG(st.st_mode))
	{
		*error = psprintf("\"%s\" is not a regular file\nhint: %s", json, fix);
		return ENTRY_REFUSED;
	}
	if (!cache_trusted(psprintf("%s record", kind), json, &st, fix, error))
		return ENTRY_REFUSED;
	return ENTRY_FINISHED;
}
