# Instances as a level: an A/A of two managed clusters of one bindir with
# restart = 2 — every server restarted before each block of two rounds, a
# warm-up run after each start recorded and not counted, each run's build,
# build seed, instance and round in runs.csv, every start in instances.csv,
# and the verdict across instance pairs with the noise by level and the
# design.  Then an interruption mid-block: the resumed block is a new
# instance, with warm-ups of its own; and --rerun repeats the recorded
# spec: the same plan, levels included.  (restart = auto is
# 027_initdb_cache.pl's on servers of their own, 042_run_shared_cluster.pl's
# on one server.)
use strict;
use warnings;

use IPC::Run;
use JSON::PP;
use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;
use ReportFixture;

my $bindir = pg_bindir();
my $base = shared_tempdir();

sub json_of { return JSON::PP->new->decode(slurp_file($_[0])); }

my @variants = ('--variant', 'A', '--bindir', $bindir, '--variant', 'A2', '--bindir', $bindir);
my @common = ('ab', '-s', '1', '-c', '1', '-b', 'select-only', '--reset', 'never');
# timed runs have -P 1 seconds, the lowest level; the others need no seconds
# Runs of a second each (100 transactions at 100 a second): the test
# interrupts the experiment when it sees the third run written, and must
# land inside block 1 (runs 1 to 6); unthrottled, 300 transactions took a
# few tens of milliseconds, and on a loaded host two more runs once ended
# between the look and the signal.
my @aa = (@common, '-t', '100', '--pgbench-args', '-R 100', @variants);
# Timed runs at a fixed rate: the levels and their bookkeeping are the
# point here, not how fast the server can go, and a throttled pgbench and
# its backend leave the CPUs to the tests beside this one (at 100
# transactions a second, a quarter of the load 400 cost, with every level
# still estimated: no check here reads how large a component is).  The
# rate's schedule is random (pgbench -R), so tps still varies from run to
# run.
# A throttled pgbench prints no progress line at its last second: runs of
# 3 s give two.
my @timed = ('-T', '3', '--pgbench-args', '-R 100');

# --- restart = 2 over 6 rounds: three blocks, three instances a server ----
my $dir = "$base/aa";
my ($rc, $out, $err) =
  run_client(@common, @timed, @variants, '-r', '6', '--restart', '2', '--seed', '11', '--verbose', '-o', $dir);
is($rc, 0, 'A/A with restart = 2 completes') or diag "$out\n$err";
my @runs = read_runs($dir);
my @counted = grep { $_->{warmup} eq 'false' } @runs;
my @warm = grep { $_->{warmup} eq 'true' } @runs;
is(scalar @counted, 12, 'twelve counted runs: six rounds of two variants');
is(scalar @warm, 6, 'and a warm-up run per variant after each of the three starts');
is(scalar(grep { $_->{status} eq 'ok' && $_->{tps} > 0 } @runs), 18, 'every run ok, warm-ups included');
ok(!grep({ $_->{round} != 0 } @warm), 'warm-ups are in no round (round 0)');
foreach my $v ('A', 'A2')
{
	my %inst = map { ($_->{instance} => 1) } grep { $_->{variant} eq $v } @runs;
	is_deeply([ sort keys %inst ], [ 1, 2, 3 ], "variant $v ran on three instances of its server");
}
my %round_instance;
foreach my $r (@counted)
{
	my $expected = int(($r->{round} - 1) / 2) + 1;
	$round_instance{"$r->{round} $r->{variant}"} = $r->{instance} == $expected;
}
ok(!grep({ !$_ } values %round_instance), 'rounds 1-2 on instance 1, 3-4 on 2, 5-6 on 3');
foreach my $r (@warm)
{
	my ($first) = grep { $_->{variant} eq $r->{variant} && $_->{instance} == $r->{instance} } @runs;
	is($first->{run_id}, $r->{run_id}, "the warm-up of $r->{variant} comes first on instance $r->{instance}");
}
ok(!grep({ $_->{build} ne $bindir || $_->{build_seed} ne '0' } @runs),
	'every run records its build (the bindir) and build seed 0');

