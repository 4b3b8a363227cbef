/*-------------------------------------------------------------------------
 *
 * snapshot_probe.c
 *		Time GetSnapshotData() under each run's own pgbench load: a session
 *		of the runner's own calls pgbench_ext.snapshot_bench() in 'full'
 *		and 'reuse' mode in turn, at a small, steady duty cycle, while
 *		pgbench runs (docs/experiments.md, "The snapshot probe").
 *
 * Why in the run: what a snapshot-struct patch changes is the cost of a
 * snapshot while other backends commit, end and start transactions on
 * other cores; an idle snapshot_bench() sees none of that.  The pause
 * after a probe is counted from its end, so that a slow probe never
 * raises the duty cycle.  No thread: the probe's socket and its next due
 * time join the runner's poll() on pgbench's progress pipe, its queries
 * sent with libpq's asynchronous API.  A probe that fails stops probing
 * for the rest of the run and says why in runs/NNNN.json; the run itself
 * is not failed by it.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "stats.h"
#include "snapshot_probe.h"
#include "progress.h"

#include <math.h>

typedef enum ProbeMode
{
	PROBE_FULL,
	PROBE_REUSE
} ProbeMode;

static const char *const mode_names[] = {"full", "reuse"};

/* One probe's answer. */
typedef struct ProbeSample
{
	double		at_s;			/* when it was sent, from the start of the run */
	double		ns;				/* ns per call */
	int			xcnt;
	int			procs;
} ProbeSample;

typedef struct ProbeSeries
{
	ProbeSample *samples;
	int			n;
	int			cap;
} ProbeSeries;

struct SnapshotProbe
{
	PGconn	   *conn;			/* NULL once closed, or when never opened */
	int			nmodes;			/* 1 before PostgreSQL 14: no reuse path */
	double		start;			/* now_seconds() when the run started */
	double		first_at;		/* no probe is sent before this ... */
	double		last_at;		/* ... nor after this (HUGE_VAL with -t) */
	double		interval_s;
	double		next_at;
	bool		busy;			/* a probe's query is in flight */
	ProbeMode	busy_mode;
	double		sent_at;
	ProbeMode	next_mode;
	double		busy_s;			/* time probes were in flight, summed */
	ProbeSeries series[2];
	char	   *error;			/* why probing stopped early, or NULL */
};

#define PROBE_STATEMENT "pgbench_ext_snapshot_probe"

static void
stop_probing(SnapshotProbe *p, const char *why)
{
	if (p->error == NULL)
		p->error = pg_strdup(why);
	if (p->conn)
		PQfinish(p->conn);
	p->conn = NULL;
	p->busy = false;
}

SnapshotProbe *
snapshot_probe_start(Experiment *x, const PlannedRun *pr)
{
	VariantState *vs = &x->variants[pr->variant];
	SnapshotProbe *p;
	char	   *error = NULL;
	PGresult   *res;
	double		duration = x->spec->duration_s;

	if (!snapshot_probe_enabled(x->spec, &x->spec->variants[pr->variant]))
		return NULL;
	p = pg_malloc0(sizeof(SnapshotProbe));
	p->nmodes = vs->server_version_num >= 140000 ? 2 : 1;
	p->interval_s = x->spec->snapshot_probe_interval_ms / 1000.0;
	p->start = now_seconds();
	p->first_at = p->next_at = p->start + SNAPSHOT_PROBE_MARGIN_S;
	p->last_at = duration > 0 ? p->start + duration - SNAPSHOT_PROBE_MARGIN_S : HUGE_VAL;

	if ((p->conn = connect_variant(vs, RUN_DB, &error)) == NULL)
	{
		stop_probing(p, error);
		return p;
	}
	/* the run's counters are pgbench's transactions, not the probe's */
	if (vs->has_counters && !exec_ok(p->conn, "SET pgbench_ext.track = off", &error))
	{
		stop_probing(p, error);
		return p;
	}
	/* parsed and planned once: a probe's round trip is then the function's */
	res = PQprepare(p->conn, PROBE_STATEMENT,
					"SELECT ns_median, xcnt, procs FROM pgbench_ext.snapshot_bench($1, $2, 1)",
					0, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		stop_probing(p, psprintf("could not prepare the probe: %s", PQerrorMessage(p->conn)));
	PQclear(res);
	if (p->conn && PQsetnonblocking(p->conn, 1) != 0)
		stop_probing(p, psprintf("could not make the probe's connection non-blocking: %s",
								 PQerrorMessage(p->conn)));
	return p;
}

int
snapshot_probe_socket(const SnapshotProbe *p)
{
	return p != NULL && p->conn != NULL && p->busy ? PQsocket(p->conn) : -1;
}

int
snapshot_probe_timeout_ms(const SnapshotProbe *p, int max_ms)
{
	double		wait_ms;

	/* in flight, the socket wakes poll(); stopped, nothing to do */
	if (p == NULL || p->conn == NULL || p->busy)
		return max_ms;
	wait_ms = ceil((p->next_at - now_seconds()) * 1000.0);
	return (int) Max(0, Min(wait_ms, max_ms));
}

static void
add_sample(ProbeSeries *s, const ProbeSample *sample)
{
	if (s->n == s->cap)
	{
		s->cap = Max(64, s->cap * 2);
		s->samples = pg_realloc(s->samples, sizeof(ProbeSample) * s->cap);
	}
	s->samples[s->n++] = *sample;
}

/* One result of the probe in flight; false (and probing stops) on error. */
static bool
take_result(SnapshotProbe *p, PGresult *res)
{
	ProbeSample sample;

	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 ||
		PQgetisnull(res, 0, 0))
	{
		stop_probing(p, psprintf("the probe's snapshot_bench(%d, '%s', 1) failed: %s",
								 SNAPSHOT_PROBE_CALLS, mode_names[p->busy_mode],
								 PQresultErrorMessage(res)));
		return false;
	}
	sample.at_s = p->sent_at - p->start;
	sample.ns = atof(PQgetvalue(res, 0, 0));
	sample.xcnt = atoi(PQgetvalue(res, 0, 1));
	sample.procs = atoi(PQgetvalue(res, 0, 2));
	add_sample(&p->series[p->busy_mode], &sample);
	return true;
}

