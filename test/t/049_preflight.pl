# The pre-flight: the dry run "pgbench_ext run FILE --check" (check, below)
# and the lines a run prints before
# its first run.  On a host with no history it promises nothing; a finished
# experiment across two restarted servers adds its measured noise to the
# host's history (PGBENCH_EXT_STATE_DIR here), from which check gives the
# time to see 2% with 80% power and the power an experiment's own time has
# to see it, warning where that is less and "cannot decide anything" only
# where no outcome could decide (two servers never restarted); a duet
# that trades CPUs within its runs takes the noise of its own kind of duet
# first; restart = auto takes its design from the latest record whose sds
# rest on enough degrees of freedom, at their upper bounds (an instance sd
# recorded as 0 is not a known 0), at least 2 rounds per restart where the
# rounds allow, and check prints that choice and the time of that spacing
# within the record's bounds, and a power of 80% or more at the estimate
# is said without a warning (of any spacing given, naming a cheaper one
# that would fit); aslr = auto turns randomization
# off where every server runs one binary.  Every record holds the share of
# the client's CPUs (those it may use) other processes kept busy as its
# experiment began, measured on those CPUs alone; on a loaded
# host (spinning processes here) check takes a loaded host's record first,
# and with only a quieter one's says its power is the most; a
# history from before the load was recorded is rewritten with its column.
#
# What it assumes of the machine: 2 CPUs this process may use (else it
# skips), /proc, taskset.  The host's own load and noise enter only where
# said: the spinning processes make the load (one on every CPU), the
# records of known figures make the noise, and the one check that reads a
# pilot's measured noise states its premise below (PILOT_SD_PREMISE).
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;
use POSIX ();

use PgbenchExtTest;

# schedule = auto chooses a duet for two servers only where this process
# may use 2 CPUs, and much below (records, pilots, words) assumes it did
plan skip_all => 'schedule = auto makes a duet only with 2 CPUs this process may use, and it may use '
  . usable_cpus()
  if usable_cpus() < 2;

my $bindir = pg_bindir();
my $base = shared_tempdir();
$ENV{PGBENCH_EXT_STATE_DIR} = "$base/state";

# an experiment file of variants A and B, B of $b_bindir if given
sub write_ini
{
	my ($name, $experiment, $b_bindir) = @_;
	my $path = "$base/$name.ini";
	open my $f, '>', $path or die "could not write $path: $!";
	print $f "[experiment]\nscale = 1\nclients = 1\nscript = select-only\n$experiment\n"
	  . "[variant A]\nbindir = $bindir\n\n[variant B]\nbindir = " . ($b_bindir // $bindir) . "\n";
	close $f;
	return $path;
}

# The runs here are throttled (pgbench -R): what is checked is what the
# pre-flight, the pilot and the history say, not how fast the servers go,
# and a throttled pgbench and its backend leave the CPUs to the tests
# beside this one (unthrottled, its five experiments' runs took most of
# its 110 CPU-s).  The rate is near what a host loaded by the tests beside
# this one gives unthrottled (700 a second at load 9, 2026-12-06), and
# high enough that its random schedule adds little noise: a 1 s run of a
# Poisson schedule of 1,000 transactions a second has an sd of 3.2% in
# its count, 4.5% in the log ratio of two (PILOT_SD_PREMISE below).  Nor
# is the data copied afresh before each run (reset = never): select-only
# changes nothing.
my @throttled = ('--pgbench-args', '-R 1000', '--reset', 'never');

my $short = write_ini('short', "duration = 1\nrounds = 2\nrestart = never\nschedule = interleaved\n");
my $long = write_ini('long', "duration = 1\nrounds = auto\nbudget = 7d\n");

# --- no history -------------------------------------------------------------
my ($rc, $out, $err) = run_client('run', $short, '--check');
is($rc, 0, 'check exits 0') or diag $err;
like($out, qr/^pre-flight: \d+ CPUs?; other processes busy \d+% of them, steal [\d.]+%, load [\d.]+; governor /m,
	'the host: CPUs, load of others, steal, governor');
like($out, qr/^pre-flight: no noise measured on this host yet for two servers/m, 'no history: nothing promised');
ok(!-e "$base/state/noise.csv", 'check writes nothing');

# --- a run: its pre-flight, then its noise into the history ----------------
# (with a pilot of 3 rounds, looked at below).  The history is of 1.0.0's
# format 1 and holds one record, of a load not recorded (its field empty):
# the run reads it, upgrades the file to format 2 keeping the record (what
# its two servers ran not recorded) and adds its own, with the load.  The
# pilot, with a history, measures the rounds' noise and takes the offset
# between instance pairs from the history's record, and says which.  (A
# history of another format is set aside: test/unit/test_noise_history.c.)
my $history_header = 'format_version,recorded_at,script,clients,servers,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct';
my $old_record = '1,2089-01-01T00:00:00Z,select-only,1,two,duet-swap/aslr-off,0.010000,40,0.003000,12,0.300,3.000,';
mkdir "$base/state" or die "mkdir: $!";
open my $oh, '>', "$base/state/noise.csv" or die $!;
print $oh "$history_header\n$old_record\n";
close $oh;
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-T', '1', '-r', '4', '-b', 'select-only', @throttled,
	'--restart', '2', '--pilot', '3', '--variant', 'A', '--bindir', $bindir, '--variant', 'B',
	'--bindir', $bindir, '-o', "$base/run");
