# One owner per piece: no two source files of the client or the extension
# call each other in a loop (a file that calls another's functions may not
# be called back by it, directly or around a longer loop), and no header
# includes itself around a loop.  Calls are read from the compiled objects
# with nm (a defined symbol's file against each file's undefined symbols);
# includes from the sources.  A loop is printed with the symbols behind it.
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

	my %includes;
	foreach my $h (glob("$top/$dir/*.h"))
	{
		my $name = basename($h);
		foreach (split /\n/, slurp_file($h))
		{
			$includes{$name}{$1} = 1 if /^#include "([^"\/]+\.h)"/ && -f "$top/$dir/$1";
		}
	}
	my @hloops = loops(\%includes);
	is(scalar(@hloops), 0, "$dir: no headers include each other in a loop")
	  or diag join("\n", map { "loop: @$_" } @hloops);
}

done_testing();
