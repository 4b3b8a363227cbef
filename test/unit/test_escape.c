/*-------------------------------------------------------------------------
 *
 * test_escape.c
 *	  Unit tests (TAP) of the one function every untrusted string passes
 *	  through on its way to the terminal, report.md and report.html
 *	  (client/escape.c), over each class of input: printable ASCII and
 *	  valid multi-byte UTF-8 kept as they are; C0, DEL, C1 and the
 *	  characters that reorder lines unseen shown escaped; each kind of
 *	  byte sequence that is not UTF-8 (a lone continuation byte, an
 *	  overlong form, a surrogate, above U+10FFFF, cut short by the end or
 *	  by another character) shown escaped byte by byte, the characters
 *	  after it kept; line breaks and tabs kept only in a message's own
 *	  lines; Markdown's and HTML's special characters, those of the
 *	  escapes included; and the terminal's form escaped again unchanged,
 *	  with no byte below 0x20 but a kept line break, no DEL and no C1 in
 *	  any output.
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

static void
test_kept(void)
{
	is_escaped("", ESCAPE_TERMINAL, "", "the empty string");
	is_escaped("select-only ~!@#$%^*()_+-={}[]:;,.?/ \\x", ESCAPE_TERMINAL,
			   "select-only ~!@#$%^*()_+-={}[]:;,.?/ \\x", "printable ASCII kept, a backslash too");
	is_escaped("caf\xc3\xa9 \xc2\xb1\xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf",
			   ESCAPE_TERMINAL,
			   "caf\xc3\xa9 \xc2\xb1\xc2\xa0 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbf \xf4\x8f\xbf\xbf",
			   "valid 2-, 3- and 4-byte UTF-8 kept (U+00A0, the first after C1; U+10FFFF, the last)");
	is_escaped("\xc2\xb1<&>", ESCAPE_HTML, "\xc2\xb1&lt;&amp;&gt;", "multi-byte UTF-8 kept in HTML");
}

static void
test_controls(void)
{
	is_escaped("a\x1b[31mb\x07", ESCAPE_TERMINAL, "a\\x1b[31mb\\x07", "ESC and BEL (C0) escaped");
	is_escaped("\x01\x1f", ESCAPE_TERMINAL, "\\x01\\x1f", "the ends of C0 escaped");
	is_escaped("a\x7f", ESCAPE_TERMINAL, "a\\x7f", "DEL escaped");
	is_escaped("a\xc2\x9b" "31m", ESCAPE_TERMINAL, "a\\u009b31m", "C1 CSI (U+009B) escaped");
	is_escaped("\xc2\x80\xc2\x9f\xc2\x85", ESCAPE_TERMINAL, "\\u0080\\u009f\\u0085",
			   "the ends of C1 and NEL escaped");
	is_escaped("a\xe2\x80\xae" "b\xe2\x80\xa8\xe2\x81\xa6", ESCAPE_TERMINAL, "a\\u202eb\\u2028\\u2066",
			   "a right-to-left override, a line separator, an isolate escaped");
	is_escaped("a\nb\tc\r", ESCAPE_TERMINAL, "a\\x0ab\\x09c\\x0d", "a name's line break and tab escaped");
	is_escaped("a\nb\tc\r\x1b", ESCAPE_TERMINAL_LINES, "a\nb\tc\\x0d\\x1b",
			   "a message's line breaks and tabs kept, CR and ESC escaped");
	is_escaped("a\nb", ESCAPE_MARKDOWN, "a\\\\x0ab", "a line break in Markdown escaped");
}

static void
test_invalid(void)
{
	is_escaped("a\x80z", ESCAPE_TERMINAL, "a\\x80z", "a lone continuation byte escaped");
	is_escaped("a\xffz\xfe", ESCAPE_TERMINAL, "a\\xffz\\xfe", "ff and fe escaped");
	is_escaped("\xc0\xaf", ESCAPE_TERMINAL, "\\xc0\\xaf", "overlong 2-byte \"/\" escaped byte by byte");
	is_escaped("\xc1\x9b", ESCAPE_TERMINAL, "\\xc1\\x9b", "overlong 2-byte CSI-like escaped");
	is_escaped("\xe0\x80\xaf", ESCAPE_TERMINAL, "\\xe0\\x80\\xaf", "overlong 3-byte escaped");
	is_escaped("\xf0\x80\x80\xaf", ESCAPE_TERMINAL, "\\xf0\\x80\\x80\\xaf", "overlong 4-byte escaped");
	is_escaped("\xed\xa0\x80", ESCAPE_TERMINAL, "\\xed\\xa0\\x80", "a UTF-16 surrogate escaped");
	is_escaped("\xf4\x90\x80\x80", ESCAPE_TERMINAL, "\\xf4\\x90\\x80\\x80", "above U+10FFFF escaped");
	is_escaped("\xf5\x80\x80\x80", ESCAPE_TERMINAL, "\\xf5\\x80\\x80\\x80", "lead byte f5 escaped");
	is_escaped("ab\xc2", ESCAPE_TERMINAL, "ab\\xc2", "a sequence cut short by the end escaped");
	is_escaped("\xe2\x82", ESCAPE_TERMINAL, "\\xe2\\x82", "a 3-byte sequence cut short by the end");
	is_escaped("\xe2\x82z\xc3\xa9", ESCAPE_TERMINAL, "\\xe2\\x82z\xc3\xa9",
			   "cut short by another character: that character and what follows kept");
	is_escaped("\xc2\x1b", ESCAPE_TERMINAL, "\\xc2\\x1b", "a lead byte then ESC: both escaped");
}

static void
test_markup(void)
{
	is_escaped("a|b<c>d`e\\f*_#&\"'", ESCAPE_MARKDOWN, "a\\|b\\<c\\>d\\`e\\\\f*_#&\"'",
			   "Markdown: \\ | < > ` after a backslash, the rest kept");
	is_escaped("a\x1b" "b\xc2\x9b\xff", ESCAPE_MARKDOWN, "a\\\\x1bb\\\\u009b\\\\xff",
			   "Markdown: an escape's backslash doubled, so it renders as \\x1b");
	is_escaped("<a href=\"x\">'&'</a>", ESCAPE_HTML,
			   "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;", "HTML: < > & \" ' as entities");
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