my @starts = read_instances($dir);
is(scalar @starts, 6, 'instances.csv: three starts of each server');
is(join(',', map { "$_->{server}$_->{instance}:$_->{cause}" } grep { $_->{server} eq 'A' } @starts),
	'A1:setup,A2:restart,A3:restart', 'numbered and with their cause');
# the order of a block's restarts alternates: starting first falls on each side
is(join(',', map { $_->{server} } grep { $_->{cause} eq 'restart' } @starts), 'A,A2,A2,A',
	'instances.csv: block 2 restarts A then A2, block 3 A2 then A');
ok(!grep({ $_->{cause} eq 'restart' && !($_->{stop_s} > 0 && $_->{start_s} > 0) } @starts),
	'every restart records how long its stop and start took');
my %pads = map { ($_->{env_pad} => 1) } @starts;
ok(keys %pads > 1, 'each start drew its own environment padding');

my $exp = json_of("$dir/experiment.json");
is($exp->{spec}{experiment}{restart}, 2, 'experiment.json: the restart key as given');
is($exp->{restart}{rounds_per_instance}, 2, 'and the rounds per instance it resolved to');
is($exp->{restart}{blocks}, 3, 'in three blocks');
is(scalar(grep { $_->{warmup_after_start} } @{ $exp->{plan} }), 6, 'the plan holds the warm-ups');

# the verdict across instance pairs, the noise by level, the design
like($out, qr/^ select-only \| 1 .*\| 3 instance pairs \| /m, 'the verdict table says its unit: 3 instance pairs');
like($out, qr/^levels: select-only, 1 client: A2 vs A: sd of log tps A\/A2: .*instance [0-9.]+%\*?\/[0-9.]+%\*? \(ratio [0-9.]+%\*?\), round .*second /m,
	'the variance components, instance, round and second, are printed under it');
like($out, qr/^design: select-only, 1 client: A2 vs A: (to see 2%: \d+ instance pairs x \d+ rounds?, about \d+ (minutes|seconds)|no design of up to)/m,
	'and the cheapest design that would see 2%');
my $summary = json_of("$dir/summary.json");
my $cell = $summary->{cells}[0];
is($cell->{comparison}{unit}, 'instance pair', 'summary.json: the unit');
is($cell->{comparison}{n_units}, 3, 'and how many');
is($cell->{comparison}{n_pairs}, 6, 'over six paired rounds');
ok(defined $cell->{levels}{components}{ratio}{instance}, 'the instance level of the ratio is estimated');
ok(defined $cell->{levels}{components}{a}{second}, 'the seconds of each run are a level');
like($cell->{levels}{design}{reason}, qr/^(to see 2%|no design)/, 'the design, in words');
is_deeply($cell->{a}{instances}, [ map { $_->{instance} } grep { $_->{variant} eq 'A' } @counted ],
	'each counted run\'s instance');
