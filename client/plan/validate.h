/*-------------------------------------------------------------------------
 *
 * validate.h
 *		Checks made before the first long run.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_VALIDATE_H
#define PGBENCH_EXT_VALIDATE_H

#include "experiment.h"

extern bool validate_experiment(const ExperimentSpec *spec, const char *results_dir, bool resume);

#endif							/* PGBENCH_EXT_VALIDATE_H */
