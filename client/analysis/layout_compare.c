/*-------------------------------------------------------------------------
 *
 * layout_compare.c
 *		What changed between two struct layouts, computed once for the
 *		"layout diff" command's text and for the report (layout_diff.c,
 *		report_layout_write.c).
 *
 * A field-reordering patch is judged by which fields end up on one cache
 * line, so the diff reports, per struct: fields that moved (old and new
 * offset and line), fields added, removed or resized, and fields whose
 * line neighbours changed even though they did not move themselves.
 *
 * Lines are counted from the start of the struct (line = offset / line
 * size); where the live objects really start is struct_placement()'s job.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"

#include "lib/stringinfo.h"

/* the cache lines a field starts and ends on, from the struct's start */
int
layout_first_line(const LayoutFieldInfo *f, int line_size)
{
	return f->offset / line_size;
}

int
layout_last_line(const LayoutFieldInfo *f, int line_size)
{
	return (f->offset + Max(f->size, 1) - 1) / line_size;
}

static const LayoutStructInfo *
find_struct(const Layout *layout, const char *name)
{
	for (int i = 0; i < layout->nstructs; i++)
		if (strcmp(layout->structs[i].name, name) == 0)
			return &layout->structs[i];
	return NULL;
}

static const LayoutFieldInfo *
find_field(const LayoutStructInfo *s, const char *name)
{
	if (s == NULL)
		return NULL;
	for (int i = 0; i < s->nfields; i++)
		if (strcmp(s->fields[i].name, name) == 0)
			return &s->fields[i];
	return NULL;
}

/* Do fields a and b have a cache line in common? */
static bool
share_line(const LayoutFieldInfo *a, const LayoutFieldInfo *b, int line_size)
{
	return layout_first_line(a, line_size) <= layout_last_line(b, line_size) &&
		layout_first_line(b, line_size) <= layout_last_line(a, line_size);
}

/*
 * Append "<sign>name" for each field sharing a line with f in layout "in"
 * but not with its counterpart in "other": with sign '+' (in = B) the
 * neighbours gained, with '-' (in = A) those lost.
 */
static void
append_neighbour_changes(StringInfo buf, char sign,
						 const LayoutStructInfo *in, const LayoutFieldInfo *f,
						 const LayoutStructInfo *other, const LayoutFieldInfo *f_other,
						 int line_size)
{
	for (int i = 0; i < in->nfields; i++)
	{
		const LayoutFieldInfo *n = &in->fields[i];
		const LayoutFieldInfo *n_other = find_field(other, n->name);

		if (n == f || !share_line(f, n, line_size))
			continue;
		if (n_other == NULL || !share_line(f_other, n_other, line_size))
			appendStringInfo(buf, "%s%c%s", buf->len > 0 ? " " : "", sign, n->name);
	}
}

/*
 * Neighbours of field "name" gained and lost between A and B, as
 * "+x +y -z"; empty when the set is unchanged or the field is in one only.
 */
static char *
neighbour_changes(const LayoutStructInfo *sa, const LayoutStructInfo *sb,
				  const char *name, int line_size)
{
	const LayoutFieldInfo *fa = find_field(sa, name);
	const LayoutFieldInfo *fb = find_field(sb, name);
	StringInfoData buf;

	initStringInfo(&buf);
	if (fa != NULL && fb != NULL)
	{
		append_neighbour_changes(&buf, '+', sb, fb, sa, fa, line_size);
		append_neighbour_changes(&buf, '-', sa, fa, sb, fb, line_size);
	}
	return buf.data;
}

/* "moved", "size 4 -> 8", "added", "removed", or NULL when unchanged. */
static char *
field_change(const LayoutFieldInfo *fa, const LayoutFieldInfo *fb)
{
	if (fa == NULL)
		return pg_strdup("added");
	if (fb == NULL)
		return pg_strdup("removed");
	if (fa->offset != fb->offset && fa->size != fb->size)
		return psprintf("moved, size %d -> %d", fa->size, fb->size);
	if (fa->offset != fb->offset)
		return pg_strdup("moved");
	if (fa->size != fb->size)
		return psprintf("size %d -> %d", fa->size, fb->size);
	return NULL;
}

/* One field's entry of the diff, or false when nothing about it changed. */
static bool
diff_field(const LayoutStructInfo *sa, const LayoutStructInfo *sb, const char *name,
		   int line_size, LayoutFieldDiff *out)
{
	const LayoutFieldInfo *fa = find_field(sa, name);
	const LayoutFieldInfo *fb = find_field(sb, name);
	char	   *change = field_change(fa, fb);
	char	   *neighbours = neighbour_changes(sa, sb, name, line_size);

	if (change == NULL && neighbours[0] == '\0')
		return false;
	out->name = name;
	out->a = fa;
	out->b = fb;
	out->a_line = fa ? layout_first_line(fa, line_size) : -1;
	out->b_line = fb ? layout_first_line(fb, line_size) : -1;
	out->change = change ? change : "";
	out->neighbours = neighbours;
	return true;
}

static void
diff_struct(const LayoutStructInfo *sa, const LayoutStructInfo *sb, int line_size,
			LayoutStructDiff *out)
{
	memset(out, 0, sizeof(*out));
	out->name = sa ? sa->name : sb->name;
	out->a = sa;
	out->b = sb;
	if (sa == NULL || sb == NULL)
		return;
	out->fields = pg_malloc(sizeof(LayoutFieldDiff) * (sa->nfields + sb->nfields + 1));
	for (int i = 0; i < sa->nfields; i++)
		if (diff_field(sa, sb, sa->fields[i].name, line_size, &out->fields[out->nfields]))
			out->nfields++;
	for (int i = 0; i < sb->nfields; i++)
		if (find_field(sa, sb->fields[i].name) == NULL &&
			diff_field(sa, sb, sb->fields[i].name, line_size, &out->fields[out->nfields]))
			out->nfields++;
}

bool
layout_struct_unchanged(const LayoutStructDiff *s)
{
	return s->a != NULL && s->b != NULL && s->nfields == 0 && s->a->size == s->b->size;
}

/*
 * What changed between layouts a and b, struct by struct: a's structs in
 * order, then those only b has.
 */
LayoutDiff *
layout_compare(const Layout *a, const Layout *b, int line_size)
{
	LayoutDiff *d = pg_malloc0(sizeof(LayoutDiff));

	d->a = a;
	d->b = b;
	d->identical = true;
	d->structs = pg_malloc0(sizeof(LayoutStructDiff) * (a->nstructs + b->nstructs + 1));
	for (int i = 0; i < a->nstructs; i++)
		diff_struct(&a->structs[i], find_struct(b, a->structs[i].name), line_size,
					&d->structs[d->nstructs++]);
	for (int i = 0; i < b->nstructs; i++)
		if (find_struct(a, b->structs[i].name) == NULL)
			diff_struct(NULL, &b->structs[i], line_size, &d->structs[d->nstructs++]);
	for (int i = 0; i < d->nstructs; i++)
		if (!layout_struct_unchanged(&d->structs[i]))
			d->identical = false;
	return d;
}
