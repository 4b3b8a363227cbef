/*-------------------------------------------------------------------------
 *
 * account.h
 *		The account servers and builds run as (account.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_ACCOUNT_H
#define PGBENCH_EXT_ACCOUNT_H

#include <pwd.h>

extern bool need_server_account(void);
extern const struct passwd *server_account(char **error);
extern char *account_user_dir(const char *env_name, const char *root_dir, const char *xdg_var,
							  const char *home_default, const char *leaf);
extern char *account_state_dir(void);

#endif							/* PGBENCH_EXT_ACCOUNT_H */
