# The pre-flight: "pgbench_ext check FILE" and the lines a run prints before
# its first run.  On a host with no history it promises nothing; a finished
# experiment across two restarted servers adds its measured noise to the
# host's history (PGBENCH_EXT_STATE_DIR here), from which check gives the
# time to decide 2% and warns when an experiment's rounds cannot; a duet
# that trades CPUs within its runs takes the noise of its own kind of duet
# first; restart = auto takes its design from a record only when the
# record's sds rest on enough degrees of freedom.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
$ENV{PGBENCH_EXT_STATE_DIR} = "$base/state";

sub write_ini
{
	my ($name, $experiment) = @_;
	my $path = "$base/$name.ini";
	open my $f, '>', $path or die "could not write $path: $!";
	print $f "[experiment]\nscale = 1\nclients = 1\nscript = select-only\n$experiment\n"
	  . "[variant A]\nbindir = $bindir\n\n[variant B]\nbindir = $bindir\n";
	close $f;
	return $path;
}

my $short = write_ini('short', "duration = 1\nrounds = 2\nrestart = never\nschedule = interleaved\n");
my $long = write_ini('long', "duration = 1\nrounds = auto\nbudget = 7d\n");

# --- no history -------------------------------------------------------------
my ($rc, $out, $err) = run_client('check', $short);
is($rc, 0, 'check exits 0') or diag $err;
like($out, qr/^pre-flight: \d+ CPUs?; other processes busy \d+% of them, steal [\d.]+%, load [\d.]+; governor /m,
	'the host: CPUs, load of others, steal, governor');
like($out, qr/^pre-flight: no noise measured on this host yet for two servers/m, 'no history: nothing promised');
ok(!-e "$base/state/noise.csv", 'check writes nothing');

# --- a run: its pre-flight, then its noise into the history ----------------
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-T', '1', '-r', '4', '-b', 'select-only',
	'--restart', '2', '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir,
	'-o', "$base/run");
is($rc, 0, 'an experiment across two restarted servers') or diag "$out\n$err";
like($out, qr/\Apre-flight: /, 'a run begins with its pre-flight');
like($out, qr/^schedule = auto: duet: both runs of a pair at once, each side on \d+ of the \d+ CPUs/m,
	'two servers of their own: schedule = auto chose a duet, and said so');
my @history = split /\n/, slurp_file("$base/state/noise.csv");
is($history[0], 'recorded_at,script,clients,servers,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s',
	'the history has a header');
like($history[-1], qr/^\d{4}-\d\d-\d\dT[\d:]+Z,select-only,1,two,duet-swap,[\d.]+,\d+,[\d.]+,\d+,[\d.]+,[\d.]+$/,
	'and the run\'s noise: sd between rounds and between instance pairs, with their costs');

# --- check with history -------------------------------------------------------
# A record of known figures, the latest: sd 5% between rounds and 2% between
# instance pairs (10 degrees of freedom each), runs costing 1 s beyond their
# time, restarts 3 s.  The design for 2% is then fixed by these numbers.
open my $hist, '>>', "$base/state/noise.csv" or die $!;
print $hist "2099-01-01T00:00:00Z,select-only,1,two,interleaved,0.050000,10,0.020000,10,1.000,3.000\n";
# then one of a duet whose sides stay put for a round, and one of a duet
# that trades CPUs within its runs (file order is what "latest" means): a
# duet's check prefers its own kind of duet, and either to interleaved rounds
print $hist "2098-01-01T00:00:00Z,select-only,1,two,duet,0.010000,10,0.005000,10,1.000,3.000\n";
print $hist "2097-01-01T00:00:00Z,select-only,1,two,duet-swap,0.008000,10,0.004000,10,1.000,3.000\n";
close $hist;
($rc, $out, $err) = run_client('check', $short);
is($rc, 0, 'check with a history exits 0') or diag $err;
like($out, qr/^pre-flight: noise here \(2099-01-01T00:00:00Z, select-only, 1 client, interleaved\): sd between rounds 5\.00%, between instance pairs 2\.00%$/m,
	'the noise this host showed for the load: its latest record of the schedule');
