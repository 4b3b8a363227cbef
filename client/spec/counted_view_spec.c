/*-------------------------------------------------------------------------
 *
 * counted_view_spec.c
 *		counted_view = on: the experiment that runs after a timed one's
 *		runs, the same variants counted under valgrind, into
 *		DIR/counted/ (COUNTED_VIEW_DIR); counted_view.c runs it and the
 *		report shows its verdict beside tps.  This file derives its
 *		specification from the timed one's, and nothing else.
 *
 * tps says how much a change costs on this machine, with the machine's
 * noise; instructions per transaction say whether and where the work
 * changed, to hundredths of a per cent, on any machine (docs/profiles.md).
 * A patch's question wants both, and from one command: the counted runs
 * use the same builds (the timed experiment's source builds carry symbols
 * and frame pointers when counted_view is on, so the counted experiment
 * finds them in the build cache), the same scripts, scale, protocol,
 * settings and servers' options, one client, a fixed number of
 * transactions (counted_view_transactions) and of rounds
 * (counted_view_rounds) on servers started once: what a counted
 * experiment of its own would be (docs/profiles.md, "Counted: how"),
 * derived, so that it cannot drift from the timed one.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "counted_view_spec.h"
#include "profile.h"

/*
 * The counted experiment of a timed one.  Strings are shared with spec,
 * which outlives it.
 */
void
counted_view_spec(const ExperimentSpec *spec, ExperimentSpec *counted)
{
	*counted = *spec;
	counted->profile = (ProfileSpec) {0};
	counted->profile.mode = PROFILE_COUNTED;
	counted->transactions = spec->profile.counted_view_transactions
		? spec->profile.counted_view_transactions : PROFILE_COUNTED_TRANSACTIONS;
	counted->rounds = spec->profile.counted_view_rounds
		? spec->profile.counted_view_rounds : COUNTED_VIEW_ROUNDS;

	/* instructions per transaction hardly move with clients: one, no -j */
	counted->clients[0] = 1;
	counted->nclients = 1;
	counted->jobs = "1";
	counted->duration_s = 0;

	/* fixed rounds on servers started once: counts do not need a budget */
	counted->rounds_auto = false;
	counted->budget_s = 0;
	counted->min_rounds = 0;
	counted->reference = 0;
	counted->warmup = 0;
	counted->pilot_rounds = 0;
	counted->pilot_auto = false;
	counted->restart_every = 0;
	counted->restart_auto = false;
	counted->reset = RESET_NEVER;
	counted->snapshot_probe = false;
	for (int i = 0; i < counted->nvariants; i++)
	{
		VariantSpec *v = &counted->variants[i];

		v->snapshot_probe = PROBE_OFF;
		/* a source variant's build is found again in the build cache */
		if (v->source)
		{
			v->bindir = NULL;
			v->build = NULL;
		}
	}

	/*
	 * One run at a time, servers without address-space randomization (a
	 * start's addresses move the count), every run warm (on a shared
	 * server the first of a round would read the pages the other finds:
	 * the timed set-up makes sure the installation has pg_prewarm);
	 * pinning is for time, not counts.
	 */
	counted->quiet.schedule = SCHEDULE_INTERLEAVED;
	counted->quiet.schedule_given = true;
	counted->quiet.schedule_why = NULL;
	counted->quiet.swap_ms = 0;
	counted->quiet.aslr = false;
	counted->quiet.aslr_given = true;
	counted->quiet.aslr_why = NULL;
	counted->quiet.pin = false;
	counted->quiet.prewarm = true;
	counted->quiet.prewarm_given = true;
	counted->seed = spec->seed + 1;
}
