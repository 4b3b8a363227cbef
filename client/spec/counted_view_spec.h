/*-------------------------------------------------------------------------
 *
 * counted_view_spec.h
 *		The counted experiment of counted_view = on (counted_view_spec.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COUNTED_VIEW_SPEC_H
#define PGBENCH_EXT_COUNTED_VIEW_SPEC_H

#include "experiment.h"

/* The counted experiment's results directory, inside the timed one's */
#define COUNTED_VIEW_DIR	"counted"

/*
 * Its rounds unless counted_view_rounds says: enough for one function
 * among ~20 to reach q < 0.05 (2 / 2^10 times 20 is 0.04).
 */
#define COUNTED_VIEW_ROUNDS	10

extern void counted_view_spec(const ExperimentSpec *spec, ExperimentSpec *counted);

#endif							/* PGBENCH_EXT_COUNTED_VIEW_SPEC_H */
