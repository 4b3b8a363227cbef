/*-------------------------------------------------------------------------
 *
 * bisect_step.c
 *		The steps of "pgbench_ext bisect" and its state file.
 *
 * A step is an ordinary experiment in DIR/step-N: two variants of the one
 * the experiment file describes, the good end (state good) as the
 * baseline and the state the search names, built by build.c as any
 * variant built from source is (cached by the build key; a patched state
 * starts from a copy of the unpatched tree).  Its summary.json gives the
 * answer by the machine-readable "decision" set where the verdict is made
 * (differs, same, undecided), never by the verdict's words: the bad
 * end's against the metric's threshold; a middle state's against the
 * halfway point between the ends, the side answering same or differs
 * (bisect_side_answer()).  By counted instructions per transaction, a
 * fixed number of rounds, that is where the step's CI lies
 * (bisect_counted_side_answer()); by tps under rounds = auto, the
 * step's looks test it as the experiment's reference ratio (so that they
 * stop when the CI lies wholly on one side of it, with the sequential
 * error control of any look).  An undecided step is measured again, as a new
 * step with twice the rounds (counted) or twice the budget (tps), up to
 * the bisect's retries; then the search stops where it is.
 *
 * DIR/bisect.json (through safe_file.c) holds the series, the experiment
 * and every step begun; it is written before a step starts and after it
 * ends, so that "bisect --resume DIR" replays the answered steps and goes
 * on with the one that was interrupted, resumed as "run --resume" resumes
 * an experiment.  It is data, read as anyone's (docs/security.md): it
 * names no program, option or path outside DIR but the source tree of a
 * patch series and the repository of a commit range, both of which must
 * be the user's own; patches are kept in DIR/patches, steps are DIR/step-N
 * whatever it says, commits are full object names (bisect_git.c), and an
 * interrupted step is resumed only if its experiment.json is the one
 * bisect.json gives that step.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "bisect.h"
#include "run_execute.h"
#include "experiment.h"
#include "report.h"
#include "results.h"
#include "runner.h"
#include "safe_file.h"
#include "safe_read.h"
#include "subprocess.h"

#include <libgen.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/logging.h"

/* ---- the state file ---- */

static json_t *
num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

