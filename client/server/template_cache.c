/*-------------------------------------------------------------------------
 *
 * template_cache.c
 *		Data directories whose template database is filled and ready, kept
 *		beside the initdb cache's entries (PGBENCH_EXT_INITDB_CACHE=DIR).
 *
 * After initdb, every managed cluster gets its template database filled
 * by pgbench -i, vacuumed, analyzed and checkpointed (run/setup.c): about
 * a CPU-second at scale 1, minutes at scale 100, and the same work for
 * every cluster of one installation, scale and settings.  With the initdb
 * cache named, the first cluster of a kind keeps a copy of its data
 * directory once the template is ready (stopped cleanly, so that nothing
 * is dirty and no postmaster.pid is left); the next one is a copy of
 * that instead of a copy of the initdb entry, and finds its template
 * ready.
 *
 * The key is the initdb entry's (the data directory descends from it)
 * and all that decides what the filling leaves: pgbench's executable,
 * the scale, unlogged tables, the extension as installed (its control
 * file, its SQL scripts, its module), the variant's settings as written
 * into the server's configuration (any of them may change what a table
 * or an index is made of), and a recipe number that changes with the
 * filling.  What cannot be read makes no key, and the cluster is made as
 * without this cache.  Entries follow the initdb cache's rules
 * (initdb_cache.c, cache_dir.c): the server account's, written by nobody
 * else, complete only once renamed into place; a copy takes an entry's
 * data, never its configuration files, and initdb's values from the
 * client's own record of the initdb entry's.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "digest.h"
#include "initdb_cache.h"
#include "settings.h"
#include "subprocess.h"
#include "template_cache.h"

#include <dirent.h>
#include <unistd.h>

/* written last into a complete entry: the key's text */
#define TEMPLATE_CACHE_MARKER "template.key"
/* changes when what run/setup.c does to fill a template changes */
#define TEMPLATE_CACHE_RECIPE 1

static int
compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

/*
 * The extension as installed: lines of the digests of its control file,
 * of every one of its SQL scripts (by name), and of its module; NULL when
 * one cannot be read.
 */
static char *
extension_digests(const char *bindir)
{
	char	   *sharedir;
	char	   *pkglibdir;
	char	   *extdir;
	char	   *text;
	char	   *sum;
	char	   *error = NULL;
	DIR		   *d;
	struct dirent *de;
	char	  **names = NULL;
	int			n = 0;

	if ((sharedir = pg_config_dir(bindir, "--sharedir")) == NULL ||
		(pkglibdir = pg_config_dir(bindir, "--pkglibdir")) == NULL)
		return NULL;
	extdir = psprintf("%s/extension", sharedir);
	if ((sum = sha256_of_file(psprintf("%s/pgbench_ext.control", extdir), &error)) == NULL)
		return NULL;
	text = psprintf("extension control %s\n", sum);
	if ((sum = sha256_of_file(psprintf("%s/pgbench_ext.so", pkglibdir), &error)) == NULL)
		return NULL;
	text = psprintf("%sextension module %s\n", text, sum);
	if ((d = opendir(extdir)) == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL)
	{
		size_t		len = strlen(de->d_name);

		if (strncmp(de->d_name, "pgbench_ext--", 13) == 0 && len > 4 &&
			strcmp(de->d_name + len - 4, ".sql") == 0)
		{
			names = pg_realloc(names, sizeof(char *) * (n + 1));
			names[n++] = pg_strdup(de->d_name);
		}
	}
	closedir(d);
	if (n == 0)
		return NULL;
	qsort(names, n, sizeof(char *), compare_names);
	for (int i = 0; i < n; i++)
	{
		if ((sum = sha256_of_file(psprintf("%s/%s", extdir, names[i]), &error)) == NULL)
			return NULL;
		text = psprintf("%sextension script %s %s\n", text, names[i], sum);
	}
	return text;
}

/*
 * The entry for a template filled at scale (unlogged tables or not) on a
 * copy of initdb_entry (whose key's text is initdb_key), for variant v's
 * installation in bindir, and in *key_text what its name hashes; NULL
 * when that cannot be said.  A server whose logging collector may write
 * its logs into its data directory is kept nowhere: an entry holds no
 * log.
 */
char *
template_cache_entry(const char *initdb_entry, const char *initdb_key, const VariantSpec *v,
					 const char *bindir, int scale, bool unlogged, char **key_text)
{
	char	   *settings = settings_conf_lines(v);
	char	   *pgbench_sum;
	char	   *extension;
	char	   *error = NULL;
	char	   *text;

	if (initdb_entry == NULL || scale <= 0 || strstr(settings, "logging_collector") != NULL ||
		(pgbench_sum = sha256_of_file(psprintf("%s/pgbench", bindir), &error)) == NULL ||
		(extension = extension_digests(bindir)) == NULL)
		return NULL;
	text = psprintf("filled template %d\n%s\npgbench %s\nscale %d\nunlogged %s\n%s"
					"settings\n%s",
					TEMPLATE_CACHE_RECIPE, initdb_key, pgbench_sum, scale,
					unlogged ? "yes" : "no", extension, settings);
	*key_text = text;
	/* beside the initdb entry, in the same cache */
	return psprintf("%.*s/template-%.16s", (int) (last_dir_separator(initdb_entry) - initdb_entry),
					initdb_entry, sha256_of_string(text));
}

/* Whether entry is there, complete, and nobody else's (ENTRY_REFUSED: error set). */
CacheEntry
template_cache_find(const char *entry, char **error)
{
	return cache_entry(entry, TEMPLATE_CACHE_MARKER, "template", error);
}

/*
 * Keep a copy of datadir, its server stopped cleanly after the template
 * was made ready and before any run, as entry.  Only what set-up made is
 * in it: the run database is made later, the server's log is outside
 * data/, a clean stop removed postmaster.pid, and postmaster.opts (the
 * command line of that start) is left out.  A failure only costs the next
 * cluster its pgbench -i: a warning.
 */
void
template_cache_store(const char *entry, const char *key_text, const char *datadir, int log_fd)
{
	cache_keep_datadir(entry, TEMPLATE_CACHE_MARKER, "template", key_text, datadir,
					   "postmaster.opts", log_fd);
}
