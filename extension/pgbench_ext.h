/*-------------------------------------------------------------------------
 *
 * pgbench_ext.h
 *		Declarations shared by the extension's source files.
 *
 * Each file in extension/ does one job (environment report, machine facts,
 * counters, ...); this header is how they reach each other.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_H
#define PGBENCH_EXT_H

#include "postgres.h"

#include <time.h>

#include "compat.h"

#ifndef PGBENCH_EXT_VERSION
#error "PGBENCH_EXT_VERSION must be defined by the Makefile (from pgbench_ext.control)"
#endif

/*
 * Monotonic nanoseconds, read through the vDSO: the one clock of the
 * statement timing, the snapshot benchmark and the injected delay.
 */
static inline uint64
pgbench_ext_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64) ts.tv_sec * UINT64CONST(1000000000) + (uint64) ts.tv_nsec;
}

/* machine.c: facts about the host, read from /proc and sysfs */

/* One CPU cache as the kernel describes it in sysfs. */
typedef struct MachineCache
{
	int			level;			/* 1, 2, 3 ... */
	char		type[16];		/* "Data", "Instruction", "Unified" */
	int64		size_bytes;
	int			line_bytes;		/* coherency_line_size, 0 if unknown */
} MachineCache;

#define MACHINE_MAX_CACHES 8

extern bool machine_cpu_model(char *buf, size_t len);
extern int	machine_cpu_count(void);
extern int	machine_caches(MachineCache *caches, int max_caches);
extern bool machine_read_line(const char *path, char *buf, size_t len);
extern char *machine_format_bytes(int64 bytes);
extern char *machine_cache_label(const MachineCache *cache);

/* inject_delay.c */
extern bool inject_delay_wanted;
extern void inject_delay_init(void);
extern void inject_delay_before_commit(void);

/* pgbench_ext.c: settings, defined only when preloaded */
extern bool pgbench_ext_track;
extern bool pgbench_ext_track_hw;
extern int	pgbench_ext_sample_interval_ms;

#endif							/* PGBENCH_EXT_H */
