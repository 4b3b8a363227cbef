/*-------------------------------------------------------------------------
 *
 * bisect.h
 *		"pgbench_ext bisect": what its command (cmd_bisect.c), its steps
 *		and state file (bisect_step.c) and its report (bisect_report.c)
 *		share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BISECT_H
#define PGBENCH_EXT_BISECT_H

#include "client.h"
#include "bisect_search.h"

#include <jansson.h>

#define BISECT_STATE_FILE	"bisect.json"
#define BISECT_REPORT_FILE	"bisect.md"

/* One state of the series */
typedef struct BisectPoint
{
	char	   *label;			/* "(none)", a patch's file name, or "abbrev subject" */
	char	   *commit;			/* a commit range's full hash, else NULL */
} BisectPoint;

/* One experiment of the bisect: one state against the good end */
typedef struct BisectStep
{
	int			state;
	int			attempt;		/* 0, then 1.. for more units after an undecided one */
	char	   *dir;			/* its results directory: the bisect's step-N */
	bool		done;			/* answered (the fields below are set) */
	BisectAnswer answer;
	char	   *verdict;		/* the experiment's own verdict text */
	double		estimate;		/* state / good end, a ratio */
	double		ci_low;
	double		ci_high;
	double		good_value;		/* the good end's median figure */
	double		state_value;	/* the state's */
	int			units;			/* rounds (counted) or rounds run (tps) */
} BisectStep;

typedef struct Bisect
{
	char	   *dir;
	json_t	   *spec;			/* experiment_to_json() of the file; variants[0] the template */
	bool		counted;		/* instructions per transaction, else tps (rounds = auto) */
	char	   *git;			/* a commit range's git directory, or NULL: a patch series */
	char	  **patches;		/* a patch series: patch k makes state k of state k - 1,
								 * kept as DIR/patches/NAME (these are the paths) */
	int			npatches;
	BisectPoint *points;
	int			npoints;
	int			good;
	int			bad;
	int			retries;		/* more units an undecided step may have, each time twice */
	BisectStep *steps;
	int			nsteps;
	BisectSearch search;
	bool	   *exported;		/* the states whose tree this process exported */
} Bisect;

#define BISECT_PATCH_DIR	"patches"
/* what a bisect.json may hold: as many states as --commits takes, and so on */
#define BISECT_MAX_COMMITS	1000
#define BISECT_MAX_STATES	(BISECT_MAX_COMMITS + 1)
#define BISECT_MAX_RETRIES	4
#define BISECT_MAX_STEPS	1000

/* bisect_git.c */
extern bool bisect_commit_name_ok(const char *name);
extern bool bisect_git_check(const char *gitdir, char **error);
extern bool bisect_git_commits(Bisect *b, const char *checkout, const char *range, char **error);
extern char *bisect_commit_source(const Bisect *b, int state);
extern bool bisect_git_export(Bisect *b, int state, char **error);

/* bisect_step.c */
extern bool bisect_save(const Bisect *b, char **error);
extern bool bisect_load(Bisect *b, const char *dir, char **error);
extern void bisect_replay(Bisect *b);
extern int	bisect_go(Bisect *b, bool resume);
extern char *bisect_step_dir(const Bisect *b, int step);
extern bool bisect_step_spec(const Bisect *b, int state, int attempt, json_t **out, char **error);
extern char *bisect_variant_name(const Bisect *b, int state);

/* bisect_report.c */
extern void bisect_report(const Bisect *b, FILE *out);
extern bool bisect_write_report(const Bisect *b, char **error);
extern char *bisect_answer_text(const Bisect *b, EscapeTarget target);

#endif							/* PGBENCH_EXT_BISECT_H */
