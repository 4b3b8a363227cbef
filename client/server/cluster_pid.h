/*-------------------------------------------------------------------------
 *
 * cluster_pid.h
 *		A managed cluster's postmaster by its pid (cluster_pid.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CLUSTER_PID_H
#define PGBENCH_EXT_CLUSTER_PID_H

#include "cluster.h"

extern bool wait_for_process_end(pid_t pid, double seconds);
extern bool is_postmaster_of(const Cluster *c, long pid);
extern long read_postmaster_pid(const Cluster *c, char **sockdir);
extern void remember_postmaster(Cluster *c);
extern bool stop_postmaster_by_signal(Cluster *c);

#endif							/* PGBENCH_EXT_CLUSTER_PID_H */
