/*-------------------------------------------------------------------------
 *
 * escape.c
 *	  Every untrusted string the client writes to the terminal, report.md,
 *	  report.html or an SVG passes through here: names, paths, settings,
 *	  CFLAGS, labels, anything read from a results directory, an
 *	  experiment file or the command line.
 *
 * A string from a results directory may be anyone's, and a terminal obeys
 * what it prints: an ESC (0x1b) or a CSI (U+009B, the bytes c2 9b) starts
 * a sequence that moves the cursor, rewrites the screen or the window's
 * title.  So a control character is never written as itself, nor blanked
 * (which would hide that it was there), but shown escaped, the same way
 * in every output: "\x1b" for C0 and DEL, "\u009b" for C1 and for the
 * characters that reorder or break lines unseen (bidirectional controls,
 * U+2028 and U+2029), "\xNN" for each byte that is not part of a valid
 * UTF-8 sequence (overlong, a surrogate, above U+10FFFF, cut short, a
 * lone continuation byte); only such bytes are shown as \x80 to \xff.  A
 * backslash stays as it is, so escaping twice changes nothing more:
 * every character escaping writes to the terminal is printable.
 *
 * Markdown then puts a backslash before what would change the document's
 * structure ("|" a table cell, "<" raw HTML, "`" a code span, "\" itself,
 * an escape's included, so it reads as written once rendered); HTML
 * writes entities for what would open or close an element or attribute.
 *
 * client/os/escape.c
 *
 *-------------------------------------------------------------------------
 */
#include "escape.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* where the escaped text goes: a stream, a buffer, or only counted */
typedef struct Sink
{
	FILE	   *out;
	char	   *buf;
	size_t		len;
} Sink;

static void
put(Sink *k, const char *s, size_t n)
{
	if (k->out)
		fwrite(s, 1, n, k->out);
	else if (k->buf)
		memcpy(k->buf + k->len, s, n);
	k->len += n;
}

/* one printable ASCII character, as the target writes it */
static void
put_ascii(Sink *k, char c, EscapeTarget target)
{
	const char *entity = NULL;

	if (target == ESCAPE_HTML)
	{
		switch (c)
		{
			case '<':
				entity = "&lt;";
				break;
			case '>':
				entity = "&gt;";
				break;
			case '&':
				entity = "&amp;";
				break;
			case '"':
				entity = "&quot;";
				break;
			case '\'':
				entity = "&#39;";
				break;
		}
		if (entity)
		{
			put(k, entity, strlen(entity));
			return;
		}
	}
	else if (target == ESCAPE_MARKDOWN && strchr("\\|<>`", c) != NULL)
		put(k, "\\", 1);
	put(k, &c, 1);
}

/*
 * The length of the valid UTF-8 sequence at p (1 to 4) and its code point,
 * or 0: a lead byte that cannot start one (c0, c1 and f5 to ff are always
 * overlong or too large), a continuation byte out of range (an overlong
 * form, a UTF-16 surrogate, above U+10FFFF) or missing (the string ends).
 */
static int
utf8_sequence(const unsigned char *p, unsigned int *cp)
{
	int			len;
	unsigned char lo = 0x80,
				hi = 0xBF;

	if (*p < 0x80)
	{
		*cp = *p;
		return 1;
	}
	if (*p >= 0xC2 && *p <= 0xDF)
		len = 2, *cp = *p & 0x1F;
	else if (*p >= 0xE0 && *p <= 0xEF)
		len = 3, *cp = *p & 0x0F;
	else if (*p >= 0xF0 && *p <= 0xF4)
		len = 4, *cp = *p & 0x07;
	else
		return 0;
	if (*p == 0xE0)
		lo = 0xA0;
	else if (*p == 0xED)
		hi = 0x9F;
	else if (*p == 0xF0)
		lo = 0x90;
	else if (*p == 0xF4)
		hi = 0x8F;
	for (int i = 1; i < len; i++)
	{
		if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xBF))
			return 0;
		*cp = (*cp << 6) | (p[i] & 0x3F);
	}
	return len;
}

/* whether code point cp is shown escaped in target */
static bool
shown_escaped(unsigned int cp, EscapeTarget target)
{
	if (cp == '\n' || cp == '\t')
		return target != ESCAPE_TERMINAL_LINES;
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) ||
		cp == 0x061C || cp == 0x200E || cp == 0x200F ||
		(cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* an escape ("\x1b"), its characters written as the target writes text */
static void
put_escape(Sink *k, const char *format, unsigned int value, EscapeTarget target)
{
	char		seq[16];

	snprintf(seq, sizeof(seq), format, value);
	for (const char *c = seq; *c; c++)
		put_ascii(k, *c, target);
}

static void
escape_into(Sink *k, const char *s, EscapeTarget target)
{
	const unsigned char *p = (const unsigned char *) s;

	while (*p)
	{
		unsigned int cp;
		int			len = utf8_sequence(p, &cp);

		if (len == 0)
		{
			put_escape(k, "\\x%02x", *p, target);
			p++;
			continue;
		}
		if (shown_escaped(cp, target))
			put_escape(k, cp < 0x80 ? "\\x%02x" : "\\u%04x", cp, target);
		else if (len == 1)
			put_ascii(k, (char) *p, target);
		else
			put(k, (const char *) p, len);
		p += len;
	}
}

void
escape_write(FILE *out, const char *s, EscapeTarget target)
{
	Sink		k = {out, NULL, 0};

	escape_into(&k, s, target);
}

char *
escape_text(const char *s, EscapeTarget target)
{
	Sink		count = {NULL, NULL, 0};
	Sink		fill = {NULL, NULL, 0};

	escape_into(&count, s, target);
	if ((fill.buf = malloc(count.len + 1)) == NULL)
	{
		fprintf(stderr, "out of memory\n");
		exit(EXIT_FAILURE);
	}
	escape_into(&fill, s, target);
	fill.buf[fill.len] = '\0';
	return fill.buf;
}
