# The keys that quiet a run, on managed clusters of the installed
# PostgreSQL: while a duet runs, its servers are seen in /proc without
# address-space randomization and on the CPUs the plan gave them; the two
# runs of each pair overlap in time on disjoint CPU sets that swap every
# round and, with swap_interval, many times within each run (none with
# swap_interval = off); both get the round's pgbench seed.  Then two
# servers started once give "insufficient"; with three variants each runs
# beside the baseline and is compared with the baseline's runs beside it,
# and a resume by a plan of another order is refused; a duet with
# huge_pages = on has every run's server in huge pages, as root reserving
# them and putting the pool back, and without root and free pages refuses,
# saying what to do (skipped, the pool checked put back, when a server of
# the parallel suite took the reserved pages first); bad values of the keys
# are refused.
#
# What it assumes of the machine: at least 2 CPUs this process may use (a
# duet gives each side its own; with fewer the test skips, saying so),
# /proc, and a host that lets a client trade CPUs at least 5 times in a
# run of 2 s where it asks for about 80 (every 25 ms).  Huge pages: as
# root the pool is raised and put back, otherwise the checks that need
# free pages skip.
use strict;
use warnings;

use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes ();
use Time::Local qw(timegm);

use PgbenchExtTest;

plan skip_all => 'a duet needs 2 CPUs this process may use, and it may use ' . usable_cpus()
  if usable_cpus() < 2;

my $bindir = pg_bindir();
my $base = shared_tempdir();

sub cpus_of_process
{
	my ($pid) = @_;
	my ($line) = grep { /^Cpus_allowed_list:/ } split /\n/, slurp_file("/proc/$pid/status");
	return $line =~ /:\s*(\S+)/ ? $1 : '';
}

sub epoch_of
{
	my ($iso) = @_;
	my ($y, $mo, $d, $h, $mi, $s) = $iso =~ /^(\d+)-(\d+)-(\d+)T(\d+):(\d+):(\d+)Z$/ or die "bad time $iso";
	return timegm($s, $mi, $h, $d, $mo - 1, $y);
}

# Where the runs go, on which CPUs and when, is the point here, not how
# fast the servers are: pgbench runs throttled (-R 100), which leaves the
# CPUs to the tests beside this one, and the run database is not copied
# afresh before each run (select-only changes nothing).
my @light = ('--pgbench-args', '-R 100', '--reset', 'never');
my @duet = ('ab', '-s', '1', '-c', '1', '-T', '2', '-r', '2', '-b', 'select-only', '--seed', '5', @light,
	'--restart', 'never', '--schedule', 'duet', '--aslr', 'off', '--prewarm', 'on',
	'--variant', 'a', '--bindir', $bindir, '--variant', 'b', '--bindir', $bindir);

# --- a duet, watched while it runs -----------------------------------------
my $dir = "$base/duet";
my ($out, $err) = ('', '');
my $h = IPC::Run::start([ client(), @duet, '-o', $dir ], '<', \undef, '>', \$out, '2>', \$err);
# (set-up included: two clusters made on a host loaded by a parallel make
# test once took 86 s before the first run)
my $seen = wait_until(
	240,
	sub {
		return undef unless -f "$dir/runs/0001.err";
		my @seen;
		foreach my $pidfile (glob("$dir/clusters/*/data/postmaster.pid"))
		{
			my ($pid) = split /\n/, slurp_file($pidfile);
			my $persona = eval { slurp_file("/proc/$pid/personality") } // return undef;
			push @seen, { pid => $pid, personality => hex($persona), cpus => cpus_of_process($pid) };
		}
		return @seen == 2 ? \@seen : undef;
	},
	$h);
