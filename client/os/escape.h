/*-------------------------------------------------------------------------
 *
 * escape.h
 *	  The one way an untrusted string is written (escape.c): to the
 *	  terminal, into report.md, into report.html or an SVG.
 *
 * Plain C99 with libc only, so that the unit test (test/unit/test_escape.c)
 * and the flame graph's test link it alone.
 *
 * client/os/escape.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_ESCAPE_H
#define PGBENCH_EXT_ESCAPE_H

#include <stdio.h>

/*
 * Where the text goes.  In every target a control character (C0, DEL,
 * C1), a character that reorders or breaks lines unseen (bidirectional
 * controls, U+2028, U+2029) and a byte that is not UTF-8 are shown
 * escaped: "\x1b" for C0 and DEL, "\u009b" for the other characters,
 * "\xc3" for a byte that is not UTF-8 (only those are 80 to ff).  Text
 * that is valid, printable UTF-8 stays as it is.
 */
typedef enum EscapeTarget
{
	ESCAPE_TERMINAL,			/* a name or a table cell: one line, no tab */
	ESCAPE_TERMINAL_LINES,		/* a message of the client's own: its line
								 * breaks and tabs stay */
	ESCAPE_MARKDOWN,			/* report.md: "\", "|", "<", ">" and "`" after
								 * a backslash too */
	ESCAPE_HTML					/* HTML or XML text and attribute values: "<",
								 * ">", "&", '"' and "'" as entities */
} EscapeTarget;

/* s written to out for target */
extern void escape_write(FILE *out, const char *s, EscapeTarget target);

/* s for target, in memory obtained with malloc() (exits when there is none) */
extern char *escape_text(const char *s, EscapeTarget target);

#endif							/* PGBENCH_EXT_ESCAPE_H */
