/*-------------------------------------------------------------------------
 *
 * test_escape.c
 *	  Unit tests (TAP) of the one function every untrusted string passes
 *	  through on its way to the terminal, report.md and report.html
 *	  (client/os/escape.c), over each class of input: printable ASCII and
 *	  valid 2- to 4-byte UTF-8 kept, and the characters next to those
 *	  escaped; every C0 byte and DEL as \xNN, every C1 code point as
 *	  \u00NN, the bidirectional controls and line separators as \uNNNN;
 *	  each kind of byte sequence that is not UTF-8 (a lone continuation
 *	  byte, an overlong form, a surrogate, above U+10FFFF, f5 to ff, cut
 *	  short by the end or by another character) byte by byte, what follows
 *	  read afresh; line breaks and tabs kept only in a message's own lines;
 *	  Markdown's and HTML's special characters, those of the escapes
 *	  included; and the terminal's form of any two bytes holds no control
 *	  byte and no C1 and escapes to itself.
 *
 * test/unit/test_escape.c
 *
 *-------------------------------------------------------------------------
 */
#include "escape.h"

#include "test_stats_util.h"

/* escape_text() of in for target is want, and escape_write() writes it too */
static void
is_escaped(const char *in, EscapeTarget target, const char *want, const char *what)
{
	char	   *got = escape_text(in, target);
	char	   *written = NULL;
	size_t		len = 0;
	FILE	   *mem = open_memstream(&written, &len);

	escape_write(mem, in, target);
	fclose(mem);
	ok(strcmp(got, want) == 0 && strcmp(written, want) == 0, "%s", what);
	if (strcmp(got, want) != 0 || strcmp(written, want) != 0)
		diag("got \"%s\" (written \"%s\"), want \"%s\"", got, written, want);
	free(got);
	free(written);
}

/* the byte string of code point cp in UTF-8 (cp >= 0x80), then "z" */
static void
utf8_then_z(unsigned int cp, char *out)
{
	if (cp < 0x800)
		sprintf(out, "%c%cz", 0xC0 | (cp >> 6), 0x80 | (cp & 0x3F));
	else
		sprintf(out, "%c%c%cz", 0xE0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3F), 0x80 | (cp & 0x3F));
}

static void
test_kept(void)
{
	const unsigned int neighbours[] = {0xA0, 0x061B, 0x2027, 0x202F, 0x2065, 0x206A};
	int			changed = 0;

	is_escaped("", ESCAPE_TERMINAL, "", "the empty string");
	is_escaped("select-only ~!@#$%^*()_+-={}[]:;,.?/ \\x", ESCAPE_TERMINAL,
			   "select-only ~!@#$%^*()_+-={}[]:;,.?/ \\x", "printable ASCII kept, a backslash too");
	is_escaped("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf", ESCAPE_HTML,
			   "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf",
			   "valid 2-, 3- and 4-byte UTF-8 kept, U+10FFFF the last");
	for (size_t i = 0; i < sizeof(neighbours) / sizeof(neighbours[0]); i++)
	{
		char		in[8];
		char	   *got;

		utf8_then_z(neighbours[i], in);
		got = escape_text(in, ESCAPE_TERMINAL);
		changed += strcmp(got, in) != 0;
		free(got);
	}
	ok(changed == 0, "the characters next to those escaped kept: U+00A0, U+061B, U+2027, U+202F, U+2065, U+206A");
}

/* C0 and DEL as \xNN, C1 and the characters that reorder lines as \uNNNN */
static void
test_controls(void)
{
	const unsigned int reorder[] = {0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B,
	0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069};
	int			wrong_c0 = 0,
				wrong_c1 = 0,
				wrong_reorder = 0;

	for (unsigned int c = 1; c < 0xA0; c = c == 0x1F ? 0x7F : c + 1)
	{
		char		in[8];
		char		want[16];
		char	   *got;

		if (c < 0x80)
			sprintf(in, "%cz", c);
		else
			utf8_then_z(c, in);
		sprintf(want, c < 0x80 ? "\\x%02xz" : "\\u%04xz", c);
		got = escape_text(in, ESCAPE_TERMINAL);
		if (strcmp(got, want) != 0)
			(*(c < 0x80 ? &wrong_c0 : &wrong_c1))++;
		free(got);
	}
	for (size_t i = 0; i < sizeof(reorder) / sizeof(reorder[0]); i++)
	{
		char		in[8];
		char		want[16];
		char	   *got;

		utf8_then_z(reorder[i], in);
		sprintf(want, "\\u%04xz", reorder[i]);
		got = escape_text(in, ESCAPE_TERMINAL);
		wrong_reorder += strcmp(got, want) != 0;
		free(got);
	}
	ok(wrong_c0 == 0, "every C0 byte and DEL as \\xNN (%d wrong)", wrong_c0);
	ok(wrong_c1 == 0, "every C1 code point as \\u00NN, CSI U+009B too (%d wrong)", wrong_c1);
	ok(wrong_reorder == 0, "bidirectional controls, U+2028 and U+2029 as \\uNNNN (%d wrong)", wrong_reorder);
	is_escaped("a\x1b[31mb\x07\xc2\x9b" "2J", ESCAPE_TERMINAL, "a\\x1b[31mb\\x07\\u009b2J",
			   "ESC, BEL and CSI among text escaped, the text kept");
	is_escaped("a\nb\tc\r", ESCAPE_TERMINAL, "a\\x0ab\\x09c\\x0d", "a name's line break and tab escaped");
	is_escaped("a\nb\tc\r\x1b", ESCAPE_TERMINAL_LINES, "a\nb\tc\\x0d\\x1b",
			   "a message's line breaks and tabs kept, CR and ESC escaped");
}

