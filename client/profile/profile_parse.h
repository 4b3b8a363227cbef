/*-------------------------------------------------------------------------
 *
 * profile_parse.h
 *	  Readers of the two profilers' outputs: callgrind's output files and
 *	  "perf script" text, into a Prof (profile_data.h).
 *
 * Plain C99 with libc only, unit-tested on captured files in
 * test/fixtures/profiles.  Both read untrusted text (the server account
 * writes it): every line has a bounded meaning, and anything malformed is
 * an error with its line number, never a crash.
 *
 * client/profile/profile_parse.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PROFILE_PARSE_H
#define PROFILE_PARSE_H

#include <stdio.h>

#include "profile_data.h"

/* The fields "perf script" must print for prof_parse_perf_script(). */
#define PERF_SCRIPT_FIELDS "tid,period,ip,sym,dso"

/*
 * Add one callgrind output file (all its parts) to p: self cost per
 * function, call arcs with their inclusive cost, totals.  p's events must
 * be unset or equal to the file's.  prof_compute_inclusive() once all
 * files are in.
 */
extern bool prof_parse_callgrind(FILE *in, Prof *p, char *errbuf, size_t errlen);

/*
 * Add perf script output (PERF_SCRIPT_FIELDS, recorded with call chains)
 * to p, whose only event is named event: per sample, its period to the
 * leaf's self cost, to the inclusive cost of every function on its stack
 * (once), and to its folded stack.
 */
extern bool prof_parse_perf_script(FILE *in, const char *event, Prof *p,
								   char *errbuf, size_t errlen);

/*
 * "[unknown in postgres]" for a function named by its address,
 * "[postgres+0x265970]" (malloc'd), else NULL: function tables group what
 * has no symbol by object, as addresses differ between builds.
 */
extern char *prof_unresolved_group(const char *name);

#endif							/* PROFILE_PARSE_H */
