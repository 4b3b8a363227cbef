/*-------------------------------------------------------------------------
 *
 * profile_report_write.h
 *		The writers of the profiles in a report: the terminal's summary,
 *		the sections of report.md and report.html, summary.json's part, and
 *		the flame graphs; and those of counted_view's counted experiment
 *		(profile_report_write.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_PROFILE_REPORT_WRITE_H
#define PGBENCH_EXT_PROFILE_REPORT_WRITE_H

#include "profile_report.h"

extern void profile_print_summary(const ReportData *r, FILE *out);
extern void profile_write_sections(const ReportData *r, Doc *d);
extern json_t *profile_summary_json(const ReportData *r);
extern void profile_print_counted_view(const ReportData *r, FILE *out);
extern void profile_write_counted_view(const ReportData *r, Doc *d);
extern json_t *profile_counted_view_json(const ReportData *r);
extern bool profile_write_files(const ReportData *r, char **error);

#endif							/* PGBENCH_EXT_PROFILE_REPORT_WRITE_H */
