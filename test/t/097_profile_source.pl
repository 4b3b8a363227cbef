# Profiles of variants built from source: PostgreSQL 15 unmodified (A)
# against the same with test/fixtures/snapshot-busy-loop-large.patch (B), a
# loop of 20000 dependent steps at the start of GetSnapshotData.  Counted,
# the report must find more instructions per transaction, GetSnapshotData
# the change, and no other function changed; sampled, GetSnapshotData the
# largest change in CPU time, any other under half of it and with its
# instructions unchanged; and with a small counted view (counted_view),
# which finds the same builds in the cache and the loop's instructions.  Builds for profiles carry symbols and frame pointers in
# their build key, as 075's builds (symbols = on), whose stock build this
# test reuses when it runs after it (make test-build).
#
# It builds PostgreSQL twice for profiles (minutes), so it runs only when
# asked for (below), not in plain "make test" or CI.
# PGBENCH_EXT_BUILD_CACHE is honoured, so that a second run reuses the
# builds (then about 5 minutes).
#
# What it assumes of the machine: valgrind and perf (as 093 and 094), and
# builds with symbols and frame pointers.  The counted half counts
# instructions, the same on any x86-64 CPU.  The sampled half judges CPU
# time, and its checks rest on a margin, not on chance.  Two binaries
# differ in more than the patch: the code after the loop sits at other
# addresses, and a function whose code did not change can take more or
# less time.  With the 800-step loop of snapshot-busy-loop-unlocked.patch
# (about 740 ns a transaction in time, by the figure below) that was too
# small a margin: in one CI run base_yyparse was called changed by +724 ns,
# over half the loop's change.  The 20000-step loop, measured here (Intel
# Xeon, 2 vCPUs): +240,006 instructions per transaction counted (A's are
# about 100,000), +18,464 ns per transaction sampled, the other functions
# called changed base_yyparse +103 ns, SearchCatCacheInternal +59 ns and
# palloc +54 ns.  Half the loop's change, 9.2 us, is 90 times the largest
# of those.  And for GetSnapshotData not to be called changed, its time,
# a few hundred nanoseconds in A, would have to look the same beside a
# loop fifty times longer in every instance pair.  Neither is a matter of
# a few samples either way.
# The counted half runs with restart = never (instructions do not move
# between server starts, and starts under valgrind are slow); the sampled
# half with restart = auto, so that its verdicts, in time, are across
# instance pairs as the tps verdict is.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

# Two profile builds and twenty runs under valgrind take minutes.
plan skip_all => 'builds PostgreSQL from source (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $top = source_tree();
my $base = shared_tempdir();
$ENV{PGBENCH_EXT_BUILD_CACHE} ||= "$base/cache";

my $src = postgresql_source();

my $json = JSON::PP->new;
my @variants = ('--variant', 'A', '--source', $src,
	'--variant', 'B', '--source', $src, '--patch', "$top/test/fixtures/snapshot-busy-loop-large.patch");

sub cell
{
	my ($dir) = @_;
	my $summary = $json->decode(slurp_file("$dir/summary.json"));
	return $summary->{profiles}{cells}[0];
}

# --- counted: 10 rounds, so that one function among ~20 can reach q < 0.05
my $dir = "$base/counted";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-t', '60', '-r', '10', '-b', 'select-only',
	'--reset', 'never', '--restart', 'never', '--profile', 'counted', '--seed', '3', @variants, '-o', $dir);
is($rc, 0, 'counted A/B of two source builds completes') or diag "$out\n$err";
my $exp = $json->decode(slurp_file("$dir/experiment.json"));
like($exp->{variants}{$_}{build}{cflags}, qr/ -g -fno-omit-frame-pointer/, "$_ is built with symbols and frame pointers")
  foreach qw(A B);