like($out, qr/^pre-flight: to decide 2% \(twice the ±1% threshold\) at 80% power: \d+ instance pairs x \d+ rounds?, about \S+$/m,
	'the time to decide 2%');
like($out, qr/^pre-flight: warning: this experiment's rounds \(\S+\) cannot decide 2% here; give it \S+ or more/m,
	'two rounds of 1 s and no restart cannot: warned');
($rc, $out, $err) = run_client('check', write_ini('duet', "duration = 1\nrounds = 2\n"));
like($out, qr/^pre-flight: noise here \(2097-01-01T00:00:00Z, select-only, 1 client, duet-swap\): sd between rounds 0\.80%, between instance pairs 0\.40%$/m,
	'a duet (trading CPUs within its runs, the default): the latest record of such a duet');
($rc, $out, $err) = run_client('check', write_ini('duet-off', "duration = 1\nrounds = 2\nswap_interval = off\n"));
like($out, qr/^pre-flight: noise here \(2098-01-01T00:00:00Z, select-only, 1 client, duet\): sd between rounds 1\.00%, between instance pairs 0\.50%$/m,
	'a duet with swap_interval = off: the latest record of a duet that did not trade');
like($out, qr/^schedule = auto: duet: /m, 'check says what schedule = auto chose');
($rc, $out, $err) = run_client('check', write_ini('probe', "duration = 1\nrounds = 2\nsnapshot_probe = on\n"));
like($out, qr/^schedule = auto: interleaved: a duet cannot run here \(it runs two variants at once, without the snapshot probe\)$/m,
	'where a duet cannot run, schedule = auto is interleaved, saying why');
like($out, qr/^pre-flight: noise here \(2099-01-01T00:00:00Z, select-only, 1 client, interleaved\)/m,
	'and the noise is that of interleaved rounds');
($rc, $out, $err) = run_client('check', $long);
unlike($out, qr/cannot decide/, 'a budget of 7 days can: no warning');

# --- restart = auto from the history ------------------------------------------
# The latest record chooses the rounds between restarts only when both of its
# sds rest on 10 degrees of freedom or more; an sd of 3 instance pairs leaves
# the default rule (which says nothing).
sub two_round_run
{
	my ($name, $record) = @_;
	open my $h, '>>', "$base/state/noise.csv" or die $!;
	print $h $record;
	close $h;
	return run_client('ab', '-s', '1', '-c', '1', '-T', '1', '-r', '2', '-b', 'select-only',
		'--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', "$base/$name");
}
($rc, $out, $err) = two_round_run('few-df', "2096-01-01T00:00:00Z,select-only,1,two,duet-swap,0.008000,3,0.040000,3,1.000,3.000\n");
is($rc, 0, 'a run after a record of 3 instance pairs completes') or diag "$out\n$err";
unlike($out, qr/^restart = auto: every/m, 'that record chooses no restart design');
($rc, $out, $err) = two_round_run('enough-df', "2095-01-01T00:00:00Z,select-only,1,two,duet-swap,0.008000,12,0.040000,12,1.000,3.000\n");
is($rc, 0, 'a run after a record of 12 instance pairs completes') or diag "$out\n$err";
like($out, qr/^restart = auto: every 1 round, the cheapest unit for this host's noise \(2095-01-01T00:00:00Z: sd between instance pairs 4\.00%, between rounds 0\.80%/m,
	'that one does, naming it');

# --- bad input ----------------------------------------------------------------
($rc, $out, $err) = run_client('check');
is($rc, 2, 'check without a file: usage error');
($rc, $out, $err) = run_client('check', write_ini('bad', "pin = sometimes\n"));
is($rc, 2, 'a bad key value: exit 2');
like($err, qr/pin must be on .* got "sometimes"/, 'naming it');

done_testing();
