/*-------------------------------------------------------------------------
 *
 * initdb_cache.c
 *		Data directories fresh from initdb, kept to be copied instead of
 *		running initdb again (PGBENCH_EXT_INITDB_CACHE=DIR).
 *
 * initdb costs seconds on a loaded machine and is the same work every time
 * for one installation, one set of initdb options and one locale.  When
 * PGBENCH_EXT_INITDB_CACHE names a directory, the first cluster of a kind
 * is made by initdb as always and then copied into the cache; the next
 * one is a copy of that (cp -a, as the server account), as PostgreSQL's
 * own test suites copy an initdb template.  A copy differs from a fresh
 * initdb only in pg_control's system identifier, which is shared.
 *
 * The key hashes what decides initdb's output: the initdb and postgres
 * executables themselves, initdb's arguments (the variant's initdb_args
 * among them) and the locale and time zone it reads from the environment.
 * The cache has the build cache's rules (cache_dir.c): it belongs to the
 * account the servers run as, nobody else may write it or anything above
 * it, and an entry counts only once it is complete: it is made under a
 * temporary name and renamed into place, so that of two clients making
 * the same entry at once one wins and the other's copy is removed.
 *
 * The server account can write an entry at any time, so what a copy takes
 * from it is its data, never its configuration (cluster_conf.c writes the
 * configuration files afresh).  The values initdb chose for the host
 * (connections, shared memory, locale, time zone) are kept by the client
 * in its own state directory, when it made the entry or later ran initdb
 * of the same kind: an entry it has no record of is not copied, initdb
 * runs instead (once), and the record is made.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "account.h"
#include "cache_dir.h"
#include "digest.h"
#include "initdb_cache.h"
#include "safe_file.h"
#include "subprocess.h"

#include <sys/stat.h>
#include <unistd.h>

#define INITDB_CACHE_ENV	"PGBENCH_EXT_INITDB_CACHE"
/* written last into a complete entry: the key's text */
#define INITDB_CACHE_MARKER "initdb.key"
/* changes when what an entry holds changes */
#define INITDB_CACHE_RECIPE 1

/* What initdb reads from its environment besides its arguments. */
static const char *const initdb_environment[] = {
	"LANG", "LANGUAGE", "LC_ALL", "LC_COLLATE", "LC_CTYPE", "LC_MESSAGES",
	"LC_MONETARY", "LC_NUMERIC", "LC_TIME", "TZ", "PGTZ",
};

static const char *
initdb_cache_root(void)
{
	const char *root = getenv(INITDB_CACHE_ENV);

	return root && root[0] ? root : NULL;
}

/*
 * The entry for initdb's argv (argv[0] the initdb program), and in *text
 * what its name hashes; NULL with error when a program cannot be read.
 */
static char *
entry_of(const char *bindir, char *const argv[], char **key_text, char **error)
{
	char	   *initdb_sum;
	char	   *postgres_sum;
	char	   *localtime;
	char	   *text;

	if ((initdb_sum = sha256_of_file(psprintf("%s/initdb", bindir), error)) == NULL ||
		(postgres_sum = sha256_of_file(psprintf("%s/postgres", bindir), error)) == NULL)
		return NULL;
	text = psprintf("initdb template %d\ninitdb %s\npostgres %s\n", INITDB_CACHE_RECIPE,
					initdb_sum, postgres_sum);
	for (int i = 1; argv[i]; i++)
	{
		/* where the cluster goes is not what it holds */
		if (strcmp(argv[i], "-D") == 0 && argv[i + 1])
			i++;
		else
			text = psprintf("%sarg %s\n", text, argv[i]);
	}
	for (int i = 0; i < lengthof(initdb_environment); i++)
	{
		const char *value = getenv(initdb_environment[i]);

		if (value)
			text = psprintf("%senv %s=%s\n", text, initdb_environment[i], value);
	}
	/* without TZ, initdb takes the zone /etc/localtime names */
	if ((localtime = realpath("/etc/localtime", NULL)) != NULL)
		text = psprintf("%slocaltime %s\n", text, localtime);
	*key_text = text;
	return psprintf("%s/initdb-%.16s", initdb_cache_root(), sha256_of_string(text));
}

/* Run argv as the server account, its output to log_fd. */
static bool
run_as_server(char *const argv[], int log_fd, char **error)
{
	int			rc = run_logged_fd(argv, true, log_fd);

	if (rc != 0)
		return fail_with(error, "\"%s %s\" failed (%s)", argv[0], argv[1],
						 rc < 0 ? "could not run it" : psprintf("exit status %d", rc));
	return true;
}

