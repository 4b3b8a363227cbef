/*-------------------------------------------------------------------------
 *
 * hugepages.h
 *		Huge pages for the shared memory of managed servers (huge_pages =
 *		on): what a server needs, and the kernel's pool raised for the
 *		experiment where the client runs as root (hugepages.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_HUGEPAGES_H
#define PGBENCH_EXT_HUGEPAGES_H

#include <stdbool.h>

/*
 * The huge pages the server of datadir needs, asked of its postgres before
 * it starts: > 0 pages, 0 where this PostgreSQL cannot say (before 15), -1
 * with *error set when it could not be asked or has no huge pages.
 */
extern long hugepages_needed(const char *bindir, const char *datadir, const char *variant,
							 char **error);

/*
 * Make need pages available to the next server to start (need 0: any),
 * raising vm.nr_hugepages by what is missing where we are root, and saying
 * so; false with *error naming what to do where they cannot be had.
 */
extern bool hugepages_provide(long need, const char *variant, char **error);

/* Whether fewer than need pages are free for the next start now */
extern bool hugepages_taken(long need);

/* Take off vm.nr_hugepages what we added to it (when the servers have stopped). */
extern void hugepages_give_back(void);

#endif							/* PGBENCH_EXT_HUGEPAGES_H */
