/*-------------------------------------------------------------------------
 *
 * cluster.h
 *		A variant's server: a managed throwaway cluster, or one given by
 *		conninfo that we only connect to.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CLUSTER_H
#define PGBENCH_EXT_CLUSTER_H

#include "experiment.h"

typedef struct Cluster
{
	const VariantSpec *variant;
	bool		managed;		/* false for conninfo variants */
	char	   *bindir;			/* where pgbench (and for managed, postgres) live */
	char	   *dir;			/* managed: RESULTS/clusters/NAME */
	char	   *datadir;
	char	   *sockdir;		/* short private path: socket names are limited */
	char	   *logfile;
	int			port;
	bool		running;
	double		initdb_s;
	double		start_s;
} Cluster;

extern bool cluster_prepare(Cluster *c, const VariantSpec *v, const char *results_dir,
							char **error);
extern bool cluster_start(Cluster *c, char **error);
extern void cluster_stop(Cluster *c);
extern bool cluster_alive(const Cluster *c);
extern bool cluster_wait_for_exit(const Cluster *c);
extern void cluster_stop_all(void);
extern char *cluster_conninfo(const Cluster *c, const char *dbname);

#endif							/* PGBENCH_EXT_CLUSTER_H */
