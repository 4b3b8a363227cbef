/*-------------------------------------------------------------------------
 *
 * profile_report.h
 *		Profiles in the report: metrics and functions compared, their
 *		sections, flame graphs and exports (profile_report.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_REPORT_H
#define PGBENCH_EXT_PROFILE_REPORT_H

#include "report.h"

extern void profile_report_load(ReportData *r);
extern void profile_print_summary(const ReportData *r, FILE *out);
extern void profile_write_sections(const ReportData *r, Doc *d);
extern json_t *profile_summary_json(const ReportData *r);
extern bool profile_write_files(const ReportData *r, char **error);

/* A runs/NNNN.profile.json the report (and import) can use */
extern bool profile_run_usable(json_t *doc);
extern bool profile_name_ok(const char *name, bool stack);

#endif							/* PGBENCH_EXT_PROFILE_REPORT_H */
