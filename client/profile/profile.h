/*-------------------------------------------------------------------------
 *
 * profile.h
 *		Profiles of the variants' servers: counted (callgrind) and sampled
 *		(perf), a verdict per function, differential flame graphs.
 *
 *   profile_spec.c      the keys, their checks before any run, symbols
 *   profile_counted.c   servers under callgrind; a short and a long run
 *   profile_sampled.c   perf record of the server during each run
 *   profile_run.c       the hooks of one run; runs/NNNN.profile.json
 *   profile_data.c      profiles in memory (plain C)
 *   profile_parse.c     callgrind and perf script readers (plain C)
 *   profile_report.c    metrics and functions compared (the report's analysis)
 *   profile_report_write.c  their tables, sections, JSON and flame graphs
 *   profile_flame.c     the differential flame graph (plain C)
 *   profile_import.c    "import" of the profiles into SQL tables
 *   profile_symbols.c   ELF symbols of a server binary (plain C)
 *
 * Each file's functions are declared in the header of its own name
 * (profile_run.h for profile_run.c, ...); this one holds the figures
 * they share.  With profile = off every hook of profile_run.h is a no-op.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_H
#define PGBENCH_EXT_PROFILE_H

/* Runs of a counted experiment: transactions per client when none are given. */
#define PROFILE_COUNTED_TRANSACTIONS	1000
/* Samples per CPU-second of a sampled experiment (bench/profile_overhead.sh). */
#define PROFILE_SAMPLE_RATE				499
/*
 * The noise threshold of a counted experiment's instructions per
 * transaction: they repeat to about 0.02% (docs/profiles.md, Measurements).
 */
#define PROFILE_COUNTED_NOISE			0.0005
/* Functions get a verdict from this share of a side's total cost up. */
#define PROFILE_MIN_SHARE				0.01
/* Warn when more of a variant's samples than this have no symbol. */
#define PROFILE_UNRESOLVED_WARN			0.10

#endif							/* PGBENCH_EXT_PROFILE_H */
