/*-------------------------------------------------------------------------
 *
 * profile_flame.c
 *	  Differential flame graphs (after Brendan Gregg's): B's stacks drawn
 *	  as a flame graph, each frame coloured by how its cost changed
 *	  against A.
 *
 * The stacks of both sides are merged into one tree of frames, each
 * holding A's and B's cost of everything under it.  A frame's width is
 * B's cost, so that the picture is B's profile; its colour the relative
 * change of that cost, (B - A) / A: red where B spends more, blue where
 * less, white where the same, deepest at +-FLAME_FULL_CHANGE.  A frame A
 * has and B does not has no width: it is named in the function table.
 *
 * The SVG stands alone: no script, no external reference, no style sheet;
 * each frame's <title> (shown on hover) gives its figures.  Every text
 * comes from files an experiment left, so everything written is escaped
 * (escape.c, as HTML: XML takes the same entities).
 *
 * client/report/profile_flame.c
 *
 * In report.h's map: a writer.
 *
 *-------------------------------------------------------------------------
 */
#include "profile_flame.h"
#include "escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FRAME_HEIGHT	16
#define TOP_MARGIN		40
#define SIDE_MARGIN		10
#define CHAR_WIDTH		6.6		/* of 11px Verdana, on average */
#define MIN_WIDTH		0.3		/* narrower frames are not drawn */

typedef struct Node
{
	char	   *name;
	double		a;
	double		b;
	struct Node *children;
	int			nchildren;
	int			cap;
} Node;

static Node *
child(Node *n, const char *name, size_t len)
{
	for (int i = 0; i < n->nchildren; i++)
		if (strlen(n->children[i].name) == len && strncmp(n->children[i].name, name, len) == 0)
			return &n->children[i];
	if (n->nchildren == n->cap)
	{
		n->cap = n->cap ? n->cap * 2 : 4;
		n->children = prof_realloc(n->children, sizeof(Node) * n->cap);
	}
	memset(&n->children[n->nchildren], 0, sizeof(Node));
	n->children[n->nchildren].name = prof_malloc(len + 1);
	memcpy(n->children[n->nchildren].name, name, len);
	n->children[n->nchildren].name[len] = '\0';
	return &n->children[n->nchildren++];
}

static void
insert(Node *root, const char *frames, double value, bool side_b)
{
	Node	   *n = root;
	const char *s = frames;

	if (!(value > 0))
		return;
	for (;;)
	{
		size_t		len = strcspn(s, ";");

		if (side_b)
			n->b += value;
		else
			n->a += value;
		if (len == 0 && s[0] == '\0')
			break;
		n = child(n, s, len);
		s += len;
		if (*s == ';')
			s++;
		else
		{
			if (side_b)
				n->b += value;
			else
				n->a += value;
			break;
		}
	}
}

static int
cmp_nodes(const void *x, const void *y)
{
	return strcmp(((const Node *) x)->name, ((const Node *) y)->name);
}

static void
free_tree(Node *n)
{
	for (int i = 0; i < n->nchildren; i++)
		free_tree(&n->children[i]);
	free(n->children);
	free(n->name);
}

static int
depth_of(const Node *n, double scale)
{
	int			d = 0;

	for (int i = 0; i < n->nchildren; i++)
		if (n->children[i].b * scale >= MIN_WIDTH)
		{
			int			c = depth_of(&n->children[i], scale) + 1;

			if (c > d)
				d = c;
		}
	return d;
}

/* White to red (more) or blue (less), by the relative change. */
static void
colour(double a, double b, int *r, int *g, int *bl)
{
	double		change = a > 0 ? (b - a) / a : (b > 0 ? 1.0 : 0.0);
	double		t = fmin(fabs(change) / FLAME_FULL_CHANGE, 1.0);
	int			fade = (int) lround(255 * (1 - 0.85 * t));

	*r = *g = *bl = fade;
	if (change > 0)
		*r = 255;
	else if (change < 0)
		*bl = 255;
}

