/*-------------------------------------------------------------------------
 *
 * cpu_usage.h
 *		CPU time and context switches of the calling backend (cpu_usage.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_CPU_USAGE_H
#define PGBENCH_EXT_CPU_USAGE_H

#include "counters.h"

extern void cpu_usage_add_since_last(CounterValues *v);

#endif							/* PGBENCH_EXT_CPU_USAGE_H */
