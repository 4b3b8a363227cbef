/*-------------------------------------------------------------------------
 *
 * quiet.h
 *		What carries out the keys of quiet_keys.h (quiet.c): CPU sets and
 *		pinning, address-space randomization around a start, the facts
 *		/proc gives of a server, prewarming, one pgbench seed per round.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_QUIET_H
#define PGBENCH_EXT_QUIET_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>

#include <jansson.h>
#include "libpq-fe.h"

#include "quiet_keys.h"

/* The CPU set of slot 0 or 1: each half of the CPUs this process may use. */
extern bool quiet_cpu_slot(int slot, cpu_set_t *set, char **error);
extern char *quiet_cpu_list(const cpu_set_t *set);

/* Put a server (its postmaster and every process it started) on set. */
extern bool quiet_pin_server(pid_t postmaster, const cpu_set_t *set, char **error);

/*
 * Around the start of a server without address-space randomization: the
 * flag is inherited by pg_ctl, the postmaster and its backends.
 */
extern bool quiet_aslr_off_begin(int *saved, char **error);
extern void quiet_aslr_off_end(int saved);

/*
 * What /proc says of a process: its CPUs, whether ASLR is off, and how much
 * of its memory is in huge pages.
 */
extern json_t *quiet_process_facts(pid_t pid);

extern bool quiet_prewarm(PGconn *conn, char **error);

/* pgbench's --random-seed for a round: the same for every variant. */
extern unsigned long long quiet_round_seed(unsigned long long experiment_seed, int round);

#endif							/* PGBENCH_EXT_QUIET_H */