my $run_out = $out;
is($rc, 0, 'an experiment across two restarted servers') or diag "$out\n$err";
like($out, qr/\Apre-flight: /, 'a run begins with its pre-flight');
like($out, qr/^schedule = auto: duet: both runs of a pair at once, each side on \d+ of the \d+ CPUs/m,
	'two servers of their own: schedule = auto chose a duet, and said so');
like($out, qr/^aslr = auto: off: every server runs \S+\/postgres, so both sides start with the same address-space layout$/m,
	'two servers of one binary: aslr = auto turned randomization off, and said so');
ok(!read_json("$base/run/runs/0001.json")->{quiet}{aslr}, 'and the first run\'s server ran without it (/proc)');
like($out, qr/^pre-flight: pilot: 3 rounds in \S+: sd between rounds [\d.]+% \(2 df\); between instance pairs 0\.30% \(2089-01-01T00:00:00Z\)$/m,
	'the pilot names the history\'s offset between instance pairs, as recorded');
is(read_json("$base/run/pilot.json")->{instance_sd}, 0.003, 'and pilot.json holds it');
my @history = split /\n/, slurp_file("$base/state/noise.csv");
like($err, qr/the host's noise history "\Q$base\E\/state\/noise.csv" was upgraded from format version 1 to 2/,
	'a history of 1.0.0 (format 1) is upgraded by the run\'s record, saying so');
is($history[0], "format_version,recorded_at,script,clients,servers,binaries,schedule,round_sd,round_df,instance_sd,instance_df,run_overhead_s,restart_s,busy_pct",
	'the history has format 2\'s header');
is($history[1], '2,2089-01-01T00:00:00Z,select-only,1,two,,duet-swap/aslr-off,0.010000,40,0.003000,12,0.300,3.000,',
	'its record kept, what its two servers ran not recorded');
is(scalar(@history), 3, 'and the run\'s record follows');
like($history[-1], qr/^2,\d{4}-\d\d-\d\dT[\d:]+Z,select-only,1,two,one,duet-swap\/aslr-off,[\d.]+,\d+,[\d.]+,\d+,[\d.]+,[\d.]+,[\d.]+$/,
	'the run\'s noise: two servers of one binary, sd between rounds and between instance pairs, with their costs and the load');
# The records below are of a load not recorded (its field empty): the
# run's own record, of whatever load this host had, would outrank them on
# a like load, so the history starts afresh from its header.
open my $fresh, '>', "$base/state/noise.csv" or die $!;
print $fresh "$history[0]\n";
close $fresh;

# --- check with history -------------------------------------------------------
# A record of known figures, the latest: sd 5% between rounds and 2% between
# instance pairs (10 degrees of freedom each), runs costing 1 s beyond their
# time, restarts 3 s.  The design for 2% is then fixed by these numbers.
open my $hist, '>>', "$base/state/noise.csv" or die $!;
print $hist "2,2099-01-01T00:00:00Z,select-only,1,two,one,interleaved,0.050000,10,0.020000,10,1.000,3.000,\n";
# then one of a duet whose sides stay put for a round, one of a duet that
# trades CPUs within its runs, both without address-space randomization
# (as aslr = auto has two servers of one binary), and one of a trading duet
# with it (file order is what "latest" means): a duet's check prefers its
# own kind of duet, and either to interleaved rounds; then its own
# randomization
print $hist "2,2098-01-01T00:00:00Z,select-only,1,two,one,duet/aslr-off,0.010000,10,0.005000,10,1.000,3.000,\n";
print $hist "2,2093-01-01T00:00:00Z,select-only,1,two,one,duet-swap,0.009000,10,0.006000,10,1.000,3.000,\n";
print $hist "2,2097-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.008000,10,0.004000,10,1.000,3.000,\n";
close $hist;
($rc, $out, $err) = run_client('run', $short, '--check');
is($rc, 0, 'check with a history exits 0') or diag $err;
like($out, qr/^pre-flight: noise here \(2099-01-01T00:00:00Z, select-only, 1 client, interleaved, one binary\): sd between rounds 5\.00%, between instance pairs 2\.00%$/m,
	'the noise this host showed for the load: its latest record of the schedule');
like($out, qr/^pre-flight: to see 2% \(twice the ±1% threshold\) with 80% power: \d+ instance pairs x \d+ rounds?, about \S+ \(\S+ to \S+ within what its degrees of freedom allow\)$/m,
	'the time to see 2%');
like($out, qr/^pre-flight: warning: in its rounds \(\S+\) this experiment cannot decide anything: its two servers are each started once, .*\(restart = auto\)$/m,
	'two servers never restarted cannot decide anything, whatever they measure: warned, and why');
