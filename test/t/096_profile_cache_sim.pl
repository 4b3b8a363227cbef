# Counted profiles with callgrind's cache simulation (cache_sim = on):
# simulated misses per transaction beside the instructions, for the same
# two variants as 093_profile_counted.pl (A, and slow with
# pgbench_ext.inject_delay_ns on A's server), two rounds.  A rare event (a
# last-level write miss) can come out 0 per transaction, and a profile
# written when a short run was subtracted from each run below 0; the run
# keeps its profile all the same.  Apart from 093 so that the two tests
# under valgrind run side by side.  A server under the cache simulation
# runs many times slower than under callgrind alone, so the test runs with
# what takes minutes by nature (PGBENCH_EXT_TEST_LONG=1, CI); plain make
# test counts profiles in 093.
#
# What it assumes of the machine: valgrind.  Simulated misses are those of
# callgrind's model of a cache, not of the CPU's own, and are checked only
# for being there (0 or below for a rare event kept).
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

plan skip_all => 'simulates caches under valgrind (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $json = JSON::PP->new;
my ($rc, $out, $err);

my $dir = "$base/cache";
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-t', '20', '-r', '2', '-b', 'select-only',
	'--reset', 'never', '--profile', 'counted', '--cache-sim', 'on', '--seed', '11',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'slow', '--cluster', 'A', '--session-set', 'pgbench_ext.inject_delay_ns=200000',
	'-o', $dir);
is($rc, 0, 'a counted experiment with cache simulation completes') or diag "$out\n$err";
like($out, qr/^restarting the server of variant A under valgrind \(callgrind, cache simulation\)$/m,
	'A restarts under callgrind\'s cache simulation');
my $p1 = $json->decode(slurp_file("$dir/runs/0001.profile.json"));
is_deeply($p1->{events}, [qw(Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw)], 'nine events with cache simulation');
like($out, qr/^ select-only \| 1 +\| slow +\| D1 misses\/tx +\| [\d.]+ +\| [\d.]+ +\|/m, 'D1 misses per transaction compared');
$p1->{totals}[6] = 0;
$p1->{totals}[8] = -0.4;
open my $fh, '>', "$dir/runs/0001.profile.json" or die;
print $fh $json->encode($p1);
close $fh;
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report of a run whose rare misses difference to 0 and below') or diag $err;
unlike($out, qr/have no counted profile/, 'the run keeps its profile');
like($out, qr/^ select-only \| 1 +\| slow +\| LL misses\/tx +\|.*\| 2\+2 +\|/m, 'LL misses of both runs of each side');

done_testing();
