/*-------------------------------------------------------------------------
 *
 * noise_history.h
 *		The host's noise history (noise.csv in the client's state
 *		directory, noise_history.c): what each finished experiment measured
 *		of this host's noise, and the record that best describes an
 *		experiment about to run.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_NOISE_HISTORY_H
#define PGBENCH_EXT_NOISE_HISTORY_H

#include "experiment.h"

/*
 * The format of noise.csv, its first column in every record.  Format 1
 * (1.0.0) had no binaries column: its records are read as of binaries not
 * recorded, and the next record upgrades the file (noise_history_append());
 * a history of any other format is set aside, not read.
 */
#define NOISE_HISTORY_FORMAT_VERSION 2
#define NOISE_HISTORY_FORMAT_1_0 1

/* What a record's servers ran */
typedef enum NoiseBinaries
{
	NOISE_BINARIES_NOT_RECORDED,	/* two servers, of format 1 */
	NOISE_BINARIES_ONE,			/* one server, or two of one postgres */
	NOISE_BINARIES_OWN			/* two servers of builds or bindirs of
								 * their own */
} NoiseBinaries;

/* One record of the host's noise history */
typedef struct NoiseRecord
{
	bool		found;
	char		recorded_at[32];
	char		script[128];
	int			clients;
	bool		two_servers;
	NoiseBinaries binaries;
	char		schedule[32];
	double		round_sd;
	int			round_df;
	double		instance_sd;	/* NAN: not measured */
	int			instance_df;
	double		run_overhead_s; /* NAN: not known */
	double		restart_s;		/* NAN: not known */
	double		busy_pct;		/* other processes' share of the CPUs as the
								 * experiment began; NAN: not recorded */
} NoiseRecord;

/* What an experiment about to run looks for in the history */
typedef struct NoiseQuery
{
	bool		two_servers;	/* its arrangement */
	bool		own_binaries;	/* two servers of binaries of their own */
	const char *schedule;		/* as the history names it */
	const char *script;			/* its first cell's pgbench load */
	int			clients;
	double		busy_pct;		/* the host's load now; NAN: not measured */
} NoiseQuery;

extern char *noise_history_path(void);
extern const char *noise_schedule_label(const ExperimentSpec *spec);
extern NoiseQuery noise_query_of(const ExperimentSpec *spec, double busy_pct);

/*
 * What q is of, as the pre-flight names it ("two servers of binaries of
 * their own, duet-swap"), and what record r's two servers ran (", one
 * binary"; "" for one server)
 */
extern const char *noise_query_words(const NoiseQuery *q);
extern const char *noise_binaries_words(const NoiseRecord *r);

/* The record line (a line of the file, modified) holds, into r; false: none */
extern bool noise_parse_record(char *line, NoiseRecord *r);

/* Both loaded, or both quiet; a load not recorded is neither */
extern bool noise_like_load(double busy_pct, double record_busy_pct);

/* Whether r's sds, each of them, rest on RESTART_AUTO_MIN_DF */
extern bool noise_enough_df(const NoiseRecord *r, bool two);

/* How well r describes q's noise, higher better; -1: not at all */
extern int	noise_record_score(const NoiseRecord *r, const NoiseQuery *q);

/* The best record of the history at path for q; found false: none */
extern NoiseRecord noise_history_find(const char *path, const NoiseQuery *q);

/*
 * Records (lines, each ending in a newline) appended to the history at
 * path, its directory made where missing; a history of format 1 is
 * upgraded first, one of another format set aside.  False with the
 * problem in *error.
 */
extern bool noise_history_append(const char *path, const char *records, char **error);

/* After an experiment: its measured noise, per cell, into the history. */
extern void noise_history_record(const ExperimentSpec *spec, const char *results_dir,
								 double busy_pct);

#endif							/* PGBENCH_EXT_NOISE_HISTORY_H */
