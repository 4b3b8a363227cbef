# --resume of a budgeted experiment (rounds = auto): interrupted after its
# first block, it continues with the budget that was left — the plan of
# experiment.json, the time budget.csv holds — and every block after is
# one the budget still had room for.  A second --resume of the finished
# experiment runs nothing and starts no server.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/aa";
my $budget = 50;

# budget.csv as a list of [block, rounds, spent_s]
sub blocks_spent
{
	return [] unless -f "$dir/budget.csv";
	my @lines = split /\n/, slurp_file("$dir/budget.csv");
	shift @lines;
	return [ map { [ split /,/ ] } @lines ];
}

my ($out, $err) = ('', '');
my $h = IPC::Run::start(
	# throttled (pgbench -R): the budget's bookkeeping is the point, and a
	# throttled load leaves the CPUs to the tests beside this one
	[ client(), 'ab', '-s', '1', '-c', '1', '-T', '1', '-b', 'select-only', '--reset', 'never',
		'--pgbench-args', '-R 400',
		'--rounds', 'auto', '--budget', "${budget}s", '--seed', '31',
		'--variant', 'A', '--bindir', $bindir,
		'--variant', 'A2', '--cluster', 'A', '--session-set', 'work_mem=8MB', '-o', $dir ],
	'<', \undef, '>', \$out, '2>', \$err);
# into the second block: its first runs on disk after block 1's time
wait_until(300, sub { @{ blocks_spent() } >= 1 && lines_in("$dir/runs.csv") >= 13 || undef });
$h->signal('INT');
$h->finish;
is($? >> 8, 130, 'Ctrl-C in the middle of block 2');
my $before = blocks_spent();
is(scalar @$before, 1, 'budget.csv holds block 1');
my $spent1 = $before->[0][2];
ok($spent1 > 0 && $spent1 < $budget, "block 1 took $spent1 s of $budget");

my ($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
is($rc, 0, '--resume completes') or diag "$rout\n$rerr";
like($rout, qr/^rounds = auto: \d+ s of the budget of $budget s spent in 1 block$/m,
	'it says what was spent');
my $exp = read_json("$dir/experiment.json");
my $plan = $exp->{sequential};
my $after = blocks_spent();
is_deeply([ map { $_->[0] } @$after ], [ 1 .. scalar @$after ], 'budget.csv: every block once, in order');
ok(@$after <= $plan->{max_blocks}, 'no more blocks than the plan');
is($after->[0][2], $spent1, 'block 1\'s time as the first session recorded it');
ok(!grep({ $after->[$_][2] <= $after->[ $_ - 1 ][2] } 1 .. $#$after), 'the time spent only grows');
# the runner starts a block only when one as long as the mean so far fits
ok(!grep({ $after->[$_][2] + $after->[$_][2] / ($_ + 1) > $budget } 0 .. $#$after - 1),
	'every block was started with room for it in the budget that was left');

my @runs = grep { $_->{status} eq 'ok' } read_runs($dir);
my @planned = grep { $_->{run_id} <= scalar @{ $exp->{plan} } } @runs;
my %ids = map { ($_->{run_id} => 1) } @planned;
is(scalar(keys %ids), scalar @planned, 'every planned run at most once');
my $blocks = scalar @$after;
is(scalar(grep { $_->{warmup} eq 'false' } @planned), 2 * 5 * $blocks,
	"the rounds of the $blocks blocks, no more");
my $summary = read_json("$dir/summary.json");
my $seq = $summary->{cells}[0]{sequential};
# an A/A decides faster or slower in up to alpha = 5% of experiments (the
# looks spend all of it: test_stats_sequential proves the rate), too often
# for one run of a test to demand none; what it decides must hold together
like($seq->{decision}, qr/^(same|undecided|faster|slower)$/, "the A/A's decision ($seq->{decision})");
ok($seq->{decision} ne 'faster' || $seq->{comparison}{ci_low} > 1.01, 'faster only with the whole CI above +1%');
ok($seq->{decision} ne 'slower' || $seq->{comparison}{ci_high} < 0.99, 'slower only with the whole CI below -1%');
like($summary->{sequential}{stopped}, qr/^(budget spent|every cell decided)$/,
	"it stopped by the rule ($summary->{sequential}{stopped})");
is($summary->{sequential}{blocks_done}, $blocks, 'the report counts the blocks budget.csv holds');
# after the second block (the resumed session's first), while the cell is
# undecided and the budget goes on: what its noise so far takes to
# decide, against the budget, in the pilot's words (the budget left after
# block 2 decides whether there is a third block, the noise whether the
# A/A is undecided at block 2: either way, the line is there exactly when
# both hold)
my $forecast = qr/^rounds = auto: select-only, 1 client: A2 vs A: at the noise of its first 10 rounds, /m;
if ($blocks > 2 && ($seq->{decision} eq 'undecided' || $seq->{block} > 2))
{
	like($rerr, qr/${forecast}(to see 2%: \d+ rounds on one server, about \d+ (seconds|minutes)|no experiment of up to \d+ rounds sees 2% .*); the budget of 50s (can see 2% with the design's power|may not see 2% with the design's power(?: \(at the low end of that noise it takes \S+\))?|cannot see 2% with the design's power, even at the low end of that noise)$/m,
		'after block 2: the design the noise so far needs, against the budget, in the pilot\'s words');
}
else
{
	unlike($rerr, $forecast, 'decided by block 2, or no block after it: no forecast');
}

# --- resumed again: nothing left to do ---------------------------------------
my $nlines = () = slurp_file("$dir/runs.csv") =~ /\n/g;
my $instances = slurp_file("$dir/instances.csv");
($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
is($rc, 0, 'a second --resume completes') or diag "$rout\n$rerr";
is((() = slurp_file("$dir/runs.csv") =~ /\n/g), $nlines, 'and runs nothing');
unlike($rout, qr/setting up variant/, 'nor sets up a server');
is(slurp_file("$dir/instances.csv"), $instances, 'nor starts one (instances.csv unchanged)');
is_deeply(blocks_spent(), $after, 'budget.csv unchanged');

done_testing();
