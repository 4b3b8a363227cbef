/*-------------------------------------------------------------------------
 *
 * table.h
 *		Aligned text tables, as psql prints them (table.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_TABLE_H
#define PGBENCH_EXT_TABLE_H

#include "client.h"

/* table.c: aligned text tables, as psql prints them */
typedef struct TextTable TextTable;

extern TextTable *table_create(int ncols, const char *const *headers);
extern void table_set_max_width(TextTable *t, int col, int width);
extern void table_add_row(TextTable *t, const char *const *cells);
extern void table_print(const TextTable *t, FILE *out);
extern void table_free(TextTable *t);
extern int	table_display_width(const char *s);

#endif							/* PGBENCH_EXT_TABLE_H */
