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