/* The client's record of initdb's values for entry, in its state directory. */
static char *
values_record(const char *entry)
{
	return psprintf("%s/initdb/%s.conf", account_state_dir(), last_dir_separator(entry) + 1);
}

/* The record, when it is there and the client's own: a file nobody else wrote. */
static char *
own_values_record(const char *entry)
{
	char	   *path = values_record(entry);
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		(st.st_mode & (S_IWGRP | S_IWOTH)))
		return NULL;
	return path;
}

InitdbTemplate
initdb_cache_lookup(const char *bindir, char *const argv[], char **entry, char **key_text,
					char **values, char **error)
{
	*entry = NULL;
	*values = NULL;
	if (initdb_cache_root() == NULL)
		return TEMPLATE_NONE;
	if (!cache_dir_prepare(initdb_cache_root(), INITDB_CACHE_ENV, "initdb cache", error) ||
		(*entry = entry_of(bindir, argv, key_text, error)) == NULL)
		return TEMPLATE_REFUSED;
	switch (cache_entry(*entry, INITDB_CACHE_MARKER, "initdb", error))
	{
		case ENTRY_FINISHED:
			/* initdb's values of an entry someone else made are not known */
			*values = own_values_record(*entry);
			return *values ? TEMPLATE_FOUND : TEMPLATE_MISSING;
		case ENTRY_REFUSED:
			return TEMPLATE_REFUSED;
		default:
			/* absent, or left by a client that stopped: made anew */
			return TEMPLATE_MISSING;
	}
}

bool
initdb_cache_copy(const char *entry, const char *datadir, int log_fd, char **error)
{
	char	   *cp[] = {"cp", "-a", "-T", psprintf("%s/data", entry), (char *) datadir, NULL};

	return run_as_server(cp, log_fd, error);
}

/*
 * Keep a copy of datadir as entry, with the text its key hashes in the
 * file marker, written last; leave_out (or NULL), a file of datadir the
 * entry must not hold.  Whatever goes wrong only costs the next cluster
 * the work the entry would have saved: a warning naming what (the kind of
 * data directory), not an error.
 */
void
cache_keep_datadir(const char *entry, const char *marker, const char *what, const char *key_text,
				   const char *datadir, const char *leave_out, int log_fd)
{
	char	   *tmp = psprintf("%s.tmp.%d", entry, (int) getpid());
	char	   *cp[] = {"cp", "-a", "-T", (char *) datadir, psprintf("%s/data", tmp), NULL};
	char	   *mv[] = {"mv", "-T", tmp, (char *) entry, NULL};
	char	   *error = NULL;

	if (unprivileged_mkdir(tmp, &error) &&
		run_as_server(cp, log_fd, &error) &&
		(leave_out == NULL || unprivileged_remove(psprintf("%s/data/%s", tmp, leave_out), &error)) &&
		unprivileged_write(psprintf("%s/%s", tmp, marker), key_text, &error) &&
		run_as_server(mv, log_fd, &error))
		return;
	/* another client may have put the same entry in place first */
	if (cache_entry(entry, marker, what, &error) != ENTRY_FINISHED)
		log_warningf("could not keep %s's data directory in %s: %s", what, entry, error);
	(void) unprivileged_remove(tmp, &error);
}

/* Keep a copy of datadir, fresh from initdb, as entry. */
void
initdb_cache_store(const char *entry, const char *key_text, const char *datadir, int log_fd)
{
	cache_keep_datadir(entry, INITDB_CACHE_MARKER, "initdb", key_text, datadir, NULL, log_fd);
}

/*
 * Record initdb's values (a fresh initdb's, as cluster_conf.c read them)
 * for the entry of its kind, so that copies of the entry take them from
 * here.  A failure only costs the next cluster an initdb: a warning.
 */
void
initdb_cache_record_values(const char *entry, const char *values)
{
	char	   *path = values_record(entry);
	char	   *dir = pg_strdup(path);
	char	   *error = NULL;

	*last_dir_separator(dir) = '\0';
	if (!safe_mkdir_p(dir, 0700, &error) || !safe_write_file(path, values, 0, &error))
		log_warning_text(psprintf("could not record initdb's values for %s: %s", entry, error));
}
