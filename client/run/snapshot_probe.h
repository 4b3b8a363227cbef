/*-------------------------------------------------------------------------
 *
 * snapshot_probe.h
 *		The snapshot probe: a session of the runner's own that times
 *		GetSnapshotData() (pgbench_ext.snapshot_bench) under each run's
 *		own pgbench load, at a small, steady duty cycle.
 *
 * run_one.c opens it before pgbench starts, lets it into the poll() loop
 * that reads pgbench's progress pipe (socket, timeout, service), and
 * closes it when pgbench has ended; what it measured goes into the run's
 * record (runs.csv) and its runs/NNNN.json.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SNAPSHOT_PROBE_H
#define PGBENCH_EXT_SNAPSHOT_PROBE_H

#include "results.h"
#include "setup.h"

/* Calls of GetSnapshotData() timed by one probe (one batch, one clock pair). */
#define SNAPSHOT_PROBE_CALLS		1000

/* No probe starts in the first and the last this-many seconds of a run. */
#define SNAPSHOT_PROBE_MARGIN_S		0.5

typedef struct SnapshotProbe SnapshotProbe;

/* Whether variant v's runs are probed: its own key, else the experiment's. */

/*
 * A probe for one planned run, started as pgbench is, or NULL when that
 * variant's runs are not probed.  A probe that cannot connect is not an
 * error of the run: it records why and measures nothing.
 */
extern SnapshotProbe *snapshot_probe_start(Experiment *x, const PlannedRun *pr);

/* For poll(): the probe's socket (-1 when none) and how long to sleep at most. */
extern int	snapshot_probe_socket(const SnapshotProbe *p);
extern int	snapshot_probe_timeout_ms(const SnapshotProbe *p, int max_ms);

/* After every poll(): read what arrived, start the next probe when due. */
extern void snapshot_probe_service(SnapshotProbe *p);

/*
 * pgbench has ended: drop a probe still running, close the session, put
 * the figures into rec->snapshot and return every probe as the run's
 * "snapshot_probe" JSON (NULL for a NULL probe).  Frees p.
 */
extern json_t *snapshot_probe_finish(SnapshotProbe *p, RunRecord *rec);

#endif							/* PGBENCH_EXT_SNAPSHOT_PROBE_H */
