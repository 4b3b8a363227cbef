/*-------------------------------------------------------------------------
 *
 * results_csv.h
 *		The CSV files of a results directory: writing fields, reading a
 *		file back as untrusted data (results_csv.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_RESULTS_CSV_H
#define PGBENCH_EXT_RESULTS_CSV_H

#include "client.h"

/* A CSV file of the results directory as read back: every line checked */
typedef struct RunsCsv
{
	char	   *path;
	int			ncols;
	char	   *header;			/* the first line as written, line end included */
	char	  **columns;		/* its names, a renamed column's the new one */
	int			nrows;
	char	 ***rows;			/* nrows rows of ncols fields each */
	char	  **lines;			/* each row as written, line end included */
} RunsCsv;

/*
 * The most lines a CSV file of a results directory is read with: a line is
 * a run at most (RESULTS_MAX_RUN_ID), and each costs a pointer per column.
 */
#define RESULTS_CSV_MAX_ROWS 1000000

typedef bool (*ResultsRowCheck) (const RunsCsv *t, char **fields, const void *arg,
								 char **problem);

extern void results_csv_number(FILE *f, double v, const char *fmt);
extern void results_csv_text(FILE *f, const char *s);
extern RunsCsv *results_read_csv(const char *path, const char *const *required, int nrequired,
								 ResultsRowCheck check, const void *arg, const char *hint,
								 char **error);
extern bool results_check_numbers(const RunsCsv *t, char **f, const char *const *columns,
								  int n, char **problem);
extern bool results_parse_int(const char *s, long min, long *result);
extern int	runs_csv_column(const RunsCsv *t, const char *name);
extern char *results_csv_header(const RunsCsv *t);

#endif							/* PGBENCH_EXT_RESULTS_CSV_H */
