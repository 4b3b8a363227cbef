/*-------------------------------------------------------------------------
 *
 * layout_diff.c
 *		Print one struct layout, or what changed between two; the changes
 *		are computed once (layout_compare) for this text and for the
 *		report's section of the same name (report_layout.c).
 *
 * A field-reordering patch is judged by which fields end up on one cache
 * line, so the diff reports, per struct: fields that moved (old and new
 * offset and line), fields added, removed or resized, and fields whose
 * line neighbours changed even though they did not move themselves.
 * Structs with no change take one line.
 *
 * Lines are counted from the start of the struct (line = offset / line
 * size); where the live objects really start is struct_placement()'s job.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"
#include "layout.h"

#include "lib/stringinfo.h"

const char *const layout_diff_headers[LAYOUT_DIFF_COLUMNS] = {
	"field", "A offset", "A line", "B offset", "B line", "change", "line neighbours (+gained -lost)"
};

static int
first_line(const LayoutFieldInfo *f, int line_size)
{
	return f->offset / line_size;
}

static int
last_line(const LayoutFieldInfo *f, int line_size)
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
	return first_line(a, line_size) <= last_line(b, line_size) &&
		first_line(b, line_size) <= last_line(a, line_size);
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
	out->a_line = fa ? first_line(fa, line_size) : -1;
	out->b_line = fb ? first_line(fb, line_size) : -1;
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
	d->line_size = line_size;
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

/* "SnapshotData: size 120 bytes in both, 1 field changed", and the like */
char *
layout_struct_headline(const LayoutStructDiff *s)
{
	int			n = s->nfields;

	if (s->a == NULL || s->b == NULL)
		return psprintf("%s: only in %s", s->name, s->a ? "A" : "B");
	if (layout_struct_unchanged(s))
		return psprintf("%s: identical (%d fields, %d bytes)", s->name, s->a->nfields, s->a->size);
	if (s->a->size != s->b->size)
		return psprintf("%s: size %d -> %d bytes (%+d), %d field%s changed", s->name,
						s->a->size, s->b->size, s->b->size - s->a->size, n, n == 1 ? "" : "s");
	return psprintf("%s: size %d bytes in both, %d field%s changed", s->name,
					s->a->size, n, n == 1 ? "" : "s");
}

/* The cells of one changed field, as both the text and the report tables show it. */
void
layout_field_cells(const LayoutFieldDiff *f, const char **cells)
{
	cells[0] = f->name;
	cells[1] = f->a ? psprintf("%d", f->a->offset) : NULL;
	cells[2] = f->a ? psprintf("%d", f->a_line) : NULL;
	cells[3] = f->b ? psprintf("%d", f->b->offset) : NULL;
	cells[4] = f->b ? psprintf("%d", f->b_line) : NULL;
	cells[5] = f->change;
	cells[6] = f->neighbours;
}

void
layout_diff(const Layout *a, const Layout *b, int line_size, FILE *out)
{
	LayoutDiff *d = layout_compare(a, b, line_size);

	/* a saved layout is a file of anyone's: its texts are shown escaped */
	fprintf(out, "A: %s (PostgreSQL %s)\n", escape_text(a->source, ESCAPE_TERMINAL),
			escape_text(a->server_version, ESCAPE_TERMINAL));
	fprintf(out, "B: %s (PostgreSQL %s)\n", escape_text(b->source, ESCAPE_TERMINAL),
			escape_text(b->server_version, ESCAPE_TERMINAL));
	fprintf(out, "Lines of %d bytes, counted from the start of each struct.\n\n", line_size);

	for (int i = 0; i < d->nstructs; i++)
	{
		const LayoutStructDiff *s = &d->structs[i];

		fprintf(out, "%s\n", layout_struct_headline(s));
		if (s->nfields > 0)
		{
			TextTable  *table = table_create(LAYOUT_DIFF_COLUMNS, layout_diff_headers);

			table_set_max_width(table, 6, 60);
			for (int f = 0; f < s->nfields; f++)
			{
				const char *cells[LAYOUT_DIFF_COLUMNS];

				layout_field_cells(&s->fields[f], cells);
				table_add_row(table, cells);
			}
			table_print(table, out);
			table_free(table);
		}
		fputc('\n', out);
	}
}

void
layout_print(const Layout *layout, int line_size, FILE *out)
{
	static const char *const headers[] = {"field", "type", "offset", "size", "line", "straddles"};

	fprintf(out, "%s (PostgreSQL %s); lines of %d bytes from the start of each struct\n\n",
			escape_text(layout->source, ESCAPE_TERMINAL),
			escape_text(layout->server_version, ESCAPE_TERMINAL), line_size);
	for (int i = 0; i < layout->nstructs; i++)
	{
		const LayoutStructInfo *s = &layout->structs[i];
		TextTable  *table = table_create(lengthof(headers), headers);

		fprintf(out, "%s: %d bytes, %d fields, %d lines\n", s->name, s->size, s->nfields,
				(s->size + line_size - 1) / line_size);
		for (int f = 0; f < s->nfields; f++)
		{
			const LayoutFieldInfo *fi = &s->fields[f];
			const char *cells[6];

			cells[0] = fi->name;
			cells[1] = fi->type;
			cells[2] = psprintf("%d", fi->offset);
			cells[3] = psprintf("%d", fi->size);
			cells[4] = psprintf("%d", first_line(fi, line_size));
			cells[5] = first_line(fi, line_size) != last_line(fi, line_size) ? "yes" : "";
			table_add_row(table, cells);
		}
		table_print(table, out);
		table_free(table);
		fputc('\n', out);
	}
}
