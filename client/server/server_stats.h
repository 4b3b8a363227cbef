/*-------------------------------------------------------------------------
 *
 * server_stats.h
 *		The statistics views' figures a run reports as deltas, read the
 *		same way from every server version.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SERVER_STATS_H
#define PGBENCH_EXT_SERVER_STATS_H

#include "libpq-fe.h"

/* Cumulative counters of the server at one moment; NAN where the version has none. */
typedef struct ServerStats
{
	double		checkpoints;	/* performed (or, before 18, timed + requested) */
	double		autovacuums;	/* autovacuum + autoanalyze runs, user tables */
	double		blks_hit;		/* of the run's database */
	double		blks_read;
	double		wal_bytes;		/* 14+ */
	double		buffers_written_checkpointer;	/* shared buffers written by each */
	double		buffers_written_bgwriter;
	double		buffers_written_backends;	/* by every other process */
	bool		valid;			/* the query answered */
} ServerStats;

extern void server_stats_take(PGconn *conn, ServerStats *s);
extern void server_stats_take_after_checkpoint(PGconn *conn, const ServerStats *earlier,
											   ServerStats *s);
extern void server_stats_delta(const ServerStats *before, const ServerStats *after,
							   ServerStats *delta);

#endif							/* PGBENCH_EXT_SERVER_STATS_H */
