/*-------------------------------------------------------------------------
 *
 * table.c
 *		Aligned text tables for the terminal, in psql's look.
 *
 * Widths are counted in characters, not bytes, so a "±" or "µ" in a cell
 * does not push its column out of line.  Cells and headers hold names and
 * values from experiment files and results directories: each is kept as
 * the terminal shows it (escape.c), a control character as "\x1b", so the
 * widths are those of what is printed and nothing printed drives the
 * terminal.
 *
 *-------------------------------------------------------------------------
 */
#include "client.h"
#include "table.h"

struct TextTable
{
	int			ncols;
	char	  **headers;
	int			nrows;
	int			maxrows;
	char	  **cells;			/* nrows * ncols, row-major, NULL = empty */
	int		   *max_width;		/* per column; 0 = no limit, else wrap */
};

/* Display width of a UTF-8 string: count the bytes that start a character. */
int
table_display_width(const char *s)
{
	int			w = 0;

	for (; *s; s++)
		if ((*s & 0xC0) != 0x80)
			w++;
	return w;
}

TextTable *
table_create(int ncols, const char *const *headers)
{
	TextTable  *t = pg_malloc0(sizeof(TextTable));

	t->ncols = ncols;
	t->headers = pg_malloc(sizeof(char *) * ncols);
	for (int i = 0; i < ncols; i++)
		t->headers[i] = escape_text(headers[i], ESCAPE_TERMINAL);
	t->max_width = pg_malloc0(sizeof(int) * ncols);
	t->maxrows = 16;
	t->cells = pg_malloc(sizeof(char *) * ncols * t->maxrows);
	return t;
}

void
table_add_row(TextTable *t, const char *const *cells)
{
	if (t->nrows == t->maxrows)
	{
		t->maxrows *= 2;
		t->cells = pg_realloc(t->cells, sizeof(char *) * t->ncols * t->maxrows);
	}
	for (int i = 0; i < t->ncols; i++)
		t->cells[t->nrows * t->ncols + i] = cells[i] ? escape_text(cells[i], ESCAPE_TERMINAL) : NULL;
	t->nrows++;
}

/*
 * Wrap long cells (a CONFIGURE line is 1,500 characters) to the column's
 * limit instead of stretching the whole table.
 */
void
table_set_max_width(TextTable *t, int col, int width)
{
	t->max_width[col] = width;
}

/*
 * Length in bytes of the next line of a cell wrapped at width characters,
 * breaking after a space where one is available.
 */
static int
wrap_line_length(const char *s, int width)
{
	int			chars = 0;
	int			last_space = -1;
	int			i;

	for (i = 0; s[i]; i++)
	{
		if ((s[i] & 0xC0) != 0x80)
		{
			if (chars == width)
				break;
			chars++;
		}
		if (s[i] == ' ')
			last_space = i;
	}
	if (s[i] == '\0' || last_space <= 0)
		return i;
	return last_space + 1;
}

static void
print_padded(FILE *out, const char *s, int len, int width, bool last)
{
	int			w = 0;

	fwrite(s, 1, len, out);
	if (last)
		return;
	for (int i = 0; i < len; i++)
		if ((s[i] & 0xC0) != 0x80)
			w++;
	for (; w < width; w++)
		fputc(' ', out);
}

static void
print_row(FILE *out, const TextTable *t, const int *width, char *const *row)
{
	const char **rest = pg_malloc(sizeof(char *) * t->ncols);
	bool		more = true;

	for (int c = 0; c < t->ncols; c++)
		rest[c] = row[c] ? row[c] : "";
	while (more)
	{
		more = false;
		for (int c = 0; c < t->ncols; c++)
		{
			int			len = t->max_width[c] > 0
				? wrap_line_length(rest[c], t->max_width[c]) : (int) strlen(rest[c]);

			fputs(c == 0 ? " " : " | ", out);
			print_padded(out, rest[c], len, width[c], c == t->ncols - 1);
			rest[c] += len;
			if (*rest[c])
				more = true;
		}
		fputc('\n', out);
	}
	pg_free(rest);
}

void
table_print(const TextTable *t, FILE *out)
{
	int		   *width = pg_malloc0(sizeof(int) * t->ncols);

	for (int c = 0; c < t->ncols; c++)
	{
		width[c] = table_display_width(t->headers[c]);
		for (int r = 0; r < t->nrows; r++)
		{
			const char *cell = t->cells[r * t->ncols + c];

			if (cell && table_display_width(cell) > width[c])
				width[c] = table_display_width(cell);
		}
		if (t->max_width[c] > 0 && width[c] > t->max_width[c])
			width[c] = Max(t->max_width[c], table_display_width(t->headers[c]));
	}

	print_row(out, t, width, t->headers);
	for (int c = 0; c < t->ncols; c++)
	{
		fputs(c == 0 ? "-" : "-+-", out);
		for (int i = 0; i < width[c]; i++)
			fputc('-', out);
	}
	fputs("-\n", out);
	for (int r = 0; r < t->nrows; r++)
		print_row(out, t, width, &t->cells[r * t->ncols]);
	fprintf(out, "(%d row%s)\n", t->nrows, t->nrows == 1 ? "" : "s");
	pg_free(width);
}

void
table_free(TextTable *t)
{
	for (int i = 0; i < t->ncols; i++)
		pg_free(t->headers[i]);
	for (int i = 0; i < t->nrows * t->ncols; i++)
		pg_free(t->cells[i]);
	pg_free(t->headers);
	pg_free(t->cells);
	pg_free(t->max_width);
	pg_free(t);
}
