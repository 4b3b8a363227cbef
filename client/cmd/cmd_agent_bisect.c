/*-------------------------------------------------------------------------
 *
 * cmd_agent_bisect.c
 *		An agent's bisect jobs: the commits around a watch's change point
 *		bisected as "bisect FILE --commits GOOD..BAD" would, the file the
 *		watch's with its watched variant alone, built from the watched
 *		repository.  The agent's loop (farm/) may not call bisect/, which is
 *		of its rank, so the command hands it this as a hook (AgentBisect),
 *		as it hands it git's for watches (cmd_agent_watch.c).
 *
 * Nothing here ends the process: a bisect that cannot begin, or a step
 * that fails, is an error the agent records on the job before it takes
 * the next.  The bisect's directory is the job's: an agent of the same
 * host that takes the job again (its agent died, or it was interrupted)
 * resumes it as "bisect --resume" does, from the steps it answered.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "cmd_agent_bisect.h"
#include "cmd_bisect.h"

#include <math.h>
#include <unistd.h>

/*
 * The watch's file as a bisect's: the watched variant alone (the others,
 * a fixed baseline say, are the watch's own), built from the repository.
 * submit --watch refused files whose watched variant a bisect could not
 * take.
 */
static bool
one_variant(ExperimentSpec *spec, const AgentBisectJob *job, char **error)
{
	int			i = experiment_variant_index(spec, job->variant);

	if (i < 0)
		return fail_with(error, "the watch's experiment has no variant \"%s\" (its variants: %s)",
						 job->variant, experiment_variant_names(spec));
	if (i > 0)
		spec->variants[0] = spec->variants[i];
	spec->nvariants = 1;
	spec->variants[0].source = pg_strdup(job->repo);
	return true;
}

/* The step that placed state first: its estimate against the good end, in %. */
static void
culprit_shift(const Bisect *b, int state, AgentBisectAnswer *answer)
{
	for (int i = b->nsteps - 1; i >= 0; i--)
	{
		const BisectStep *s = &b->steps[i];

		if (s->done && s->state == state && s->answer == BISECT_DIFFERS)
		{
			answer->shift_pct = 100 * (s->estimate - 1);
			answer->ci_low = 100 * (s->ci_low - 1);
			answer->ci_high = 100 * (s->ci_high - 1);
			return;
		}
	}
}

/*
 * The answer of a bisect that ran (bisect_go()'s rc): the culprit, or none
 * and why (no difference, or a step undecided after its retries); else a
 * step failed or was interrupted, an error.
 */
static int
bisect_outcome(const Bisect *b, int rc, AgentBisectAnswer *answer, char **error)
{
	char	   *why;
	size_t		n;

	switch (b->search.status)
	{
		case BISECT_FOUND:
			answer->culprit = pg_strdup(b->points[b->search.first_differs].commit);
			culprit_shift(b, b->search.first_differs, answer);
			return 0;
		case BISECT_NO_DIFFERENCE:
		case BISECT_STOPPED:
			why = bisect_answer_text(b, ESCAPE_TERMINAL_LINES);
			n = strlen(why);
			while (n > 0 && why[n - 1] == '\n')
				why[--n] = '\0';
			answer->why = why;
			return 0;
		case BISECT_SEARCHING:
			break;
	}
	*error = psprintf("a step of the bisect in %s did not finish (exit status %d; its output is above); "
					  "an agent of this host that takes the job again resumes it", b->dir, rc);
	return rc != 0 ? rc : EXIT_RUNTIME_ERROR;
}

int
agent_bisect(const AgentBisectJob *job, AgentBisectAnswer *answer, char **error)
{
	Bisect		b;
	int			rc;

	if (access(psprintf("%s/%s", job->dir, BISECT_STATE_FILE), F_OK) == 0)
	{
		if (!bisect_load(&b, job->dir, error))
			return EXIT_USAGE;
		printf("resuming the bisect in %s\n", escape_text(job->dir, ESCAPE_TERMINAL));
		fflush(stdout);
		rc = bisect_go(&b, true);
	}
	else
	{
		BisectArgs	a = {0};
		const char *hint;

		a.file = job->file;
		a.dir = job->dir;
		a.commits = psprintf("%s..%s", job->good, job->bad);
		a.bad = -1;
		a.retries = 1;
		if (!one_variant(job->spec, job, error))
			return EXIT_USAGE;
		if (!bisect_begin(&b, job->spec, &a, error, &hint))
		{
			if (hint)
				*error = psprintf("%s (%s)", *error, hint);
			return EXIT_USAGE;
		}
		rc = bisect_go(&b, false);
	}
	return bisect_outcome(&b, rc, answer, error);
}
