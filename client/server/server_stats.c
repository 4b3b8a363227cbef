/*-------------------------------------------------------------------------
 *
 * server_stats.c
 *		The snapshot of the statistics views taken around every run, read
 *		from the views each server version has.
 *
 * The views moved between releases: PostgreSQL 17 took the checkpoint
 * counters out of pg_stat_bgwriter into pg_stat_checkpointer (num_timed,
 * num_requested; 18 adds num_done, which leaves out the timed checkpoints
 * skipped on an idle server), and 16 added pg_stat_io, which counts the
 * buffers each kind of process wrote (in blocks until 17, in bytes from 18)
 * where pg_stat_bgwriter had buffers_checkpoint, buffers_clean and
 * buffers_backend until 16; pg_stat_wal exists from 14.  The table below is
 * the one place that knows this: per figure, the SQL of the newest version
 * it applies to first.  A figure a version does not have is NULL there, so
 * every version fills the same runs.csv columns, empty where the server
 * cannot say.
 *
 * Before 15 the counts travel through the statistics collector, whose file
 * a backend accepts up to PGSTAT_STAT_INTERVAL (500 ms) old: a snapshot of
 * such a server waits a little longer than that first, so that it holds
 * what the processes reported just before.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "server_stats.h"

#include "common/logging.h"
#include "pqexpbuffer.h"
#include "progress.h"

#include <math.h>

/* shared buffers written by the processes WHO selects, in blocks */
#define IO_WRITES(who) \
	"(SELECT coalesce(sum(writes), 0) FROM pg_stat_io WHERE object = 'relation' AND " who ")"
#define IO_WRITTEN_BLOCKS(who) \
	"(SELECT coalesce(sum(write_bytes), 0) / current_setting('block_size')::numeric " \
	"FROM pg_stat_io WHERE object = 'relation' AND " who ")"
/* where the server counts relations; NULL under track_counts = off (counted servers) */
#define COUNTING " AND current_setting('track_counts')::bool"
/* more than PGSTAT_STAT_INTERVAL, the age of the collector's file a reader accepts */
#define COLLECTOR_DELAY_US 600000

#define CHECKPOINTER "backend_type = 'checkpointer'"
#define BGWRITER "backend_type = 'background writer'"
#define BACKENDS "backend_type NOT IN ('checkpointer', 'background writer')"

typedef struct StatsSource
{
	int			since;			/* server_version_num from which it applies */
	const char *sql;			/* a scalar expression; NULL: no such figure */
} StatsSource;

typedef struct StatsFigure
{
	size_t		offset;			/* of its double in ServerStats */
	StatsSource by_version[3];	/* newest first; the last applies since 0 */
} StatsFigure;

#define FIGURE(field) offsetof(ServerStats, field)

static const StatsFigure figures[] = {
	{FIGURE(checkpoints), {
			{180000, "(SELECT num_done FROM pg_stat_checkpointer)"},
			{170000, "(SELECT num_timed + num_requested FROM pg_stat_checkpointer)"},
	{0, "(SELECT checkpoints_timed + checkpoints_req FROM pg_stat_bgwriter)"}}},
	{FIGURE(autovacuums), {
			{0, "(SELECT coalesce(sum(autovacuum_count + autoanalyze_count), 0) FROM pg_stat_user_tables)"}}},
	{FIGURE(blks_hit), {
	{0, "(SELECT blks_hit FROM pg_stat_database WHERE datname = current_database()" COUNTING ")"}}},
	{FIGURE(blks_read), {
	{0, "(SELECT blks_read FROM pg_stat_database WHERE datname = current_database()" COUNTING ")"}}},
	{FIGURE(wal_bytes), {
			{140000, "(SELECT wal_bytes FROM pg_stat_wal)"},
	{0, NULL}}},
	{FIGURE(buffers_written_checkpointer), {
			{180000, IO_WRITTEN_BLOCKS(CHECKPOINTER)},
			{160000, IO_WRITES(CHECKPOINTER)},
	{0, "(SELECT buffers_checkpoint FROM pg_stat_bgwriter)"}}},
	{FIGURE(buffers_written_bgwriter), {
			{180000, IO_WRITTEN_BLOCKS(BGWRITER)},
			{160000, IO_WRITES(BGWRITER)},
	{0, "(SELECT buffers_clean FROM pg_stat_bgwriter)"}}},
	{FIGURE(buffers_written_backends), {
			{180000, IO_WRITTEN_BLOCKS(BACKENDS)},
			{160000, IO_WRITES(BACKENDS)},
	{0, "(SELECT buffers_backend FROM pg_stat_bgwriter)"}}},
};

static double *
figure_field(ServerStats *s, const StatsFigure *f)
{
	return (double *) ((char *) s + f->offset);
}

static double
figure_value(const ServerStats *s, const StatsFigure *f)
{
	return *(const double *) ((const char *) s + f->offset);
}

/* One SELECT of every figure, as this server version has them. */
static char *
server_stats_query(int server_version_num)
{
	PQExpBufferData sql;

	initPQExpBuffer(&sql);
	appendPQExpBufferStr(&sql, "SELECT ");
	for (int i = 0; i < lengthof(figures); i++)
	{
		const StatsSource *src = figures[i].by_version;

		while (src->since > server_version_num)
			src++;
		appendPQExpBuffer(&sql, "%s%s", i ? ", " : "", src->sql ? src->sql : "NULL::numeric");
	}
	return sql.data;
}

void
server_stats_take(PGconn *conn, ServerStats *s)
{
	static bool warned = false;
	char	   *sql = server_stats_query(PQserverVersion(conn));
	PGresult   *res;

	if (PQserverVersion(conn) < 150000)
		pg_usleep(COLLECTOR_DELAY_US);
	res = PQexec(conn, sql);

	s->valid = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		PQnfields(res) == lengthof(figures);
	for (int i = 0; i < lengthof(figures); i++)
		*figure_field(s, &figures[i]) = !s->valid || PQgetisnull(res, 0, i)
			? NAN : strtod(PQgetvalue(res, 0, i), NULL);
	/* once: the figures of every run are then missing the same way */
	if (!s->valid && !warned)
	{
		log_warningf("could not read the statistics views, so runs.csv lacks their figures: %s",
					 PQerrorMessage(conn));
		warned = true;
	}
	PQclear(res);
	pfree(sql);
}

/*
 * The checkpointer wakes whoever requested a checkpoint a moment before it
 * publishes that checkpoint's counts: take the snapshot once the checkpoint
 * that "earlier" does not hold is counted (bounded), or it would be counted
 * as one inside the run.
 */
void
server_stats_take_after_checkpoint(PGconn *conn, const ServerStats *earlier, ServerStats *s)
{
	double		give_up = now_seconds() + 2;

	for (;;)
	{
		server_stats_take(conn, s);
		if (!s->valid || !earlier->valid || !(s->checkpoints <= earlier->checkpoints) ||
			now_seconds() > give_up)
			return;
		pg_usleep(25000);
	}
}

/* after - before for every figure: NAN where either has none */
void
server_stats_delta(const ServerStats *before, const ServerStats *after, ServerStats *delta)
{
	delta->valid = before->valid && after->valid;
	for (int i = 0; i < lengthof(figures); i++)
		*figure_field(delta, &figures[i]) = delta->valid
			? figure_value(after, &figures[i]) - figure_value(before, &figures[i]) : NAN;
}
