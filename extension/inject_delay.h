/*-------------------------------------------------------------------------
 *
 * inject_delay.h
 *		A known slowdown for calibrating the harness (inject_delay.c): its
 *		settings, and the wait the transaction callback makes before commit.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_INJECT_DELAY_H
#define PGBENCH_EXT_INJECT_DELAY_H

#include "pgbench_ext.h"

/* either setting above zero: tested inline by the transaction callback */
extern bool inject_delay_wanted;

extern void inject_delay_define_settings(void);
extern void inject_delay_before_commit(void);

#endif							/* PGBENCH_EXT_INJECT_DELAY_H */
