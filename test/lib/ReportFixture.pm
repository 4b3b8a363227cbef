# ReportFixture — write synthetic results directories with known figures, in
# the layout the runner writes (client/results/results.h): experiment.json, runs.csv,
# runs/NNNN.err (pgbench -P 1 progress lines) and runs/NNNN.json (counters).
# Deterministic: every figure comes from the caller's tps function.
package ReportFixture;

use strict;
use warnings;

use File::Path qw(make_path);
use JSON::PP;

my @columns = qw(run_id round variant script clients jobs warmup started_at duration_s
  reset_s tps latency_avg_ms latency_stddev_ms transactions failed_tx status
  checkpoints_during autovacuum_during cpu_user_us_per_tx cpu_sys_us_per_tx
  voluntary_switches_per_tx involuntary_switches_per_tx blks_hit blks_read wal_bytes reason);

my $duration = 10;

sub environment
{
	my ($variant, $override) = @_;
	my %rows = (
		'server/version' => 'PostgreSQL 15.0 (fixture)',
		'build/debug_assertions' => 'off',
		'setting/fsync' => 'on',
		'changed/fsync' => 'on',
		'setting/work_mem' => '4MB',
		'setting/shared_preload_libraries' => 'pgbench_ext',
		'changed/port' => '5432',
		'changed/data_directory' => "/tmp/fixture/$variant/data",
	);
	foreach my $key (keys %rows)
	{
		my ($cat, $name) = split m{/}, $key;
		$rows{$key} = $override->{$name} if exists $override->{$name};
	}
	return [ map { my ($c, $n) = split m{/}; { category => $c, name => $n, value => $rows{$_}, note => undef } }
		  sort keys %rows ];
}