typedef struct Drawing
{
	FILE	   *out;
	double		scale;			/* px per unit of cost */
	double		total;			/* B's total */
	int			height;
	const char *unit;
	int			frames;
} Drawing;

static void
draw(Drawing *dr, const Node *n, double x, int depth)
{
	double		w = n->b * dr->scale;
	double		y = dr->height - (depth + 1) * FRAME_HEIGHT;
	int			r,
				g,
				b;
	int			fit;
	double		offset = x;

	if (w < MIN_WIDTH)
		return;
	colour(n->a, n->b, &r, &g, &b);
	fprintf(dr->out, "<g><title>");
	escape_write(dr->out, n->name, ESCAPE_HTML);
	fprintf(dr->out, ": B %.6g, A %.6g %s (B %.2f%% of its total", n->b, n->a, dr->unit,
			100 * n->b / dr->total);
	if (n->a > 0)
		fprintf(dr->out, "; %+.2f%% against A", 100 * (n->b - n->a) / n->a);
	else
		fprintf(dr->out, "; not in A");
	fprintf(dr->out, ")</title><rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
			"fill=\"rgb(%d,%d,%d)\" stroke=\"#999\" stroke-width=\"0.3\"/>",
			x, y, w, FRAME_HEIGHT - 1, r, g, b);
	fit = (int) ((w - 4) / CHAR_WIDTH);
	if (fit >= 3)
	{
		size_t		len = strlen(n->name);
		char	   *label = prof_strdup(n->name);

		if (len > (size_t) fit)
		{
			/* cut on a character boundary, then mark the cut */
			size_t		cut = fit - 2;

			while (cut > 0 && ((unsigned char) label[cut] & 0xC0) == 0x80)
				cut--;
			strcpy(label + cut, "..");
		}
		fprintf(dr->out, "<text x=\"%.2f\" y=\"%.0f\">", x + 2, y + FRAME_HEIGHT - 4);
		escape_write(dr->out, label, ESCAPE_HTML);
		fprintf(dr->out, "</text>");
		free(label);
	}
	fprintf(dr->out, "</g>\n");
	dr->frames++;
	qsort(n->children, n->nchildren, sizeof(Node), cmp_nodes);
	for (int i = 0; i < n->nchildren; i++)
	{
		draw(dr, &n->children[i], offset, depth + 1);
		offset += n->children[i].b * dr->scale;
	}
}

int
prof_flame_svg(FILE *out, const ProfStack *a, int na, const ProfStack *b, int nb,
			   const char *title, const char *unit)
{
	Node		root = {0};
	Drawing		dr = {out};
	int			width = FLAME_WIDTH;

	root.name = prof_strdup("all");
	for (int i = 0; i < na; i++)
		insert(&root, a[i].frames, a[i].value, false);
	for (int i = 0; i < nb; i++)
		insert(&root, b[i].frames, b[i].value, true);
	dr.total = root.b;
	dr.unit = unit;
	dr.scale = root.b > 0 ? (width - 2 * SIDE_MARGIN) / root.b : 0;
	dr.height = TOP_MARGIN + (depth_of(&root, dr.scale) + 1) * FRAME_HEIGHT + SIDE_MARGIN;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
			"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
			"viewBox=\"0 0 %d %d\" font-family=\"Verdana, sans-serif\" font-size=\"11\">\n",
			width, dr.height, width, dr.height);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", width, dr.height);
	fprintf(out, "<text x=\"%d\" y=\"16\" font-size=\"14\">", SIDE_MARGIN);
	escape_write(out, title, ESCAPE_HTML);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"32\">width: B's cost (", SIDE_MARGIN);
	escape_write(out, unit, ESCAPE_HTML);
	fprintf(out, "); colour: its change against A, red more, blue less, white none</text>\n");
	if (root.b > 0)
	{
		/* the root frame is the total; it stands below the roots of the stacks */
		dr.height -= SIDE_MARGIN;
		draw(&dr, &root, SIDE_MARGIN, 0);
	}
	fprintf(out, "</svg>\n");
	free_tree(&root);
	return dr.frames;
}
