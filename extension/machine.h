/*-------------------------------------------------------------------------
 *
 * machine.h
 *		Facts about the host, read from /proc and sysfs (machine.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_MACHINE_H
#define PGBENCH_EXT_MACHINE_H

#include "pgbench_ext.h"

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

#endif							/* PGBENCH_EXT_MACHINE_H */
