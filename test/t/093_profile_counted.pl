# Counted profiles (profile = counted) on the installed PostgreSQL: the
# servers run under callgrind, every run gets its instructions per
# transaction of its connection after a warm-up, and the report compares
# them as it compares tps.  Two variants on one server: A, and slow with
# pgbench_ext.inject_delay_ns, a busy-wait before every commit in
# pgbench_ext's inject_delay_before_commit (a known change, in a known
# function, where nothing else changes).  Cache simulation is
# 096_profile_cache_sim.pl's, so that the two run side by side; A/A
# comparisons are in 094_profile_sampled.pl and docs/profiles.md: under
# valgrind every run costs seconds (each backend's start about 0.8 CPU-s,
# two a run: pgbench's own connection and its client's).  So plain make
# test runs 3 rounds, 6 runs, for the method: every run's profile, its
# files, the report's counted view, import and profile_compare(), which
# need no verdict; the settings forced on a counted server (no autovacuum,
# no relation statistics, every run prewarmed), a variant that keeps
# track_counts, an installation without pg_prewarm refused; the
# verdicts, which need 10 rounds (below), are
# PGBENCH_EXT_TEST_LONG=1's (make test-build, CI): 20 runs, about 50 CPU-s
# more on a 2-CPU AMD EPYC host, a seventh of make test's CPU there.
#
# What it assumes of the machine: valgrind (tools/deps installs it),
# Debian's postgres with its .dynsym (PostgresMain named; its static
# functions are not, about 27-29% of the count, warned about and not
# checked), and pgbench_ext.so built with its symbols.  Where the busy-wait
# is counted depends on the clock: it spins on clock_gettime(), which
# under valgrind is a system call on every x86-64 host (valgrind gives
# its guest no vDSO), so each turn of the loop costs about 10
# instructions in glibc's clock_gettime and 8 in inject_delay_before_commit
# itself, and how many turns a wait takes is the wall time of one such
# call under valgrind: 2-3 us on a 2-CPU AMD EPYC with kvm-clock, loaded
# (2026-12-06).  A function is compared only when it has 1% of a side's
# count (PROFILE_MIN_SHARE): a 200 us wait put about 900 instructions in
# inject_delay_before_commit there, under the 1,030 needed, and only
# clock_gettime was compared and changed.  So the wait is DELAY_NS = 5 ms:
# 1,650-2,000 turns, 13,000-16,000 instructions of its own per transaction
# (10-12% of slow's count, measured the same day).  It needs 129 turns for
# 1% (8 n >= 0.01 (100,700 + 18 n)), so it holds while a turn takes less
# than 39 us, 13 times the slowest seen here: a backend kept from its CPU
# for over 90% of its wait.  25 transactions a run, 10 runs
# of slow: 1.3 s more in all.
use strict;
use warnings;

use File::Path qw(mkpath);
use IPC::Run;
use JSON::PP;
use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/counted";

# With PGBENCH_EXT_TEST_LONG, 10 rounds, each two runs under valgrind, whose
# backends' starts are most of this test's CPU: a function that changed in every round has the
# signed-rank p of 2 / 2^10, and with m functions compared it is a
# discovery when its q, at most 2 / 2^10 * m, is below 0.05: for m up to
# 25 (16 were compared on an AMD EPYC host, about 20 on an Intel one),
# and up to 51 where clock_gettime, whose turns the busy-wait counts too,
# changed in every round beside it (the two smallest p share the rank 2).
# The signed-rank test of the totals still decides when one round goes the
# wrong way, p = 4 / 2^10 (a round whose window took in a catalog
# invalidation counted A +36% in a parallel make test, when a short run
# was subtracted from each run).
use constant DELAY_NS => 5000000;
my $verdicts = long_leg();
my $rounds = $verdicts ? 10 : 3;
my $runs = 2 * $rounds;
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-t', '25', '-r', $rounds, '-b', 'select-only',
	'--reset', 'never', '--profile', 'counted', '--seed', '11',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'slow', '--cluster', 'A', '--session-set', 'pgbench_ext.inject_delay_ns=' . DELAY_NS,
	'-o', $dir);
is($rc, 0, 'a counted experiment completes') or diag "$out\n$err";
like($out, qr/^restarting the server of variant A under valgrind \(callgrind\)$/m, 'A restarts under valgrind');
like($out, qr/^profile = counted: every run starts with the run database in shared buffers \(prewarm = on; set prewarm = off to start cold\)$/m,
	'prewarm = auto: on, and said so');
