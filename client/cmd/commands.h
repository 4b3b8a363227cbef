/*-------------------------------------------------------------------------
 *
 * commands.h
 *		The commands main.c dispatches; each takes the arguments after its
 *		own name.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_COMMANDS_H
#define PGBENCH_EXT_COMMANDS_H

#include "client.h"

/* commands: each takes the arguments after its own name */
extern int	cmd_env(int argc, char **argv);
extern int	cmd_layout(int argc, char **argv);
extern int	cmd_run(int argc, char **argv);
extern int	cmd_ab(int argc, char **argv);
extern int	cmd_calibrate(int argc, char **argv);
extern int	cmd_report(int argc, char **argv);
extern int	cmd_compare(int argc, char **argv);

/* cmd_report.c: the options report and compare share; returns --baseline */
extern const char *report_parse_options(int argc, char **argv, const char *command,
										void (*usage) (void));
extern int	cmd_import(int argc, char **argv);
extern int	cmd_history(int argc, char **argv);
extern int	cmd_bisect(int argc, char **argv);
extern int	cmd_submit(int argc, char **argv);
extern int	cmd_jobs(int argc, char **argv);
extern int	cmd_agent(int argc, char **argv);

#endif							/* PGBENCH_EXT_COMMANDS_H */
