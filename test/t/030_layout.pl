# "pgbench_ext layout": saved layouts, the diff of two layouts that differ
# by one moved field, a live server against a saved file, and bad input.
#
# Fixtures (test/fixtures/):
#   layout_pg15_x86_64.json - "layout --save" of PG 15 on x86-64;
#   layout_pg15_snapshot_reordered.json - the same with SnapshotData's
#     snapXactCompletionCount moved after xmax and the following offsets
#     recomputed with natural alignment (as a reordering patch would).
# The expected set of moved fields is computed here from the two files.
use strict;
use warnings;

use AsServerAccount;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $fixtures = source_tree() . '/test/fixtures';
my $base = "$fixtures/layout_pg15_x86_64.json";
my $reordered = "$fixtures/layout_pg15_snapshot_reordered.json";
my $tmp = PostgreSQL::Test::Utils::tempdir;
my ($rc, $out, $err);

# field => [offset, size] per struct
sub offsets
{
	my ($layout) = @_;
	my %o;
	foreach my $s (@{ $layout->{structs} })
	{
		$o{ $s->{name} }{ $_->{name} } = $_->{offset} foreach @{ $s->{fields} };
	}
	return \%o;
}

# Rows of the diff table: name => { a_off, a_line, b_off, b_line, change }
sub diff_rows
{
	my ($text) = @_;
	my %rows;
	foreach my $line (split /\n/, $text)
	{
		next unless $line =~ /^ (\S+)\s*\|\s*(\d*)\s*\|\s*(\d*)\s*\|\s*(\d*)\s*\|\s*(\d*)\s*\|\s*([^|]*?)\s*\|/;
		next if $1 eq 'field';
		$rows{$1} = { a_off => $2, a_line => $3, b_off => $4, b_line => $5, change => $6 };
	}
	return \%rows;
}

# --- two saved layouts, one field moved
($rc, $out, $err) = run_client('layout', $base, $reordered);
is($rc, 0, 'diff of two saved layouts succeeds') or diag $err;

my ($oa, $ob) = (offsets(read_json($base)), offsets(read_json($reordered)));
my @expected = sort grep { $oa->{SnapshotData}{$_} != $ob->{SnapshotData}{$_} }
  keys %{ $oa->{SnapshotData} };
my $rows = diff_rows($out);
my @moved = sort grep { $rows->{$_}{change} =~ /^moved/ } keys %$rows;
is_deeply(\@moved, \@expected,
	'exactly the moved field and those it displaced are reported as moved');
ok((grep { $_ eq 'snapXactCompletionCount' } @moved), 'the moved field is among them');
is(join(' ', @{ $rows->{snapXactCompletionCount} }{qw(a_off a_line b_off b_line)}), '112 1 16 0',
	'snapXactCompletionCount: old offset 112 on line 1, new offset 16 on line 0');
is($rows->{xmin}{change}, '', 'xmin did not move');
like($out, qr/^ xmin .*\+snapXactCompletionCount/m, 'xmin gained snapXactCompletionCount as a line neighbour');
like($out, qr/^SnapshotData: size 120 bytes in both/m, 'SnapshotData size unchanged');
like($out, qr/^PGPROC: identical \(\d+ fields, \d+ bytes\)$/m, 'PGPROC summarized in one line');
like($out, qr/^PROC_HDR: identical/m, 'PROC_HDR summarized in one line');
like($out, qr/^VariableCacheData: identical/m, 'VariableCacheData summarized in one line');

# --- a size change is reported
my $grown = read_json($base);
$_->{name} eq 'PROC_HDR' and $_->{size} += 64 foreach @{ $grown->{structs} };
open my $fh, '>', "$tmp/grown.json" or die;
print $fh encode_json($grown);
close $fh;
($rc, $out) = run_client('layout', $base, "$tmp/grown.json");
like($out, qr/^PROC_HDR: size 104 -> 168 bytes \(\+64\), 0 fields changed$/m, 'a size change is reported');

# --- live server: save, print, and compare with a saved file
my $node = PostgreSQL::Test::Cluster->new('live');
init_node($node);
$node->start;
my $db = create_database($node, 'layout_live');
($rc, $out, $err) = run_client_on($node, 'layout', '--save', "$tmp/live.json", "dbname=$db");
is($rc, 0, '--save succeeds') or diag $err;
my $live = read_json("$tmp/live.json");
is($live->{format}, 'pgbench_ext layout', 'saved file has the format tag');
is(scalar(@{ $live->{structs} }), 4, 'saved file has four structs');

