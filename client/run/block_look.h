/*-------------------------------------------------------------------------
 *
 * block_look.h
 *		rounds = auto: the look after each block of rounds (block_look.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_BLOCK_LOOK_H
#define PGBENCH_EXT_BLOCK_LOOK_H

#include "budget.h"

/*
 * Every cell of the results directory dir looked at after block "block"
 * (spent seconds so far), with a line per block or cell when print; *stop
 * when every cell is decided or the budget has no room for another block.
 */
extern bool block_look(const char *dir, const BudgetPlan *b, int block, double spent, bool print,
					   bool *stop, char **error);

#endif							/* PGBENCH_EXT_BLOCK_LOOK_H */
