/*-------------------------------------------------------------------------
 *
 * preflight.h
 *		Before the first counted run, and "pgbench_ext check": what the
 *		host allows and whether the experiment's time can decide
 *		(preflight.c); the host's noise history it reads, which every
 *		finished experiment adds to.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PREFLIGHT_H
#define PGBENCH_EXT_PREFLIGHT_H

#include <stdio.h>

#include "experiment.h"

/* Where the noise history lives, overriding the default (docs/experiments.md) */
#define PREFLIGHT_STATE_ENV "PGBENCH_EXT_STATE_DIR"

/*
 * Print what the host allows and the expected time to decide an effect of
 * twice the noise threshold, with a warning where the experiment's budget
 * (or its fixed rounds) cannot decide it, or may not at a load the history
 * has not seen.  Returns other processes' share of the CPUs (NAN where not
 * measured), for the two below.
 */
extern double preflight_print(const ExperimentSpec *spec, double noise, FILE *out);

/* restart = auto across servers: its rounds from the host's noise history */
extern void preflight_choose_restart(ExperimentSpec *spec, double noise, double busy_pct);

/* After an experiment: its measured noise, per cell, into the history. */
extern void preflight_record_noise(const ExperimentSpec *spec, const char *results_dir,
								   double busy_pct);

#endif							/* PGBENCH_EXT_PREFLIGHT_H */
