# "pgbench_ext calibrate --restart" end to end at a tiny size: the A/A and
# the known slowdown on two clusters, started once and restarted every
# round; each comparison judged across its instance pairs; the rates, the
# wall time per comparison and --reanalyse computed from the runs.  Bad
# --restart splits are usage errors.
#
# Forty-eight runs on servers restarted every round take minutes, so it runs
# under "make test-build" (060 and 062 run calibrate in make test).
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

plan skip_all => 'calibrates across restarted servers (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $bindir = pg_bindir();
my $base = shared_tempdir();

my ($rc, $out, $err);
foreach my $case (
	[ [ '--restart', '0' ], qr/--restart must be in range 1\.\.1000/ ],
	[ [ '--restart', '4', '--rounds', '6' ],
		qr/--rounds 6 is not a multiple of --restart 4: each comparison must hold whole instance pairs/ ],
	[ [ '--restart', '2', '--rounds', '6' ],
		qr/--rounds 6 with --restart 2 gives 3 instance pairs per comparison; the verdict across instance pairs needs at least 6/ ],
	[ [ '--restart', '1', '--reanalyse', "$base/nothing" ], qr/--restart and --reanalyse exclude each other/ ])
{
	my ($args, $pattern) = @$case;
	($rc, $out, $err) = run_client('calibrate', @$args);
	is($rc, 2, "calibrate @$args: exit status 2");
	like($err, $pattern, "calibrate @$args: message");
}

my $dir = "$base/cal";
($rc, $out, $err) = run_client('calibrate', '--bindir', $bindir, '-s', '1', '-T', '1',
	'--blocks', '2', '--rounds', '6', '--restart', '1', '-o', $dir);
is($rc, 0, 'a tiny calibration across servers completes') or diag $err;
like($err, qr/phase 1 of 4, A against an identical A, two clusters started once \(2 comparisons of 6 rounds\)/,
	'the A/A of two clusters started once runs');
like($err, qr/phase 2 of 4, A against an identical A, both restarted every 1 round \(2 comparisons of 6 instance pairs\)/,
	'the A/A restarted every round runs');
like($err, qr/phase 3 of 4, A against A slowed down by 3\.0% .*, on a cluster of its own started once/,
	'the slowdown on a cluster of its own, started once');
like($err, qr/phase 4 of 4, A against A slowed down by 3\.0% .*, on a cluster of its own, both restarted every 1 round/,
	'the slowdown on a cluster of its own, restarted every round');

# The restarted phases ran as the runner schedules restarts: a new instance
# of each server for each of the 12 rounds, the slowed variant on its own.
foreach my $phase ('aa-restart', 'delay-restart')
{
	my $b = $phase eq 'aa-restart' ? 'A2' : 'delayed';
	my @counted = grep { $_->{warmup} eq 'false' && $_->{status} eq 'ok' } read_runs("$dir/$phase");
	foreach my $v ('A', $b)
	{
		my %instances = map { $_->{instance} => 1 } grep { $_->{variant} eq $v } @counted;
		is(scalar(keys %instances), 12, "$phase: variant $v ran on 12 instances");
	}
	is(read_json("$dir/$phase/experiment.json")->{restart}{rounds_per_instance}, 1,
		"$phase: restarted every round");
}
ok(-d "$dir/delay/clusters/delayed" && -d "$dir/delay-restart/clusters/delayed",
	'the slowed variant has a cluster of its own in both slowed phases');
is(read_json("$dir/delay/experiment.json")->{restart}{rounds_per_instance}, 0,
	'the old scheme starts the servers once');

my $elapsed = read_json("$dir/calibration.json")->{elapsed_s};
foreach my $phase ('aa', 'aa-restart', 'delay', 'delay-restart')
{
	ok(defined $elapsed->{$phase} && $elapsed->{$phase} > 0, "elapsed time of $phase recorded");
}

# The table's rows, by phase and scheme, and each comparison's row
sub servers_rows
{
	my ($text) = @_;
	my %rows;
	foreach my $line (split /\n/, $text)
	{
		next unless $line =~ /^\| (A\/A|slowed) \| (started once|restarted every 1 round) \| (.*) \|$/;
		my @cells = split / \| /, $3;
		$rows{"$1 $2"} = \@cells;
	}
	return %rows;
}

my ($section) = $out =~ /(## Across servers: two clusters started once against restarted every 1 round\n.*)/s;
ok(defined $section, 'the across-servers section is printed') or diag $out;
$section //= '';
my %rows = servers_rows($section);
is_deeply([ sort keys %rows ],
	[ 'A/A restarted every 1 round', 'A/A started once', 'slowed restarted every 1 round', 'slowed started once' ],
	'a row for each phase and scheme');

foreach my $key (sort keys %rows)
{
	my ($what, $scheme) = $key =~ /^(\S+) (.*)$/;
	my $label = ($what eq 'A/A' ? 'A/A' : 'slowed') . ($scheme eq 'started once' ? ' once' : ' restarted');
	my ($n, $unit, $positives, $covered, $covered_pooled, $per, $runs, $warmups, $starts) = @{ $rows{$key} };
	my @each = $section =~ /^\| \Q$label\E \d+ \| (.*) \|$/mg;
	is($n, scalar(@each), "$key: the comparisons counted are those listed");
	is($unit, $scheme eq 'started once' ? '6 rounds' : '6 instance pairs',
		"$key: each comparison's unit");
	my $want_positives = grep {
		my @c = split / \| /, $_;
		$what eq 'A/A' ? $c[4] =~ /^(faster|slower|insufficient)$/ : $c[4] eq 'slower'
	} @each;
	my $want_covered = grep { /\| yes$/ } @each;
	foreach my $figure ([ 'verdicts', $positives, $want_positives ], [ 'coverage', $covered, $want_covered ])
	{
		my ($name, $cell, $want) = @$figure;
		my ($k, $rate) = $cell =~ /^(\d+) \(([\d.]+)%\)$/;
		is($k, $want, "$key: $name counted from the comparisons' rows");
		ok(defined $rate && abs($rate - 100 * $want / $n) < 0.051, "$key: $name rate is $want of $n");
	}
	like($per, qr/^\d+ s$/, "$key: elapsed time per comparison");
	like($runs, qr/^\d+ s$/, "$key: runs' wall time per comparison");
	# every server's starts, from instances.csv, per comparison
	my $phase = ($what eq 'A/A' ? 'aa' : 'delay') . ($scheme eq 'started once' ? '' : '-restart');
	open my $fh, '<', "$dir/$phase/instances.csv" or die "could not open instances.csv: $!";
	my $lines = () = <$fh>;
	close $fh;
	is($starts, sprintf('%.1f', ($lines - 1) / 2), "$key: starts per comparison from instances.csv");
}
like($section, qr/^- A2 against A, restarted every 1 round, all rounds at once: [-+]\d+\.\d\d% \[[-+]\d+\.\d\d%, [-+]\d+\.\d\d%\] across 12 instance pairs/m,
	'the restarted A/A over all its rounds is judged across its 12 instance pairs');
like($section, qr/^The slowdown across all instance pairs: [-+]\d+\.\d\d%/m,
	'the effect the slowed CIs are also held against');

# --reanalyse finds the phases and gives the same figures
my ($rc2, $out2, $err2) = run_client('calibrate', '--reanalyse', $dir);
is($rc2, 0, '--reanalyse of a calibration across servers succeeds') or diag $err2;
my ($section2) = $out2 =~ /(## Across servers: .*)/s;
is($section2, $section, '--reanalyse gives the same across-servers figures');

done_testing();