unlike($out, qr/restarting the server of variant slow/, 'slow has no server of its own');
like(slurp_file("$dir/clusters/00/server.log"),
	qr/starting the server under callgrind: \S*valgrind .* -c autovacuum=off -c track_counts=off$/m,
	'the server log says so, with the settings it forces: no autovacuum, no relation statistics');

my @runs = read_runs($dir);
is(scalar(grep { $_->{status} eq 'ok' && $_->{reason} eq '' } @runs), $runs, "all $runs runs ok, none without its profile");
my $json = JSON::PP->new;
my %instr;
foreach my $run (@runs)
{
	my $id = sprintf('%04d', $run->{run_id});
	my $p = $json->decode(slurp_file("$dir/runs/$id.profile.json"));
	push @{ $instr{ $run->{variant} } }, $p->{totals}[0];
	is($run->{blks_hit}, '', "run $run->{run_id}: no buffer hits, which track_counts = off does not count");
	ok(read_json("$dir/runs/$id.json")->{quiet}{prewarm}, "run $run->{run_id}: prewarmed") if $run->{run_id} <= 2;
	if ($run->{run_id} == 1)
	{
		is_deeply($p->{events}, ['Ir'], 'one event, Ir, without cache simulation');
		is($p->{transactions}, 20, '25 transactions less the connection\'s 5 of warm-up');
		is($p->{mode}, 'counted', 'mode counted');
		is($p->{processes}, 1, 'one backend counted: the client\'s, not pgbench\'s own connection');
		ok(!-e "$dir/runs/$id.short.out", 'no short run');
		ok(exists $p->{functions}{PostgresMain}, 'PostgresMain is a function of the profile');
		my $sum = 0;
		$sum += $_->{self}[0] foreach values %{ $p->{functions} };
		cmp_ok(abs($sum - $p->{totals}[0]), '<', 0.01 * $p->{totals}[0],
			'the functions\' self costs add up to the total (less what is pruned)');
	}
}
{
	my @x = sort { $a <=> $b } @{ $instr{A} };
	cmp_ok($x[0], '>', 20000, "more than 20,000 instructions per select-only transaction ($x[0])");
	cmp_ok($x[-1], '<', 1000000, "fewer than 1,000,000 ($x[-1])");
	# 20 transactions per figure: a catalog invalidation that a run's
	# window takes in weighs 1/20, and one run may have (above)
	cmp_ok(($x[-2] - $x[0]) / $x[0], '<', 0.05,
		'every run of A but at most one within 5% of the others: instructions do not move with the load');
}
my @slow = sort { $a <=> $b } @{ $instr{slow} };
cmp_ok($slow[0], '>', (sort { $b <=> $a } @{ $instr{A} })[1], 'every slow run counts more than every run of A but at most one');

# the terminal: tps withdrawn, the counted verdict beside it
like($out, qr/^ select-only \| 1 +\| [\d.]+ ±\S+ +\| [\d.]+ ±\S+ +\| - /m, 'tps is not compared under valgrind');
like($out, qr/^counted profile \(tps above is under valgrind and not compared\): instructions per transaction$/m,
	'the counted table says so');
# (3 rounds are judged on their runs, "3+3": no rank test of 3 rounds
# reaches p < 0.05)
like($out, qr/^ select-only \| 1 +\| slow +\| instructions\/tx \|.*\| (?:$rounds rounds|$rounds\+$rounds) \| \S/m,
	'slow: instructions per transaction compared');
note $1 if $out =~ /^(function changes, select-only, 1 client: slow vs A .*\n(?:  .*\n)*)/m;
like($out, qr/^function changes, select-only, 1 client: slow vs A \([^)]*\): none of \d+ functions compared; with so few runs not even one function could reach q < alpha among \d+: make at least \d+ rounds$/m,
	'3 rounds: the report says that no function change could be found, and what would find one') unless $verdicts;
if ($verdicts)
{
	like($out, qr/^ select-only \| 1 +\| slow +\| instructions\/tx \|.*\| 10 rounds \| more/m, 'slow: more instructions');
	like($out, qr/^function changes, select-only, 1 client: slow vs A .*\n(  .*\n)*  inject_delay_before_commit \+\d+ /m,
		'slow: inject_delay_before_commit among the top changes');
}

my $summary = $json->decode(slurp_file("$dir/summary.json"));
my %cells = map { ($_->{variant} => $_) } @{ $summary->{profiles}{cells} };
is($summary->{profiles}{mode}, 'counted', 'summary.json has the profiles');
cmp_ok(scalar @{ $cells{slow}{functions} }, '>=', 5, 'summary: functions compared: ' . scalar @{ $cells{slow}{functions} });
# compared wherever it has 1% of slow's count (above), changed only where
# 10 rounds can say so
my ($spin) = grep { $_->{function} eq 'inject_delay_before_commit' } @{ $cells{slow}{functions} };
ok($spin && ($spin->{changed} && $spin->{q_value} < 0.05 || !$verdicts),
	'summary: inject_delay_before_commit compared' . ($verdicts ? ' and changed' : '') . ', q ' . ($spin ? $spin->{q_value} : '-'));
