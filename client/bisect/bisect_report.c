/*-------------------------------------------------------------------------
 *
 * bisect_report.c
 *		The report of "pgbench_ext bisect": every step's state, figures, CI
 *		and answer, then the answer of the search (the first differing
 *		state and the last same one), or why there is none and how to go
 *		on.  On the terminal as a table, and as DIR/bisect.md.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "report.h"
#include "safe_file.h"
#include "table.h"

#include <math.h>

#define BISECT_COLUMNS 9

static const char *const headers[BISECT_COLUMNS] = {
	"step", "state", "patch or commit", "good end", "state's", "state / good [95% CI]", "units", "answer", "verdict"
};

static char *
figure(double v, bool counted)
{
	if (isnan(v))
		return pg_strdup("-");
	return counted ? psprintf("%.1f", v) : psprintf("%.0f", v);
}

static char *
ratio_text(const BisectStep *s)
{
	if (isnan(s->estimate))
		return pg_strdup("-");
	if (isnan(s->ci_low) || isnan(s->ci_high))
		return psprintf("%+.3f%%", 100 * (s->estimate - 1));
	return psprintf("%+.3f%% [%+.3f%%, %+.3f%%]", 100 * (s->estimate - 1),
					100 * (s->ci_low - 1), 100 * (s->ci_high - 1));
}

/* A step's cells, in headers' order. */
static void
step_cells(const Bisect *b, int i, const char **cells)
{
	const BisectStep *s = &b->steps[i];
	const char *slash = strrchr(s->dir, '/');

	cells[0] = psprintf("%s", slash ? slash + 1 : s->dir);
	cells[1] = psprintf("%d", s->state);
	cells[2] = b->points[s->state].label;
	cells[3] = s->done ? figure(s->good_value, b->counted) : "";
	cells[4] = s->done ? figure(s->state_value, b->counted) : "";
	cells[5] = s->done ? ratio_text(s) : "";
	cells[6] = s->done ? psprintf("%d", s->units) : "";
	cells[7] = s->done ? bisect_answer_name(s->answer) : "not finished";
	cells[8] = s->done ? s->verdict : "";
}

/* How to go on with the open states first_same+1 .. differs-1 (or the bad end). */
static char *
go_on_text(const Bisect *b, int from, int to, EscapeTarget target)
{
	const char *more = b->counted ? "more rounds (rounds = N)" : "a larger budget (budget = DURATION)";

	if (b->git)
		return psprintf("To go on, run a bisect of those states with %s in the experiment file:\n"
						"  %s bisect FILE --commits %s..%s\n", more, progname,
						escape_text(b->points[from].commit, target),
						escape_text(b->points[to].commit, target));
	return psprintf("To go on, run a bisect of those states with %s in the experiment file:\n"
					"  %s bisect FILE --good %d --bad %d\n", more, progname, from, to);
}

/*
 * The search's answer, or why there is none, for target (the terminal or
 * bisect.md): the states' labels and commits, from the experiment file,
 * bisect.json or git, are escaped (escape.c), the text's own lines kept.
 */
char *
bisect_answer_text(const Bisect *b, EscapeTarget target)
{
	const BisectSearch *s = &b->search;
	const char *first_commit = b->search.first_differs >= 0 ? b->points[s->first_differs].commit : NULL;
	const char *metric = b->counted ? "instructions per transaction" : "tps";

	switch (s->status)
	{
		case BISECT_FOUND:
			return psprintf("The first state that differs from the good end (state %d) by %s: state %d, %s%s%s.\n"
							"The last state the same: state %d, %s.\n%d steps (%d besides the bad end's; at most %d).\n",
							b->good, metric, s->first_differs,
							escape_text(b->points[s->first_differs].label, target),
							first_commit ? " " : "", first_commit ? escape_text(first_commit, target) : "",
							s->last_same,
							escape_text(b->points[s->last_same].label, target), b->nsteps, s->steps - 1,
							bisect_max_middle_steps(b->good, b->bad));
		case BISECT_NO_DIFFERENCE:
			return psprintf("No answer: the bad end (state %d, %s) is the same as the good end (state %d) by %s, "
							"so no state between them is the first to differ.\n",
							b->bad, escape_text(b->points[b->bad].label, target), b->good, metric);
		case BISECT_STOPPED:
			{
				int			to = s->first_differs >= 0 ? s->first_differs : b->bad;

				return psprintf("No answer yet: state %d stayed undecided after %d attempt%s.  "
								"States %d to %d remain: %d is the last known the same, %s.\n%s",
								s->undecided, b->retries + 1, b->retries ? "s" : "",
								s->last_same + 1, to, s->last_same,
								s->first_differs >= 0 ? psprintf("%d the first known to differ", s->first_differs)
								: "the bad end is not known to differ",
								go_on_text(b, s->last_same, to, target));
			}
		case BISECT_SEARCHING:
			break;
	}
	return psprintf("The search is not finished: continue it with \"%s bisect --resume %s\".\n", progname,
					escape_text(b->dir, target));
}

void
bisect_report(const Bisect *b, FILE *out)
{
	TextTable  *t = table_create(BISECT_COLUMNS, headers);

	for (int i = 0; i < b->nsteps; i++)
	{
		const char *cells[BISECT_COLUMNS];

		step_cells(b, i, cells);
		table_add_row(t, cells);
	}
	fprintf(out, "\nbisect of states %d to %d by %s against the good end, state %d (%s):\n\n",
			b->good, b->bad, b->counted ? "instructions per transaction" : "tps", b->good,
			escape_text(b->points[b->good].label, ESCAPE_TERMINAL));
	table_print(t, out);
	table_free(t);
	fprintf(out, "\n%s\nbisect: %s (each step's report: %s report %s/step-N)\n",
			bisect_answer_text(b, ESCAPE_TERMINAL), escape_text(b->dir, ESCAPE_TERMINAL), progname,
			escape_text(b->dir, ESCAPE_TERMINAL));
}

bool
bisect_write_report(const Bisect *b, char **error)
{
	char	   *md = psprintf("# Bisect\n\nStates %d to %d, each against the good end (state %d, %s), by %s.\n\n|",
							  b->good, b->bad, b->good,
							  escape_text(b->points[b->good].label, ESCAPE_MARKDOWN),
							  b->counted ? "counted instructions per transaction" : "tps under rounds = auto");

	for (int c = 0; c < BISECT_COLUMNS; c++)
		md = psprintf("%s %s |", md, headers[c]);
	md = psprintf("%s\n|", md);
	for (int c = 0; c < BISECT_COLUMNS; c++)
		md = psprintf("%s %s |", md, c == 0 || c == 2 || c >= 7 ? "---" : "---:");
	for (int i = 0; i < b->nsteps; i++)
	{
		const char *cells[BISECT_COLUMNS];

		step_cells(b, i, cells);
		md = psprintf("%s\n|", md);
		for (int c = 0; c < BISECT_COLUMNS; c++)
			md = psprintf("%s %s |", md, c == 0
						  ? psprintf("[%s](%s/report.md)", escape_text(cells[0], ESCAPE_MARKDOWN), cells[0])
						  : escape_text(cells[c], ESCAPE_MARKDOWN));
	}
	md = psprintf("%s\n\n## Answer\n\n%s", md, bisect_answer_text(b, ESCAPE_MARKDOWN));
	return safe_write_file(psprintf("%s/%s", b->dir, BISECT_REPORT_FILE), md, 0, error);
}
