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
extern int	cmd_check(int argc, char **argv);
extern int	cmd_calibrate(int argc, char **argv);
extern int	cmd_report(int argc, char **argv);
extern int	cmd_compare(int argc, char **argv);
extern int	cmd_import(int argc, char **argv);

#endif							/* PGBENCH_EXT_COMMANDS_H */