unlike($out, qr/sees a 2% change/, 'and no power is claimed for them');
($rc, $out, $err) = run_client('run', write_ini('duet', "duration = 1\nrounds = 2\n"), '--check');
like($out, qr/^pre-flight: noise here \(2097-01-01T00:00:00Z, select-only, 1 client, duet-swap\/aslr-off, one binary\): sd between rounds 0\.80%, between instance pairs 0\.40%$/m,
	'a duet (trading CPUs within its runs, the default): the latest record of such a duet');
($rc, $out, $err) = run_client('run', write_ini('duet-aslr', "duration = 1\nrounds = 2\naslr = on\n"), '--check');
like($out, qr/^pre-flight: noise here \(2093-01-01T00:00:00Z, select-only, 1 client, duet-swap, one binary\): sd between rounds 0\.90%, between instance pairs 0\.60%$/m,
	'the same with randomization on: the latest record of a trading duet with it');
($rc, $out, $err) = run_client('run', write_ini('duet-off', "duration = 1\nrounds = 2\nswap_interval = off\n"), '--check');
like($out, qr/^pre-flight: noise here \(2098-01-01T00:00:00Z, select-only, 1 client, duet\/aslr-off, one binary\): sd between rounds 1\.00%, between instance pairs 0\.50%$/m,
	'a duet with swap_interval = off: the latest record of a duet that did not trade');
like($out, qr/^schedule = auto: duet: /m, 'check says what schedule = auto chose');
($rc, $out, $err) = run_client('run', write_ini('probe', "duration = 1\nrounds = 2\nsnapshot_probe = on\n"), '--check');
like($out, qr/^schedule = auto: interleaved: a duet cannot run here \(it runs two variants at once, without the snapshot probe\)$/m,
	'where a duet cannot run, schedule = auto is interleaved, saying why');
like($out, qr/^pre-flight: noise here \(2099-01-01T00:00:00Z, select-only, 1 client, interleaved, one binary\)/m,
	'and the noise is that of interleaved rounds');
($rc, $out, $err) = run_client('run', $long, '--check');
unlike($out, qr/cannot decide|warning: in its/, 'a budget of 7 days can: no warning');
like($out, qr/^pre-flight: in its budget \(\S+\) this experiment sees a 2% change with about 100% power at this noise \(\d+% to 100% within what its degrees of freedom allow\)$/m,
	'but what it buys: the power to see 2%');
# one server (B on A's cluster): rounds are the units, and the time is of rounds
add_record("2,2099-02-01T00:00:00Z,select-only,1,one,one,interleaved,0.030000,10,,,1.000,3.000,\n");
{
	my $one = "$base/one-server.ini";
	open my $f, '>', $one or die $!;
	print $f "[experiment]\nscale = 1\nclients = 1\nscript = select-only\nduration = 1\nrounds = 2\n"
	  . "[variant A]\nbindir = $bindir\n\n[variant B]\ncluster = A\n";
	close $f;
	($rc, $out, $err) = run_client('run', $one, '--check');
	is($rc, 0, 'check of two variants on one server exits 0') or diag $err;
	like($out, qr/^pre-flight: noise here \(2099-02-01T00:00:00Z, select-only, 1 client, interleaved\): sd between rounds 3\.00%$/m,
		'one server: the record of one server');
	like($out, qr/^pre-flight: to see 2% \(twice the ±1% threshold\) with 80% power: \d+ rounds, about \S+ \(\S+ to \S+ within what its degrees of freedom allow\)$/m,
		'and the time to see 2% in rounds, the units of one server');
	like($out, qr/^pre-flight: warning: in its rounds \(\S+\) this experiment cannot decide anything: it holds 2 rounds, and no test of fewer than 4 can reach p < 0.05 \(rounds =, or rounds = auto with a budget\)$/m,
		'two rounds on one server: no test of them can reach p < 0.05, whatever they measure');
}

# --- restart = auto from the history ------------------------------------------
# The latest record with 10 degrees of freedom or more in both sds chooses the
# rounds between restarts (an sd of 3 instance pairs is passed over); under
# rounds = auto at least 2 rounds per restart, so that every experiment
# measures both sds; with fixed rounds fewer where 2 would leave less than 6
# instance pairs.  check prints the choice a run would make.
# seconds of a duration as the client prints it: 45s, 2m10s, 1h02m
sub seconds_of
{
	my ($d) = @_;
	return $1 * 3600 + $2 * 60 if $d =~ /^(\d+)h(\d\d)m$/;
	return $1 * 60 + $2 if $d =~ /^(\d+)m(\d\d)s$/;
	return $1 if $d =~ /^(\d+)s$/;
	die "not a duration: $d";
}
sub add_record
{
	open my $h, '>>', "$base/state/noise.csv" or die $!;
	print $h $_[0];
	close $h;
}
my $auto = write_ini('auto', "duration = 1\nrounds = auto\nbudget = 10m\n");
add_record("2,2096-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.008000,3,0.040000,3,1.000,3.000,\n");
($rc, $out, $err) = run_client('run', $auto, '--check');
is($rc, 0, 'check after a record of 3 instance pairs exits 0') or diag $err;
like($out, qr/^restart = auto: every ([2-5]) rounds, the cheapest unit for this host's noise \(2097-01-01T00:00:00Z: /m,
	'that record is passed over: the latest with enough degrees of freedom chooses');