is($spin->{object}, 'pgbench_ext.so', 'it is pgbench_ext.so\'s');
ok($spin->{a_median} <= 0.5 / 20 + 1e-9, "A never runs it: its floor (half an instruction in 20 transactions), $spin->{a_median} per transaction");
foreach my $f (grep { $_->{changed} } @{ $cells{slow}{functions} })
{
	ok($f->{change} > 0, "slow: $f->{function} changed by more, not less ($f->{change})");
}
is($summary->{cells}[0]{comparison}{verdict}, 'insufficient', 'summary: the tps comparison is withdrawn');

# files: folded stacks per variant, the flame graph inline in report.html
foreach my $v (qw(A slow))
{
	my $f = "$dir/profiles/$v.select-only.c1.folded";
	ok(-s $f, "folded stacks of $v");
	my @bad = grep { !/^\S(?:.*\S)? \d+$/ } split /\n/, slurp_file($f);
	is(scalar @bad, 0, "$v: every line is \"frames count\"") or diag $bad[0];
}
like(slurp_file("$dir/profiles/slow.select-only.c1.folded"), qr/^PostgresMain;.*;inject_delay_before_commit(;\S+)* \d+$/m,
	'slow\'s stacks lead to inject_delay_before_commit from PostgresMain');
my $html = slurp_file("$dir/report.html");
like($html, qr/<h2>Counted profile<\/h2>/, 'report.html has the counted profile');
like($html, qr/<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>\n<rect[^>]*\/>\n<text[^>]*>counted profile, select-only, 1 client: slow vs A<\/text>/,
	'the flame graph is inline');
