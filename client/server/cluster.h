/*-------------------------------------------------------------------------
 *
 * cluster.h
 *		A variant's server: a managed throwaway cluster, one given by
 *		conninfo that we only connect to, or another variant's.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CLUSTER_H
#define PGBENCH_EXT_CLUSTER_H

#include "experiment.h"

typedef struct Cluster
{
	const VariantSpec *variant;
	struct Cluster *host;		/* "cluster = OTHER": OTHER's server, else NULL */
	bool		managed;		/* false for conninfo variants */
	int			dir_how;		/* SAFE_SERVER_DIR when the server account made
								 * its directories (safe_file.h) */
	char	   *bindir;			/* where pgbench (and for managed, postgres) live */
	char	   *dir;			/* managed: RESULTS/clusters/NAME (or an index) */
	char	   *datadir;
	char	   *sockdir;		/* short private path: socket names are limited */
	char	   *logfile;
	int			port;
	bool		running;
	bool		run_db_ready;	/* reset = never: the run database exists */
	bool		pad_environment;	/* a fresh environment size at every start:
									 * a build seed's, a restarted server's;
									 * never a counted one's */
	bool		aslr_off;		/* started without address-space randomization */
	HugePagesMode huge_pages;	/* its huge_pages, when the experiment sets it */
	long		huge_pages_need;	/* huge_pages = on: pages its shared memory
									 * needs (0: it cannot say), -1 not asked yet */
	int			instance;		/* starts so far: 1, 2, ... (managed servers) */
	int			env_pad;		/* bytes of padding of the last start */
	double		initdb_s;
	char	   *initdb_template;	/* the initdb cache's entry it was copied
								 * from, or NULL: initdb ran */
	char	   *template_entry;	/* the template cache's entry (template_cache.c)
								 * it was copied from, or NULL */
	char	   *template_store;	/* an entry to keep its data directory in once
								 * its template is ready, or NULL */
	char	   *template_key;	/* the text template_store's name hashes */
	char	   *initdb_values;	/* a copy's: the client's record of the values
								 * initdb chose, for cluster_conf.c */
	pid_t		postmaster;		/* running: its postmaster, when the server
								 * account's, and when that started, so that
								 * a stop without pg_ctl signals that process
								 * and no other */
	unsigned long long postmaster_started;
	double		start_s;		/* of the last start */
	double		stop_s;			/* of the last stop; NAN before the first */

	/*
	 * How the postmaster is started when not by "pg_ctl start": set by
	 * whoever needs it run otherwise (profile = counted: under callgrind),
	 * so that this module depends on none of them.
	 */
	bool		(*start_server) (struct Cluster *c, char **error);
} Cluster;

/*
 * c's cluster in RESULTS/clusters/DIRNAME (NULL: the variant's name): what
 * its server sees of the path (its argv, data_directory, the files of its
 * configuration) has the length of DIRNAME.
 */
/*
 * What a cluster's template database is to hold, for the template cache:
 * pgbench -i's scale and whether its tables are unlogged.
 */
typedef struct TemplateWish
{
	int			scale;
	bool		unlogged;
} TemplateWish;

extern bool cluster_prepare(Cluster *c, const VariantSpec *v, const char *results_dir,
							const char *dirname, const TemplateWish *wish, char **error);
extern bool cluster_keep_template(Cluster *c, char **error);
extern void cluster_prepare_shared(Cluster *c, const VariantSpec *v, Cluster *host);
extern Cluster *cluster_server(Cluster *c);
extern pid_t cluster_postmaster_pid(const Cluster *c);
extern bool cluster_start(Cluster *c, char **error);
extern void cluster_stop(Cluster *c);
extern bool cluster_alive(const Cluster *c);
extern bool cluster_wait_for_exit(const Cluster *c);
extern void cluster_stop_all(void);
extern char *cluster_conninfo(const Cluster *c, const char *dbname);

#endif							/* PGBENCH_EXT_CLUSTER_H */
