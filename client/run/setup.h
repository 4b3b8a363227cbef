/*-------------------------------------------------------------------------
 *
 * setup.h
 *		Bringing every variant to the starting line, and what the run loop
 *		shares with it.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_SETUP_H
#define PGBENCH_EXT_SETUP_H

#include "cluster.h"
#include "plan.h"

#define TEMPLATE_DB "pgbench_ext_template"
#define RUN_DB		"pgbench_ext_run"

typedef struct VariantState
{
	Cluster		cluster;
	bool		has_counters;	/* pgbench_ext preloaded and counters() present */
	int			server_version_num;
	double		pgbench_init_s;
	int			restarts;
	char	   *build_id;		/* the build key of a source variant, else the bindir */
	json_t	   *environment;	/* rows of environment() */
	json_t	   *pg_config;
	PGconn	   *run_session;	/* reset = never: the runner's session on
								 * this variant's server, kept between runs
								 * (run_one.c) */
	int			run_session_instance;	/* the server's start it belongs to */
} VariantState;

typedef struct Experiment
{
	ExperimentSpec *spec;
	Plan	   *plan;
	const char *dir;
	bool		resume;			/* the servers start again for a resumed experiment */
	bool		servers_up;		/* setup_variants() done: resumed, only once a run is left */
	int			last_instance[MAX_VARIANTS];	/* instances.csv's, before a resume */
	VariantState variants[MAX_VARIANTS];
} Experiment;

extern bool setup_variants(Experiment *x, char **error);
extern bool record_start(Experiment *x, Cluster *c, const char *cause, char **error);
extern PGconn *connect_variant(VariantState *vs, const char *dbname, char **error);
extern bool exec_ok(PGconn *conn, const char *sql, char **error);

#endif							/* PGBENCH_EXT_SETUP_H */
