# One owner per piece: no two source files of the client or the extension
# call each other in a loop (a file that calls another's functions may not
# be called back by it, directly or around a longer loop), and no header
# includes itself around a loop.  Calls are read from the compiled objects
# with nm (a defined symbol's file against each file's undefined symbols);
# includes from the sources.  A loop is printed with the symbols behind it.
#
# And every file of the client says what it offers in the header of its
# own name: each function or variable a client .c file defines for others
# (a global symbol of its object) is declared in the .h of the same base
# name, but for the families below, which share one header; the #include
# graph of the client's .h and .c files has no loop.
#
# And the report's stages point one way (report.h's map names each file's
# stage): a writer calls no statistics of common/ (but the names of their
# enums) and no function of the load or the analysis, only the writers
# below it, the format, the accessors and the profiles' data; the analysis
# calls no writer and not the load; the load neither.  And every call from
# one file of the map into another goes down the map (to a file listed
# later), a function passed as an argument counting as a call of the file
# that calls it; the client files outside the map that its files reach call
# none of them back.  Calls are read from the sources by a small parser:
# comments, strings and characters removed, every "name(" a call, every
# other name of a function a value passed to the call around it, every
# name at the start of a line followed by "(" a definition (static after
# "static").
use strict;
use warnings;

use File::Basename qw(basename);
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $top = source_tree();