static double
num_of(json_t *o, const char *key)
{
	json_t	   *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

static json_t *
step_json(const BisectStep *s)
{
	const char *slash = strrchr(s->dir, '/');
	json_t	   *j = json_pack("{s:i, s:i, s:s}", "state", s->state, "attempt", s->attempt,
							  "dir", slash ? slash + 1 : s->dir);

	if (!s->done)
		return j;
	json_object_set_new(j, "answer", json_string(bisect_answer_name(s->answer)));
	json_object_set_new(j, "verdict", json_string(s->verdict));
	json_object_set_new(j, "estimate", num_or_null(s->estimate));
	json_object_set_new(j, "ci_low", num_or_null(s->ci_low));
	json_object_set_new(j, "ci_high", num_or_null(s->ci_high));
	json_object_set_new(j, "good_value", num_or_null(s->good_value));
	json_object_set_new(j, "state_value", num_or_null(s->state_value));
	json_object_set_new(j, "units", json_integer(s->units));
	return j;
}

static const char *
status_name(BisectStatus st)
{
	return st == BISECT_FOUND ? "found" : st == BISECT_NO_DIFFERENCE ? "no difference"
		: st == BISECT_STOPPED ? "stopped undecided" : "searching";
}

bool
bisect_save(const Bisect *b, char **error)
{
	json_t	   *points = json_array();
	json_t	   *steps = json_array();
	json_t	   *patches = json_array();
	json_t	   *doc;
	bool		ok;

	for (int i = 0; i < b->npoints; i++)
		json_array_append_new(points, json_pack("{s:s, s:o}", "label", b->points[i].label, "commit",
												b->points[i].commit ? json_string(b->points[i].commit) : json_null()));
	for (int i = 0; i < b->npatches; i++)
		json_array_append_new(patches, json_string(strrchr(b->patches[i], '/') + 1));
	for (int i = 0; i < b->nsteps; i++)
		json_array_append_new(steps, step_json(&b->steps[i]));
	doc = json_pack("{s:i, s:O, s:s, s:o, s:o, s:o, s:i, s:i, s:i, s:o, s:s, s:o, s:o}",
					"format", 1, "experiment", b->spec, "method", b->counted ? "counted" : "tps",
					"git", b->git ? json_string(b->git) : json_null(),
					"patches", patches, "states", points,
					"good", b->good, "bad", b->bad, "retries", b->retries, "steps", steps,
					"status", status_name(b->search.status),
					"last_same", b->search.status == BISECT_SEARCHING ? json_null() : json_integer(b->search.last_same),
					"first_differs", b->search.first_differs >= 0 ? json_integer(b->search.first_differs) : json_null());
	ok = results_write_json(b->dir, BISECT_STATE_FILE, doc, error);
	json_decref(doc);
	return ok;
}

/* DIR/step-N, the N-th step's directory (1-based): the only place a step's results go. */
char *
bisect_step_dir(const Bisect *b, int step)
{
	return psprintf("%s/step-%d", b->dir, step);
}

static bool
load_step(const Bisect *b, BisectStep *s, int k, json_t *j, char **error)
{
	const char *answer = json_string_value(json_object_get(j, "answer"));

	s->state = (int) json_integer_value(json_object_get(j, "state"));
	s->attempt = (int) json_integer_value(json_object_get(j, "attempt"));
	if (s->state < 0 || s->state >= b->npoints || s->attempt < 0 || s->attempt > b->retries)
	{
		*error = psprintf("step %d has state %d or attempt %d out of range", k + 1, s->state, s->attempt);
		return false;
	}
	/* whatever its "dir" says */
	s->dir = bisect_step_dir(b, k + 1);
	s->done = answer != NULL;
	if (s->done && !bisect_answer_parse(answer, &s->answer))
	{
		*error = psprintf("step %s has an unknown answer \"%s\"", s->dir, answer);
		return false;
	}
	s->verdict = pg_strdup(json_is_string(json_object_get(j, "verdict"))
						   ? json_string_value(json_object_get(j, "verdict")) : "");
	s->estimate = num_of(j, "estimate");
	s->ci_low = num_of(j, "ci_low");
	s->ci_high = num_of(j, "ci_high");
	s->good_value = num_of(j, "good_value");
	s->state_value = num_of(j, "state_value");
	s->units = (int) json_integer_value(json_object_get(j, "units"));
	return true;
}

/*
 * A state of the series: a commit range's are full object names, a patch
 * series' have none.
 */
static bool
load_point(const Bisect *b, BisectPoint *p, int k, json_t *j, char **error)
{
	const char *label = json_string_value(json_object_get(j, "label"));
	json_t	   *commit = json_object_get(j, "commit");

	p->label = pg_strdup(label ? label : "?");
	if (b->git == NULL && (commit == NULL || json_is_null(commit)))
		return true;
	if (b->git == NULL || !bisect_commit_name_ok(json_string_value(commit)))
	{
		*error = psprintf("state %d's commit is %s", k,
						  b->git ? "not a full object name (40 or 64 hex digits)" : "set in a patch series");
		return false;
	}
	p->commit = pg_strdup(json_string_value(commit));
	return true;
}

/* A patch of the series: a file name of DIR/patches, nothing else. */
static bool
load_patch(const Bisect *b, char **path, int k, json_t *j, char **error)
{
	const char *name = json_string_value(j);

	if (name == NULL || *name == '\0' || *name == '.' || strchr(name, '/') != NULL || strlen(name) > 255)
	{
		*error = psprintf("patch %d is not a file name of %s/%s", k + 1, b->dir, BISECT_PATCH_DIR);
		return false;
	}
	*path = psprintf("%s/%s/%s", b->dir, BISECT_PATCH_DIR, name);
	return true;
}

/* The parts of bisect.json that are lists: states, patches, steps. */
static bool
load_lists(Bisect *b, json_t *doc, char **error)
{
	json_t	   *points = json_object_get(doc, "states");
	json_t	   *patches = json_object_get(doc, "patches");
	json_t	   *steps = json_object_get(doc, "steps");
	size_t		i;
	json_t	   *j;

	if (!json_is_array(points) || !json_is_array(patches) || !json_is_array(steps))
	{
		*error = pg_strdup("it lacks its states, patches or steps");
		return false;
	}
	if (json_array_size(points) > BISECT_MAX_STATES || json_array_size(steps) > BISECT_MAX_STEPS ||
		(b->git == NULL && json_array_size(patches) + 1 != json_array_size(points)) ||
		(b->git != NULL && json_array_size(patches) != 0))
	{
		*error = psprintf("its %zu states, %zu patches and %zu steps do not make a series (at most %d states, %d steps)",
						  json_array_size(points), json_array_size(patches), json_array_size(steps),
						  BISECT_MAX_STATES, BISECT_MAX_STEPS);
		return false;
	}
	b->npoints = (int) json_array_size(points);
	b->points = palloc0(sizeof(BisectPoint) * (b->npoints + 1));
	b->exported = palloc0(sizeof(bool) * (b->npoints + 1));
	json_array_foreach(points, i, j)
		if (!load_point(b, &b->points[i], (int) i, j, error))
		return false;
	b->npatches = (int) json_array_size(patches);
	b->patches = palloc0(sizeof(char *) * (b->npatches + 1));
	json_array_foreach(patches, i, j)
		if (!load_patch(b, &b->patches[i], (int) i, j, error))
		return false;
	b->nsteps = (int) json_array_size(steps);
	b->steps = palloc0(sizeof(BisectStep) * (b->nsteps + 1));
	json_array_foreach(steps, i, j)
		if (!load_step(b, &b->steps[i], (int) i, j, error))
		return false;
	return true;
}

/*
 * The experiment every state is built as: one variant built from source,
 * nothing else that names a program or a server.
 */
static bool
check_recorded_template(const Bisect *b, char **error)
{
	json_t	   *variants = json_object_get(b->spec, "variants");
	json_t	   *v = json_array_get(variants, 0);

	if (!json_is_array(variants) || json_array_size(variants) != 1 || !json_is_string(json_object_get(v, "source")) ||
		json_object_get(v, "bindir") || json_object_get(v, "conninfo") || json_object_get(v, "cluster") ||
		json_array_size(json_object_get(v, "patch")) != 0)
	{
		*error = pg_strdup("its experiment is not one variant built from source without patches of its own");
		return false;
	}
	return true;
}

/*
 * Before a step of a resumed bisect runs: what the client reads from
 * outside DIR must be the user's own.  A commit range's repository
 * (bisect_git_check()); a patch series' source tree, which each build
 * reads as the invoking user.  A finished bisect needs neither, so that
 * its report can be printed from anyone's copy.
 */
static bool
check_outside_inputs(const Bisect *b, char **error)
{
	const char *source = json_string_value(json_object_get(json_array_get(json_object_get(b->spec, "variants"), 0),
														   "source"));
	struct stat st;

	if (b->git != NULL)
		return bisect_git_check(b->git, error);
	if (source[0] != '/' || lstat(source, &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		(st.st_mode & (S_IWGRP | S_IWOTH)))
	{
		*error = psprintf("the bisect's source tree \"%s\" is not a directory of yours that no one else may write: "
						  "refusing to build from it", source);
		return false;
	}
	return true;
}

bool
bisect_load(Bisect *b, const char *dir, char **error)
{
	json_t	   *doc;
	json_t	   *git;

	memset(b, 0, sizeof(*b));
	b->dir = make_absolute_path(dir);
	if (!safe_results_dir(b->dir, true, error) ||
		(doc = results_read_json(b->dir, BISECT_STATE_FILE, error)) == NULL)
		return false;
	b->spec = json_incref(json_object_get(doc, "experiment"));
	b->counted = json_is_string(json_object_get(doc, "method")) &&
		strcmp(json_string_value(json_object_get(doc, "method")), "counted") == 0;
	git = json_object_get(doc, "git");
	if (json_is_string(git))
		b->git = pg_strdup(json_string_value(git));
	b->good = (int) json_integer_value(json_object_get(doc, "good"));
	b->bad = (int) json_integer_value(json_object_get(doc, "bad"));
	b->retries = (int) json_integer_value(json_object_get(doc, "retries"));
	if (b->retries < 0 || b->retries > BISECT_MAX_RETRIES)
		*error = psprintf("its retries, %d, are not between 0 and %d", b->retries, BISECT_MAX_RETRIES);
	else if (git != NULL && !json_is_null(git) && b->git == NULL)
		*error = pg_strdup("its repository is not a path");
	else if (json_is_object(b->spec) && load_lists(b, doc, error) && check_recorded_template(b, error))
	{
		json_decref(doc);
		if (b->good < 0 || b->good >= b->bad || b->bad >= b->npoints)
		{
			*error = psprintf("%s/%s is not a bisect's state: its ends %d and %d are not states of its %d",
							  dir, BISECT_STATE_FILE, b->good, b->bad, b->npoints);
			return false;
		}
		return true;
	}
	else if (!json_is_object(b->spec))
		*error = pg_strdup("it has no experiment");
	*error = psprintf("%s/%s is not a bisect's state: %s", dir, BISECT_STATE_FILE, *error);
	json_decref(doc);
	return false;
}

/*
 * The search from the steps answered: an undecided answer counts only
 * when it had all the units it could have.
 */
void
bisect_replay(Bisect *b)
{
	bisect_init(&b->search, b->good, b->bad);
	for (int i = 0; i < b->nsteps; i++)
	{
		const BisectStep *s = &b->steps[i];

		if (s->done && (s->answer != BISECT_UNDECIDED || s->attempt >= b->retries))
			(void) bisect_record(&b->search, s->state, s->answer);
	}
}

/* ---- one step's experiment ---- */

char *
bisect_variant_name(const Bisect *b, int state)
{
	int			width = 1;

	for (int n = b->npoints - 1; n >= 10; n /= 10)
		width++;
	/* of one width, so that the states' names sort in their order */
	return psprintf("state-%0*d", width, state);
}

/* The template variant as state's variant: its patches or its commit's tree. */
static json_t *
state_variant(const Bisect *b, json_t *template, int state)
{
	json_t	   *v = json_deep_copy(template);
	json_t	   *patches = json_array();

	json_object_set_new(v, "name", json_string(bisect_variant_name(b, state)));
	if (b->git)
		json_object_set_new(v, "source", json_string(bisect_commit_source(b, state)));
	else
		for (int i = 0; i < state && i < b->npatches; i++)
			json_array_append_new(patches, json_string(b->patches[i]));
	json_object_set_new(v, "patch", patches);
	return v;
}

/* The bad end's answered step of differs, or NULL. */
static const BisectStep *
bad_end_step(const Bisect *b)
{
	for (int i = 0; i < b->nsteps; i++)
		if (b->steps[i].done && b->steps[i].state == b->bad && b->steps[i].answer == BISECT_DIFFERS)
			return &b->steps[i];
	return NULL;
}

/*
 * The specification of the step of state against the good end, as
 * experiment_from_json() reads it; attempt k has 2^k times the rounds (or
 * the budget under rounds = auto).  By tps a middle state's step has the
 * halfway point between the ends as its reference, so that its looks stop
 * on the question the bisect asks: which side of it the state lies on.
 */
bool
bisect_step_spec(const Bisect *b, int state, int attempt, json_t **out, char **error)
{
	json_t	   *spec = json_deep_copy(b->spec);
	json_t	   *exp = json_object_get(spec, "experiment");
	json_t	   *template = json_array_get(json_object_get(b->spec, "variants"), 0);
	json_t	   *variants = json_array();
	const char *key = b->counted ? "rounds" : "budget";
	json_t	   *units = json_object_get(exp, key);

	if (!json_is_object(template) || !json_is_integer(units))
	{
		*error = psprintf("the bisect's experiment has no variant or no whole %s", key);
		json_decref(spec);
		return false;
	}
	json_object_set_new(exp, key, json_integer(json_integer_value(units) << attempt));
	/* by tps a middle state: which side of the halfway point between the ends */
	if (!b->counted && state != b->bad && bad_end_step(b) != NULL)
		json_object_set_new(exp, "reference", json_real(bisect_halfway(bad_end_step(b)->estimate)));
	json_array_append_new(variants, state_variant(b, template, b->good));
	json_array_append_new(variants, state_variant(b, template, state));
	json_object_set_new(spec, "variants", variants);
	*out = spec;
	return true;
}

/* ---- its answer ---- */

/*
 * A step's answer from the "decision" summary.json gives beside a verdict
 * (report_decision_word(): "differs", "same" or "undecided"), never from
 * the verdict's words.
 */
static bool
decision_of(json_t *o, const BisectStep *s, const char *what, BisectAnswer *a, char **error)
{
	const char *d = json_string_value(json_object_get(o, "decision"));

	if (!bisect_answer_parse(d, a))
	{
		*error = psprintf("%s/summary.json has no decision of %s", s->dir, what);
		return false;
	}
	return true;
}

/*
 * Counted: the instructions per transaction row of the one cell.  The bad
 * end by its decision (more or less: differs; same within the metric's
 * threshold: same); a middle state by where its CI lies against the
 * halfway point between the ends (bisect_counted_side_answer()), as by
 * tps: two builds that differ only in where their code and data lie
 * count a few hundredths of a per cent apart, and the threshold around
 * the good end would take that for the change looked for.
 */
static bool
counted_answer(const Bisect *b, json_t *summary, BisectStep *s, char **error)
{
	json_t	   *cell = json_array_get(json_object_get(json_object_get(summary, "profiles"), "cells"), 0);
	json_t	   *m = json_array_get(json_object_get(cell, "metrics"), 0);
	const char *v = json_string_value(json_object_get(m, "verdict_text"));
	const BisectStep *bad = bad_end_step(b);

	if (v == NULL || !decision_of(m, s, "counted instructions per transaction", &s->answer, error))
	{
		if (v == NULL)
			*error = psprintf("%s/summary.json has no counted instructions per transaction", s->dir);
		return false;
	}
	s->verdict = pg_strdup(v);
	s->estimate = num_of(m, "estimate");
	s->ci_low = num_of(m, "ci_low");
	s->ci_high = num_of(m, "ci_high");
	s->good_value = num_of(m, "a_median");
	s->state_value = num_of(m, "b_median");
	/* the paired rounds of the instructions' verdict */
	s->units = (int) json_integer_value(json_object_get(m, "n_pairs"));
	if (s->state != b->bad && bad != NULL)
	{
		double		half = bisect_halfway(bad->estimate);

		s->answer = bisect_counted_side_answer(s->estimate, s->ci_low, s->ci_high, bad->estimate);
		s->verdict = psprintf("%s; against the halfway point %+.3f%%: %s", v, 100 * (half - 1),
							  s->answer == BISECT_UNDECIDED ? "its CI lies across it"
							  : s->answer == BISECT_SAME ? "on the good end's side"
							  : "on the bad end's side");
	}
	return true;
}

/*
 * tps under rounds = auto: the bad end by the experiment's own decision
 * (differs from the good end, or the same within the threshold); a middle
 * state by its decision against the halfway point, the reference its
 * step's looks tested (bisect_side_answer()).  A middle step without that
 * reference (summary.json is data: a directory of the bisect edited since)
 * is undecided, so that the next attempt measures it with one.
 */
static bool
tps_answer(const Bisect *b, json_t *summary, BisectStep *s, char **error)
{
	json_t	   *cell = json_array_get(json_object_get(summary, "cells"), 0);
	json_t	   *cmp = json_object_get(cell, "comparison");
	const char *v = json_string_value(json_object_get(cell, "verdict"));
	const BisectStep *bad = bad_end_step(b);
	double		reference = num_of(cell, "reference");
	BisectAnswer decision;

	if (v == NULL || !json_is_object(cmp))
	{
		*error = psprintf("%s/summary.json has no verdict of tps", s->dir);
		return false;
	}
	if (!decision_of(cell, s, "tps", &decision, error))
		return false;
	s->estimate = num_of(cmp, "estimate");
	s->ci_low = num_of(cmp, "ci_low");
	s->ci_high = num_of(cmp, "ci_high");
	s->good_value = num_of(json_object_get(cell, "a"), "median");
	s->state_value = num_of(json_object_get(cell, "b"), "median");
	s->units = (int) json_integer_value(json_object_get(cmp, "n_units"));
	s->verdict = pg_strdup(v);
	if (s->state == b->bad || bad == NULL)
	{
		s->answer = decision;
		return true;
	}
	if (isnan(reference))
		s->verdict = psprintf("%s; measured without the halfway point as its reference", v);
	s->answer = bisect_side_answer(decision == BISECT_DIFFERS && !isnan(reference), s->estimate,
								   reference, bad->estimate);
	return true;
}

static bool
read_answer(const Bisect *b, BisectStep *s, char **error)
{
	json_t	   *summary = safe_read_json(psprintf("%s/summary.json", s->dir), SAFE_MAX_JSON, error);
	bool		ok;

	if (summary == NULL)
		return false;
	/* report writes summary.json anew from the directory, in this format */
	if (!results_format_ours(summary))
	{
		*error = psprintf("%s/summary.json is not of results format %s, the one this pgbench_ext reads: run \"%s report %s\" to write it again",
						  s->dir, RESULTS_FORMAT, progname, s->dir);
		json_decref(summary);
		return false;
	}
	ok = b->counted ? counted_answer(b, summary, s, error) : tps_answer(b, summary, s, error);
	json_decref(summary);
	s->done = ok;
	return ok;
}

/*
 * The recorded experiment of an interrupted step, if it is the one
 * bisect.json gives that step: its variants (what is built and run) the
 * same, so that nothing a step's experiment.json names is run unless
 * bisect.json, checked as it is, names it too.
 */
static json_t *
recorded_step_spec(const Bisect *b, const BisectStep *s, ExperimentSpec *spec, char **error)
{
	json_t	   *doc = results_read_spec(s->dir, spec, error);
	json_t	   *given;
	ExperimentSpec expected;
	json_t	   *recorded;
	bool		same;

	if (doc == NULL || !bisect_step_spec(b, s->state, s->attempt, &given, error) ||
		!experiment_from_json(&expected, given, error))
		return NULL;
	recorded = experiment_to_json(spec);
	given = experiment_to_json(&expected);
	same = json_equal(json_object_get(recorded, "variants"), json_object_get(given, "variants"));
	json_decref(recorded);
	json_decref(given);
	if (!same)
	{
		*error = psprintf("%s/experiment.json names other variants than bisect.json gives state %d: "
						  "refusing to resume it (remove the step's directory to measure the state afresh)",
						  s->dir, s->state);
		json_decref(doc);
		return NULL;
	}
	return doc;
}

/*
 * Run (or resume) step s's experiment; its exit status.  A step's
 * directory with an experiment.json is resumed as "run --resume" does.
 */
static int
run_step(Bisect *b, BisectStep *s)
{
	ExperimentSpec spec;
	RunOptions	ropts = {0};
	json_t	   *sj = NULL;
	char	   *error;
	bool		resume = access(psprintf("%s/experiment.json", s->dir), F_OK) == 0;

	ropts.results_dir = s->dir;
	ropts.max_restarts = 3;
	ropts.resume = resume;
	if (b->git && (!bisect_git_export(b, b->good, &error) || !bisect_git_export(b, s->state, &error)))
	{
		log_error_text(error);
		return EXIT_RUNTIME_ERROR;
	}
	if (resume)
	{
		json_t	   *doc = recorded_step_spec(b, s, &spec, &error);

		if (doc == NULL)
		{
			log_errorf("the experiment of step %s cannot be resumed: %s", s->dir, error);
			return EXIT_USAGE;
		}
		json_decref(doc);
	}
	else if (!bisect_step_spec(b, s->state, s->attempt, &sj, &error) ||
			 !experiment_from_json(&spec, sj, &error))
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	printf("\n=== bisect step %s: state %d (%s) against the good end, state %d%s\n",
		   escape_text(s->dir, ESCAPE_TERMINAL), s->state,
		   escape_text(b->points[s->state].label, ESCAPE_TERMINAL), b->good, resume ? ", resumed" : "");
	fflush(stdout);
	return run_execute(&spec, &ropts, "bisect");
}

/* A new step of state: attempt one more than the state's last undecided one. */
static BisectStep *
new_step(Bisect *b, int state)
{
	BisectStep *s;
	int			attempt = 0;

	for (int i = 0; i < b->nsteps; i++)
		if (b->steps[i].state == state && b->steps[i].done)
			attempt = b->steps[i].attempt + 1;
	b->steps = repalloc(b->steps, sizeof(BisectStep) * (b->nsteps + 1));
	s = &b->steps[b->nsteps++];
	memset(s, 0, sizeof(*s));
	s->state = state;
	s->attempt = attempt;
	s->dir = bisect_step_dir(b, b->nsteps);
	return s;
}

/* The stop after a failed or interrupted step: how to go on. */
static int
step_failed(const Bisect *b, const BisectStep *s, int rc)
{
	log_errorf("bisect step %s (state %d) did not finish (exit status %d)", s->dir, s->state, rc);
	pg_log_error_hint("Continue the bisect with: %s bisect --resume %s", progname,
					  escape_text(b->dir, ESCAPE_TERMINAL));
	return rc == EXIT_USAGE ? EXIT_USAGE : rc;
}

/*
 * The search from where it is: each step recorded in bisect.json before it
 * starts and when it is answered.  The exit status: 0 with an answer (a
 * first differing state, or none), 1 when a step failed or the search
 * stopped undecided, a step's own status when it was interrupted.
 */
int
bisect_go(Bisect *b, bool resume)
{
	char	   *error;

	bisect_replay(b);
	if (resume && bisect_next(&b->search) >= 0 && !check_outside_inputs(b, &error))
	{
		log_error_text(error);
		return EXIT_USAGE;
	}
	while (bisect_next(&b->search) >= 0)
	{
		BisectStep *s = NULL;
		int			rc;

		/* an unanswered step (interrupted) goes on first */
		if (resume && b->nsteps > 0 && !b->steps[b->nsteps - 1].done)
			s = &b->steps[b->nsteps - 1];
		else
			s = new_step(b, bisect_next(&b->search));
		if (!bisect_save(b, &error))
		{
			log_error_text(error);
			return EXIT_RUNTIME_ERROR;
		}
		if ((rc = run_step(b, s)) != 0)
			return step_failed(b, s, rc);
		if (!read_answer(b, s, &error))
		{
			log_error_text(error);
			return step_failed(b, s, EXIT_RUNTIME_ERROR);
		}
		bisect_replay(b);
		if (!bisect_save(b, &error))
		{
			log_error_text(error);
			return EXIT_RUNTIME_ERROR;
		}
		printf("\nbisect: state %d %s (%s)\n", s->state, bisect_answer_name(s->answer),
			   escape_text(s->verdict, ESCAPE_TERMINAL));
	}
	bisect_report(b, stdout);
	if (!bisect_write_report(b, &error))
	{
		log_error_text(error);
		return EXIT_RUNTIME_ERROR;
	}
	return b->search.status == BISECT_STOPPED ? EXIT_RUNTIME_ERROR : 0;
}
