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
#include "cache_dir.h"
#include "digest.h"
#include "safe_file.h"
#include "stats.h"
#include "subprocess.h"

#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUILD_CACHE_ROOT_AS_ROOT "/var/cache/pgbench_ext/builds"

char *
build_cache_root(void)
{
	return account_user_dir(BUILD_CACHE_ENV, BUILD_CACHE_ROOT_AS_ROOT, "XDG_CACHE_HOME", ".cache", "builds");
}

bool
build_cache_prepare(char **error)
{
	return cache_dir_prepare(build_cache_root(), BUILD_CACHE_ENV, "build cache", error);
}

CacheEntry
build_cache_entry(const char *dir, char **error)
{
	return cache_entry(dir, "build.json", "build", error);
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
	if (stat(real_bin, &st) != 0 || !cache_trusted("bindir", real_bin, &st, fix, error))
		return NULL;
	*bindir = pg_strdup(named);
	return info;
}

static double
median_of(double *values, int n)
{
	if (n == 0)
		return NAN;
	stats_sort(values, n);
	return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/*
 * What the cache's finished builds took here (their build.json's build_s):
 * the median of those built from nothing (*full_s) and of those started
 * from another entry's tree, a patch's incremental make or a seed's
 * relink (*started_s); NAN where there is none.  Only read: an entry that
 * fails the cache's checks is passed over, as the build that would use it
 * refuses it by name.
 */
void
build_cache_times(double *full_s, double *started_s)
{
	char	   *root = build_cache_root();
	DIR		   *d = opendir(root);
	struct dirent *de;
	double	   *full = NULL;
	double	   *started = NULL;
	int			nfull = 0;
	int			nstarted = 0;
	int			cap = 0;

	while (d != NULL && (de = readdir(d)) != NULL)
	{
		char	   *dir = psprintf("%s/%s", root, de->d_name);
		char	   *error = NULL;
		char	   *bindir;
		json_t	   *info;
		double		seconds;

		if (de->d_name[0] == '.' || build_cache_entry(dir, &error) != ENTRY_FINISHED ||
			(info = build_cache_load(dir, &bindir, &error)) == NULL)
			continue;
		seconds = json_number_value(json_object_get(info, "build_s"));
		if (nfull + nstarted >= cap)
		{
			cap = Max(16, 2 * cap);
			full = pg_realloc(full, cap * sizeof(double));
			started = pg_realloc(started, cap * sizeof(double));
		}
		if (seconds > 0 && json_is_string(json_object_get(info, "started_from")))
			started[nstarted++] = seconds;
		else if (seconds > 0)
			full[nfull++] = seconds;
		json_decref(info);
	}
	if (d != NULL)
		closedir(d);
	*full_s = median_of(full, nfull);
	*started_s = median_of(started, nstarted);
}
