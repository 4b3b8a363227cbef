# "pgbench_ext report DIR1 DIR2 ...": one experiment run on two machines
# (two results directories whose fingerprints differ) compared with the
# machine pair as the top level of the nested verdict; two directories of
# one machine are one unit, not two; directories of different experiments
# are refused.  No server: synthetic results directories written here.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $base = PostgreSQL::Test::Utils::tempdir;

# uniform noise in [-1, 1) with a fixed seed: the same on every machine
my $wobble = ReportFixture::noise(99);

my $a1 = ReportFixture::host_experiment("$base/alpha1", 'alpha', 1, 1.05, $wobble);
my $b1 = ReportFixture::host_experiment("$base/beta1", 'beta', 2, 1.045, $wobble);
my $a2 = ReportFixture::host_experiment("$base/alpha2", 'alpha', 3, 1.052, $wobble);

my ($rc, $out, $err) = run_client('report', $a1, $b1);
is($rc, 0, 'report of two directories of two machines exits 0') or diag $err;
like($out, qr/^2 results directories of one experiment \(signature [0-9a-f]{16}\) on 2 machines:$/m,
	'one experiment on two machines');
like($out, qr/^  machine \d: [0-9a-f]{16} \("alpha"\): \Q$a1\E$/m, 'alpha is one machine');
like($out, qr/^  machine \d: [0-9a-f]{16} \("beta"\): \Q$b1\E$/m, 'beta is the other');
my @cells = split /\n\n/, $out;
my ($one) = grep { /^default, 1 client: patch vs base:/ } @cells;
my ($two) = grep { /^default, 2 clients: patch vs base:/ } @cells;
ok($one && $two, 'a block per cell') or diag $out;
like($one, qr/^  \Q$a1\E \(machine \d\)\s+\+\d\.\d\d% \[\+\d\.\d\d%, \+\d\.\d\d%\]  faster  \(8 rounds\)$/m,
	'each directory\'s own verdict, across its rounds');
like($two, qr/^  across machines\s+\+4\.\d\d% \[\+\d\.\d\d%, \+\d\.\d\d%\]  faster  \(2 machine pairs\)$/m,
	'then the verdict across machines, the machine pair its unit');

# two directories of one machine: one unit
($rc, $out, $err) = run_client('report', $a1, $a2);
is($rc, 0, 'report of two directories of one machine exits 0') or diag $err;
like($out, qr/on 1 machine:/, 'one machine');
like($out, qr/^  across machines\s+\+\d\.\d\d%  insufficient  \(1 machine pair\)$/m, 'is one unit: insufficient')
  or diag $out;
like($out, qr/^One machine: the verdict across machines needs at least two\.$/m, 'and said so');

# three directories, two machines: alpha's two are pooled into its one summary
($rc, $out, $err) = run_client('report', $a1, $b1, $a2);
like($out, qr/on 2 machines:/, 'three directories of two machines: two machines');
like($out, qr/^  across machines.*\(2 machine pairs\)$/m, 'and two units');

# another experiment: refused
my $other = ReportFixture::host_experiment("$base/other", 'beta', 4, 1.0, $wobble, script => 'select-only');
($rc, $out, $err) = run_client('report', $a1, $other);
is($rc, 2, 'a directory of another experiment: exit status 2');
like($err, qr/\Q$other\E holds another experiment than \Q$a1\E\n.*detail: Their loads \(signatures [0-9a-f]{16} and [0-9a-f]{16}\)/,
	'naming it and what differs');
($rc, $out, $err) = run_client('report', $a1, "$base/nothing");
is($rc, 2, 'a directory that is none: exit status 2');
like($err, qr/must be a results directory/, '  and why');

done_testing();
