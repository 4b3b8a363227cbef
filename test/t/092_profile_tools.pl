# The profile readers on what the real tools write: a small program's
# callgrind file, read by pgbench_ext's reader and by callgrind_annotate
# (valgrind's own), must give the same self and inclusive costs; the
# symbol tables of a binary as built, stripped, and of the installation's
# postgres.
#
# What it assumes of the machine: valgrind (tools/deps installs it), cc,
# strip, and an installed postgres whose .dynsym names its exported
# functions (Debian's package and a build from source both do).  The
# program reads no clock: its instruction counts are the same on any
# x86-64 CPU, and both readers are compared on the one file.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $top = source_tree();
my $unit = unit_program(q{test_profile});
my $dir = shared_tempdir();

sub run_ok
{
	my ($cmd, $what) = @_;
	my ($out, $err) = ('', '');
	my $ok = IPC::Run::run($cmd, '>', \$out, '2>', \$err);
	ok($ok, $what) or diag "@$cmd: $err";
	return $out;
}

# A program whose costs are known in shape: leaf in a loop under work, a
# recursion 20 deep.
open my $fh, '>', "$dir/prog.c" or die;
print $fh <<'C';
#include <stdlib.h>
static volatile unsigned sink;
__attribute__((noinline)) static unsigned leaf(unsigned x)
{ unsigned s = 0; for (unsigned i = 0; i < x; i++) s += i * i; return s; }
__attribute__((noinline)) unsigned work(unsigned n)
{ unsigned s = 0; for (unsigned i = 0; i < n; i++) s += leaf(i % 50); return s; }
__attribute__((noinline)) unsigned recurse(unsigned d)
{ return d == 0 ? leaf(10) : recurse(d - 1) + 1; }
int main(int argc, char **argv)
{ sink = work(argc > 1 ? atoi(argv[1]) : 1000) + recurse(20); return 0; }
C
close $fh;
run_ok([ 'cc', '-O1', '-g', '-o', "$dir/prog", "$dir/prog.c" ], 'the program builds');
run_ok([ 'valgrind', '-q', '--tool=callgrind', "--callgrind-out-file=$dir/cg.out", "$dir/prog", '3000' ],
	'callgrind runs it');

my %ours;
my $total;
foreach (split /\n/, run_ok([ $unit, '--callgrind', "$dir/cg.out" ], 'our reader reads the file'))
{
	if (/^total (\d+)$/) { $total = $1; next; }
	my ($self, $incl, $name) = /^(\d+) (\d+) (.*)$/ or next;
	$ours{$name} = [ $self, $incl ];
}

# callgrind_annotate: "N (P%)  FILE:FUNCTION [OBJECT]" per function
sub annotate
{
	my ($inclusive) = @_;
	my %cost;
	my $out = run_ok([ 'callgrind_annotate', "--inclusive=$inclusive", '--auto=no', '--threshold=100', "$dir/cg.out" ],
		"callgrind_annotate --inclusive=$inclusive");
	foreach (split /\n/, $out)
	{
		if (/^\s*([\d,]+) \(\s*[\d.]+%\)\s+PROGRAM TOTALS/) { $cost{'PROGRAM TOTALS'} = $1 =~ s/,//gr; next; }
		my ($n, $fn) = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+\S*?:(\S+)(?: \[.*\])?$/ or next;
		$fn =~ s/'\d+$//;	# recursion levels are one function
		$cost{$fn} += $n =~ s/,//gr;
	}
	return \%cost;
}
my $self = annotate('no');
my $incl = annotate('yes');

is($total, $self->{'PROGRAM TOTALS'}, "total instructions equal callgrind_annotate's ($total)");
foreach my $fn (qw(leaf work recurse))
{
	is($ours{$fn}[0], $self->{$fn}, "self cost of $fn equals callgrind_annotate's");
}
foreach my $fn (qw(leaf work))
{
	is($ours{$fn}[1], $incl->{$fn}, "inclusive cost of $fn equals callgrind_annotate's");
}
cmp_ok($ours{leaf}[0], '>', 0.5 * $total, 'leaf is most of the program');

# --- symbols -------------------------------------------------------------
my ($symtab, $dynsym, $debug, $has) =
  split ' ', run_ok([ $unit, '--elf', "$dir/prog", 'work' ], 'the program\'s symbols are read');
ok($symtab > 0 && $has && $debug, "as built: .symtab ($symtab functions), work in it, debug information");
run_ok([ 'strip', '--strip-all', '-o', "$dir/prog.stripped", "$dir/prog" ], 'strip --strip-all');
($symtab, $dynsym, $debug, $has) = split ' ', run_ok([ $unit, '--elf', "$dir/prog.stripped", 'work' ], 'stripped');
ok($symtab == -1 && !$has && !$debug, 'stripped: no .symtab, work not named, no debug information');

my $postgres = "@{[pg_bindir()]}/postgres";
($symtab, $dynsym, $debug, $has) =
  split ' ', run_ok([ $unit, '--elf', $postgres, 'PostgresMain' ], "the installation's postgres ($postgres)");
ok($has, 'PostgresMain is named, where counted profiles start counting');
cmp_ok($dynsym, '>', 1000, "its .dynsym names the exported functions ($dynsym)");
note($symtab < 0 ? 'its .symtab is stripped: static functions are unnamed' : "its .symtab names $symtab functions");

done_testing();
