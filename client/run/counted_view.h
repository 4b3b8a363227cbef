/*-------------------------------------------------------------------------
 *
 * counted_view.h
 *		A timed experiment with counted_view = on, run (counted_view.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COUNTED_VIEW_H
#define PGBENCH_EXT_COUNTED_VIEW_H

#include "experiment.h"
#include "runner.h"

extern int	counted_view_execute(ExperimentSpec *spec, const RunOptions *ropts);

#endif							/* PGBENCH_EXT_COUNTED_VIEW_H */
