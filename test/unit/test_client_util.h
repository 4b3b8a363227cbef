/*-------------------------------------------------------------------------
 *
 * test_client_util.h
 *		What the unit tests of the client's code share: the program's name
 *		and logging set as the client sets them, a scratch directory of
 *		the test's own, and an experiment made from lines of keys.  TAP
 *		output comes from test_stats_util.h.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_TEST_CLIENT_UTIL_H
#define PGBENCH_EXT_TEST_CLIENT_UTIL_H

#include "client.h"
#include "common/logging.h"
#include "experiment.h"

#include <errno.h>

#include "test_stats_util.h"

/*
 * Set up as the client does, and make a private directory under /tmp for
 * the test named name (or, when name is NULL, none): its path.
 */
static inline char *
client_test_begin(const char *name)
{
	char	   *template;

	progname = "pgbench_ext";
	pg_logging_init(progname);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (name == NULL)
		return NULL;
	template = psprintf("/tmp/%s.XXXXXX", name);
	if (mkdtemp(template) == NULL)
	{
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	return template;
}

/* spec from lines "section|key|value"; false (and a failure) on an error */
static inline bool
spec_of(ExperimentSpec *spec, const char *const *keys)
{
	experiment_init(spec);
	for (int i = 0; keys[i]; i++)
	{
		char	   *line = pg_strdup(keys[i]);
		char	   *key = strchr(line, '|');
		char	   *value;
		char	   *error = NULL;

		*key++ = '\0';
		value = strchr(key, '|');
		*value++ = '\0';
		if (!experiment_set(spec, line, key, value, &error))
		{
			ok(false, "the experiment's key %s: %s", keys[i], error);
			return false;
		}
	}
	return true;
}

#endif							/* PGBENCH_EXT_TEST_CLIENT_UTIL_H */