($rc, $out, $err) = run_client_on($node, 'layout', "dbname=$db", "$tmp/live.json");
is($rc, 0, 'live conninfo against a saved file succeeds') or diag $err;
is(scalar(() = $out =~ /: identical \(/g), 4, 'a server is identical to its own saved layout');
like($out, qr/^A: host=.* dbname=layout_live/m, 'A is described as the server');

($rc, $out) = run_client_on($node, 'layout', '-d', $db);
like($out, qr/^SnapshotData: \d+ bytes, \d+ fields, \d+ lines$/m, 'one layout is printed');
like($out, qr/^ xmin\s+\| TransactionId/m, 'with field types');

SKIP:
{
	my $same = offsets($live);
	skip 'the live server is not PG 15 on x86-64', 1
	  unless encode_json($same) eq encode_json($oa);
	($rc, $out) = run_client_on($node, 'layout', "dbname=$db", $reordered);
	my @live_moved = sort grep { diff_rows($out)->{$_}{change} =~ /^moved/ } keys %{ diff_rows($out) };
	is_deeply(\@live_moved, \@expected, 'live server against the reordered fixture: the same moves');
}

# --- bad input
open $fh, '>', "$tmp/broken.json" or die;
print $fh '{"format": "pgbench_ext layout", "structs": [';
close $fh;
open $fh, '>', "$tmp/other.json" or die;
print $fh '{"format": "something else", "format_version": 1, "structs": []}';
close $fh;
# names a report would print, which are not those of C
open $fh, '>', "$tmp/markup.json" or die;
print $fh '{"format": "pgbench_ext layout", "format_version": 1, "structs": [{"name": "SnapshotData", "size": 8, '
  . '"fields": [{"name": "<b>x</b>", "type": "int", "offset": 0, "size": 4}]}]}';
close $fh;

# [ description, arguments, exit status, stderr ]
my @bad = (
	[ 'three arguments, no results directory', [ 'layout', 'a', 'b', 'c' ], 2,
		qr/"a" is not a results directory \(three arguments are DIR VARIANT_A VARIANT_B\)/ ],
	[ 'four arguments', [ 'layout', 'a', 'b', 'c', 'd' ], 2, qr/too many command-line arguments \(first is "d"\)/ ],
	[ '--save with two', [ 'layout', '--save', "$tmp/x.json", $base, $reordered ], 2, qr/--save takes one layout/ ],
	[ 'connection option with two', [ 'layout', '-h', '/tmp', $base, $reordered ], 2, qr/connection options apply to one server/ ],
	[ 'line size not a power of two', [ 'layout', '--line-size', '100', $base ], 2, qr/invalid --line-size "100": must be a power of two from 16 to 1024/ ],
	[ 'line size not a number', [ 'layout', '-l', 'abc', $base ], 2, qr/invalid --line-size "abc"/ ],
	[ 'line size too large', [ 'layout', '-l', '4096', $base ], 2, qr/invalid --line-size "4096"/ ],
	[ 'unknown option', [ 'layout', '--frobnicate' ], 2, qr/unrecognized option.*Try "pgbench_ext layout --help"/s ],
	[ 'missing file', [ 'layout', "$tmp/nonexistent.json", $base ], 1, qr/could not read layout file ".*nonexistent\.json"/ ],
	[ 'malformed file', [ 'layout', "$tmp/broken.json", $base ], 1, qr/could not read layout file ".*broken\.json": .*\(line 1, column/ ],
	[ 'not a layout', [ 'layout', "$tmp/other.json", $base ], 1, qr/is not a saved layout: format is "something else", expected "pgbench_ext layout"/ ],
	[ 'a field name not of C', [ 'layout', "$tmp/markup.json", $base ], 1,
		qr/is not a saved layout: SnapshotData field 1: its name or type is not one of C/ ],
);
foreach my $case (@bad)
{
	my ($name, $args, $status, $re) = @$case;
	($rc, $out, $err) = run_client(@$args);
	is($rc, $status, "$name: exit status $status");
	like($err, $re, "$name: message");
}

($rc, $out) = run_client('layout', '--help');
like($out, qr/Usage:.*layout .*A B.*--save=FILE.*--line-size/s, 'layout --help');

# A narrower line changes the line numbers, not the offsets.
($rc, $out) = run_client('layout', '--line-size', '32', $base, $reordered);
is(diff_rows($out)->{snapXactCompletionCount}{b_line}, '0', 'line size 32: new line 0');
is(diff_rows($out)->{snapXactCompletionCount}{a_line}, '3', 'line size 32: old line 3');

done_testing();
