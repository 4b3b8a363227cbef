/*-------------------------------------------------------------------------
 *
 * layout_diff.c
 *		Print one struct layout, or what changed between two, as
 *		layout_compare.c computed it (for this text and for the report's
 *		section of the same name: report_layout_write.c).
 *
 * Structs with no change take one line.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"
#include "layout.h"


const char *const layout_diff_headers[LAYOUT_DIFF_COLUMNS] = {
	"field", "A offset", "A line", "B offset", "B line", "change", "line neighbours (+gained -lost)"
};

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
			cells[4] = psprintf("%d", layout_first_line(fi, line_size));
			cells[5] = layout_first_line(fi, line_size) != layout_last_line(fi, line_size) ? "yes" : "";
			table_add_row(table, cells);
		}
		table_print(table, out);
		table_free(table);
		fputc('\n', out);
	}
}