like($exp->{variants}{A}{build}{key_text}, qr/^symbols -g -fno-omit-frame-pointer$/m, 'which is part of the build key');
ok($exp->{profile}{symbols}{A}{symtab}, 'the builds keep .symtab: static functions are named');
like($out, qr/^ select-only \| 1 +\| B +\| instructions\/tx \|.*\| 10 rounds \| more/m, 'B: more instructions per transaction');
my $c = cell($dir);
my @changed = grep { $_->{changed} } @{ $c->{functions} };
is(scalar @changed, 1, 'one function changed: ' . join(', ', map { $_->{function} } @changed));
is($changed[0]{function}, 'GetSnapshotData', 'GetSnapshotData');
cmp_ok($changed[0]{change}, '>', 20000, "by $changed[0]{change} instructions per transaction (20000 steps a call)");
my ($m) = @{ $c->{metrics} };
my $total = $m->{b_median} - $m->{a_median};
cmp_ok(abs($changed[0]{change} - $total), '<', 0.1 * $total,
	"that is the whole change of the total ($total)");
like($out, qr/^  GetSnapshotData \+\d+ \(\+\d/m, 'the terminal shows it under the verdict table');
ok(!grep({ $_->{function} =~ /^\[unknown in postgres\]$/ } @{ $c->{functions} }),
	'no unnamed code of postgres is among the functions compared');

# --- sampled: the same builds, native speed, 1999 samples per CPU-second
# (at the default rate a 3 s run of a loaded machine's servers has ~200).
$dir = "$base/sampled";
# With a counted view (counted_view = on), small: the timed runs of source
# builds and the counted runs after them count the same binaries.
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '2', '-T', '3', '-r', '12', '-b', 'select-only',
	'--reset', 'never', '--restart', 'auto', '--profile', 'sampled', '--sample-rate', '1999', '--seed', '3',
	'--counted-view', '--counted-view-rounds', '3', '--counted-view-transactions', '20',
	'--verbose', @variants, '-o', $dir);
is($rc, 0, 'sampled A/B of the same builds completes') or diag "$out\n$err";
like($out, qr/^variant A: reusing build /m, 'the counted experiment\'s builds are reused');
my @reused = $out =~ /^variant B: reusing build (\S+)$/mg;
is(scalar(@reused), 2, 'B\'s build is found in the cache for the timed runs and again for the counted view');
is($reused[0], $reused[1], 'the same build both times');
my ($va, $vb) = $out =~ /^ select-only \| 1 +\| B +\| instructions\/tx \| (\d+) +\| (\d+) +\|/m;
cmp_ok(($vb // 0) - ($va // 0), '>', 200000, 'the counted view under the verdicts: B more instructions per transaction by the loop\'s');
$c = cell($dir);
my ($g) = grep { $_->{function} eq 'GetSnapshotData' } @{ $c->{functions} };
ok($g && $g->{changed}, 'GetSnapshotData changed: ' . ($g ? "+$g->{change} ns, q $g->{q_value}" : 'not compared'));
is($c->{functions}[0]{function}, 'GetSnapshotData', 'the largest change is GetSnapshotData\'s');
# Sampled costs are time, and two binaries differ in more than the patch
# (the header): a function of the sampled half called changed besides the
# loop's must be under half of the loop's change, and one whose
# instructions the counted half saw unchanged: timing, not code.
my %counted_changed = map { ($_->{function} => 1) } grep { $_->{changed} } @{ cell("$base/counted")->{functions} };
@changed = grep { $_->{changed} && $_->{function} ne 'GetSnapshotData' } @{ $c->{functions} };
ok(!grep({ abs($_->{change}) >= 0.5 * $g->{change} || $counted_changed{ $_->{function} } } @changed),
	'any other function changed is under half of it, its instructions unchanged: '
	  . join(', ', map { "$_->{function} $_->{change}" } @changed));
like($out, qr/^  GetSnapshotData \+\d+/m, 'the terminal shows it with --verbose (a sampled profile\'s functions are details)');
ok(-s "$dir/plots/flame-1.svg", 'with its flame graph');

done_testing();