my ($chosen) = $out =~ /^restart = auto: every (\d+) rounds/m;
like($out, qr/^pre-flight: noise here \(2097-01-01T00:00:00Z, /m, 'and the time promised is of that record too');
like($out, qr/^pre-flight: to see 2% .*: \d+ instance pairs x $chosen rounds, /m,
	'with the spacing it chose');
add_record("2,2095-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.008000,12,0.040000,12,1.000,3.000,\n");
($rc, $out, $err) = run_client('run', $auto, '--check');
like($out, qr/^restart = auto: every 2 rounds, the cheapest unit for this host's noise \(2095-01-01T00:00:00Z: sd between instance pairs 4\.00%, between rounds 0\.80%/m,
	'an instance offset five times the rounds\' sd: a restart every 2 rounds under rounds = auto, not every round');
like($out, qr/^pre-flight: to see 2% .*: \d+ instance pairs x 2 rounds, /m, 'the time promised is of a restart every 2');
# A spacing given, of 5 rounds, where that record's instance offset makes a
# restart before every round far cheaper: 15 minutes see 2% with less than
# 80% power with the one, not with the other, and the pre-flight says
# which key to set.
($rc, $out, $err) = run_client('run', write_ini('spaced', "duration = 1\nrounds = auto\nbudget = 15m\nrestart = 5\n"), '--check');
like($out, qr/^pre-flight: to see 2% .*: \d+ instance pairs x 5 rounds, about \S+ \(\S+ to (?:\S+|beyond any design) within what its degrees of freedom allow\)$/m,
	'restart = 5: the time of its spacing (its upper end may need more than any design: an instance sd of 4% on 12 df)');
my ($spaced_power) = $out =~ /^pre-flight: warning: in its budget \(15m00s\) this experiment sees a 2% change with about (\d+)% power at this noise \(.*\); 80% takes \S+ or more \(budget =\)$/m;
cmp_ok($spaced_power // 100, '<', 80, '80% takes more than 15 minutes: warned, with the power 15 minutes have');
like($out, qr/^pre-flight: that is with a restart every 5 rounds; a restart every 1 would take about \S+ at this noise \(restart = 1\)$/m,
	'and the spacing that would fit is named');
unlike($out, qr/^restart = auto/m, 'a spacing given is kept');
# (the pre-flight of a run, without the run: ab --check prints what a run
# would, below, and the runs above and below print it as they begin)
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-T', '1', '-r', '2', '-b', 'select-only',
	'--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', "$base/enough-df", '--check');
is($rc, 0, 'the pre-flight of a run of 2 rounds after that record') or diag "$out\n$err";
like($out, qr/^restart = auto: every 1 round, the cheapest unit for this host's noise \(2095-01-01T00:00:00Z: sd between instance pairs 4\.00%, between rounds 0\.80%/m,
	'with 2 fixed rounds, every round, naming the record');
# A record's sds are estimates: an instance sd of 0 from 19 instance pairs
# of 2 rounds (a demo's) is not a known 0.  restart = auto chooses at their
# upper bounds, where that 0 is what the rounds' noise could hide (taken as
# known, it chose blocks of 5), and the time promised has its range: the
# demo's budget of 2m30s fits the estimate, not the upper bound: 80% power
# or more at the estimate, less at the upper bound, no warning, and the
# budget that keeps 80% even there.
add_record("2,2094-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.021452,19,0.000000,18,0.036,2.583,\n");
($rc, $out, $err) = run_client('run', write_ini('demo-record', "duration = 2\nrounds = auto\nbudget = 2m30s\n"), '--check');
like($out, qr/^restart = auto: every [2-4] rounds, the cheapest unit for this host's noise \(2094-01-01T00:00:00Z: sd between instance pairs 0\.00%, between rounds 2\.15%, at most 0\.[1-9]\d% and 2\.\d\d% within what their 18 and 19 df allow; /m,
	'an instance sd of 0 on 18 df: bounded above 0, and blocks shorter than 5 rounds');
like($out, qr/^pre-flight: to see 2% .*, about (\S+) \((\S+) to (\S+) within what its degrees of freedom allow\)$/m,
	'the time promised, within the bounds of the record\'s sds');
my ($about, $least, $most) = $out =~ /^pre-flight: to see 2% .*, about (\S+) \((\S+) to (\S+) within/m;
ok(seconds_of($least) <= seconds_of($about) && seconds_of($about) <= seconds_of($most),
	"in order: $least <= $about <= $most");
my ($at_est, $at_upper, $at_lower, $likely) = $out =~ /^pre-flight: in its budget \(2m30s\) this experiment sees a 2% change with about (\d+)% power at this noise \((\d+)% to (\d+)% within what its degrees of freedom allow\); (\S+) or more keeps 80% even at the noise's upper bound \(budget =\)$/m;
ok(defined $likely && $at_est >= 80 && $at_upper < 80 && $at_upper <= $at_est && $at_est <= $at_lower,
	'2m30s within the range: 80% or more at the estimate, less at the upper bound, no warning: '
	  . join('/', map { $_ // '?' } $at_upper, $at_est, $at_lower)) or diag $out;
# rounded up to 10 s: no less than the range's top, and a budget one writes
ok(seconds_of($likely // '0s') >= seconds_of($most) && seconds_of($likely // '0s') <= seconds_of($most) + 10
	  && seconds_of($likely // '0s') % 10 == 0,
	"the budget that likely would, $most rounded up to 10 s: " . ($likely // 'none'));
unlike($out, qr/cannot decide|warning: in its/, 'not "cannot", no warning: the estimate fits');
# ab --check: the same experiment as flags, the same pre-flight, nothing run
# (the host's own lines apart: its load is measured anew)
{
	my $from_file = $out;
	($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-b', 'select-only', '-T', '2',
		'--rounds', 'auto', '--budget', '2m30s', '--variant', 'A', '--bindir', $bindir,
		'--variant', 'B', '--bindir', $bindir, '-o', "$base/ab-check", '--check');
	is($rc, 0, 'ab --check exits 0') or diag $err;
	# the lines of the record and the design: the host's load, measured
	# anew, moves the others
	my $of_record = sub {
		join "\n", grep { /^(?:pre-flight: noise here|restart = auto|pre-flight: to see|pre-flight: (?:warning: )?in its|schedule = auto|aslr = auto)/ }
		  split /\n/, $_[0];
	};
	is($of_record->($out), $of_record->($from_file), 'ab --check: the pre-flight of run FILE --check');
	like($of_record->($out), qr/^restart = auto: .*\npre-flight: to see 2% .*\npre-flight: in its budget .* keeps 80% even at the noise's upper bound/m,
		'its choice of spacing, its time and its power');
	ok(!-e "$base/ab-check", 'and nothing written');
	($rc, $out, $err) = run_client('ab', '--variant', 'A', '--bindir', $bindir, '--build-only', '--check');
	is($rc, 2, 'ab --check --build-only: usage error');
	like($err, qr/--check and --build-only exclude each other/, 'naming both');
	($rc, $out, $err) = run_client('ab', '-T', '2', '--rounds', 'auto', '--variant', 'A', '--bindir', $bindir,
		'--variant', 'B', '--bindir', $bindir, '--check');
	is($rc, 2, 'ab --check of a bad experiment: usage error');
	like($err, qr/budget/, 'naming what is wrong');
	like($err, qr/Nothing was checked/, 'and that nothing was');
}
# make demo's experiments, as tools/demo-experiments spells them for
# tools/demo and bench/restart_choice.sh: ab takes their flags
foreach my $experiment (qw(demo_across_servers demo_on_one_server))
{
	my ($demo_out, $demo_err) = ('', '');
	IPC::Run::run([ 'bash', '-c', '. "$1/tools/demo-experiments" && ' . $experiment
		  . ' "$2" && exec "$3" ab "${demo_flags[@]}" --check', 'demo', source_tree(), $bindir, client() ],
		'<', \undef, '>', \$demo_out, '2>', \$demo_err);
	is($? >> 8, 0, "make demo's $experiment: ab --check takes its flags") or diag $demo_err;
	like($demo_out, qr/^schedule = auto: /m, "$experiment: and checks them");
}

# --- the host's load ------------------------------------------------------------
# A process spinning on every CPU loads the host (other processes busy far
# above 25%).  Of two records of one schedule, the loaded host's is taken
# though the quiet host's is the latest, and at its noise a budget of 2m30s
# sees 2% with less than 80% power; with only the quiet host's record, the
# time it gives is a lower bound and the power an upper one; with no
# history at all, check warns that the budget's power is not known.
# spin_on(CPU...): a process spinning on each CPU given; their pids
sub spin_on
{
	my @pids;
	for my $cpu (@_)
	{
		my $pid = fork() // die "fork: $!";
		if ($pid == 0)
		{
			# at the lowest priority: the pre-flight counts a CPU's nice
			# time as busy, so it sees the same load, while the client
			# and the tests beside this one take the CPUs first
			exec('nice', '-n', '19', 'taskset', '-c', $cpu, $^X, '-e', '1 while 1') or POSIX::_exit(127);
		}
		push @pids, $pid;
	}
	return @pids;
}
my $loaded_dir = "$base/state-loaded";
mkdir $loaded_dir or die "mkdir: $!";
my $header = $history[0];
open my $lh, '>', "$loaded_dir/noise.csv" or die $!;
print $lh "$header\n",
  "2,2090-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.030000,40,0.010000,12,0.300,3.000,97.0\n",
  "2,2091-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.010000,40,0.003000,12,0.300,3.000,2.0\n";
close $lh;
my $demo_like = write_ini('demo-like', "duration = 2\nrounds = auto\nbudget = 2m30s\n");
my @spinners = spin_on(0 .. `nproc --all` - 1);
{
	local $ENV{PGBENCH_EXT_STATE_DIR} = $loaded_dir;
	($rc, $out, $err) = run_client('run', $demo_like, '--check');
	is($rc, 0, 'check on a loaded host exits 0') or diag $err;
	my ($busy) = $out =~ /other processes busy (\d+)% of them/;
	cmp_ok($busy // 0, '>', 25, 'the spinning processes load the host');
	like($out, qr/^pre-flight: noise here \(2090-01-01T00:00:00Z, select-only, 1 client, duet-swap\/aslr-off, one binary\): sd between rounds 3\.00%, between instance pairs 1\.00%; other processes were busy 97%$/m,
		'the loaded host\'s record, though the quiet host\'s is the latest');
	my ($loaded_power) = $out =~ /^pre-flight: warning: in its budget \(2m30s\) this experiment sees a 2% change with about (\d+)% power at this noise \(.*\); 80% takes \S+ or more \(budget =\)$/m;
	cmp_ok($loaded_power // 100, '<', 80, 'at its noise the budget of 2m30s sees 2% with less than 80% power: said before any run');
	unlike($out, qr/pilot/, 'the load\'s noise on record: no pilot');

	open $lh, '>', "$loaded_dir/noise.csv" or die $!;
	print $lh "$header\n",
	  "2,2091-01-01T00:00:00Z,select-only,1,two,one,duet-swap/aslr-off,0.010000,40,0.003000,12,0.300,3.000,2.0\n";
	close $lh;
	($rc, $out, $err) = run_client('run', $demo_like, '--check');
	like($out, qr/^pre-flight: warning: that noise was measured on a quieter host \(2% busy\) than now \(\d+% busy\): the time below is the least it takes, the power the most$/m,
		'only a quiet host\'s record: its time is a lower bound');
	like($out, qr/^pre-flight: a pilot of 6 paired rounds measures the noise at this load after the set-up, before the first counted run, and says what power the budget has to see 2% \(pilot =\)$/m,
		'and a pilot will measure the noise at this load');

	local $ENV{PGBENCH_EXT_STATE_DIR} = "$base/state-none";
	($rc, $out, $err) = run_client('run', $demo_like, '--check');
	like($out, qr/^pre-flight: no noise measured on this host yet for two servers/m, 'no history on a loaded host: nothing promised');
	like($out, qr/^pre-flight: a pilot of 6 paired rounds measures the noise at this load/m,
		'but a pilot will measure it');
	($rc, $out, $err) = run_client('run', write_ini('no-pilot', "duration = 2\nrounds = auto\nbudget = 2m30s\npilot = off\n"), '--check');
	like($out, qr/^pre-flight: warning: other processes load the host, and no noise was measured here at such a load: the power of the budget \(2m30s\) to see 2% is not known, and may be low \(pilot = auto measures it first\)$/m,
		'pilot = off: the budget\'s power is not known');
	unlike($out, qr/a pilot of/, 'and no pilot');
	($rc, $out, $err) = run_client('run', write_ini('short-budget', "duration = 2\nrounds = auto\nbudget = 1m\n"), '--check');
	unlike($out, qr/a pilot of/, 'a pilot that would take more than a fifth of the budget: none');
}
kill 'KILL', @spinners;
waitpid($_, 0) foreach @spinners;

# The load a run meets is that of the CPUs it may use (and a duet pins its
# sides to): with the client on one CPU and a process spinning on that CPU
# alone, it is busy whatever the others do; counted over the machine, a
# quiet second CPU would halve it.
{
	my $cpu = `nproc --all` - 1;
	my @spinner = spin_on($cpu);
	my ($one_out, $one_err) = ('', '');
	IPC::Run::run([ 'taskset', '-c', $cpu, client(), 'run', $demo_like, '--check' ],
		'<', \undef, '>', \$one_out, '2>', \$one_err);
	kill 'KILL', @spinner;
	waitpid($_, 0) foreach @spinner;
	my ($busy) = $one_out =~ /^pre-flight: 1 CPU; other processes busy (\d+)% of them/m;
	ok(defined $busy, 'a client on one CPU: its pre-flight counts that one') or diag "$one_out\n$one_err";
	cmp_ok($busy // 0, '>=', 80, 'and the load on it, not the machine\'s');
}

# --- the pilot in a run ------------------------------------------------------------
# pilot = 3: after the servers' first start and its warm-ups, three paired
# rounds recorded as warm-ups (round 0, numbered past the plan's runs),
# before the first counted run.  The first run above was a duet of 4 rounds
# (12 runs with the warm-ups after its 2 starts), with the history's
# offset between instance pairs; the one below is interleaved, with no
# history.  What a pilot of two fixed rounds (two instance pairs of a
# round each) says of them, never "can" with no offset between instance
# pairs on record nor "cannot" (two instance pairs could decide), and no
# offset sd that would fit, is test/unit/test_preflight.c's.
sub pilot_ok
{
	my ($what, $dir, $output, $plan_runs, $offset, @order) = @_;
	like($output, qr/^pre-flight: a pilot of 3 paired rounds measures the noise/m, "$what: announced");
	like($output, qr/^pre-flight: pilot: 3 rounds in \S+: sd between rounds [\d.]+% \(2 df\); between instance pairs $offset$/m,
		"$what: its noise, and the instance offset");
	my $runs = [ read_runs($dir) ];
	my @pilot = grep { $_->{run_id} > $plan_runs } @$runs;
	my ($first_counted) = grep { $runs->[$_]{round} > 0 } 0 .. $#$runs;
	is(scalar(@pilot), 6, "$what: its 6 runs recorded past the plan's");
	ok(!grep({ $_->{round} ne '0' || $_->{warmup} ne 'true' } @pilot), "$what: as warm-ups (round 0)");
	ok(defined $first_counted && !grep({ $runs->[$_]{run_id} > $plan_runs } $first_counted .. $#$runs),
		"$what: all before the first counted run");
	is_deeply([ map { $_->{variant} } @pilot ], \@order, "$what: each round pairs A and B");
	my $pj = read_json("$dir/pilot.json");
	is($pj->{rounds}, 3, "$what: pilot.json: its rounds");
	is(scalar(@{ $pj->{log_ratios} }), 3, "$what: each round's log ratio");
	like($pj->{decides}, qr/^(cannot|may not)$/, "$what: and what it said: never \"can\" in so few rounds");
	return $pj;
}
pilot_ok('duet', "$base/run", $run_out, 12, qr/0\.30% \(2089-01-01T00:00:00Z\)/, qw(A B A B A B));
like(slurp_file("$base/run/report.md"), qr/2 instance pairs/, 'the verdict counts only the plan\'s rounds');
# With time enough at the pilot's noise and no offset between instance pairs
# on record, "may not" says up to which sd of that offset the time fits (at
# most the rounds' own), as pilot.json does; the run, interleaved, is
# stopped with Ctrl-C once the first counted run after the pilot is
# recorded, keeping what it wrote.
#
# Its premise is the host's noise: a day must be time enough at the sd the
# pilot measures between its 3 interleaved rounds of 1 s.  Across instance
# pairs of 5 rounds (its restart = auto with no history), the planner's
# largest design (200 pairs) decides 2% up to a round sd of 11.0-11.5%
# (stats_plan_design() at the estimate, 2026-12-06): a run on a loaded
# host (2 CPUs, load 9) measured 11.86% and had no design at all ("more
# than any design the planner weighs"), so nothing to say of the offset.
# The checks are therefore made when the pilot measured below
# PILOT_SD_PREMISE (8%), where a design fits in a day (at 4% and 7.9%,
# interleaved: test/unit/test_preflight.c), and skipped above it, saying
# so.  On a host whose true round sd is s, the pilot's sd on 2 df exceeds
# 8% with chance exp(-(8% / s)^2): a skip, not a failure; the throttled
# runs' own schedule puts s at 4.5% or more, where that chance is at least
# 4%.  The checks themselves then judge nothing by chance: below 8% a
# design exists and fits in a day, so "may not" with its offset is what a
# correct planner says (it cannot say "can" with the offset unmeasured).
use constant PILOT_SD_PREMISE => 0.08;
{
	local $ENV{PGBENCH_EXT_STATE_DIR} = "$base/state-offset";
	my $dir = "$base/pilot-offset";
	my ($o, $e) = ('', '');
	my $h = IPC::Run::start(
		[ client(), 'ab', '-s', '1', '-c', '1', '-T', '1', '-b', 'select-only', @throttled,
			'--rounds', 'auto', '--budget', '1d', '--pilot', '3', '--schedule', 'interleaved',
			'--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', $dir ],
		'<', \undef, '>', \$o, '2>', \$e);
	# a counted run recorded (the file is read whole once a line is there)
	wait_until(300, sub {
		-f "$dir/runs.csv" && slurp_file("$dir/runs.csv") =~ /^\d+,[1-9]\d*,/m || undef }, $h);
	$h->signal('INT');
	$h->finish;
	is($? >> 8, 130, 'Ctrl-C after the pilot and the first counted run') or diag "$o\n$e";
	my $pj = pilot_ok('interleaved', $dir, $o, scalar @{ read_json("$dir/experiment.json")->{plan} },
		qr/not measured here yet, taken as 0/, qw(A B B A A B));
  SKIP:
	{
		skip sprintf('the pilot measured an sd of %.2f%% between its rounds, above the %g%% this check\'s premise needs: '
			  . 'too noisy a host (load average %s) for the offset a day leaves room for', 100 * $pj->{round_sd},
			  100 * PILOT_SD_PREMISE, (split ' ', slurp_file('/proc/loadavg'))[0]), 4
		  if $pj->{round_sd} >= PILOT_SD_PREMISE;
		my ($said) = $o =~ /^pre-flight: (?:warning: )?in its budget \(\S+ left\) this experiment sees a 2% change with about \d+% power at the pilot's noise \(.*\) with no offset between instance pairs; 80% at this noise holds while their sd, not measured here yet, is below ([\d.]+)%$/m;
		ok(defined $said, 'a day at the pilot\'s noise: "may not", up to which offset it fits') or diag $o;
		is($pj->{decides}, 'may not', 'pilot.json: may not');
		is(sprintf('%.2f', 100 * ($pj->{largest_offset_sd} // -1)), $said // '', 'pilot.json: that sd');
		cmp_ok($pj->{largest_offset_sd} // 1, '<=', $pj->{round_sd}, 'at most the rounds\' own sd');
	}
}
# --- aslr = auto -----------------------------------------------------------------
# Off where every server runs one binary (the same directory, symbolic links
# resolved), on where two directories could hold two builds; a value given
# is kept and nothing is said.
symlink($bindir, "$base/bin-link") or die "symlink: $!";
mkdir "$base/bin-copy" or die "mkdir: $!";
symlink("$bindir/$_", "$base/bin-copy/$_") or die "symlink: $!" foreach qw(postgres pg_ctl initdb pgbench psql);
($rc, $out, $err) = run_client('run', write_ini('linked', "duration = 1\nrounds = 2\n", "$base/bin-link"), '--check');
is($rc, 0, 'check of a bindir reached through a symbolic link exits 0') or diag $err;
like($out, qr/^aslr = auto: off: every server runs \Q$bindir\E\/postgres/m, 'the same directory through a link: off');
($rc, $out, $err) = run_client('run', write_ini('copied', "duration = 1\nrounds = 2\n", "$base/bin-copy"), '--check');
is($rc, 0, 'check of two bindirs exits 0') or diag $err;
like($out, qr/^aslr = auto: on: variants "A" and "B" run different binaries/m, 'two directories: randomization stays on');
like($out, qr/^pre-flight: no noise measured on this host yet for two servers of binaries of their own, duet-swap: /m,
	'and the history\'s records of one binary describe them not');
add_record("2,2092-01-01T00:00:00Z,select-only,1,two,own,duet-swap,0.020000,12,0.017000,12,1.000,3.000,\n");
($rc, $out, $err) = run_client('run', write_ini('copied', "duration = 1\nrounds = 2\n", "$base/bin-copy"), '--check');
like($out, qr/^pre-flight: noise here \(2092-01-01T00:00:00Z, select-only, 1 client, duet-swap, binaries of their own\): sd between rounds 2\.00%, between instance pairs 1\.70%/m,
	'a record of binaries of their own, however old, describes them');
($rc, $out, $err) = run_client('run', write_ini('linked', "duration = 1\nrounds = 2\n", "$base/bin-link"), '--check');
unlike($out, qr/2092-01-01T00:00:00Z/, 'and not two servers of one binary');
($rc, $out, $err) = run_client('run', write_ini('given', "duration = 1\nrounds = 2\naslr = on\n", "$base/bin-link"), '--check');
unlike($out, qr/^aslr = auto/m, 'aslr = on given: kept, nothing said');
# profile = counted turns randomization off before aslr = auto chooses, in
# check as in a run: two directories would otherwise keep it on
($rc, $out, $err) = run_client('run', write_ini('counted', "duration = 1\nrounds = 2\nprofile = counted\n", "$base/bin-copy"), '--check');
is($rc, 0, 'check of a counted profile exits 0') or diag $err;
like($out, qr/^profile = counted: servers start without address-space randomization/m,
	'check says a counted profile turns randomization off');
unlike($out, qr/^aslr = auto/m, 'and aslr = auto has nothing left to choose');

# --- bad input ----------------------------------------------------------------
($rc, $out, $err) = run_client('run', '--check');
is($rc, 2, 'run --check without a file: usage error');
like($err, qr/no experiment file given/, 'saying so');
($rc, $out, $err) = run_client('run', '--resume', "$base/none", '--check');
is($rc, 2, 'run --check of --resume: usage error');
like($err, qr/--check takes an experiment file alone/, 'saying what it takes');
($rc, $out, $err) = run_client('check', $short);
is($rc, 2, 'no "check" command: the dry run is --check');
like($err, qr/unrecognized command "check"/, 'an unknown command');
($rc, $out, $err) = run_client('run', write_ini('bad', "pin = sometimes\n"), '--check');
is($rc, 2, 'a bad key value: exit 2');
like($err, qr/pin must be on .* got "sometimes"/, 'naming it');
($rc, $out, $err) = run_client('run', write_ini('bad-pilot', "pilot = 2\n"), '--check');
is($rc, 2, 'a pilot of 2 rounds: exit 2');
like($err, qr/pilot must be auto .*, off, or a number of rounds from 3 to 30 \(always\), got "2"/, 'naming the choices');
($rc, $out, $err) = run_client('run', write_ini('pilot-tx', "transactions = 100\npilot = 4\n"), '--check');
is($rc, 2, 'a pilot with runs of a transaction count: exit 2');
like($err, qr/pilot needs runs of a fixed duration/, 'saying why');

done_testing();
