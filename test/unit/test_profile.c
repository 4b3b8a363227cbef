/*-------------------------------------------------------------------------
 *
 * test_profile.c
 *	  Unit tests (TAP) of the profile readers and the profile arithmetic:
 *	  callgrind's format, perf script's, the difference of a long and a
 *	  short run, stacks drawn from a call graph, the flame graph's SVG and
 *	  its escaping, and ELF symbol tables.
 *
 * Expected figures of the fixtures in test/fixtures/profiles are worked
 * out by hand below.  Every truncation of every fixture must parse or
 * fail with a message, never crash.
 *
 * Modes for test/t/092_profile_tools.pl, which checks real files:
 *	  test_profile --callgrind FILE	 per function "self incl name", then "total N"
 *	  test_profile --elf FILE NAME	 "symtab dynsym debug has" of a binary
 *
 * test/unit/test_profile.c
 *
 *-------------------------------------------------------------------------
 */
#include "profile_flame.h"
#include "profile_parse.h"
#include "profile_symbols.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FIXTURE_DIR
#define FIXTURE_DIR "test/fixtures/profiles"
#endif

static int	tests_run;
static int	tests_failed;

static void
ok(int cond, const char *fmt,...)
{
	va_list		ap;

	tests_run++;
	if (!cond)
		tests_failed++;
	printf("%sok %d - ", cond ? "" : "not ", tests_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define IS_DBL(got, want) \
	ok((got) == (want), "%s = %.17g (want %.17g)", #got, (double) (got), (double) (want))

static double
self_of(const Prof *p, const char *name, int e)
{
	int			f = prof_find_func(p, name);

	return f < 0 ? -1 : p->funcs[f].self[e];
}

static double
incl_of(const Prof *p, const char *name, int e)
{
	int			f = prof_find_func(p, name);

	return f < 0 ? -1 : p->funcs[f].incl[e];
}

static double
stack_of(const Prof *p, const char *frames)
{
	int			s = prof_index_get(&p->stack_index, frames);

	return s < 0 ? -1 : p->stacks[s].value;
}

static double
arc_cost(const Prof *p, const char *caller, const char *callee)
{
	int			c = prof_find_func(p, caller),
				e = prof_find_func(p, callee);

	for (int a = 0; a < p->narcs; a++)
		if (p->arcs[a].caller == c && p->arcs[a].callee == e)
			return p->arcs[a].cost[0];
	return -1;
}

static char *
slurp(const char *name, size_t *len)
{
	char		path[1024];
	FILE	   *f;
	char	   *buf;
	long		n;

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, name);
	if ((f = fopen(path, "rb")) == NULL)
	{
		printf("Bail out! cannot open %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(n + 1);
	if (fread(buf, 1, n, f) != (size_t) n)
		n = 0;
	buf[n] = '\0';
	fclose(f);
	*len = n;
	return buf;
}

static bool
parse_text(const char *text, size_t len, bool perf, Prof *p, char *err, size_t errlen)
{
	FILE	   *f = fmemopen((void *) text, len, "r");
	bool		rc;

	if (len == 0)
		f = fopen("/dev/null", "r");
	rc = perf ? prof_parse_perf_script(f, "cpu-clock", p, err, errlen)
		: prof_parse_callgrind(f, p, err, errlen);
	fclose(f);
	return rc;
}

static void
test_callgrind(void)
{
	size_t		len;
	char	   *text = slurp("callgrind.synthetic", &len);
	Prof		p;
	char		err[256];
	double		sum = 0;

	prof_init(&p);
	ok(parse_text(text, len, false, &p, err, sizeof(err)), "callgrind.synthetic parses (%s)", err);
	ok(p.nevents == 2 && strcmp(p.events[0], "Ir") == 0 && strcmp(p.events[1], "Dr") == 0,
	   "events Ir Dr");
	IS_DBL(p.totals[0], 428);
	IS_DBL(p.totals[1], 44);
	IS_DBL(self_of(&p, "main", 0), 8);	/* 5 + 3, "*" a position, not a cost */
	IS_DBL(self_of(&p, "main", 1), 2);	/* the left-out Dr of "+4 * 3" is 0 */
	IS_DBL(self_of(&p, "work", 0), 250);	/* "work'2" is work */
	IS_DBL(self_of(&p, "[prog+0xabc10]", 0), 120);	/* no symbol: named by address */
	IS_DBL(self_of(&p, "memcpy", 0), 50);
	ok(strcmp(p.funcs[prof_find_func(&p, "memcpy")].object, "libc.so.6") == 0,
	   "memcpy is in the object cob= named (%s)", p.funcs[prof_find_func(&p, "memcpy")].object);
	ok(strcmp(p.funcs[prof_find_func(&p, "main")].object, "prog") == 0, "main is in prog");
	IS_DBL(arc_cost(&p, "main", "work"), 370);
	IS_DBL(arc_cost(&p, "work", "work"), 30);
	IS_DBL(arc_cost(&p, "work", "[prog+0xabc10]"), 120);
	for (int f = 0; f < p.nfuncs; f++)
		sum += p.funcs[f].self[0];
	IS_DBL(sum, p.totals[0]);
	prof_compute_inclusive(&p);
	IS_DBL(incl_of(&p, "main", 0), 428);
	IS_DBL(incl_of(&p, "work", 0), 370);	/* its call to itself is inside */
	ok(p.processes == 1, "one process");

	prof_stacks_from_arcs(&p, 0);
	IS_DBL(stack_of(&p, "main"), 8);
	IS_DBL(stack_of(&p, "main;work"), 250);
	IS_DBL(stack_of(&p, "main;work;[prog+0xabc10]"), 120);
	IS_DBL(stack_of(&p, "main;memcpy"), 50);
	ok(stack_of(&p, "main;work;work") < 0, "no stack of the recursion");
	prof_free(&p);

	{
		char	   *g = prof_unresolved_group("[prog+0xabc10]");

		ok(g && strcmp(g, "[unknown in prog]") == 0, "[prog+0xabc10] is grouped as [unknown in prog]");
		free(g);
		ok(prof_unresolved_group("memcpy") == NULL && prof_unresolved_group("[a+0xzz]") == NULL,
		   "named functions are not grouped");
	}

	/* two files of one run merge; other events do not */
	prof_init(&p);
	parse_text(text, len, false, &p, err, sizeof(err));
	parse_text(text, len, false, &p, err, sizeof(err));
	IS_DBL(p.totals[0], 856);
	IS_DBL(self_of(&p, "work", 0), 500);
	ok(p.processes == 2, "two processes");
	{
		const char *other = "events: Ir D1mr\nfn=x\n0 1 1\n";

		ok(!parse_text(other, strlen(other), false, &p, err, sizeof(err)) && strstr(err, "differ") != NULL,
		   "a file of other events is refused: %s", err);
	}
	prof_free(&p);
	free(text);
}

static void
test_callgrind_errors(void)
{
	static const struct
	{
		const char *text;
		const char *message;
	}			bad[] = {
		{"fn=x\n0 1\n", "before the \"events:\" line"},
		{"events: Ir\n0 1\n", "outside any function"},
		{"events: Ir\nfn=(3)\n", "used before it is defined"},
		{"events: Ir\nfn=(x) y\n", "bad name id"},
		{"events: Ir\nfn=f\n0 1x\n", "malformed cost line"},
		{"events: Ir\nfn=f\n0 -5\n", "malformed cost line"},
		{"events: Ir\nfn=f\ncalls=1 0\n0 5\n", "without a cfn="},
		{"events: Ir\nfn=f\ncalls=x\n", "malformed"},
		{"events:\n", "names no events"},
		{"creator: callgrind\n", "not a callgrind output file"},
	};
	size_t		len;
	char	   *text = slurp("callgrind.synthetic", &len);
	int			crashes = 0;

	for (int i = 0; i < (int) (sizeof(bad) / sizeof(bad[0])); i++)
	{
		Prof		p;
		char		err[256] = "";

		prof_init(&p);
		ok(!parse_text(bad[i].text, strlen(bad[i].text), false, &p, err, sizeof(err)) &&
		   strstr(err, bad[i].message) != NULL,
		   "bad input %d is refused naming the problem: %s", i + 1, err);
		prof_free(&p);
	}
	/* every prefix parses or fails cleanly (a crash ends the test run) */
	for (size_t n = 0; n <= len; n++)
	{
		Prof		p;
		char		err[256];

		prof_init(&p);
		if (!parse_text(text, n, false, &p, err, sizeof(err)) && err[0] == '\0')
			crashes++;
		prof_free(&p);
	}
	ok(crashes == 0, "every truncation of callgrind.synthetic parses or says why");
	free(text);
}

static void
test_perf_script(void)
{
	size_t		len;
	char	   *text = slurp("perf-script.txt", &len);
	Prof		p;
	char		err[256];
	int			unexplained = 0;

	prof_init(&p);
	ok(parse_text(text, len, true, &p, err, sizeof(err)), "perf-script.txt parses (%s)", err);
	ok(p.samples == 4 && p.unresolved == 1, "4 samples, 1 with an unnamed leaf");
	ok(p.processes == 3, "3 threads (a \"pid/tid\" line too)");
	IS_DBL(p.totals[0], 5e6);
	IS_DBL(self_of(&p, "nocachegetattr", 0), 1e6);
	IS_DBL(self_of(&p, "[unknown in postgres]", 0), 1e6);
	IS_DBL(self_of(&p, "_IO_fread", 0), 2e6);
	IS_DBL(self_of(&p, "PostgresMain", 0), 0);
	IS_DBL(incl_of(&p, "PostgresMain", 0), 3e6);
	IS_DBL(incl_of(&p, "palloc", 0), 2e6);	/* twice on one stack counts once */
	IS_DBL(incl_of(&p, "[unknown in postgres]", 0), 2e6);
	IS_DBL(stack_of(&p, "main;PostmasterMain;PostgresMain;[unknown in postgres];nocachegetattr"), 1e6);
	IS_DBL(stack_of(&p, "PostgresMain;palloc;palloc;[unknown in postgres]"), 1e6);
	IS_DBL(stack_of(&p, "_IO_fread"), 2e6);
	ok(strcmp(p.funcs[prof_find_func(&p, "_IO_fread")].object, "libc.so.6") == 0, "_IO_fread is in libc.so.6");

	prof_trim_stacks(&p, "PostgresMain");
	IS_DBL(stack_of(&p, "PostgresMain;[unknown in postgres];nocachegetattr"), 1e6);
	IS_DBL(stack_of(&p, "PostgresMain;palloc"), 1e6);
	IS_DBL(stack_of(&p, "_IO_fread"), 2e6);
	prof_free(&p);

	{
		const char *bad = " 1 2\n\tnot-an-address foo (bar)\n";
		const char *bad2 = "\t 10 foo (bar)\n";
		const char *bad3 = "hello world\n";

		prof_init(&p);
		ok(!parse_text(bad, strlen(bad), true, &p, err, sizeof(err)) && strstr(err, "line 2") != NULL,
		   "a malformed frame is refused with its line: %s", err);
		prof_free(&p);
		prof_init(&p);
		ok(!parse_text(bad2, strlen(bad2), true, &p, err, sizeof(err)) && strstr(err, "outside any sample") != NULL,
		   "a frame before any sample is refused: %s", err);
		prof_free(&p);
		prof_init(&p);
		ok(!parse_text(bad3, strlen(bad3), true, &p, err, sizeof(err)) && strstr(err, "TID PERIOD") != NULL,
		   "text that is not perf script's is refused: %s", err);
		prof_free(&p);
	}
	{
		const char *vdso = " 7 10\n\t    7ffd1234 [unknown] ([vdso])\n\t    5d8d13 palloc (/x/postgres)\n\n";

		prof_init(&p);
		ok(parse_text(vdso, strlen(vdso), true, &p, err, sizeof(err)) && self_of(&p, "[vdso]", 0) == 10,
		   "the kernel's vDSO is \"[vdso]\", not a binary without symbols");
		prof_free(&p);
	}
	for (size_t n = 0; n <= len; n++)
	{
		prof_init(&p);
		if (!parse_text(text, n, true, &p, err, sizeof(err)) && err[0] == '\0')
			unexplained++;
		prof_free(&p);
	}
	ok(unexplained == 0, "every truncation of perf-script.txt parses or says why");
	free(text);
}

/* A profile built by hand: f with the given self cost. */
static int
fn(Prof *p, const char *name, double self)
{
	int			f = prof_func(p, name, "x");

	p->funcs[f].self[0] += self;
	p->totals[0] += self;
	return f;
}

static void
arc(Prof *p, int caller, int callee, double cost)
{
	double		c[PROF_MAX_EVENTS] = {cost};

	prof_add_arc(p, caller, callee, 1, c);
}

/* R calls A (40) and B (20); both call C, A for 30 and B for 10 of its 40 */
static void
two_callers(Prof *p, char ev[][PROF_NAME_MAX])
{
	int			r,
				a,
				b,
				c;

	prof_init(p);
	prof_set_events(p, ev, 1);
	r = fn(p, "R", 0);
	a = fn(p, "A", 10);
	b = fn(p, "B", 10);
	c = fn(p, "C", 40);
	arc(p, r, a, 40);
	arc(p, r, b, 20);
	arc(p, a, c, 30);
	arc(p, b, c, 10);
}

static void
test_arithmetic(void)
{
	char		ev[1][PROF_NAME_MAX] = {"Ir"};
	Prof		longer,
				shorter,
				d;
	double		sum = 0;

	/* two callers of one function share it in proportion to their calls */
	two_callers(&longer, ev);
	prof_stacks_from_arcs(&longer, 0);
	IS_DBL(stack_of(&longer, "R;A;C"), 30);
	IS_DBL(stack_of(&longer, "R;B;C"), 10);
	IS_DBL(stack_of(&longer, "R;A"), 10);
	for (int s = 0; s < longer.nstacks; s++)
		sum += longer.stacks[s].value;
	IS_DBL(sum, longer.totals[0]);

	/* contexts below the minimum stay with their caller */
	prof_free(&longer);
	two_callers(&longer, ev);
	prof_stacks_from_arcs(&longer, 15);
	IS_DBL(stack_of(&longer, "R;A;C"), 30);
	IS_DBL(stack_of(&longer, "R;B"), 20);	/* its 10 for C folded in */
	ok(stack_of(&longer, "R;B;C") < 0, "no R;B;C below the minimum");

	/* mutual recursion ends */
	prof_free(&longer);
	prof_init(&longer);
	prof_set_events(&longer, ev, 1);
	{
		int			r = fn(&longer, "R", 0),
					x = fn(&longer, "X", 60),
					y = fn(&longer, "Y", 40);

		arc(&longer, r, x, 100);
		arc(&longer, x, y, 60);
		arc(&longer, y, x, 20);
	}
	prof_stacks_from_arcs(&longer, 0);
	ok(stack_of(&longer, "R;X;Y;X") < 0 && stack_of(&longer, "R;X") == 60,
	   "a cycle is cut where it closes (R;X %g)", stack_of(&longer, "R;X"));

	/* a run's parts merged, then divided per transaction */
	prof_free(&longer);
	prof_init(&longer);
	prof_init(&shorter);
	prof_init(&d);
	prof_set_events(&longer, ev, 1);
	prof_set_events(&shorter, ev, 1);
	fn(&longer, "tx", 400);
	fn(&shorter, "tx", 100);
	fn(&shorter, "other", 7);
	prof_add_stack(&longer, "a;b", 30);
	prof_add_stack(&shorter, "a;b", 10);
	ok(prof_merge(&d, &longer) && prof_merge(&d, &shorter), "two parts merged");
	prof_divide(&d, 40);
	IS_DBL(d.totals[0], 507.0 / 40);
	IS_DBL(self_of(&d, "tx", 0), 500.0 / 40);
	IS_DBL(self_of(&d, "other", 0), 7.0 / 40);
	IS_DBL(stack_of(&d, "a;b"), 1);
	prof_free(&longer);
	prof_free(&shorter);
	prof_free(&d);
}

static char *
flame_text(const ProfStack *a, int na, const ProfStack *b, int nb, const char *title, int *frames)
{
	char	   *buf = NULL;
	size_t		size = 0;
	FILE	   *f = open_memstream(&buf, &size);

	*frames = prof_flame_svg(f, a, na, b, nb, title, "instructions per transaction");
	fclose(f);
	return buf;
}

static void
test_flame(void)
{
	ProfStack	a[] = {{"main;work", 100}, {"main;idle", 100}};
	ProfStack	b[] = {{"main;work", 200}, {"main;idle", 50}, {"main;<script>&\"x'", 50}};
	ProfStack	bad[] = {{"a\x01\xff\xc3(\xed\xa0\x80ok;\xe2\x82\xac", 10}};
	int			frames;
	char	   *svg = flame_text(a, 2, b, 3, "B vs <A>", &frames);
	char	   *p;
	char		want[64];

	ok(frames == 5, "5 frames: all, main and three children (%d)", frames);
	ok(strstr(svg, "<script") == NULL && strstr(svg, "&lt;script&gt;&amp;&quot;x&#39;") != NULL,
	   "a frame's name is escaped");
	ok(strstr(svg, "B vs &lt;A&gt;") != NULL, "the title is escaped");
	/* widths: main;work is 200 of 300 of the drawable 1180 px */
	snprintf(want, sizeof(want), "width=\"%.2f\"", 1180.0 * 200 / 300);
	ok(strstr(svg, want) != NULL, "work is 2/3 wide (%s)", want);
	/* work doubled: full red; idle halved: (50-100)/100 = -0.5, full blue */
	ok(strstr(svg, "fill=\"rgb(255,38,38)\"") != NULL, "more is red");
	ok(strstr(svg, "fill=\"rgb(38,38,255)\"") != NULL, "less is blue");
	ok(strstr(svg, "not in A") != NULL, "a frame A lacks says so");
	ok(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"") != NULL && strstr(svg, "</svg>") != NULL,
	   "a whole SVG element");
	for (p = svg; *p; p++)
		if (*p == '\n' || *p == '\t')
			continue;
		else if ((unsigned char) *p < 0x20)
			break;
	ok(*p == '\0', "no control character in the SVG");
	free(svg);

	svg = flame_text(bad, 1, bad, 1, "t", &frames);
	ok(strstr(svg, "a\\x01\\xff\\xc3(\\xed\\xa0\\x80ok") != NULL && strstr(svg, "\xe2\x82\xac") != NULL,
	   "control characters and bytes that are not UTF-8 shown escaped (\\x01), valid UTF-8 stays");
	free(svg);

	svg = flame_text(a, 2, NULL, 0, "empty", &frames);
	ok(frames == 0 && strstr(svg, "</svg>") != NULL, "an empty B draws an empty graph");
	free(svg);
}

static void
test_elf(const char *self)
{
	ElfSymbols s;
	char		err[256];

	ok(prof_elf_symbols(self, "main", &s, err, sizeof(err)), "this test binary's symbols are read");
	ok(s.has_symtab && s.symtab_functions > 10 && s.has_wanted, "it has .symtab, and main in it");
	ok(!prof_elf_symbols(FIXTURE_DIR "/perf-script.txt", NULL, &s, err, sizeof(err)) &&
	   strstr(err, "not an ELF binary") != NULL, "a text file is not an ELF binary: %s", err);
	ok(!prof_elf_symbols("/nonexistent/postgres", NULL, &s, err, sizeof(err)) &&
	   strstr(err, "could not open") != NULL, "a missing file says so: %s", err);
}

static int
print_callgrind(const char *path)
{
	FILE	   *f = fopen(path, "r");
	Prof		p;
	char		err[256];

	prof_init(&p);
	if (f == NULL || !prof_parse_callgrind(f, &p, err, sizeof(err)))
	{
		fprintf(stderr, "%s: %s\n", path, f ? err : "cannot open");
		return 1;
	}
	prof_compute_inclusive(&p);
	for (int i = 0; i < p.nfuncs; i++)
		printf("%.0f %.0f %s\n", p.funcs[i].self[0], p.funcs[i].incl[0], p.funcs[i].name);
	printf("total %.0f\n", p.totals[0]);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--callgrind") == 0)
		return print_callgrind(argv[2]);
	if (argc == 4 && strcmp(argv[1], "--elf") == 0)
	{
		ElfSymbols s;
		char		err[256];

		if (!prof_elf_symbols(argv[2], argv[3], &s, err, sizeof(err)))
		{
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		printf("%d %d %d %d\n", s.has_symtab ? s.symtab_functions : -1, s.dynsym_functions,
			   s.has_debug_info, s.has_wanted);
		return 0;
	}
	test_callgrind();
	test_callgrind_errors();
	test_perf_script();
	test_arithmetic();
	test_flame();
	test_elf(argv[0]);
	printf("1..%d\n", tests_run);
	return tests_failed > 0;
}
