/*-------------------------------------------------------------------------
 *
 * report_layout.c
 *		"What the patch moved": the struct-layout diff of each variant
 *		against the baseline, from the layouts the runner saved at setup
 *		(layout-NAME.json, struct_layout() of each variant's server), so
 *		that a report re-rendered from the directory alone still has it.
 *
 * Shown for variants built from source (where a patch or a flag may move
 * fields) and for any variant whose layout differs from the baseline's;
 * the diff is layout_diff.c's (layout_compare), the same the "layout DIR
 * A B" command prints, in lines of REPORT_LAYOUT_LINE_SIZE bytes.  The
 * diffs are loaded and compared here; report_layout_write.c writes them.
 *
 * In report.h's map: the analysis stage.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "layout.h"
#include "report.h"

#include <sys/stat.h>

static Layout *
saved_layout(const ReportData *r, int v, char **problem)
{
	char	   *path = psprintf("%s/layout-%s.json", r->dir, report_variant_name(r, v));
	struct stat st;

	if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
	{
		*problem = psprintf("no saved layout of variant %s (layout-%s.json): its server had no struct_layout()",
							report_variant_name(r, v), report_variant_name(r, v));
		return NULL;
	}
	return layout_load_file(path, problem);
}

void
report_layout_load(ReportData *r)
{
	r->layout_diffs = pg_malloc0(sizeof(ReportLayoutDiff) * r->spec.nvariants);
	for (int v = 0; v < r->spec.nvariants; v++)
	{
		int			base = report_baseline_of(r, v);
		bool		source = r->spec.variants[v].source != NULL ||
			r->spec.variants[base].source != NULL;
		char	   *problem = NULL;
		Layout	   *a;
		Layout	   *b = NULL;
		LayoutDiff *diff = NULL;

		if (v == r->baseline)
			continue;
		if ((a = saved_layout(r, base, &problem)) != NULL)
			b = saved_layout(r, v, &problem);
		if (a && b)
			diff = layout_compare(a, b, REPORT_LAYOUT_LINE_SIZE);
		if (!source && (diff == NULL || diff->identical))
			continue;
		r->layout_diffs[r->nlayout_diffs].variant = v;
		r->layout_diffs[r->nlayout_diffs].diff = diff;
		r->layout_diffs[r->nlayout_diffs].problem = problem;
		r->nlayout_diffs++;
	}
}