# Strongly connected components of more than one node (Tarjan).
sub loops
{
	my ($graph) = @_;
	my (%index, %low, %on, @stack, @found);
	my $next = 0;
	my $visit;
	$visit = sub {
		my ($v) = @_;
		$index{$v} = $low{$v} = $next++;
		push @stack, $v;
		$on{$v} = 1;
		foreach my $w (sort keys %{ $graph->{$v} // {} })
		{
			if (!defined $index{$w})
			{
				$visit->($w);
				$low{$v} = $low{$w} if $low{$w} < $low{$v};
			}
			elsif ($on{$w})
			{
				$low{$v} = $index{$w} if $index{$w} < $low{$v};
			}
		}
		if ($low{$v} == $index{$v})
		{
			my @c;
			while (1)
			{
				my $w = pop @stack;
				delete $on{$w};
				push @c, $w;
				last if $w eq $v;
			}
			push @found, [ sort @c ] if @c > 1;
		}
	};
	$visit->($_) foreach grep { !defined $index{$_} } sort keys %$graph;
	return @found;
}

# The header that declares what a client file defines, where it is not
# the header of the file's own name: a family of files with one header.
my %family_header = (
	cmd => 'commands.h',     # cmd_*.c: the commands, one function each (main.c's table)
	report => 'report.h',    # report_*.c: one analysis, its writers (report.h's map)
	calibrate => 'calibrate.h',    # calibrate_*.c: the calibrations of calibrate.h
	farm => 'farm.h',        # farm_*.c: the results of many hosts
	layout => 'layout.h',    # layout_*.c: struct layouts, saved and compared
	bisect => 'bisect.h',    # bisect_*.c: a bisect's steps, state and report
	experiment => 'experiment.h',    # experiment_*.c: the specification: keys, checks, its JSON
	build => 'build.h',      # build_*.c without a header of their own: one build, described or made
);
my %file_header = (cli => 'client.h', main => undef);

# The symbols of %$defined (symbol => file) that the expected header of
# their file does not declare (file => header text): "file: symbol".
sub undeclared
{
	my ($defined, $headers) = @_;
	my @missing;
	foreach my $sym (sort keys %$defined)
	{
		my $file = $defined->{$sym};
		my ($prefix) = $file =~ /^([a-z]+)_/;
		my $h = exists $file_header{$file} ? $file_header{$file}
		  : defined $headers->{"$file.h"} ? "$file.h"
		  : defined $prefix && $family_header{$prefix} ? $family_header{$prefix}
		  : "$file.h";
		next if !defined $h && $sym eq 'main';
		push @missing, "$file: $sym (not in $h)"
		  unless defined $h && defined $headers->{$h} && $headers->{$h} =~ /\b\Q$sym\E\b/;
	}
	return @missing;
}

# the rule itself finds what it is meant to: a symbol declared elsewhere,
# a family member declared in its family's header, a file without one
is(join('; ', undeclared({ a_one => 'alpha', b_two => 'beta', c_three => 'report_x', main => 'main' },
			{ 'alpha.h' => 'extern void a_one(void);', 'gamma.h' => 'extern int b_two;',
			  'report.h' => 'extern void c_three(void);' })),
	'beta: b_two (not in beta.h)', 'the rule: own header, family header, main');

# Where each source file of the client is: its name => its path (the
# client's files are in one folder per stage, names unique across them).
my %client_calls;    # "caller -> owner" (file names) => [ symbols ], from nm
my %client_path = map { basename($_) => $_ } glob("$top/client/*.[ch]"), glob("$top/client/*/*.[ch]");

foreach my $dir ('client', 'extension')
{
	my @objects = (glob("$top/$dir/*.o"), glob("$top/$dir/*/*.o"));
	ok(@objects > 5, "$dir: objects to read (make has built it)");
	my (%defined_in, %uses);
	# one nm for all (-A: each line begins with its object's path), not one
	# a file: a process each took most of this test's time
	foreach (split /\n/, `nm -A @objects`)
	{
		my ($o, $sym) = /^(.*?\.o):(.*)$/ or next;
		my $file = basename($o, '.o');
		if ($sym =~ /^\S+\s+[TDBRC]\s+(\S+)$/) { $defined_in{$1} = $file; }
		elsif ($sym =~ /^\s+U\s+(\S+)$/) { push @{ $uses{$file} }, $1; }
	}
	my (%graph, %why);
	foreach my $file (keys %uses)
	{
		foreach my $sym (@{ $uses{$file} })
		{
			my $owner = $defined_in{$sym};
			next unless defined $owner && $owner ne $file;
			$graph{$file}{$owner} = 1;
			push @{ $why{"$file -> $owner"} }, $sym;
		}
	}
	my @loops = loops(\%graph);
	is(scalar(@loops), 0, "$dir: no files call each other in a loop") or do {
		foreach my $loop (@loops)
		{
			my %in = map { $_ => 1 } @$loop;
			diag "loop: @$loop";
			foreach my $edge (sort grep { my ($a, $b) = split / -> /; $in{$a} && $in{$b} } keys %why)
			{
				diag "  $edge: @{ $why{$edge} }";
			}
		}
	};

	my (%includes, %header_text);
	my %here = $dir eq 'client' ? %client_path : map { basename($_) => $_ } glob("$top/$dir/*.[ch]");
	foreach my $src (sort values %here)
	{
		my $name = basename($src);
		my $text = slurp_file($src);
		$header_text{$name} = $text if $name =~ /\.h$/;
		foreach (split /\n/, $text)
		{
			$includes{$name}{$1} = 1 if /^#include "([^"\/]+\.[ch])"/ && $here{$1};
		}
	}
	my @hloops = loops(\%includes);
	is(scalar(@hloops), 0, "$dir: no files include each other in a loop")
	  or diag join("\n", map { "loop: @$_" } @hloops);

	next unless $dir eq 'client';
	%client_calls = %why;
	my %global = map { $_ => $defined_in{$_} } grep { $here{"$defined_in{$_}.c"} } keys %defined_in;
	cmp_ok(scalar(keys %global), '>', 100, "$dir: " . scalar(keys %global) . ' symbols defined for other files');
	my @missing = undeclared(\%global, \%header_text);
	is(scalar(@missing), 0, "$dir: every file's functions and variables declared in its own header (or its family's)")
	  or diag join("\n", @missing);
}

# ---- the client's folders: the stages of the data path, calls pointing down ----

# Each folder's rank: a file calls only into its own folder and folders of
# lower rank, so a reader can start at any folder and find what it uses
# below it; folders of one rank call none of each other.  The commands
# (cmd/) are above what combines the stages (bisect/, calibrate/, farm/).
my %rank = (cmd => 10, bisect => 9, calibrate => 9, farm => 9, run => 8, report => 7, analysis => 6,
	plan => 5, build => 4, profile => 4, server => 3, results => 2, spec => 1, os => 0);

# "caller -> owner: symbols (from -> to)" for each call against the ranks,
# given each file's folder (undef: the shared statistics of common/,
# compiled into the client's top folder) and the calls between files
sub folder_violations
{
	my ($folder_of, $calls) = @_;
	my @bad;
	foreach my $edge (sort keys %$calls)
	{
		my ($from, $to) = split / -> /, $edge;
		my ($f, $t) = ($folder_of->{$from}, $folder_of->{$to});
		next if !defined $t || (defined $f && $f eq $t);
		next if defined $f && $rank{$f} > $rank{$t};
		push @bad, "$edge: @{ $calls->{$edge} } (" . ($f // 'common') . " -> $t)";
	}
	return @bad;
}

is( join('; ',
		folder_violations(
			{ a => 'run', b => 'spec', c => 'report', d => 'bisect', e => 'cmd', f => 'build', g => 'profile' },
			{ 'a -> b' => ['x'], 'b -> a' => ['y'], 'c -> a' => ['z'], 'd -> e' => ['w'], 'f -> g' => ['v'],
			  'stats -> b' => ['u'] })),
	'b -> a: y (spec -> run); c -> a: z (report -> run); d -> e: w (bisect -> cmd); f -> g: v (build -> profile); stats -> b: u (common -> spec)',
	'the folder rule: down is allowed, up and sideways are not');

my %folder_of;
foreach my $path (values %client_path)
{
	my ($folder, $name) = $path =~ m{/client/(?:(\w+)/)?(\w+)\.c$} or next;
	$folder_of{$name} = $folder;
}
my @astray = sort grep { !defined $folder_of{$_} || !exists $rank{ $folder_of{$_} } } keys %folder_of;
is(scalar(@astray), 0, 'every client .c file is in a folder of a stage (' . join(', ', sort keys %rank) . ')')
  or diag "outside them: @astray";
my @up_folders = folder_violations(\%folder_of, \%client_calls);
is(scalar(@up_folders), 0, 'every call between the client\'s folders goes down their ranks')
  or diag join("\n", @up_folders);

# ---- the report's stages: write -> format, access; analysis -> format, access ----

# The C source without comments, strings and character constants.
sub code_of
{
	my ($text) = @_;
	$text =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'}{
		my $m = $&; $m =~ tr/\n//cd; $m eq '' ? ' ' : $m }gse;
	return $text;
}

# [name, receiver] of each name in C code without comments and strings: a
# name and "(" is a call (receiver undef); a name not followed by "(" nor
# after "->" or "." is a value, which may be a function passed to the
# nearest enclosing call, its receiver (undef outside any call).
sub calls_of
{
	my ($code) = @_;
	my (@found, @open);
	while ($code =~ /(?:->|\.)\s*[A-Za-z_]\w*|([A-Za-z_]\w*)(\s*\()?|(\()|(\))/g)
	{
		if (defined $1)
		{
			my ($name, $call) = ($1, defined $2);
			my ($receiver) = grep { defined } reverse @open;
			push @found, [ $name, $call ? undef : $receiver ];
			push @open, $name if $call;
		}
		elsif (defined $3) { push @open, undef; }
		elsif (defined $4) { pop @open; }
	}
	return @found;
}

# The calls between the given files (file => source): from => { to =>
# { "callee" => 1 } }.  A name's owner is the caller's own function of
# that name (static or not), else the file that defines it for all; a
# function passed as an argument is called by the receiver's file, or by
# the caller's when the receiver is none of the files' (qsort, json_*, a
# variable's initializer).
sub calls_between
{
	my ($sources) = @_;
	my (%global, %local, %edges);
	foreach my $file (sort keys %$sources)
	{
		my @lines = split /\n/, code_of($sources->{$file});
		for my $i (0 .. $#lines)
		{
			next unless $lines[$i] =~ /^([A-Za-z_]\w*)\(/;
			$local{$file}{$1} = 1;
			$global{$1} = $file unless $i > 0 && $lines[ $i - 1 ] =~ /^static\b/;
		}
	}
	my $owner = sub { my ($file, $name) = @_; $local{$file}{$name} ? $file : $global{$name} };
	foreach my $file (sort keys %$sources)
	{
		foreach my $c (calls_of(code_of($sources->{$file})))
		{
			my ($name, $receiver) = @$c;
			my $to = $owner->($file, $name) // next;
			my $from = $file;
			if (defined $receiver)
			{
				$from = $owner->($file, $receiver) // $file;
				$name = "$name (passed by $file to $receiver)" if $from ne $file;
			}
			$edges{$from}{$to}{$name} = 1 if $from ne $to;
		}
	}
	return \%edges;
}

# "file: callee (stage, owner)" for each call against the rules, given the
# stage of each file and the calls between files (calls_between()); and
# every writer's call of the statistics of common/ (file => { name => 1 }
# of the names each calls).
sub stage_violations
{
	my ($stage, $edges) = @_;
	my %may = (
		write => { write => 1, format => 1, access => 1, base => 1 },
		format => { format => 1, access => 1 },
		analysis => { analysis => 1, format => 1, access => 1, base => 1 },
		load => { load => 1, access => 1, base => 1 },
		access => { access => 1 },
		base => { base => 1 });
	my @bad;
	foreach my $file (sort keys %$edges)
	{
		my $from = $stage->{$file} // next;
		next unless $may{$from};
		foreach my $owner (sort keys %{ $edges->{$file} })
		{
			my $to = $stage->{$owner} // next;
			next if $may{$from}{$to};
			push @bad, "$file: $_ ($to, $owner)" foreach sort keys %{ $edges->{$file}{$owner} };
		}
	}
	return @bad;
}

# The writers' calls of the statistics of common/ (but their enums' names).
sub writer_statistics
{
	my ($stage, $sources) = @_;
	my @bad;
	foreach my $file (sort grep { ($stage->{$_} // '') eq 'write' } keys %$sources)
	{
		my %called = map { $_->[0] => 1 } grep { !defined $_->[1] } calls_of(code_of($sources->{$file}));
		push @bad, map { "$file: $_ (statistics of common/)" } grep { /^stats_/ && !/_name$/ } sort keys %called;
	}
	return @bad;
}

# "from calls callee of to, above it in the map" for each call up the map
# (the files in order, a list), and for each call back into the map from
# a client file outside it that the map's files reach, given the calls
# between every client file (calls_between()).
sub order_violations
{
	my ($order, $edges) = @_;
	my %pos;
	@pos{@$order} = (0 .. $#$order);
	my @bad;
	foreach my $from (grep { exists $pos{$_} } sort keys %$edges)
	{
		foreach my $to (grep { exists $pos{$_} && $pos{$_} <= $pos{$from} } sort keys %{ $edges->{$from} })
		{
			push @bad, "$from calls $_ of $to, above it in the map" foreach sort keys %{ $edges->{$from}{$to} };
		}
	}
	my @todo = grep { exists $pos{$_} } sort keys %$edges;
	my %seen = map { $_ => 1 } @todo;
	while (defined(my $from = shift @todo))
	{
		foreach my $to (sort keys %{ $edges->{$from} // {} })
		{
			if (!exists $pos{$to})
			{
				push @todo, $to unless $seen{$to}++;
			}
			elsif (!exists $pos{$from})
			{
				push @bad, "$from (outside the map, which calls it) calls $_ of $to"
				  foreach sort keys %{ $edges->{$from}{$to} };
			}
		}
	}
	return @bad;
}

# the rules catch what they should and allow the rest: a writer that
# computes, a format that writes; a call up the map, a callback handed
# down that the lower file calls, a file outside the map calling back in,
# and a comparator handed to qsort (not a call of the report's)
my %fixture = (
	'w.c' => "void\nwrite_it(void)\n{\n\tget_it(); fmt_it(); stats_verdict_name(0);\n"
	  . "\t/* analyze_it() */ puts(\"load_it()\"); stats_summarize(x);\n\tanalyze_it();\n}\n",
	'a.c' => "static int\nby_x(const void *p, const void *q)\n{\n\treturn 0;\n}\n"
	  . "static double\nfig(int i)\n{\n\treturn i;\n}\nvoid\nanalyze_it(void)\n{\n"
	  . "\tqsort(v, n, sizeof(v[0]), by_x);\n\tsample_it(s->x, fig, c->a);\n}\n",
	'c.c' => "void\nsample_it(int n, double (*f) (int), int k)\n{\n\tf(n); help_it();\n}\n",
	'l.c' => "void\nload_it(void)\n{\n}\n",
	'x.c' => "int\nget_it(void)\n{\n\treturn 0;\n}\n",
	'f.c' => "void\nfmt_it(void)\n{\n\twrite_it();\n}\n",
	'o.c' => "void\nhelp_it(void)\n{\n\tget_it();\n}\n");
my %fixture_stage = ('w.c' => 'write', 'a.c' => 'analysis', 'c.c' => 'analysis', 'l.c' => 'load',
	'f.c' => 'format', 'x.c' => 'access');
my $fixture_edges = calls_between(\%fixture);
is( join('; ',
		stage_violations(\%fixture_stage, $fixture_edges),
		writer_statistics(\%fixture_stage, \%fixture)),
	'f.c: write_it (write, w.c); w.c: analyze_it (analysis, a.c); w.c: stats_summarize (statistics of common/)',
	'the stage rule: writers call no analysis and no statistics, format calls no writer');
is( join('; ', order_violations([ 'w.c', 'a.c', 'c.c', 'l.c', 'f.c', 'x.c' ], $fixture_edges)),
	'c.c calls fig (passed by a.c to sample_it) of a.c, above it in the map; '
	  . 'f.c calls write_it of w.c, above it in the map; '
	  . 'o.c (outside the map, which calls it) calls get_it of x.c',
	'the order rule: a call up, a callback called up, a call back in from outside; not qsort\'s');

my $map = slurp_file($client_path{'report.h'});
my (%stage, @order);
while ($map =~ /^ \*   (all|load|analysis|write|format|access|base) +(\w+\.c)\b/mg)
{
	$stage{$2} = $1;
	push @order, $2;
}
cmp_ok(scalar(@order), '>', 20, scalar(@order) . ' files in report.h\'s map of stages, in order');
is(scalar(keys %stage), scalar(@order), 'each file once in the map');
my @unmapped = grep { !$stage{$_} } grep { /^(report_|profile_report).*\.c$/ } keys %client_path;
is(scalar(@unmapped), 0, 'every report_*.c and profile_report*.c has its stage in report.h\'s map')
  or diag "not in the map: @unmapped";
my @unplaced = grep { !$client_path{$_} || slurp_file($client_path{$_}) !~ m{\A/\*.*?report\.h's map.*?\*/}s } @order;
is(scalar(@unplaced), 0, 'every file of the map says in its header comment what it is for and its place in report.h\'s map')
  or diag "no place in the map in the header of: @unplaced";
my %sources = map { $_ => slurp_file($client_path{$_}) } grep { /\.c$/ } keys %client_path;
my $edges = calls_between(\%sources);
my @bad = (stage_violations(\%stage, $edges), writer_statistics(\%stage, \%sources));
is(scalar(@bad), 0, 'the report\'s stages point one way: writers call no statistics and no analysis, the analysis no writer')
  or diag join("\n", @bad);
my @up = order_violations(\@order, $edges);
is(scalar(@up), 0, 'every call between the report\'s files goes down report.h\'s map, and none comes back into it from outside')
  or diag join("\n", @up);

# A function pointer the parser cannot follow (kept in a variable, then
# passed) never crosses files of the map: no function their headers
# declare takes one, as "(*" or as a typedef of one.
my %headers = map { $_ => slurp_file($client_path{$_}) }
  grep { $client_path{$_} } 'report.h', map { s/\.c$/.h/r } @order;
my %pointer_types = map { $_ => 1 } map { code_of($_) =~ /\btypedef\b[^;]*?\(\s*\*\s*(\w+)\s*\)/g } values %headers;
my @takes;
foreach my $h (sort keys %headers)
{
	foreach my $decl (code_of($headers{$h}) =~ /^extern\b([^;]*\([^;]*\))[^;]*;/mg)
	{
		my ($name, $params) = $decl =~ /(\w+)\s*\((.*)\)/s or next;
		push @takes, "$h: $name" if $params =~ /\(\s*\*/ || grep { $params =~ /\b\Q$_\E\b/ } keys %pointer_types;
	}
}
is(scalar(@takes), 0, 'no function the map\'s headers declare takes a function pointer')
  or diag join("\n", @takes);

done_testing();
