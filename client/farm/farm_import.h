/*-------------------------------------------------------------------------
 *
 * farm_import.h
 *		A results directory read, checked and loaded into the results
 *		database (farm_import.c): what "import" and an agent of the queue
 *		share.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_FARM_IMPORT_H
#define PGBENCH_EXT_FARM_IMPORT_H

#include "client.h"
#include "experiment.h"
#include "farm.h"
#include "results_csv.h"

#include <jansson.h>

/* A results directory read and checked, not yet imported. */
typedef struct FarmImport
{
	const char *dir;
	char	   *absdir;
	json_t	   *doc;
	ExperimentSpec spec;
	RunsCsv    *runs;
	FarmMachine machine;
	char	   *signature;
	char	   *identity;
	json_t	   *sequential;		/* rounds = auto: the plan, checked; else NULL */
	double	   *block_spent;	/* budget.csv by block (NAN: none), max_blocks */
	int			max_blocks;
	int			block_rounds;
} FarmImport;

/* What farm_import_load() did. */
typedef struct FarmImported
{
	char	   *experiment_id;
	bool		known;			/* imported before: only new runs added */
	int			nvariants;
	int			nruns;			/* runs added now */
	int			nprofiles;
} FarmImported;

extern bool farm_import_read(const char *dir, FarmImport *d, char **error, char **hint);
extern int	farm_import_load(PGconn *conn, const FarmImport *d, FarmImported *r, char **error);
extern void farm_import_print(const FarmImport *d, const FarmImported *r);

#endif							/* PGBENCH_EXT_FARM_IMPORT_H */
