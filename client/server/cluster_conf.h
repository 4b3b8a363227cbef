/*-------------------------------------------------------------------------
 *
 * cluster_conf.h
 *		The configuration files of a managed cluster's data directory,
 *		written by the client (cluster_conf.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CLUSTER_CONF_H
#define PGBENCH_EXT_CLUSTER_CONF_H

#include "cluster.h"

/* In clusters/NAME, beside data/: read by the server, written by us. */
#define CLUSTER_SERVER_CONF		"postgresql.pgbench_ext.conf"

/*
 * On every postmaster's command line, with an empty value: the command
 * line outranks every configuration file, postgresql.auto.conf included.
 */
#define CLUSTER_NO_TCP			"listen_addresses="

extern char *cluster_conf_initdb_values(const Cluster *c, char **error);
extern bool cluster_conf_own(const Cluster *c, char **error);

#endif							/* PGBENCH_EXT_CLUSTER_CONF_H */
