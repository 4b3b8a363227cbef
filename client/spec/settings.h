/*-------------------------------------------------------------------------
 *
 * settings.h
 *		A variant's server settings: which may be given, and how they are
 *		written into a managed cluster's configuration.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SETTINGS_H
#define PGBENCH_EXT_SETTINGS_H

#include "experiment.h"

extern bool setting_check(const char *key, const char *text, char **normalized, char **error);
extern char *setting_quote(const char *value);
extern bool settings_have(char *const *settings, int n, const char *name);
extern char *settings_conf_lines(const VariantSpec *v);
extern bool settings_check_libraries(const VariantSpec *v, const char *bindir, char **error);

#endif							/* PGBENCH_EXT_SETTINGS_H */
