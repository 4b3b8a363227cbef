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
# enums) and no function of the load or the analysis other than the
# accessors report.h lists; the analysis calls no writer; the load calls
# neither.  Calls are read from the sources by a small parser: comments,
# strings and characters removed, every "name(" a call, every name at the
# start of a line followed by "(" and not after "static" a definition.
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

foreach my $dir ('client', 'extension')
{
	my @objects = glob("$top/$dir/*.o");
	ok(@objects > 5, "$dir: objects to read (make has built it)");
	my (%defined_in, %uses);
	foreach my $o (@objects)
	{
		my $file = basename($o, '.o');
		foreach (split /\n/, `nm $o`)
		{
			if (/^\S+\s+[TDBRC]\s+(\S+)$/) { $defined_in{$1} = $file; }
			elsif (/^\s+U\s+(\S+)$/) { push @{ $uses{$file} }, $1; }
		}
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
	foreach my $src (glob("$top/$dir/*.h"), glob("$top/$dir/*.c"))
	{
		my $name = basename($src);
		my $text = slurp_file($src);
		$header_text{$name} = $text if $name =~ /\.h$/;
		foreach (split /\n/, $text)
		{
			$includes{$name}{$1} = 1 if /^#include "([^"\/]+\.[ch])"/ && -f "$top/$dir/$1";
		}
	}
	my @hloops = loops(\%includes);
	is(scalar(@hloops), 0, "$dir: no files include each other in a loop")
	  or diag join("\n", map { "loop: @$_" } @hloops);

	next unless $dir eq 'client';
	my %global = map { $_ => $defined_in{$_} } grep { -f "$top/$dir/$defined_in{$_}.c" } keys %defined_in;
	cmp_ok(scalar(keys %global), '>', 100, "$dir: " . scalar(keys %global) . ' symbols defined for other files');
	my @missing = undeclared(\%global, \%header_text);
	is(scalar(@missing), 0, "$dir: every file's functions and variables declared in its own header (or its family's)")
	  or diag join("\n", @missing);
}

# ---- the report's stages: write -> format, accessors; analysis -> load ----

# The C source without comments, strings and character constants.
sub code_of
{
	my ($text) = @_;
	$text =~ s{/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'}{
		my $m = $&; $m =~ tr/\n//cd; $m eq '' ? ' ' : $m }gse;
	return $text;
}

# name => file of every function defined, not static, in the given files
# (file => source); and file => { name => 1 } of every name called.
sub defined_and_called
{
	my ($sources) = @_;
	my (%defined, %called);
	foreach my $file (sort keys %$sources)
	{
		my $code = code_of($sources->{$file});
		my @lines = split /\n/, $code;
		for my $i (0 .. $#lines)
		{
			next unless $lines[$i] =~ /^([A-Za-z_]\w*)\(/;
			next if $i > 0 && $lines[ $i - 1 ] =~ /^static\b/;
			$defined{$1} = $file;
		}
		# a call: a name and "(", but not a definition at a line's start
		$code =~ s/^[A-Za-z_]\w*\(//mg;
		$called{$file}{$1} = 1 while $code =~ /\b([A-Za-z_]\w*)\s*\(/g;
	}
	return (\%defined, \%called);
}

# "file: callee (stage)" for each call against the rules, given the stage
# of each file, the accessors the writers may call, and the sources.
sub stage_violations
{
	my ($stage, $accessors, $sources) = @_;
	my ($defined, $called) = defined_and_called($sources);
	my %may = (
		write => { write => 1, format => 1 },
		format => { format => 1 },
		analysis => { analysis => 1, load => 1, format => 1 },
		load => { load => 1 });
	my @bad;
	foreach my $file (sort keys %$called)
	{
		my $from = $stage->{$file} // next;
		next unless $may{$from};
		foreach my $callee (sort keys %{ $called->{$file} })
		{
			if ($from eq 'write' && $callee =~ /^stats_/ && $callee !~ /_name$/)
			{
				push @bad, "$file: $callee (statistics of common/)";
				next;
			}
			my $owner = $defined->{$callee} // next;
			my $to = $stage->{$owner} // next;
			next if $owner eq $file || $may{$from}{$to};
			next if $to eq 'load' && $accessors->{$callee};
			push @bad, "$file: $callee ($to, $owner)";
		}
	}
	return @bad;
}

# the rule catches a writer that computes, and allows what it should
is( join('; ',
		stage_violations(
			{ 'w.c' => 'write', 'a.c' => 'analysis', 'l.c' => 'load', 'f.c' => 'format' },
			{ get_it => 1 },
			{
				'w.c' => "void\nwrite_it(void)\n{\n\tget_it(); fmt_it(); stats_verdict_name(0);\n"
				  . "\t/* analyze_it() */ puts(\"load_it()\"); stats_summarize(x);\n\tanalyze_it();\n}\n",
				'a.c' => "void\nanalyze_it(void)\n{\n\tload_it(); fmt_it();\n}\n",
				'l.c' => "void\nload_it(void)\n{\n}\nint\nget_it(void)\n{\n\treturn 0;\n}\n",
				'f.c' => "void\nfmt_it(void)\n{\n\twrite_it();\n}\n",
			})),
	'f.c: write_it (write, w.c); w.c: analyze_it (analysis, a.c); w.c: stats_summarize (statistics of common/)',
	'the stage rule: writers call no analysis and no statistics, format calls no writer');

my $map = slurp_file("$top/client/report.h");
my %stage;
$stage{$2} = $1 while $map =~ /^ \*   (load|analysis|format|write|all) +(\w+\.c)\b/mg;
cmp_ok(scalar(keys %stage), '>', 20, scalar(keys %stage) . ' files in report.h\'s map of stages');
my @unmapped = grep { !$stage{$_} } map { basename($_) } glob("$top/client/report_*.c"), glob("$top/client/profile_report*.c");
is(scalar(@unmapped), 0, 'every report_*.c and profile_report*.c has its stage in report.h\'s map')
  or diag "not in the map: @unmapped";
my ($block) = $map =~ m{report_data\.c: the accessors.*?\*/\n(.*?)\n\n}s;
my %accessors = map { $_ => 1 } ($block // '') =~ /(\w+)\(/g;
cmp_ok(scalar(keys %accessors), '>', 5, scalar(keys %accessors) . ' accessors the writers may call');
my %sources = map { basename($_) => slurp_file($_) } glob("$top/client/*.c");
my @bad = stage_violations(\%stage, \%accessors, \%sources);
is(scalar(@bad), 0, 'the report\'s stages point one way: writers call no statistics and no analysis, the analysis no writer')
  or diag join("\n", @bad);

done_testing();