sub csv_line
{
	my ($run) = @_;
	return join(',', map {
		my $v = $run->{$_} // '';
		$v =~ /[",]/ ? '"' . ($v =~ s/"/""/gr) . '"' : $v
	} @columns) . "\n";
}

# One run's files and its runs.csv line.  Counters and waits differ by
# variant: the first variant has 50 us CPU, 10000 cycles and 0.002 WALWrite
# samples per transaction, the others 40, 9000 and 0.001.
sub run_files
{
	my ($dir, $run, $first_variant) = @_;
	my $id = sprintf('%04d', $run->{run_id});
	my $tx = $run->{transactions};
	my $first = $run->{variant} eq $first_variant;

	open my $err, '>', "$dir/runs/$id.err" or die $!;
	for my $s (1 .. $duration)
	{
		printf $err "progress: %.1f s, %.1f tps, lat %.3f ms stddev 0.100, 0 failed\n",
		  $s, $run->{tps} * (1 + 0.01 * (($s % 3) - 1)), $run->{latency_avg_ms};
	}
	close $err;
	open my $out, '>', "$dir/runs/$id.out" or die $!;
	printf $out "tps = %.6f (without initial connection time)\n", $run->{tps};
	close $out;
	my $detail = {
		checkpoints_during => $run->{checkpoints_during} + 0,
		autovacuum_during => 0,
		counters => { xact => { commits => $tx, cycles => ($first ? 10000 : 9000) * $tx } },
		wait_profile => [ {
			backend_type => 'client backend', wait_event_type => 'LWLock', wait_event => 'WALWrite',
			samples => ($first ? 0.002 : 0.001) * $tx, pct => 1 } ],
	};
	open my $json, '>', "$dir/runs/$id.json" or die $!;
	print $json JSON::PP->new->canonical->encode($detail);
	close $json;
}

sub new_run
{
	my (%r) = @_;
	my $tps = $r{tps};
	return {
		%r,
		script => $r{script} // 'default', jobs => $r{clients}, warmup => 'false',
		started_at => '2026-01-01T00:00:00Z', duration_s => $duration, reset_s => 0.1,
		tps => defined $tps ? sprintf('%.3f', $tps) : '',
		latency_avg_ms => defined $tps ? sprintf('%.4f', 1000 * $r{clients} / $tps) : '',
		latency_stddev_ms => '0.1',
		transactions => defined $tps ? int($tps * $duration + 0.5) : 0,
		failed_tx => 0, status => $r{status} // 'ok',
		checkpoints_during => $r{checkpoints_during} // 0, autovacuum_during => 0,
		cpu_user_us_per_tx => $r{cpu_user_us_per_tx}, cpu_sys_us_per_tx => 5,
		voluntary_switches_per_tx => 1, involuntary_switches_per_tx => 0.1,
		blks_hit => defined $tps ? 10 * int($tps * $duration + 0.5) : '',
		blks_read => 0, wal_bytes => '', reason => $r{reason} // '',
	};
}

# A variant of the fixture's experiment.json.  The variants share the first
# one's server (their settings are session settings), as variants judged
# round by round do: different servers, each started once, have no unit to
# judge across (report_levels.c).  A variant with own_server, or without
# the extension, has a server of its own.
sub variant_spec
{
	my ($v, $first) = @_;
	my %spec = (name => $v->{name},
		extension => ($v->{extension} // 1) ? JSON::PP::true : JSON::PP::false);
	if ($v->{name} eq $first || $v->{own_server} || !($v->{extension} // 1))
	{
		%spec = (%spec, bindir => '/usr/lib/postgresql/15/bin', set => $v->{set} // []);
	}
	else
	{
		%spec = (%spec, cluster => $first, session_set => $v->{set} // []);
	}
	return \%spec;
}

# write_dir(DIR, clients => [...], rounds => N, variants => [{name, set, env}],
#           tps => sub(variant, clients, round), run_extra => sub(run),
#           script => NAME (default "default"), machine => {...} (experiment.json's
#           machine object), written_at => TIME)
# Runs are interleaved: each round runs every client count of every variant.
sub write_dir
{
	my ($dir, %o) = @_;
	my @variants = @{ $o{variants} };
	make_path("$dir/runs");
	my $spec = {
		experiment => {
			clients => $o{clients}, duration => $duration, jobs => 'auto', protocol => 'simple',
			reset => 'every-run', rounds => $o{rounds}, scale => 1, script => [ $o{script} // 'default' ],
			seed => '1', unlogged => JSON::PP::false, warmup => 0 },
		variants => [ map { variant_spec($_, $variants[0]{name}) } @variants ],
	};
	my %vjson = map { $_->{name} => {
		counters => JSON::PP::true, environment => environment($_->{name}, $_->{env} // {}),
		managed => JSON::PP::true } } @variants;
	open my $f, '>', "$dir/experiment.json" or die $!;
	print $f JSON::PP->new->canonical->pretty->encode({
		spec => $spec, variants => \%vjson, plan => [],
		machine => $o{machine} // { arch => 'x86_64', cpus => 2, hostname => 'fixture', kernel => '6.0' },
		pgbench_ext_version => '0.1.0', written_at => $o{written_at} // '2026-01-01T00:00:00Z' });
	close $f;

	open my $csv, '>', "$dir/runs.csv" or die $!;
	print $csv join(',', @columns), "\n";
	my $id = 0;
	for my $round (1 .. $o{rounds})
	{
		for my $clients (@{ $o{clients} })
		{
			for my $v (@variants)
			{
				my $run = new_run(run_id => ++$id, round => $round, variant => $v->{name},
					clients => $clients, script => $o{script}, tps => $o{tps}->($v->{name}, $clients, $round),
					cpu_user_us_per_tx => $v->{name} eq $variants[0]{name} ? 50 : 40);
				$o{run_extra}->($run) if $o{run_extra};
				print $csv csv_line($run);
				run_files($dir, $run, $variants[0]{name}) if $run->{tps} ne '';
			}
		}
	}
	close $csv;
	return $id;
}

# noise(SEED) -> a sub returning values uniform in [-1, 1) from a linear
# congruential generator: the same sequence for a seed on every machine
sub noise
{
	my ($state) = @_;
	return sub {
		$state = (1103515245 * $state + 12345) % 2147483648;
		return 2 * $state / 2147483648 - 1;
	};
}

# Two machines, as experiment.json's machine object records them, for
# results of several hosts (write_dir's machine option)
our %machines = (
	alpha => { arch => 'x86_64', cpus => 2, hostname => 'alpha', kernel => '6.1', cpu_model => 'Xeon' },
	beta => { arch => 'x86_64', cpus => 8, hostname => 'beta', kernel => '6.6', cpu_model => 'EPYC' });

# host_experiment(DIR, HOST, DAY, GAIN, NOISE [, level => TPS, clients =>
# [...], script => NAME]): one experiment file as the machine HOST of
# %machines ran it on day DAY of February 2026 (experiment.json and every
# run's start): base, and patch faster by GAIN, 8 rounds; a run's tps is
# level (1000) * clients ([1, 2]) * (GAIN for patch) * (1 + 1% of NOISE->()).
sub host_experiment
{
	my ($dir, $host, $day, $gain, $noise, %o) = @_;
	my $when = sprintf('2026-02-%02dT00:00:00Z', $day);
	write_dir(
		$dir,
		clients => $o{clients} // [ 1, 2 ],
		rounds => 8,
		script => $o{script},
		machine => $machines{$host},
		written_at => $when,
		variants => [ { name => 'base' }, { name => 'patch', set => ['work_mem=8MB'] } ],
		tps => sub {
			my ($v, $c) = @_;
			return ($o{level} // 1000) * $c * ($v eq 'patch' ? $gain : 1) * (1 + 0.01 * $noise->());
		},
		run_extra => sub { $_[0]{started_at} = $when });
	return $dir;
}

# Numbers are kept as written (Math::BigFloat), so that a figure can be
# handed to SQL with every digit (PgbenchExtTest::read_json for the rest).
sub read_json_exact
{
	my ($path) = @_;
	open my $f, '<', $path or die "$path: $!";
	local $/;
	return JSON::PP->new->allow_bignum->decode(<$f>);
}

# Append runs (hashes of new_run's arguments) to runs.csv, numbered on.
sub append_runs
{
	my ($dir, $runs) = @_;
	open my $in, '<', "$dir/runs.csv" or die $!;
	my $n = -1;
	$n++ while <$in>;
	close $in;
	open my $csv, '>>', "$dir/runs.csv" or die $!;
	foreach my $r (@$runs)
	{
		print $csv csv_line(new_run(run_id => ++$n, %$r));
	}
	close $csv;
}

# The verdict and the design: a fixed design's verdict is its comparison's,
# with no look and no other view; under rounds = auto (summary.json's
# "sequential" of the cell) the deciding look's decision, which look it was,
# and all rounds as if fixed under their own name.  Against a reference
# ratio a decision is the side of it, in the words of the cell's verdict.
sub design_checks
{
	my ($cell, $lit) = @_;
	my $seq = $cell->{sequential};
	return ("verdict = '$cell->{comparison}{verdict}'", "design = 'fixed'", 'look IS NULL',
		'all_rounds_estimate IS NULL', 'all_rounds_verdict IS NULL')
	  unless defined $seq;
	my %all = %{ $cell->{all_rounds_as_if_fixed} };
	my $has_look = $seq->{look} > 0;
	my $verdict =
		$cell->{verdict} eq 'insufficient' ? 'insufficient'
	  : defined $cell->{reference} && $seq->{decision} =~ /^(faster|slower)$/ ? $cell->{verdict}
	  : $seq->{decision};
	return (
		"verdict = '$verdict'",
		"design = 'rounds = auto'",
		'look IS NOT DISTINCT FROM ' . ($has_look ? $seq->{look} : 'NULL'),
		'look_rounds IS NOT DISTINCT FROM ' . ($has_look ? $seq->{rounds} : 'NULL'),
		'max_looks IS NOT DISTINCT FROM ' . ($has_look ? $seq->{max_looks} : 'NULL'),
		'look_alpha IS NOT DISTINCT FROM ' . $lit->($seq->{alpha_look}),
		(map { "all_rounds_$_ IS NOT DISTINCT FROM " . $lit->($all{$_}) } qw(estimate ci_low ci_high p_value)),
		"all_rounds_verdict = '$all{verdict}'");
}

# SQL that is true when experiment_report()'s row equals a cell of
# summary.json exactly (read with read_json_exact), its unit included
sub parity_sql
{
	my ($id, $baseline, $cell) = @_;
	my %cmp = %{ $cell->{comparison} };
	my $lit = sub { my $v = shift; defined $v ? "$v" . '::float8' : 'NULL::float8' };
	my @checks = (
		"a_n = $cell->{a}{n}", "b_n = $cell->{b}{n}",
		(map { "a_$_->[0] IS NOT DISTINCT FROM " . $lit->($cell->{a}{ $_->[1] }) }
			  [ 'median', 'median' ], [ 'ci_low', 'median_ci_low' ], [ 'ci_high', 'median_ci_high' ]),
		(map { "b_$_->[0] IS NOT DISTINCT FROM " . $lit->($cell->{b}{ $_->[1] }) }
			  [ 'median', 'median' ], [ 'ci_low', 'median_ci_low' ], [ 'ci_high', 'median_ci_high' ]),
		(map { "$_ IS NOT DISTINCT FROM " . $lit->($cmp{$_}) }
			  qw(estimate ci_low ci_high change_pct p_value mde_pct)),
		"n_pairs = $cmp{n_pairs}",
		"n_units = $cmp{n_units}",
		"unit = '$cmp{unit}'",
		design_checks($cell, $lit));
	my $b = defined $baseline ? "'$baseline'" : 'NULL';
	return "SELECT count(*) FILTER (WHERE " . join(' AND ', @checks) . ") || '/' || count(*) "
	  . "FROM pgbench_ext.experiment_report($id, $b) WHERE script = '$cell->{script}' "
	  . "AND clients = $cell->{clients} AND variant = '$cell->{variant}'";
}

1;
