/*-------------------------------------------------------------------------
 *
 * report_layout_write.c
 *		"What the patch moved" in the outputs: a line per struct under the
 *		terminal's verdict table, every field in report.md and report.html,
 *		and the diffs in summary.json.
 *
 * A writer: the diffs are the ones report_layout.c loaded and compared.
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"
#include "report.h"

#include <limits.h>

/* Fields listed per struct in the terminal's summary line, farthest moved first. */
#define TERMINAL_MAX_FIELDS 6

static char *
pair_title(const ReportData *r, const ReportLayoutDiff *ld)
{
	return psprintf("%s vs %s", report_variant_name(r, ld->variant),
					report_variant_name(r, report_baseline_of(r, ld->variant)));
}

/* How far a field moved; added and removed fields count as farthest. */
static int
distance(const LayoutFieldDiff *f)
{
	return f->a && f->b ? abs(f->b->offset - f->a->offset) : INT_MAX;
}

static int
farthest_first(const void *x, const void *y)
{
	int			a = distance(*(const LayoutFieldDiff *const *) x);
	int			b = distance(*(const LayoutFieldDiff *const *) y);

	return (a < b) - (a > b);
}

void
report_layout_print(const ReportData *r, FILE *out)
{
	if (r->nlayout_diffs == 0)
		return;
	fprintf(out, "\nwhat the patch moved (struct layouts, lines of %d bytes; report.md has every field):\n",
			REPORT_LAYOUT_LINE_SIZE);
	for (int i = 0; i < r->nlayout_diffs; i++)
	{
		const ReportLayoutDiff *ld = &r->layout_diffs[i];

		fprintf(out, "%s:", pair_title(r, ld));
		if (ld->diff == NULL)
		{
			fprintf(out, " %s\n", ld->problem);
			continue;
		}
		if (ld->diff->identical)
		{
			fprintf(out, " identical layouts\n");
			continue;
		}
		fprintf(out, "\n");
		for (int s = 0; s < ld->diff->nstructs; s++)
		{
			const LayoutStructDiff *sd = &ld->diff->structs[s];
			const LayoutFieldDiff **changed;
			int			n = 0;

			if (layout_struct_unchanged(sd))
				continue;
			fprintf(out, "  %s", layout_struct_headline(sd));
			changed = pg_malloc(sizeof(LayoutFieldDiff *) * (sd->nfields + 1));
			for (int f = 0; f < sd->nfields; f++)
				if (sd->fields[f].change[0] != '\0')	/* not only its neighbours */
					changed[n++] = &sd->fields[f];
			qsort(changed, n, sizeof(LayoutFieldDiff *), farthest_first);
			for (int f = 0; f < n && f < TERMINAL_MAX_FIELDS; f++)
			{
				fprintf(out, "%s %s", f == 0 ? ":" : ",", changed[f]->name);
				if (changed[f]->a && changed[f]->b)
					fprintf(out, " %d -> %d", changed[f]->a->offset, changed[f]->b->offset);
				else
					fprintf(out, " %s", changed[f]->change);
			}
			fprintf(out, "%s\n", n > TERMINAL_MAX_FIELDS ? ", ..." : "");
			pg_free(changed);
		}
	}
}

void
report_layout_section(const ReportData *r, Doc *d)
{
	if (r->nlayout_diffs == 0)
		return;
	doc_heading(d, 2, "What the patch moved");
	doc_para(d, "The struct layouts of each variant's server, saved when the experiment set it up "
			 "(layout-NAME.json; \"pgbench_ext layout DIR A B\" prints the same diff). Lines of %d "
			 "bytes, counted from the start of each struct. Every field that moved, was added, "
			 "removed or resized, and every field whose line neighbours changed: +gained "
			 "are the fields it now shares a line with and did not before, -lost the reverse.",
			 REPORT_LAYOUT_LINE_SIZE);
	for (int i = 0; i < r->nlayout_diffs; i++)
	{
		const ReportLayoutDiff *ld = &r->layout_diffs[i];

		doc_heading(d, 3, pair_title(r, ld));
		if (ld->diff == NULL)
		{
			doc_para(d, "%s", ld->problem);
			continue;
		}
		if (ld->diff->identical)
		{
			doc_para(d, "The layouts of %s and %s are identical: no field of the four structs moved.",
					 report_variant_name(r, ld->variant), report_variant_name(r, r->baseline));
			continue;
		}
		for (int s = 0; s < ld->diff->nstructs; s++)
		{
			const LayoutStructDiff *sd = &ld->diff->structs[s];

			doc_para(d, "%s", layout_struct_headline(sd));
			if (sd->nfields == 0)
				continue;
			doc_table_begin(d, LAYOUT_DIFF_COLUMNS, layout_diff_headers);
			for (int f = 0; f < sd->nfields; f++)
			{
				const char *cells[LAYOUT_DIFF_COLUMNS];

				layout_field_cells(&sd->fields[f], cells);
				doc_table_row(d, cells);
			}
			doc_table_end(d);
		}
	}
}

static json_t *
offset_json(const LayoutFieldInfo *f)
{
	return f ? json_integer(f->offset) : json_null();
}

static json_t *
struct_json(const LayoutStructDiff *sd)
{
	json_t	   *fields = json_array();

	for (int f = 0; f < sd->nfields; f++)
	{
		const LayoutFieldDiff *fd = &sd->fields[f];

		json_array_append_new(fields,
							  json_pack("{s:s, s:o, s:o, s:o, s:o, s:s, s:s}",
										"name", fd->name,
										"a_offset", offset_json(fd->a),
										"a_line", fd->a ? json_integer(fd->a_line) : json_null(),
										"b_offset", offset_json(fd->b),
										"b_line", fd->b ? json_integer(fd->b_line) : json_null(),
										"change", fd->change,
										"neighbours", fd->neighbours));
	}
	return json_pack("{s:s, s:o, s:o, s:b, s:s, s:o}",
					 "name", sd->name,
					 "a_size", sd->a ? json_integer(sd->a->size) : json_null(),
					 "b_size", sd->b ? json_integer(sd->b->size) : json_null(),
					 "unchanged", layout_struct_unchanged(sd),
					 "headline", layout_struct_headline(sd),
					 "fields", fields);
}

json_t *
report_layout_json(const ReportData *r)
{
	json_t	   *pairs = json_array();

	for (int i = 0; i < r->nlayout_diffs; i++)
	{
		const ReportLayoutDiff *ld = &r->layout_diffs[i];
		json_t	   *structs = json_array();

		for (int s = 0; ld->diff && s < ld->diff->nstructs; s++)
			json_array_append_new(structs, struct_json(&ld->diff->structs[s]));
		json_array_append_new(pairs,
							  json_pack("{s:s, s:s, s:i, s:o, s:o, s:o}",
										"baseline", report_variant_name(r, report_baseline_of(r, ld->variant)),
										"variant", report_variant_name(r, ld->variant),
										"line_size", REPORT_LAYOUT_LINE_SIZE,
										"identical", ld->diff ? json_boolean(ld->diff->identical) : json_null(),
										"problem", ld->problem ? json_string(ld->problem) : json_null(),
										"structs", structs));
	}
	return pairs;
}