unlike($html, qr/<script|xlink:href=['"](?!#)|<image/, 'no script, no external asset');
like(slurp_file("$dir/report.md"), qr/^inject_delay_before_commit \+\d+ of \+\d+ instructions per transaction/m,
	'report.md names the change and its part of the total') if $verdicts;

# the callgrind files are read and removed; those the server's processes
# wrote as it stopped stay (two backends a run ran), with the parts of the
# runner's connection since the last run (a part per statement)
opendir my $d, "$dir/clusters/00/callgrind" or die;
my %left = map { /^callgrind\.out\.(\d+)/ ? ($1 => 1) : () } readdir $d;
closedir $d;
cmp_ok(scalar keys %left, '<=', 15, 'the runs\' files are gone: those of ' . scalar(keys %left) . ' processes left');

# --- from psql: import, then profile_compare() gives summary.json's figures to the last bit
my $node = PostgreSQL::Test::Cluster->new(q{sql});
init_node($node);
$node->start;
my $db = create_database($node, q{profile_counted});
($rc, $out, $err) = run_client_on($node, q{import}, $dir, q{-d}, $db);
is($rc, 0, 'import succeeds') or diag $err;
like($out, qr/^\s*profiles of $runs runs: SELECT \* FROM pgbench_ext\.profile_compare\((\d+)\);$/m, 'import loads the profiles');
my ($id) = $out =~ /profile_compare\((\d+)\)/;
is($node->safe_psql($db, "SELECT count(DISTINCT run_id) FROM pgbench_ext.profile_runs WHERE experiment_id = $id"), $runs,
	'profile_runs: every run');
# exact decimal text of every figure (allow_bignum keeps all its digits)
my $exact = JSON::PP->new->allow_bignum->decode(slurp_file("$dir/summary.json"));
my ($cell) = grep { $_->{variant} eq 'slow' } @{ $exact->{profiles}{cells} };
my $lit = sub { my $v = shift; defined $v ? "'$v'::float8" : 'NULL::float8' };
my @expected = map {
	my $f = $_;
	'(' . join(', ', "'" . ($f->{function} =~ s/'/''/gr) . "'", (map { $lit->($f->{$_}) } qw(a_median b_median estimate ci_low ci_high p_value q_value)),
		$f->{changed} ? 'true' : 'false') . ')'
} @{ $cell->{functions} };
my $same = $node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.profile_compare($id, 'slow') p JOIN (VALUES " . join(', ', @expected)
	  . ") e(fn, am, bm, est, lo, hi, pv, qv, ch) ON p.function_name = e.fn "
	  . "WHERE p.a_median = e.am AND p.b_median = e.bm AND p.estimate IS NOT DISTINCT FROM e.est "
	  . "AND p.ci_low IS NOT DISTINCT FROM e.lo AND p.ci_high IS NOT DISTINCT FROM e.hi "
	  . "AND p.p_value IS NOT DISTINCT FROM e.pv AND p.q_value = e.qv AND p.changed = e.ch");
is($same, scalar @expected, "profile_compare() equals summary.json for all $same functions, to the last bit");
is($node->safe_psql($db, "SELECT count(*) FROM pgbench_ext.profile_compare($id)"), scalar @expected, 'and names no other function');
is($node->safe_psql($db, "SELECT function_name FROM pgbench_ext.profile_compare($id) WHERE changed ORDER BY abs(change) DESC LIMIT 1"),
	$cell->{functions}[0]{function}, 'its first change is the report\'s') if $verdicts;
foreach my $bad ([ "profile_compare(0)", qr/no imported experiment 0/ ],
	[ "profile_compare($id, 'nosuch')", qr/experiment $id has no variant "nosuch"/ ],
	[ "fdr('{0.5}', '{}', '{}')", qr/must have as many elements/ ],
	[ "fdr('{1.5}', '{1}', '{1}')", qr/must be in \[0, 1\]/ ])
{
	eval { $node->safe_psql($db, "SELECT * FROM pgbench_ext.$bad->[0]") };
	like($@, $bad->[1], "$bad->[0] is refused with its reason");
}

# re-rendering gives the same figures
my $before = slurp_file("$dir/summary.json");
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report re-renders') or diag $err;
is(slurp_file("$dir/summary.json"), $before, 'summary.json unchanged');

# a variant that sets track_counts keeps it: relation statistics counted,
# and its runs' buffer hits with them; prewarm = off, given, starts each
# run cold (buffer reads counted too)
my $tracked = "$base/counted-track";
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-t', '20', '-r', '1', '-b', 'select-only',
	'--reset', 'never', '--profile', 'counted', '--seed', '12', '--prewarm', 'off',
	'--variant', 'A', '--bindir', $bindir, '--set', 'track_counts=on', '--variant', 'B', '--cluster', 'A',
	'-o', $tracked);
is($rc, 0, 'a counted experiment with track_counts = on completes') or diag "$out\n$err";
my $log = slurp_file("$tracked/clusters/00/server.log");
like($log, qr/starting the server under callgrind: .* -c autovacuum=off$/m, 'the server is started without track_counts = off');
unlike($log, qr/track_counts=off/, 'at no start');
unlike($out, qr/prewarm = on/, 'prewarm = off given: not taken');
my @tracked = grep { $_->{warmup} eq 'false' } read_runs($tracked);
is(scalar(grep { $_->{blks_hit} ne '' && $_->{blks_hit} > 0 } @tracked), scalar(@tracked),
	'every run counts its buffer hits (' . join(', ', map { $_->{blks_hit} } @tracked) . ')');

# an installation without pg_prewarm: a copy of this one, each directory
# under one new root at its own path so that the server finds its share
# and library directories as it would (from its own executable, a copy:
# it resolves links), the libraries linked, less pg_prewarm's control
# file; the counted default (prewarm = on) is refused at set-up with its
# fix, and the server it started is stopped
my $root = "$base/no-prewarm";
chomp(my @dirs = map { my $d = `@{[ pg_config() ]} --$_`; $d } qw(bindir pkglibdir sharedir));
foreach my $d (@dirs)
{
	mkpath("$root$d");
	IPC::Run::run([ 'cp', $d eq $dirs[1] ? '-as' : '-a', "$d/.", "$root$d" ]) or die "could not copy $d";
}
unlink glob("$root$dirs[2]/extension/pg_prewarm*");
IPC::Run::run([ 'chmod', '-R', 'a+rX', $root ]) or die;
($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-t', '20', '-r', '2', '-b', 'select-only',
	'--reset', 'never', '--profile', 'counted', '--seed', '13',
	'--variant', 'A', '--bindir', "$root$dirs[0]", '--variant', 'B', '--cluster', 'A', '-o', "$base/no-prewarm-run");
is($rc, 2, 'no pg_prewarm in the installation: exit status 2');
like($err, qr/variant "A": prewarm = on needs pg_prewarm \(PostgreSQL's contrib\) in its installation: .*\n(?:.*\n)*.*hint: install pg_prewarm into the installation of \Q$root$dirs[0]\E, or set prewarm = off/,
	'with its cause and its fix');
ok(-d "$base/no-prewarm-run/clusters/00/data" && !-e "$base/no-prewarm-run/clusters/00/data/postmaster.pid",
	'the server it started is stopped');

done_testing();