static void
send_probe(SnapshotProbe *p, double now)
{
	char		calls[16];
	const char *params[2] = {calls, mode_names[p->next_mode]};

	snprintf(calls, sizeof(calls), "%d", SNAPSHOT_PROBE_CALLS);
	if (!PQsendQueryPrepared(p->conn, PROBE_STATEMENT, 2, params, NULL, NULL, 0) ||
		PQflush(p->conn) < 0)
	{
		stop_probing(p, psprintf("could not send a probe: %s", PQerrorMessage(p->conn)));
		return;
	}
	p->busy = true;
	p->busy_mode = p->next_mode;
	p->next_mode = (p->next_mode + 1) % p->nmodes;
	p->sent_at = now;
}

void
snapshot_probe_service(SnapshotProbe *p)
{
	double		now;

	if (p == NULL || p->conn == NULL)
		return;
	if (p->busy)
	{
		if (PQflush(p->conn) < 0 || !PQconsumeInput(p->conn))
		{
			stop_probing(p, psprintf("the probe's connection failed: %s", PQerrorMessage(p->conn)));
			return;
		}
		while (p->busy && !PQisBusy(p->conn))
		{
			PGresult   *res = PQgetResult(p->conn);

			if (res == NULL)
			{
				p->busy = false;
				now = now_seconds();
				p->busy_s += now - p->sent_at;
				p->next_at = now + p->interval_s;
				break;
			}
			if (!take_result(p, res))
			{
				PQclear(res);
				return;
			}
			PQclear(res);
		}
		if (p->busy)
			return;
	}
	now = now_seconds();
	if (now >= p->next_at && now <= p->last_at)
		send_probe(p, now);
}

/* Quantile q of the sorted values, interpolated as snapshot_bench() does. */
static double
quantile(const double *sorted, int n, double q)
{
	double		pos = q * (n - 1);
	int			lo = (int) floor(pos);
	int			hi = Min(lo + 1, n - 1);

	return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/* Median and p90 of one mode's samples, NAN when it has none. */
static void
series_figures(const ProbeSeries *s, double *median, double *p90)
{
	double	   *ns;

	*median = *p90 = NAN;
	if (s->n == 0)
		return;
	ns = pg_malloc(sizeof(double) * s->n);
	for (int i = 0; i < s->n; i++)
		ns[i] = s->samples[i].ns;
	stats_sort(ns, s->n);
	*median = quantile(ns, s->n, 0.5);
	*p90 = quantile(ns, s->n, 0.9);
	pg_free(ns);
}

static json_t *
series_json(const ProbeSeries *s)
{
	json_t	   *arr = json_array();

	for (int i = 0; i < s->n; i++)
		json_array_append_new(arr, json_pack("{s:f, s:f, s:i, s:i}",
											 "at_s", s->samples[i].at_s,
											 "ns", s->samples[i].ns,
											 "xcnt", s->samples[i].xcnt,
											 "procs", s->samples[i].procs));
	return arr;
}

json_t *
snapshot_probe_finish(SnapshotProbe *p, RunRecord *rec)
{
	SnapshotFigures *f = &rec->snapshot;
	double		window_s;
	double	   *xcnt;
	double	   *procs;
	int			n = 0;
	json_t	   *obj;

	if (p == NULL)
		return NULL;
	/* a probe still in flight is not under the load any more: dropped */
	if (p->conn)
		PQfinish(p->conn);
	p->conn = NULL;

	series_figures(&p->series[PROBE_FULL], &f->full_ns_median, &f->full_ns_p90);
	series_figures(&p->series[PROBE_REUSE], &f->reuse_ns_median, &f->reuse_ns_p90);
	f->probes = p->series[PROBE_FULL].n + p->series[PROBE_REUSE].n;
	xcnt = pg_malloc(sizeof(double) * (f->probes + 1));
	procs = pg_malloc(sizeof(double) * (f->probes + 1));
	for (int m = 0; m < 2; m++)
		for (int i = 0; i < p->series[m].n; i++, n++)
		{
			xcnt[n] = p->series[m].samples[i].xcnt;
			procs[n] = p->series[m].samples[i].procs;
		}
	if (n > 0)
	{
		stats_sort(xcnt, n);
		stats_sort(procs, n);
		f->xcnt = quantile(xcnt, n, 0.5);
		f->procs = quantile(procs, n, 0.5);
	}
	window_s = Max(0, Min(now_seconds(), p->last_at) - p->first_at);

	obj = json_pack("{s:i, s:i, s:f, s:f, s:o, s:o}",
					"calls", SNAPSHOT_PROBE_CALLS,
					"interval_ms", (int) (p->interval_s * 1000 + 0.5),
					"busy_s", p->busy_s,
					"window_s", window_s,
					"full", series_json(&p->series[PROBE_FULL]),
					"reuse", series_json(&p->series[PROBE_REUSE]));
	if (p->error)
		json_object_set_new(obj, "error", json_string(p->error));
	pg_free(xcnt);
	pg_free(procs);
	for (int m = 0; m < 2; m++)
		pg_free(p->series[m].samples);
	pg_free(p);
	return obj;
}
