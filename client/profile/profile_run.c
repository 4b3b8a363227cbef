/*-------------------------------------------------------------------------
 *
 * profile_run.c
 *		The profile of one run: the hooks execute_run() calls, and the file
 *		each profiled run leaves, runs/NNNN.profile.json.
 *
 *	  prepare	before the run's CHECKPOINT: counted, the callgrind
 *				directory opened (run_one.c gives pgbench its seed)
 *	  start		right before pgbench: counted, the file listing; sampled,
 *				perf enabled
 *	  stop		right after pgbench, on every path: counted, the run's files
 *				read; sampled, perf stopped
 *	  collect	once pgbench's output is read: the profile per transaction,
 *				written; or the reason there is none, in the run's reason
 *
 * A profile that fails never costs the run: its tps stays, status ok,
 * and runs.csv's reason says why the profile is missing.
 *
 * runs/NNNN.profile.json, per transaction of the run:
 *	  mode, events, transactions (those the figures are per),
 *	  totals[e], floor[e] (what a function never seen counts as: half of
 *	  the smallest cost the run could see), samples, unresolved,
 *	  functions {NAME: {object, self[e], incl[e]}}, stacks {FOLDED: value}.
 * Functions without a symbol are one entry per object, "[unknown in
 * postgres]", without an inclusive cost; stacks keep them apart.
 * Functions and stacks below PRUNE of the total are left out.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "profile_counted.h"
#include "profile_run.h"
#include "profile_sampled.h"
#include "profile_spec.h"
#include "profile_parse.h"

#include <math.h>

/* Functions and stacks smaller than this share of the total are not kept. */
#define PRUNE 1e-4

struct ProfileRun
{
	Experiment *x;
	const PlannedRun *pr;
	ProfileMode mode;
	CountedRun *counted;
	SampledRun *sampled;
};

ProfileRun *
profile_run_prepare(Experiment *x, const PlannedRun *pr, PGconn *conn)
{
	ProfileRun *p;

	if (x->spec->profile.mode == PROFILE_OFF)
		return NULL;
	p = pg_malloc0(sizeof(ProfileRun));
	p->x = x;
	p->pr = pr;
	p->mode = x->spec->profile.mode;
	if (p->mode == PROFILE_COUNTED)
		p->counted = counted_prepare(x, pr, conn);
	else
		p->sampled = sampled_prepare(x, pr, conn);
	return p;
}

void
profile_run_start(ProfileRun *p)
{
	if (p == NULL)
		return;
	if (p->counted)
		counted_start(p->counted);
	else
		sampled_start(p->sampled);
}

void
profile_run_stop(ProfileRun *p)
{
	if (p == NULL)
		return;
	if (p->counted)
		counted_stop(p->counted);
	else
		sampled_stop(p->sampled);
}

static json_t *
costs_json(const double *v, int n)
{
	json_t	   *a = json_array();

	for (int e = 0; e < n; e++)
		json_array_append_new(a, json_real(v[e]));
	return a;
}

static json_t *
profile_json(const Prof *prof, ProfileMode mode, long long transactions)
{
	json_t	   *events = json_array();
	json_t	   *funcs = json_object();
	json_t	   *stacks = json_object();
	double		floor[PROF_MAX_EVENTS];
	double		cut = prof->totals[0] * PRUNE;
	Prof		grouped;

	prof_init(&grouped);
	for (int e = 0; e < prof->nevents; e++)
	{
		json_array_append_new(events, json_string(prof->events[e]));
		/* half an instruction in the whole run; half a sample's period */
		floor[e] = mode == PROFILE_COUNTED ? 0.5 / (double) transactions
			: 0.5 * prof->totals[e] / (double) Max(prof->samples, 1);
	}
	/* what has no symbol, by object: addresses differ between builds */
	for (int f = 0; f < prof->nfuncs; f++)
	{
		const ProfFunc *fn = &prof->funcs[f];
		char	   *group = prof_unresolved_group(fn->name);

		if (group)
		{
			int			g = prof_func(&grouped, group, fn->object);

			for (int e = 0; e < prof->nevents; e++)
				grouped.funcs[g].self[e] += fn->self[e];
			free(group);
			continue;
		}
		if (fn->self[0] < cut && fn->incl[0] < cut)
			continue;
		json_object_set_new(funcs, fn->name,
							json_pack("{s:s, s:o, s:o}", "object", fn->object,
									  "self", costs_json(fn->self, prof->nevents),
									  "incl", costs_json(fn->incl, prof->nevents)));
	}
	/* a group's inclusive cost would count calls among its members twice */
	for (int g = 0; g < grouped.nfuncs; g++)
		if (grouped.funcs[g].self[0] >= cut)
			json_object_set_new(funcs, grouped.funcs[g].name,
								json_pack("{s:s, s:o}", "object", grouped.funcs[g].object,
										  "self", costs_json(grouped.funcs[g].self, prof->nevents)));
	prof_free(&grouped);
	for (int s = 0; s < prof->nstacks; s++)
		if (prof->stacks[s].value >= cut)
			json_object_set_new(stacks, prof->stacks[s].frames, json_real(prof->stacks[s].value));
	return json_pack("{s:s, s:o, s:I, s:o, s:o, s:I, s:I, s:i, s:o, s:o}",
					 "mode", profile_mode_name(mode),
					 "events", events,
					 "transactions", (json_int_t) transactions,
					 "totals", costs_json(prof->totals, prof->nevents),
					 "floor", costs_json(floor, prof->nevents),
					 "samples", (json_int_t) prof->samples,
					 "unresolved", (json_int_t) prof->unresolved,
					 "processes", prof->processes,
					 "functions", funcs,
					 "stacks", stacks);
}

void
profile_run_collect(ProfileRun *p, RunRecord *rec)
{
	Prof		prof;
	char	   *problem = NULL;
	bool		ok;
	long long	transactions = rec->transactions;
	char	   *error;

	if (p == NULL)
		return;
	prof_init(&prof);
	if (p->counted)
		ok = counted_collect(p->counted, rec, &prof, &problem);
	else
		ok = sampled_collect(p->sampled, rec, &prof, &problem);
	/* a run that did not complete is recorded as it was, without a profile */
	if (strcmp(rec->status, "ok") == 0)
	{
		/* counted: per transaction of the long run beyond the short one */
		if (ok && p->counted)
			transactions = counted_transactions(p->counted);
		if (ok && !results_write_json(p->x->dir, psprintf("runs/%04d.profile.json", p->pr->run_id),
									  profile_json(&prof, p->mode, transactions), &error))
		{
			ok = false;
			problem = error;
		}
		if (!ok)
			rec->reason = psprintf("no %s profile: %s", profile_mode_name(p->mode),
								   problem ? problem : "unknown reason");
	}
	prof_free(&prof);
}
