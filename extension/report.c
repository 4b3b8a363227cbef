/*-------------------------------------------------------------------------
 *
 * report.c
 *		pgbench_ext.report(), the counters for people, and
 *		pgbench_ext.hw_status(), which perf_event counters work and why not.
 *
 * counters() is for machines; report() turns the same sums into per-call
 * and per-transaction figures a person can read in psql after a run.
 *
 *-------------------------------------------------------------------------
 */
#include "counters.h"

#include "fmgr.h"
#include "funcapi.h"
#include "lib/stringinfo.h"
#include "utils/builtins.h"

#include "hooks.h"
#include "wait_sampler.h"

PG_FUNCTION_INFO_V1(pgbench_ext_report);
PG_FUNCTION_INFO_V1(pgbench_ext_hw_status);

/*
 * The state of every counter for this backend: the set it reads with
 * track_hw on, else a probe opened and closed here.
 */
static void
hw_probe(PerfEventSet *probe, const PerfEventSet **set)
{
	*set = hooks_perf_events();
	if (*set == NULL)
	{
		perf_events_open(probe, true);
		*set = probe;
	}
}

static void
put_line(ReturnSetInfo *rsinfo, const char *section, const char *fmt,...) pg_attribute_printf(3, 4);

/* one report row: the section it belongs to and a formatted line */
static void
put_line(ReturnSetInfo *rsinfo, const char *section, const char *fmt,...)
{
	StringInfoData buf;
	Datum		values[2];
	bool		nulls[2] = {false, false};

	initStringInfo(&buf);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&buf, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&buf, needed);
	}
	values[0] = CStringGetTextDatum(section);
	values[1] = CStringGetTextDatum(buf.data);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	pfree(buf.data);
}

static double
per(double x, uint64 n)
{
	return n ? x / n : 0;
}

/*
 * pgbench_ext.report() — (section, line) rows, the lines aligned for psql:
 * statements per command type, transactions, CPU and context switches per
 * transaction, the top waits, and hardware counters per transaction or
 * why they are absent.
 */
Datum
pgbench_ext_report(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	CounterValues s;
	uint64		(*hist)[LH_BUCKETS];
	uint64		xacts;
	WaitProfile waits;
	PerfEventSet probe;
	const PerfEventSet *set = NULL;

	pgbench_ext_require_preload(counters_shared != NULL, "pgbench_ext.report()");
	InitMaterializedSRF(fcinfo, 0);

	hist = palloc(sizeof(uint64) * HIST_COUNT * LH_BUCKETS);
	counters_sum(&s, hist);
	xacts = s.commits + s.aborts;

	put_line(rsinfo, "statements", "%-12s %10s %10s %10s %10s %10s",
			 "statements", "calls", "rows", "mean ms", "p50 ms", "p99 ms");
	for (int k = 0; k < CMD_KIND_COUNT; k++)
	{
		TimingCounters *t = &s.stmt[k];

		put_line(rsinfo, "statements", "%-12s %10llu %10llu %10.3f %10.3f %10.3f",
				 cmd_kind_name(k), (unsigned long long) t->calls,
				 (unsigned long long) t->rows, per(t->total_ns / 1e6, t->calls),
				 lh_quantile(hist[k], 0.50, t->max_ns) / 1e6,
				 lh_quantile(hist[k], 0.99, t->max_ns) / 1e6);
	}
	put_line(rsinfo, "transactions", "transactions: %llu commits, %llu aborts; mean %.3f ms, p50 %.3f ms, p99 %.3f ms",
			 (unsigned long long) s.commits, (unsigned long long) s.aborts,
			 per(s.xact.total_ns / 1e6, s.xact.calls),
			 lh_quantile(hist[HIST_XACT], 0.50, s.xact.max_ns) / 1e6,
			 lh_quantile(hist[HIST_XACT], 0.99, s.xact.max_ns) / 1e6);
	put_line(rsinfo, "cpu", "per transaction: CPU %.1f us user + %.1f us system; context switches %.3f voluntary, %.3f involuntary",
			 per(s.cpu_user_us, xacts), per(s.cpu_sys_us, xacts),
			 per(s.voluntary_switches, xacts), per(s.involuntary_switches, xacts));

	wait_sampler_profile(&waits);
	put_line(rsinfo, "waits", "top waits (%% of the samples of each backend type)%s",
			 waits.nrows == 0 ? ": no samples" : "");
	for (int i = 0; i < waits.nrows && i < 8; i++)
		put_line(rsinfo, "waits", "  %-18s %-40s %6.1f%%", waits.rows[i].backend_type,
				 psprintf("%s: %s", waits.rows[i].event_type, waits.rows[i].event),
				 waits.rows[i].pct);
	if (waits.lost > 0)
		put_line(rsinfo, "waits", "  %llu of %llu samples (%.1f%%) lost: the wait table is full; raise pgbench_ext.wait_table_size",
				 (unsigned long long) waits.lost, (unsigned long long) waits.samples,
				 100.0 * waits.lost / waits.samples);

	put_line(rsinfo, "hw", "hardware counters per transaction%s",
			 pgbench_ext_track_hw ? "" : " (pgbench_ext.track_hw is off)");
	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		if (s.hw_xacts[k] > 0)
			put_line(rsinfo, "hw", "  %-18s %14.1f", perf_event_name(k), per(s.hw[k], s.hw_xacts[k]));
		else if (pgbench_ext_track_hw)
		{
			const char *reason;

			if (set == NULL)
				hw_probe(&probe, &set);
			reason = perf_event_reason(set, k);
			put_line(rsinfo, "hw", "  %-18s %s", perf_event_name(k),
					 reason ? psprintf("unavailable: %s", reason) : "no transaction measured yet");
		}
	}
	if (set == &probe)
		perf_events_close(&probe);

	return (Datum) 0;
}

/*
 * pgbench_ext.hw_status() — for each perf_event counter: hardware or
 * software, whether this backend can count it, and if not why, in words.
 * Needs no preloading: it asks the kernel for this backend.
 */
Datum
pgbench_ext_hw_status(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	PerfEventSet probe;
	const PerfEventSet *set;

	InitMaterializedSRF(fcinfo, 0);
	hw_probe(&probe, &set);

	for (int k = 0; k < PERF_EV_COUNT; k++)
	{
		const char *reason = perf_event_reason(set, k);
		Datum		values[4];
		bool		nulls[4] = {false, false, false, reason == NULL};

		values[0] = CStringGetTextDatum(perf_event_name(k));
		values[1] = CStringGetTextDatum(perf_event_is_hardware(k) ? "hardware" : "software");
		values[2] = BoolGetDatum(reason == NULL);
		values[3] = reason ? CStringGetTextDatum(reason) : (Datum) 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	if (set == &probe)
		perf_events_close(&probe);

	return (Datum) 0;
}
