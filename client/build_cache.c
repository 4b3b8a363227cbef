/*-------------------------------------------------------------------------
 *
 * build_cache.c
 *		Where source builds are kept (build.c makes them), and the checks
 *		that keep anyone else from having put or changed anything there.
 *
 * The cache is private to whoever runs the client.  Its default is
 * $XDG_CACHE_HOME/pgbench_ext/builds, else ~/.cache/pgbench_ext/builds;
 * as root, whose home the build account cannot enter, it is
 * /var/cache/pgbench_ext/builds; PGBENCH_EXT_BUILD_CACHE overrides all.
 * The cache directory is created mode 0700 and belongs to the account
 * the builds run as (subprocess.c: the server account as root, else the
 * invoking user), which writes everything inside it.
 *
 * Nothing found there is trusted that someone else could have written:
 * the cache directory, each entry and its build.json must belong to the
 * invoking user or the build account and be writable by neither group
 * nor others, and no directory above the cache may let anyone else
 * replace it (writable by others without the sticky bit, or owned by a
 * third user).  build.json is data: its bindir must lie inside its own
 * entry once every link is resolved.  What fails a check is refused with
 * its name and the fix, never used.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "build_cache.h"
#include "digest.h"
#include "safe_file.h"
#include "subprocess.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUILD_CACHE_ROOT_AS_ROOT "/var/cache/pgbench_ext/builds"

char *
build_cache_root(void)
{
	return account_user_dir(BUILD_CACHE_ENV, BUILD_CACHE_ROOT_AS_ROOT, "XDG_CACHE_HOME", ".cache", "builds");
}

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
static bool
trusted(const char *what, const char *path, const struct stat *st, const char *fix, char **error)
{
	uid_t		builder;
	const char *builder_name;

	if (!build_account(&builder, &builder_name, error))
		return false;
	if (st->st_uid != geteuid() && st->st_uid != builder)
	{
		*error = psprintf("%s \"%s\" belongs to %s, not to you (%s)%s: anything in it could be someone else's\nhint: %s",
						  what, path, user_name(st->st_uid), user_name(geteuid()),
						  builder == geteuid() ? "" : psprintf(" or to user \"%s\", who runs the builds", builder_name),
						  fix);
		return false;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH))
	{
		*error = psprintf("%s \"%s\" is writable by %s (mode %04o): anyone could have changed it\nhint: %s",
						  what, path, (st->st_mode & S_IWOTH) ? "others" : "its group",
						  (unsigned int) (st->st_mode & 07777), fix);
		return false;
	}
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
		{
			*error = psprintf("directory \"%s\" above the %s %s: someone else could replace the cache\nhint: Name a cache under a directory only you can write with %s=DIR.",
							  dir, what, foreign ? psprintf("belongs to %s", user_name(st.st_uid))
							  : psprintf("is writable by others (mode %04o) and not sticky",
										 (unsigned int) (st.st_mode & 07777)),
							  env_name);
			return false;
		}
	}
	return true;
}

bool
build_cache_prepare(char **error)
{
	return cache_dir_prepare(build_cache_root(), BUILD_CACHE_ENV, "build cache", error);
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
		{
			*error = psprintf("could not create the %s \"%s\": %m", what, root);
			return false;
		}
		if (!safe_mkdir_p(root, 0700, error))
			return false;
		if (!give_to_server_account(root, error))
			return false;
	}
	if ((real = realpath(root, NULL)) == NULL || stat(real, &st) != 0)
	{
		*error = psprintf("could not use the %s \"%s\": %m", what, root);
		return false;
	}
	if (!S_ISDIR(st.st_mode))
	{
		*error = psprintf("%s \"%s\" is not a directory\nhint: %s", what, root, fix);
		return false;
	}
	if ((strcmp(real, root) != 0 && !ancestors_safe(real, what, env_name, error)) ||
		!trusted(what, root, &st, fix, error))
		return false;
	if (st.st_uid != builder)
	{
		*error = psprintf("%s \"%s\" belongs to %s, but the builds run as user \"%s\", who cannot write it\nhint: Give it to that user (chown %s \"%s\"), or name another cache with %s=DIR.",
						  what, root, user_name(st.st_uid), builder_name, builder_name, root, env_name);
		return false;
	}
	return true;
}

CacheEntry
build_cache_entry(const char *dir, char **error)
{
	return cache_entry(dir, "build.json", "build", error);
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
	if (!trusted(psprintf("%s cache entry", kind), dir, &st, fix, error))
		return ENTRY_REFUSED;
	if (lstat(json, &st) != 0)
		return ENTRY_UNFINISHED;
	if (!S_ISREG(st.st_mode))
	{
		*error = psprintf("\"%s\" is not a regular file\nhint: %s", json, fix);
		return ENTRY_REFUSED;
	}
	if (!trusted(psprintf("%s record", kind), json, &st, fix, error))
		return ENTRY_REFUSED;
	return ENTRY_FINISHED;
}

/*
 * The build.json of a finished entry, and the bindir it names (*bindir),
 * which must lie inside the entry itself.
 */
json_t *
build_cache_load(const char *dir, char **bindir, char **error)
{
	char	   *path = psprintf("%s/build.json", dir);
	char	   *fix = psprintf("Remove the entry (rm -rf \"%s\"); the next run builds it afresh.", dir);
	int			fd = open_regular_file(path, false);
	json_error_t jerr;
	json_t	   *info;
	const char *named;
	char	   *real_dir;
	char	   *real_bin;
	struct stat st;

	if (fd < 0)
	{
		*error = psprintf("could not open \"%s\": %m", path);
		return NULL;
	}
	info = json_loadfd(fd, 0, &jerr);
	close(fd);
	if (info == NULL || !json_is_object(info))
	{
		*error = psprintf("unreadable build record \"%s\": %s\nhint: %s", path,
						  info ? "not a JSON object" : jerr.text, fix);
		return NULL;
	}
	named = json_string_value(json_object_get(info, "bindir"));
	if (named == NULL)
	{
		*error = psprintf("build record \"%s\" names no bindir\nhint: %s", path, fix);
		return NULL;
	}
	if ((real_dir = realpath(dir, NULL)) == NULL || (real_bin = realpath(named, NULL)) == NULL)
	{
		*error = psprintf("build record \"%s\" names bindir \"%s\", which cannot be resolved: %m\nhint: %s",
						  path, named, fix);
		return NULL;
	}
	if (strncmp(real_bin, real_dir, strlen(real_dir)) != 0 || real_bin[strlen(real_dir)] != '/')
	{
		*error = psprintf("build record \"%s\" names bindir \"%s\", which lies outside its entry%s: a build record is data, not a pointer to programs to run\nhint: %s",
						  path, named, strcmp(named, real_bin) == 0 ? "" : psprintf(" (it resolves to \"%s\")", real_bin), fix);
		return NULL;
	}
	if (stat(real_bin, &st) != 0 || !trusted("bindir", real_bin, &st, fix, error))
		return NULL;
	*bindir = pg_strdup(named);
	return info;
}
