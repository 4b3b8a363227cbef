/*-------------------------------------------------------------------------
 *
 * procfs.h
 *		What the kernel's /proc says of a process: its state letter and
 *		its parent, the children of a process, and a "key: value" line of
 *		a /proc file (procfs.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROCFS_H
#define PGBENCH_EXT_PROCFS_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The state letter and parent of pid from /proc/PID/stat: false when its
 * entry cannot be read (the process is gone, or there is no /proc).
 */
extern bool procfs_stat(pid_t pid, char *state, pid_t *parent);

/*
 * When pid started (clock ticks after boot): with its pid, the identity of
 * a process, which a pid alone is not once the process could have ended;
 * 0 when it cannot be read.
 */
extern unsigned long long procfs_start_time(pid_t pid);

/* The children of pid, at most max of them into out; -1 without /proc */
extern int	procfs_children(pid_t pid, pid_t *out, int max);

/* The threads of pid, at most max of them into out; -1 if it is gone */
extern int	procfs_threads(pid_t pid, pid_t *out, int max);

/*
 * The value of the first "key: value" line of a /proc file whose key is
 * the one given (allocated; the blanks before it and the newline removed),
 * or NULL.
 */
extern char *procfs_value(const char *path, const char *key);

/*
 * The CPUs this process may use, in order, into cpus (CPU_SETSIZE of them)
 * unless NULL; how many, or -1 when they cannot be read.
 */
extern int	usable_cpus(int *cpus);

#endif							/* PGBENCH_EXT_PROCFS_H */
