/*-------------------------------------------------------------------------
 *
 * account.c
 *		Who runs the servers and builds: when the client is root, the
 *		server account ("postgres", or PGBENCH_EXT_OS_USER), never root;
 *		otherwise the invoking user.
 *
 * Kept apart from subprocess.c, which starts children as that account,
 * and safe_file.c, which hands it directories: both ask it, and neither
 * depends on the other for it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "account.h"

#include <unistd.h>

/* Whether children run as another account: when we are root. */
bool
need_server_account(void)
{
	return geteuid() == 0;
}

/* The account server processes run as when we are root. */
const struct passwd *
server_account(char **error)
{
	const char *name = getenv("PGBENCH_EXT_OS_USER");
	struct passwd *pw;

	if (name == NULL || *name == '\0')
		name = "postgres";
	pw = getpwnam(name);
	if (pw == NULL)
	{
		*error = psprintf("running as root, but there is no account \"%s\" to run the server as", name);
		return NULL;
	}
	if (pw->pw_uid == 0)
	{
		*error = psprintf("account \"%s\" is root; initdb and postgres refuse to run as root", name);
		return NULL;
	}
	return pw;
}

/*
 * A directory of the client's own for this user: $ENV_NAME when set, a
 * system directory for root (whose files must not follow a HOME), else
 * under $XDG_VAR, or under HOME as the XDG base directory specification
 * says (it ignores relative paths): e.g. ("XDG_CACHE_HOME", ".cache",
 * "builds") gives ~/.cache/pgbench_ext/builds; an empty leaf, the
 * pgbench_ext directory itself.
 */
char *
account_user_dir(const char *env_name, const char *root_dir, const char *xdg_var,
				 const char *home_default, const char *leaf)
{
	const char *env = getenv(env_name);
	const char *xdg = getenv(xdg_var);
	const char *home = getenv("HOME");

	if (env && *env)
		return make_absolute_path(env);
	if (need_server_account())
		return pg_strdup(root_dir);
	if (xdg && xdg[0] == '/')
		return psprintf("%s/pgbench_ext%s%s", xdg, *leaf ? "/" : "", leaf);
	if (home == NULL || *home == '\0')
	{
		struct passwd *pw = getpwuid(geteuid());

		home = pw ? pw->pw_dir : "/";
	}
	return psprintf("%s/%s/pgbench_ext%s%s", home, home_default, *leaf ? "/" : "", leaf);
}

/*
 * The client's state of this host for this user (PGBENCH_EXT_STATE_DIR,
 * /var/lib/pgbench_ext for root, else ~/.local/state/pgbench_ext): the
 * noise history, initdb's values of the initdb cache's entries.  Nobody
 * else writes it.
 */
char *
account_state_dir(void)
{
	return account_user_dir("PGBENCH_EXT_STATE_DIR", "/var/lib/pgbench_ext", "XDG_STATE_HOME",
							".local/state", "");
}
