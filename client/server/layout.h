/*-------------------------------------------------------------------------
 *
 * layout.h
 *		Struct layouts of a server, saved or live, and what changed between
 *		two (layout_io.c, layout_diff.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCH_EXT_LAYOUT_H
#define PGBENCH_EXT_LAYOUT_H

#include "client.h"

/* layout_io.c, layout_diff.c: struct layouts of a server, saved or live */
typedef struct LayoutFieldInfo
{
	char	   *name;
	char	   *type;
	int			offset;
	int			size;
} LayoutFieldInfo;

typedef struct LayoutStructInfo
{
	char	   *name;
	int			size;			/* sizeof, from the (total) row */
	int			nfields;
	LayoutFieldInfo *fields;	/* in declaration order */
} LayoutStructInfo;

typedef struct Layout
{
	char	   *source;			/* file name or server description */
	char	   *server_version;
	int			pg_cache_line_size;
	int			nstructs;
	LayoutStructInfo *structs;
} Layout;

extern Layout *layout_from_server(PGconn *conn);
extern Layout *layout_from_file(const char *path);
extern void layout_save(const Layout *layout, const char *path);
extern void layout_print(const Layout *layout, int line_size, FILE *out);
extern void layout_diff(const Layout *a, const Layout *b, int line_size, FILE *out);
extern Layout *layout_load_file(const char *path, char **error);

/* What changed between two layouts (layout_compare), for the text and the report */
typedef struct LayoutFieldDiff
{
	const char *name;
	const LayoutFieldInfo *a;	/* NULL: added in B */
	const LayoutFieldInfo *b;	/* NULL: removed in B */
	int			a_line;			/* first line, from the struct's start; -1 if absent */
	int			b_line;
	char	   *change;			/* "moved", "size 4 -> 8", "added", "removed" or "" */
	char	   *neighbours;		/* line neighbours gained and lost: "+x +y -z" */
} LayoutFieldDiff;

typedef struct LayoutStructDiff
{
	const char *name;
	const LayoutStructInfo *a;	/* NULL: only in B */
	const LayoutStructInfo *b;	/* NULL: only in A */
	int			nfields;		/* fields that changed */
	LayoutFieldDiff *fields;
} LayoutStructDiff;

typedef struct LayoutDiff
{
	const Layout *a;
	const Layout *b;
	bool		identical;		/* every struct in both, unchanged */
	int			nstructs;
	LayoutStructDiff *structs;
} LayoutDiff;

#define LAYOUT_DIFF_COLUMNS 7
extern const char *const layout_diff_headers[LAYOUT_DIFF_COLUMNS];
extern int	layout_first_line(const LayoutFieldInfo *f, int line_size);
extern int	layout_last_line(const LayoutFieldInfo *f, int line_size);
extern LayoutDiff *layout_compare(const Layout *a, const Layout *b, int line_size);
extern bool layout_struct_unchanged(const LayoutStructDiff *s);
extern char *layout_struct_headline(const LayoutStructDiff *s);
extern void layout_field_cells(const LayoutFieldDiff *f, const char **cells);

#endif							/* PGBENCH_EXT_LAYOUT_H */
