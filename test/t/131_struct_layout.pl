# struct_layout() against the compiler: a small C program built with the
# installation's own compiler and server headers prints offsetof() and
# sizeof() for every field the extension reports, and every row must match.
# Also the figures the issue names for SnapshotData on PG 15 / x86-64, and a
# completeness check: a gap of 8 bytes or more between fields (more than any
# alignment padding here) would mean a field missing from the tables.
use strict;
use warnings;

use AsServerAccount;
use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->start;
my $db = create_database($node, 'layout_check');

my @rows = map { [ split /\|/ ] } split /\n/,
  $node->safe_psql($db, 'SELECT struct_name, field, byte_offset, size FROM pgbench_ext.struct_layout()');
ok(@rows > 100, 'struct_layout() returns rows for the four structs');

# The C program: one printf per row, names from the extension, numbers from
# the compiler.
my $dir = PostgreSQL::Test::Utils::tempdir;
open my $c, '>', "$dir/offsets.c" or die;
print $c <<'C';
#include "postgres.h"
#include <stddef.h>
#include "access/transam.h"
#include "storage/proc.h"
#include "utils/snapshot.h"

/* port.h maps printf to libpgport's; this program links only libc. */
#undef printf

int
main(void)
{
C
foreach my $r (@rows)
{
	my ($s, $f) = @$r;
	if ($f eq '(total)')
	{
		print $c qq{\tprintf("%s|%s|0|%zu\\n", "$s", "$f", sizeof($s));\n};
	}
	else
	{
		print $c qq{\tprintf("%s|%s|%zu|%zu\\n", "$s", "$f", offsetof($s, $f), sizeof((($s *) 0)->$f));\n};
	}
}
print $c "\treturn 0;\n}\n";
close $c;

my ($cc, $inc, $inc2) = $node->config_data('--cc', '--includedir-server', '--includedir');
my ($out, $err) = ('', '');
IPC::Run::run([ split(' ', $cc), "-I$inc", "-I$inc2", '-o', "$dir/offsets", "$dir/offsets.c" ],
	'>', \$out, '2>', \$err)
  or BAIL_OUT("could not compile the offsetof program: $err");
IPC::Run::run([ "$dir/offsets" ], '>', \$out, '2>', \$err) or die "offsets failed: $err";

my %compiled = map { my @p = split /\|/; ("$p[0].$p[1]" => "$p[2]|$p[3]") } split /\n/, $out;
my @wrong;
foreach my $r (@rows)
{
	my ($s, $f, $off, $size) = @$r;
	push @wrong, "$s.$f: extension $off|$size, compiler $compiled{\"$s.$f\"}"
	  unless $compiled{"$s.$f"} eq "$off|$size";
}
is(scalar(@wrong), 0, 'every offset and size equals offsetof/sizeof from the installed headers')
  or diag join("\n", @wrong);

# No field left out: between consecutive fields (and before the end) only
# alignment padding, which is below 8 bytes for these structs.
my %by_struct;
push @{ $by_struct{ $_->[0] } }, $_ foreach @rows;
my @gaps;
foreach my $s (sort keys %by_struct)
{
	my @f = grep { $_->[1] ne '(total)' } @{ $by_struct{$s} };
	my ($total) = map { $_->[3] } grep { $_->[1] eq '(total)' } @{ $by_struct{$s} };
	push @gaps, "$s starts at $f[0][2]" if $f[0][2] != 0;
	for my $i (0 .. $#f)
	{
		my $end = $f[$i][2] + $f[$i][3];
		my $next = $i < $#f ? $f[ $i + 1 ][2] : $total;
		push @gaps, "$s: " . ($next - $end) . " bytes after $f[$i][1]" if $next - $end >= 8;
	}
}
is(scalar(@gaps), 0, 'no unexplained gap between fields (no field missing from the tables)')
  or diag join("\n", @gaps);

SKIP:
{
	my $arch = `uname -m`;
	chomp $arch;
	my $num = $node->safe_psql($db, 'SHOW server_version_num');
	skip "figures are for PG 15 on x86-64 (here $arch, $num)", 3
	  unless $arch eq 'x86_64' && $num >= 150000 && $num < 160000;

	is($node->safe_psql($db, "SELECT size FROM pgbench_ext.struct_layout('SnapshotData') WHERE field = '(total)'"),
		'120', 'SnapshotData is 120 bytes');
	is($node->safe_psql($db, "SELECT byte_offset || ' ' || size || ' ' || line_64 || ' ' || straddles "
		  . "FROM pgbench_ext.struct_layout('SnapshotData') WHERE field = 'snapXactCompletionCount'"),
		'112 8 1 false', 'snapXactCompletionCount at offset 112, size 8, on the second 64-byte line');
	is($node->safe_psql($db, "SELECT line_pg FROM pgbench_ext.struct_layout('SnapshotData') WHERE field = 'snapXactCompletionCount'"),
		'0', 'with PG_CACHE_LINE_SIZE 128 it shares line 0 with xmin');
}

done_testing();
