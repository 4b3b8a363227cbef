/*-------------------------------------------------------------------------
 *
 * procfs.h
 *		What the kernel's /proc says of a process: its state letter and
 *		its parent, and the children of a process (procfs.c).
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

/* The children of pid, at most max of them into out; -1 without /proc */
extern int	procfs_children(pid_t pid, pid_t *out, int max);

#endif							/* PGBENCH_EXT_PROCFS_H */