# swap_interval = 25ms (the default): each server is moved between the two
# CPU sets about forty times a second, so sampled for 1 s from the start of
# its first run (of 2 s; found within 0.1 s of it), it is seen on both —
# where sets traded only between rounds would show it on one
# The two servers are read one after the other, and a swap moves one side
# and then the other, so a sample that falls across a swap can find both
# on one set (it did, once in a fresh clone's make test): the check is
# that most samples find them apart.  A sample straddles a swap when the
# swap's two moves fall between its two reads; even were that window 5 ms
# of every 25 (p = 0.2), a majority of 20 or more samples (a 1 s loop of
# 10 ms sleeps takes about 90, and 27 on a host loaded by a parallel make
# test) straddling has a chance below 1 in 1,000 (the most, 9.7e-4, at 21
# samples: P(Binomial(21, 0.2) >= 11)).
my %sets_of;
my ($samples, $apart) = (0, 0);
if ($seen)
{
	my $until = Time::HiRes::time() + 1;
	while (Time::HiRes::time() < $until)
	{
		my @now = map { eval { cpus_of_process($seen->[$_]{pid}) } // '' } (0, 1);
		$sets_of{$_}{ $now[$_] } = 1 foreach grep { $now[$_] ne '' } (0, 1);
		if ($now[0] ne '' && $now[1] ne '')
		{
			$samples++;
			$apart++ if $now[0] ne $now[1];
		}
		Time::HiRes::sleep(0.01);
	}
}
ok($h->finish, 'a duet completes') or diag "$out\n$err";
ok($seen, 'both servers were seen in /proc during the first run');
foreach my $server (@{ $seen // [] })
{
	ok($server->{personality} & 0x0040000, 'a server runs without address-space randomization (ADDR_NO_RANDOMIZE)');
}
ok($samples >= 20 && 2 * $apart > $samples,
	"during a duet the two servers are on different CPU sets: in $apart of $samples samples")
  if $seen;
foreach my $i (0, 1)
{
	is(scalar(keys %{ $sets_of{$i} }), 2,
		"server $i is moved between the two CPU sets within a run: " . join(' and ', sort keys %{ $sets_of{$i} }));
}
is(read_json("$dir/experiment.json")->{spec}{experiment}{swap_interval}, '25ms', 'experiment.json records swap_interval');

my @runs = read_runs($dir);
is(scalar(grep { $_->{status} eq 'ok' } @runs), 4, 'four runs recorded, all ok');
my %by_round;
push @{ $by_round{ $_->{round} } }, $_ foreach @runs;
my %cpus_of;
foreach my $round (sort keys %by_round)
{
	my ($x, $y) = @{ $by_round{$round} };
	# started_at has whole seconds: starts at most a second apart, runs of 2 s
	my ($sx, $sy) = (epoch_of($x->{started_at}), epoch_of($y->{started_at}));
	ok(abs($sx - $sy) <= 1 && $sx < $sy + $y->{duration_s} && $sy < $sx + $x->{duration_s},
		"round $round: the two runs of the duet overlap in time");
	my @facts = map { read_json(sprintf("%s/runs/%04d.json", $dir, $_->{run_id}))->{quiet} } ($x, $y);
	ok(!$facts[0]{aslr} && !$facts[1]{aslr}, "round $round: each run records its server without ASLR");
	isnt($facts[0]{cpus}, $facts[1]{cpus}, "round $round: the two runs' servers on disjoint CPU sets");
	is($facts[$_]{pgbench_cpus}, $facts[$_]{cpus}, "round $round: pgbench on its server's CPUs") for 0 .. 1;
	# a run of 2 s has about eighty trades; a client kept from the CPU by a
	# loaded host makes fewer, never none
	cmp_ok($facts[$_]{cpu_swaps}, '>=', 5, "round $round: run $_ of the pair traded CPUs within it ($facts[$_]{cpu_swaps} times)")
	  for 0 .. 1;
	$cpus_of{$round}{ $_->[0]{variant} } = $_->[1]{cpus} for ([ $x, $facts[0] ], [ $y, $facts[1] ]);
	my @seeds = map { slurp_file(sprintf("%s/runs/%04d.err", $dir, $_->{run_id})) =~ /setting random seed to (\d+)/ ? $1 : '' }
	  ($x, $y);
	ok($seeds[0] ne '' && $seeds[0] eq $seeds[1], "round $round: one pgbench seed for both ($seeds[0])");
}
is($cpus_of{2}{a}, $cpus_of{1}{b}, 'the CPU sets swap between rounds');

# --- what a duet's round costs: one run's time, not its two runs' ----------
my $summary = read_json("$dir/summary.json");
my @counted = grep { $_->{warmup} eq 'false' } read_runs($dir);
my $wall = 0;
$wall += $_->{wall_s} foreach @counted;
my $rounds = scalar(@counted) / 2;
cmp_ok(abs($summary->{cost_s}{round} - $wall / $rounds / 2), '<', 0.01,
	'a round costs the mean wall time of one run: the pair runs at once')
  or diag "cost_s.round $summary->{cost_s}{round}, runs' walls $wall over $rounds rounds";

# --- two servers started once: insufficient --------------------------------
my ($cell) = @{ $summary->{cells} };
is($cell->{comparison}{verdict}, 'insufficient', 'different servers started once: insufficient');
like($cell->{comparison}{reason}, qr/each started once.*restart = auto/, 'saying why and what to set');
like($out, qr/^insufficient: different servers, each started once/m, 'the terminal says why');

# --- three variants: every variant beside the baseline ---------------------
# Each round runs a beside b and a beside c, in a shuffled order; b's
# comparison with a takes a's runs beside b, c's those beside c.
my $tri = "$base/three";
my ($trc, $tout, $terr) = run_client('ab', '-s', '1', '-c', '1', '-T', '1', '-r', '2', '-b', 'select-only',
	'--seed', '5', @light, '--restart', 'never', '--schedule', 'duet', '--swap-interval', 'off',
	'--variant', 'a', '--bindir', $bindir, '--variant', 'b', '--bindir', $bindir,
	'--variant', 'c', '--bindir', $bindir, '-o', $tri);
is($trc, 0, 'a duet of three variants completes') or diag "$tout\n$terr";
my @swaps = map { read_json(sprintf("%s/runs/%04d.json", $tri, $_->{run_id}))->{quiet}{cpu_swaps} } read_runs($tri);
is(join(' ', sort { $a <=> $b } keys %{ { map { ($_ => 1) } @swaps } }), '0',
	'swap_interval = off: no run traded CPUs within it');
like(slurp_file("$tri/report.md"), qr/schedule duet, the sides' CPUs traded between rounds only;/,
	'and the report says so');
my %partner_of = map { ($_->{run_id} => $_->{partner} // '') } @{ read_json("$tri/experiment.json")->{plan} };
my @tri_runs = grep { $_->{status} eq 'ok' } read_runs($tri);
is(scalar @tri_runs, 8, 'two rounds of two pairs: eight runs, all ok');
my %pairs;
foreach my $run (@tri_runs)
{
	push @{ $pairs{ $run->{round} }{ join('+', sort($run->{variant}, $partner_of{ $run->{run_id} })) } }, $run;
}
foreach my $round (1, 2)
{
	is(join(' ', sort keys %{ $pairs{$round} }), 'a+b a+c', "round $round: a beside b, and a beside c");
	foreach my $pair (values %{ $pairs{$round} })
	{
		my ($x, $y) = @$pair;
		my ($sx, $sy) = (epoch_of($x->{started_at}), epoch_of($y->{started_at}));
		ok(abs($sx - $sy) <= 1 && $sx < $sy + $y->{duration_s} && $sy < $sx + $x->{duration_s},
			"round $round: $x->{variant} and $y->{variant} run at once");
	}
}
my %tri_cells = map { ($_->{variant} => $_) } @{ read_json("$tri/summary.json")->{cells} };
foreach my $v ('b', 'c')
{
	my @beside = sort { $a <=> $b } map { $_->{tps} + 0 }
	  grep { $_->{variant} eq 'a' && $partner_of{ $_->{run_id} } eq $v } @tri_runs;
	is(join(' ', sort { $a <=> $b } map { $_ + 0 } @{ $tri_cells{$v}{a}{tps} }), join(' ', @beside),
		"$v vs a: a's runs beside $v, not all of a's");
}

# resumed by a version that plans the runs otherwise (a pair's two runs
# swapped): refused, nothing touched
my $exp_json = slurp_file("$tri/experiment.json");
my $doc = JSON::PP->new->decode($exp_json);
my ($first, $second) = @{ $doc->{plan} }[ 0, 1 ];
($first->{variant}, $second->{variant}) = ($second->{variant}, $first->{variant});
open my $w, '>', "$tri/experiment.json" or die $!;
print $w JSON::PP->new->encode($doc);
close $w;
my $runs_before = slurp_file("$tri/runs.csv");
($trc, $tout, $terr) = run_client('run', '--resume', $tri);
isnt($trc, 0, '--resume of an experiment planned in another order stops');
like($terr, qr/experiment\.json" was planned by another version of pgbench_ext, whose runs come in another order: resume it with that version/,
	'and says why');
is(slurp_file("$tri/runs.csv"), $runs_before, 'runs.csv untouched');

# --- huge_pages = on ----------------------------------------------------------
# The pool as /proc/meminfo has it: its persistent pages (vm.nr_hugepages;
# pages another server of the host still holds when the pool is lowered
# stay as surplus until it lets them go), and what a start can have.
sub huge_pool
{
	my %m = slurp_file('/proc/meminfo') =~ /^(HugePages_\w+):\s+(\d+)/mg;
	return ($m{HugePages_Total} - $m{HugePages_Surp}, $m{HugePages_Free} - $m{HugePages_Rsvd});
}
my @huge = ('ab', '-s', '1', '-c', '1', '-T', '1', '-r', '2', '-b', 'select-only', '--seed', '5',
	'--restart', '1', '--schedule', 'duet', '--huge-pages', 'on', @light);
my @two = ('--variant', 'a', '--bindir', $bindir, '--variant', 'b', '--bindir', $bindir);
my ($pool_before, $free_before) = huge_pool();
SKIP:
{
	skip 'huge pages: not root, and no free huge page to use', 7 if $> != 0 && $free_before == 0;
	my ($rc, $o, $e) = run_client(@huge, @two, '-o', "$base/huge");
	# The suite's other servers start beside this one with PostgreSQL's
	# default huge_pages = try, and one of them may take the pages the client
	# reserved before this server maps them (seen once in a parallel make
	# test): the start then fails with the kernel's ENOMEM, which says nothing
	# of the client.  The pool must still be put back.
	if ($rc != 0 && $e =~ /could not map anonymous shared memory: Cannot allocate memory/)
	{
		is((huge_pool())[0], $pool_before, "after a start without huge pages, vm.nr_hugepages put back ($pool_before)");
		skip 'huge pages: another server of the suite took the pages reserved for this one (its huge_pages = try)', 6;
	}
	is($rc, 0, 'huge_pages = on: a duet completes') or diag "$o\n$e";
	my @counted = grep { $_->{status} eq 'ok' } read_runs("$base/huge");
	is(scalar(@counted), 8, 'every run recorded (a warm-up after each start and a counted run, both rounds)');
	my @kb = map { read_json(sprintf("%s/huge/runs/%04d.json", $base, $_->{run_id}))->{quiet}{huge_pages_kb} // 0 } @counted;
	is(scalar(grep { $_ > 0 } @kb), scalar(@counted), "each run's server had its shared memory in huge pages (HugetlbPages kB: @kb)");
	like(slurp_file("$base/huge/clusters/a/postgresql.pgbench_ext.conf"), qr/^huge_pages = on$/m, 'the server is told huge_pages = on');
	like(read_json("$base/huge/experiment.json")->{spec}{experiment}{huge_pages}, qr/^on$/, 'experiment.json records it');
  SKIP:
	{
		skip 'huge pages: the pool had free pages before, nothing to reserve', 2 if $> != 0 || $free_before > 0;
		like($o, qr/^huge_pages = on: reserved \d+ huge pages of \d+ kB for the server of variant a .*put back when it ends\)$/m,
			'as root the pool is raised, saying so');
		is((huge_pool())[0], $pool_before, "vm.nr_hugepages put back as it was ($pool_before)");
	}
}

# not root, the pool empty: refused before any run, saying what to do
SKIP:
{
	my $nobody = getpwnam('nobody');
	skip 'huge pages: a user other than root is needed, with the pool empty', 3
	  unless $> == 0 && defined $nobody && (huge_pool())[1] == 0 &&
	  IPC::Run::run([ 'runuser', '-u', 'nobody', '--', 'test', '-x', client() ]);
	my $home = shared_tempdir();
	chown $nobody, -1, $home;
	my ($o, $e) = ('', '');
	IPC::Run::run([ 'runuser', '-u', 'nobody', '--', 'env', "HOME=$home", "PGBENCH_EXT_STATE_DIR=$home/state",
		"PGBENCH_EXT_INITDB_CACHE=$home/initdb-cache", client(), @huge, @two, '-o', "$home/r" ],
		'<', \undef, '>', \$o, '2>', \$e);
	is($? >> 8, 2, 'huge_pages = on without root and without free huge pages: status 2');
	like($e, qr/needs \d+ huge pages of \d+ kB and 0 are free, and only root may reserve more; run as root .* \(sysctl -w vm\.nr_hugepages=\d+\) or set huge_pages = off/,
		'naming the need and the three ways out');
	ok(!-e "$home/r/runs.csv" || lines_in("$home/r/runs.csv") <= 1, 'no run recorded');
}

# --- bad values --------------------------------------------------------------
my ($rc, $o, $e) = run_client(@duet[ 0 .. 10 ], '--pin', 'maybe', '--variant', 'a', '--bindir', $bindir,
	'--variant', 'b', '--bindir', $bindir, '-o', "$base/bad");
is($rc, 2, 'pin = maybe: a usage error');
like($e, qr/pin must be on .* or off, got "maybe"/, 'naming the key and its values');
($rc, $o, $e) = run_client(@duet[ 0 .. 10 ], '--swap-interval', '5ms', '--variant', 'a', '--bindir', $bindir,
	'--variant', 'b', '--bindir', $bindir, '-o', "$base/bad5");
is($rc, 2, 'swap_interval = 5ms: a usage error');
like($e, qr/swap_interval must be off .* or 10 to 60000 milliseconds .*got "5ms"/, 'naming the bounds');
($rc, $o, $e) = run_client('ab', '-s', '1', '-T', '1', '--schedule', 'duet', '--variant', 'a', '--bindir', $bindir,
	'--variant', 'b', '--cluster', 'a', '-o', "$base/bad2");
is($rc, 2, 'a duet of two variants on one server: a usage error');
like($e, qr/schedule = duet cannot run: it needs every variant on a server of its own.*variant "b" shares/, 'saying which variant');
ok(!-e "$base/bad2/runs.csv", 'nothing ran');
($rc, $o, $e) = run_client(@huge[ 0 .. 16 ], '--huge-pages', 'sometimes', @two, '-o', "$base/bad3");
is($rc, 2, 'huge_pages = sometimes: a usage error');
like($e, qr/huge_pages must be on .*, off, or server .*, got "sometimes"/, 'naming the values');
($rc, $o, $e) = run_client(@huge, '--variant', 'a', '--bindir', $bindir, '--set', 'huge_pages=off',
	'--variant', 'b', '--bindir', $bindir, '-o', "$base/bad4");
is($rc, 2, 'huge_pages = on beside a variant that sets huge_pages: a usage error');
like($e, qr/variant "a" sets huge_pages itself.*huge_pages = server/, 'saying which variant and what to set');

done_testing();