my $md = slurp_file("$dir/report.md");
like($md, qr/\| 3 instance pairs \|/, 'report.md: the unit in the verdicts');
like($md, qr/## Where the noise lives/, 'report.md: the variance components');
like(slurp_file("$dir/report.html"), qr/Where the noise lives/, 'report.html too');
like(slurp_file("$dir/benchstat.txt"), qr/^instance: 3$/m, 'benchstat.txt: each run\'s instance');

# experiment_report() in SQL, given each run's instance, = summary.json to the last bit
my $node = PostgreSQL::Test::Cluster->new(q{sql});
init_node($node);
$node->start;
my $db = create_database($node, q{restart_levels});
($rc, $out, $err) = run_client_on($node, q{import}, $dir, "dbname=$db");
is($rc, 0, 'import of the restarted A/A') or diag $err;
my ($id) = $out =~ /^imported experiment (\d+):/m;
is($node->safe_psql($db, "SELECT string_agg(DISTINCT instance::text, ',' ORDER BY instance::text) || ' ' || max(restart_rounds) "
	  . "FROM pgbench_ext.runs JOIN pgbench_ext.experiments USING (experiment_id) WHERE experiment_id = $id"),
	'1,2,3 2', 'runs: each run\'s instance; experiments: the rounds per instance');
is($node->safe_psql($db, ReportFixture::parity_sql($id, undef, ReportFixture::read_json_exact("$dir/summary.json")->{cells}[0])),
	'1/1', 'experiment_report() across instance pairs = summary.json to the last bit');

# --- interrupted mid-block, then --resume ----------------------------------
$dir = "$base/resume";
my ($cout, $cerr) = ('', '');
my $h = IPC::Run::start([ client(), @aa, '-r', '4', '--restart', '2', '--seed', '12', '-o', $dir ],
	'>', \$cout, '2>', \$cerr);
# the header, two warm-ups and the first counted run: inside block 1
wait_until(180, sub { lines_in("$dir/runs.csv") >= 4 || undef });
$h->signal('INT');
$h->finish;
is($? >> 8, 130, 'Ctrl-C in the middle of block 1');
my @before = grep { $_->{status} ne 'interrupted' } read_runs($dir);
my $last_before = (sort { $a <=> $b } map { $_->{run_id} } @before)[-1];
ok($last_before >= 3 && $last_before < 6, "stopped inside block 1 (after run $last_before)");
($rc, $out, $err) = run_client('run', '--resume', $dir);
is($rc, 0, '--resume completes') or diag "$out\n$err";
@runs = read_runs($dir);
my @planned = grep { $_->{run_id} <= 12 } @runs;
is_deeply([ sort { $a <=> $b } map { $_->{run_id} } @planned ], [ 1 .. 12 ], 'every planned run once');
my @extra = grep { $_->{run_id} > 12 } @runs;
is(scalar @extra, 2, 'the resumed block first warms up its new instance: a run per variant, past the plan');
ok(!grep({ $_->{warmup} ne 'true' || $_->{round} != 0 || $_->{instance} != 2 } @extra),
	'those are warm-ups on instance 2');
foreach my $r (grep { $_->{run_id} <= 12 && $_->{round} > 0 } @runs)
{
	my $expected = $r->{round} > 2 ? 3 : $r->{run_id} <= $last_before ? 1 : 2;
	is($r->{instance}, $expected, "run $r->{run_id} (round $r->{round}, $r->{variant}): instance $expected");
}
is(join(',', map { "$_->{server}$_->{instance}:$_->{cause}" } grep { $_->{server} eq 'A' } read_instances($dir)),
	'A1:setup,A2:resume,A3:restart', 'instances.csv: the start of the resumed block is instance 2');

# --- --rerun keeps the levels ---------------------------------------------
# (of the resumed experiment: its spec's restart = 2 over 4 rounds has two
# instances of each server, levels enough, and a rerun runs its plan
# through without the interruption)
my $resumed = $dir;
my $rerun = "$base/rerun";
($rc, $out, $err) = run_client('run', '--rerun', $resumed, '-o', $rerun);
is($rc, 0, '--rerun completes') or diag $err;
my $runs_of = sub {
	my ($d, $with_instance) = @_;
	return join ' ', map { "$_->{run_id}:$_->{round}:$_->{variant}" . ($with_instance ? ":$_->{instance}" : '') }
	  sort { $a->{run_id} <=> $b->{run_id} } grep { $_->{run_id} <= 12 } read_runs($d);
};
is($runs_of->($rerun), $runs_of->($resumed), '--rerun: the same runs in the same rounds');
like($runs_of->($rerun, 1), qr/^1:0:\S+:1 2:0:\S+:1 (\d+:[12]:\S+:1 ){4}\d+:0:\S+:2 \d+:0:\S+:2 (\d+:[34]:\S+:2 ?){4}$/,
	'and the same levels, uninterrupted: warm-ups, two rounds on instance 1, warm-ups, two on instance 2');
is(scalar(read_runs($rerun)), 12, 'no run past the plan');
is_deeply(json_of("$rerun/experiment.json")->{restart}, json_of("$resumed/experiment.json")->{restart},
	'the restart key resolved as the first time');

# (restart = auto on two servers, a restart before every round, is
# 027_initdb_cache.pl's: its first experiment runs three servers under the
# default restart = auto.)
# (restart = auto on one server — no restarts, no warm-ups, every run on
# instance 1 — is 042_run_shared_cluster.pl's: its A/B on one server runs
# under the default restart = auto, where an experiment of its own here
# would cost another server's set-up.)

done_testing();
