/*-------------------------------------------------------------------------
 *
 * progress.c
 *		Progress of an experiment: run i/N, variant, cell, seconds,
 *		current tps from pgbench -P, and the ETA of the whole experiment.
 *
 * On a terminal it is one line rewritten in place (at most once a
 * second: the driver must stay light); otherwise one plain line per run,
 * so logs stay readable.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "progress.h"

#include <time.h>
#include <unistd.h>

void
progress_init(Progress *p, int total_runs, int done_runs, double run_length_s)
{
	memset(p, 0, sizeof(*p));
	p->tty = isatty(fileno(stderr));
	p->total_runs = total_runs;
	p->done_runs = done_runs;
	p->run_length_s = run_length_s;
	p->session_start = now_seconds();
}

/* Seconds left: measured time per run once known, else the planned length. */
static double
eta_seconds(const Progress *p)
{
	double		per_run = p->runs_timed > 0 ? p->busy_s / p->runs_timed : p->run_length_s + 3;
	double		in_current = p->current ? now_seconds() - p->run_start : 0;
	int			left = p->total_runs - p->done_runs;

	return Max(0, per_run * left - in_current);
}

static void
draw(Progress *p)
{
	char	   *line = psprintf("run %d/%d  %s  %s  c=%d  %.0f/%.0f s  %.0f tps  ETA %s",
								p->done_runs + 1, p->total_runs, p->variant, p->script,
								p->current->clients, p->elapsed_s, p->run_length_s,
								p->tps, format_duration(eta_seconds(p)));

	/* the script's name is the experiment file's: shown, never obeyed */
	fprintf(stderr, "\r%-100.100s", escape_text(line, ESCAPE_TERMINAL));
	fflush(stderr);
}

void
progress_start_run(Progress *p, const PlannedRun *pr, const char *variant, const char *script)
{
	p->current = pr;
	p->variant = variant;
	p->script = script;
	p->run_start = now_seconds();
	p->elapsed_s = 0;
	p->tps = 0;
	if (p->tty)
		draw(p);
}

void
progress_update(Progress *p, double elapsed_s, double tps)
{
	p->elapsed_s = elapsed_s;
	p->tps = tps;
	if (p->tty)
		draw(p);
}

void
progress_end_run(Progress *p, const char *status, double tps)
{
	double		took = now_seconds() - p->run_start;

	const PlannedRun *pr = p->current;

	p->busy_s += took;
	p->runs_timed++;
	p->done_runs++;
	p->current = NULL;
	if (p->tty)
		fprintf(stderr, "\r%-100s\r", "");
	/* one screen for the answer: a line per run only when asked, or when it failed */
	if (!p->verbose && strcmp(status, "ok") == 0)
		return;
	fprintf(stderr, "run %d/%d  %-8s %-12s %-14s c=%-3d %10.1f tps  %s  (ETA %s)\n",
			p->done_runs, p->total_runs,
			pr->after_start ? "warm-up" : psprintf("round %d", pr->round), p->variant,
			escape_text(p->script, ESCAPE_TERMINAL), pr->clients, tps,
			escape_text(status, ESCAPE_TERMINAL), format_duration(eta_seconds(p)));
}

void
progress_finish(Progress *p)
{
	fprintf(stderr, "%d runs in %s\n", p->done_runs,
			format_duration(now_seconds() - p->session_start));
}
