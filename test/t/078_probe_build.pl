# The snapshot-patch story on builds from source, with the probe on: A is
# PostgreSQL 15 unmodified, B the same with test/fixtures/snapshot-busy-loop.patch
# (300 volatile additions on GetSnapshotData()'s full path, under
# ProcArrayLock) and C with test/fixtures/snapshot-move-curcid.patch (curcid
# from offset 48 to 4).  Under a select-only load every counted run carries
# probe figures; B's full-mode figure is reported slower, with a CI above the
# noise threshold, and its reuse path (which skips the loop) moves far less;
# the report's layout section shows curcid moved for C and says B's layout is
# A's, in the terminal, report.md, report.html and summary.json, and
# "report DIR" renders it again from the directory alone.
#
# It builds PostgreSQL (minutes), so it runs under "make test-build" (and CI).
# PGBENCH_EXT_BUILD_CACHE, when set, lets repeated runs reuse the builds.
#
# What it assumes of the machine: none of its speed.  B's 300 additions
# cost several times a full-path call of A (tens of ns here), so every
# one of the 6 pairs is slower unless A's run median is inflated that many
# times over by preemption (seen at most 2.8 times, in 1 of 20 runs of
# test 132 on a loaded host): the verdict and its CI above +1% are not
# left to chance.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

plan skip_all => 'builds PostgreSQL from source (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $top = source_tree();
my $base = shared_tempdir();
$ENV{PGBENCH_EXT_BUILD_CACHE} ||= "$base/cache";

my $src = postgresql_source();
# symbols = on: the stock and curcid builds are 075's
my @src = ('--source', $src, '--symbols', 'on');

my $dir = "$base/story";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-r', '6', '-T', '3', '-c', '2', '-j', '2',
	'-b', 'select-only', '--unlogged', '--seed', '3', '--snapshot-probe',
	'--variant', 'A', @src,
	'--variant', 'B', @src, '--patch', "$top/test/fixtures/snapshot-busy-loop.patch",
	'--variant', 'C', @src, '--patch', "$top/test/fixtures/snapshot-move-curcid.patch",
	'-o', $dir);
is($rc, 0, 'an A/B/C of three source builds with the probe completes') or diag "$out\n$err";

my @runs = grep { $_->{status} eq 'ok' && $_->{warmup} eq 'false' } read_runs($dir);
is(scalar @runs, 18, 'eighteen counted runs');
is(scalar(grep { $_->{snapshot_full_ns_median} > 0 && $_->{snapshot_reuse_ns_median} > 0 } @runs), 18,
	'every counted run carries both modes\' figures');

my $summary = read_json("$dir/summary.json");
my %row = map { ("$_->{variant} $_->{mode} $_->{statistic}" => $_) } @{ $summary->{snapshot_probe} };
my $full = $row{'B full median'};
ok(defined $full, 'summary.json compares B\'s full-mode median with A\'s') or diag explain $summary->{snapshot_probe};
is($full->{comparison}{verdict}, 'slower', 'the busy loop makes B\'s full mode slower');
cmp_ok($full->{comparison}{ci_low}, '>', 1.01, "with the whole CI above +1% (from $full->{comparison}{ci_low})");
is($full->{comparison}{n_pairs}, 6, 'judged on the six rounds, like tps');
cmp_ok($row{'B reuse median'}{comparison}{estimate}, '<', $full->{comparison}{estimate},
	'the reuse path, which skips the loop, moves less than the full one');
like($out, qr/^  GetSnapshotData, full \(median of each run's probes\), under the run's load: [\d.]+ → [\d.]+ ns \(\+[\d.]+%, CI \[\+[\d.]+%, \+[\d.]+%\], p [\d.e-]+, 6 instance pairs\), slower$/m,
	'the terminal says so, with the CI');

my %pairs = map { ($_->{variant} => $_) } @{ $summary->{layout_diffs} };
ok($pairs{B} && $pairs{B}{identical}, 'summary.json: B\'s layout is A\'s (the loop moves no field)');
ok($pairs{C} && !$pairs{C}{identical}, 'summary.json: C\'s layout differs');
my ($snap) = grep { $_->{name} eq 'SnapshotData' } @{ $pairs{C}{structs} };
my ($curcid) = grep { $_->{name} eq 'curcid' } @{ $snap->{fields} };
is(join(' ', @{$curcid}{qw(a_offset b_offset b_line change)}), '48 4 0 moved', 'curcid moved from 48 to 4, line 0');
like($out, qr/^C vs A:\n  SnapshotData: size \d+ bytes in both, \d+ fields? changed: .*curcid 48 -> 4/m,
	'the terminal lists curcid among the moved fields');
like($out, qr/^B vs A: identical layouts$/m, 'and B\'s as identical');

my $md = slurp_file("$dir/report.md");
like($md, qr/^## What the patch moved$/m, 'report.md has the layout section');
like($md, qr/^### C vs A\n\nSnapshotData: size \d+ bytes in both/m, 'C against A, SnapshotData first');
like($md, qr/^\| curcid \| 48 \| 0 \| 4 \| 0 \| moved \|/m, 'the curcid row: offsets and lines');
like($md, qr/^### B vs A\n\nThe layouts of B and A are identical/m, 'B against A: identical');
ok(index($md, "## GetSnapshotData under the run's load") < index($md, '## What the patch moved'),
	'the layouts follow the probe figures');
like(slurp_file("$dir/report.html"), qr/<h2>What the patch moved<\/h2>.*<td>curcid<\/td><td>48<\/td>/s,
	'report.html has it too');

my $first = slurp_file("$dir/report.md");
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report re-renders') or diag $err;
is(slurp_file("$dir/report.md"), $first, 'report.md again from the directory alone, layouts included');

done_testing();