/*
 * Bytes that are not UTF-8: each byte of these is shown as \xNN, and what
 * follows is read afresh.
 */
static void
test_invalid(void)
{
	const char *const bad[] = {
		"\x80", "\xbf", "\xc0\xaf", "\xc1\x9b", "\xe0\x80\xaf", "\xe0\x9f\xbf", "\xf0\x80\x80\xaf",
		"\xf0\x8f\xbf\xbf", "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
		"\xf8\x88\x80\x80\x80", "\xfe", "\xff", "\xc2", "\xe2\x82", "\xf0\x9f\x98", "\xc2\xc2",
	};
	int			wrong = 0;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
	{
		char		in[16];
		char		want[64] = "";
		char	   *got;

		snprintf(in, sizeof(in), "%sz", bad[i]);
		for (const unsigned char *p = (const unsigned char *) bad[i]; *p; p++)
			sprintf(want + strlen(want), "\\x%02x", *p);
		strcat(want, "z");
		got = escape_text(in, ESCAPE_TERMINAL);
		if (strcmp(got, want) != 0)
		{
			diag("got \"%s\", want \"%s\"", got, want);
			wrong++;
		}
		free(got);
	}
	ok(wrong == 0, "lone continuation bytes, overlong forms, surrogates, above U+10FFFF, f5 to ff, "
	   "sequences cut short by the end: every byte as \\xNN (%d wrong)", wrong);
	is_escaped("\xe2\x82z\xc3\xa9\xc2\x1b", ESCAPE_TERMINAL, "\\xe2\\x82z\xc3\xa9\\xc2\\x1b",
			   "cut short by another character: that character and what follows read afresh");
}

static void
test_markup(void)
{
	is_escaped("a|b<c>d`e\\f*_#&\"'", ESCAPE_MARKDOWN, "a\\|b\\<c\\>d\\`e\\\\f*_#&\"'",
			   "Markdown: \\ | < > ` after a backslash, the rest kept");
	is_escaped("a\x1b" "b\xc2\x9b\xff\n", ESCAPE_MARKDOWN, "a\\\\x1bb\\\\u009b\\\\xff\\\\x0a",
			   "Markdown: an escape's backslash doubled, so it renders as \\x1b; a line break escaped");
	is_escaped("<a href=\"x\">'&'</a>\xc2\xb1", ESCAPE_HTML,
			   "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;\xc2\xb1", "HTML: < > & \" ' as entities");
	is_escaped("a\x1b\xc2\x9b\xff|`\\", ESCAPE_HTML, "a\\x1b\\u009b\\xff|`\\",
			   "HTML: escapes as text, Markdown's characters kept");
}

/*
 * Every byte value in every position of a short string: no output holds a
 * byte a terminal would obey, and the terminal's form is its own escape.
 */
static void
test_every_byte(void)
{
	int			bad = 0;
	int			unstable = 0;

	for (int a = 1; a < 256; a++)
		for (int b = 0; b < 256; b += (a < 0xc0 ? 17 : 1))
		{
			char		in[4] = {(char) a, (char) b, 'z', '\0'};
			char	   *once = escape_text(in, ESCAPE_TERMINAL);
			char	   *twice = escape_text(once, ESCAPE_TERMINAL);

			for (const unsigned char *p = (const unsigned char *) once; *p; p++)
				if (*p < 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f))
					bad++;
			if (strcmp(once, twice) != 0)
				unstable++;
			free(once);
			free(twice);
		}
	ok(bad == 0, "no control byte and no C1 in the terminal's form of any two bytes (%d found)", bad);
	ok(unstable == 0, "the terminal's form escaped again is unchanged (%d changed)", unstable);
}

int
main(void)
{
	test_kept();
	test_controls();
	test_invalid();
	test_markup();
	test_every_byte();
	return done_testing();
}
