# The results database: "pgbench_ext import DIR..." of results directories
# of two hosts (two machine fingerprints) into one database, idempotent by
# run identity (importing again adds nothing, a resumed experiment adds its
# new runs); history() keeps the machines apart unless asked, and
# changepoints() over it gives what "pgbench_ext history" gives for the same
# directories.  Machines as a level in SQL: one experiment run on two
# machines (and a second directory of the first) imported, farm_compare()
# gives the verdict across machine pairs that "pgbench_ext report DIR1 DIR2
# DIR3" prints, digit for digit; compare() takes unit_kind 'machine pair'.
# Synthetic results directories, written here.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use NodeTemplate;
use PgbenchExtTest;
use ReportFixture;

my $base = PostgreSQL::Test::Utils::tempdir;
my $node = PostgreSQL::Test::Cluster->new('farm');
init_node($node);
$node->start;
my $db = create_database($node, 'farm');
# one session for the test's queries: a psql and a backend for each cost
# more CPU than the queries
my $session = $node->background_psql($db);
$session->set_query_timer_restart;
my $sql_of = sub { $session->query_safe($_[0]) };

# uniform noise in [-1, 1) with a fixed seed: the same on every machine
my $wobble = ReportFixture::noise(4242);

# base and patch at 2 clients, patch faster by 5% on alpha and 4% on beta
my @alpha = map { ReportFixture::host_experiment("$base/alpha$_", 'alpha', $_, 1.05, $wobble, clients => [2]) } 1 .. 2;
my $beta = ReportFixture::host_experiment("$base/beta1", 'beta', 3, 1.04, $wobble, clients => [2], level => 1500);

my ($rc, $out, $err) = run_client_on($node, 'import', @alpha, $beta, "dbname=$db");
is($rc, 0, 'import of three directories of two hosts exits 0') or diag $err;
is(() = $out =~ /^imported experiment \d+: 2 variants, 16 runs from /mg, 3, 'each is imported') or diag $out;
my @fp = $out =~ /^  machine ([0-9a-f]{16}) \("(?:alpha|beta)"\)/mg;
is(scalar @fp, 3, 'each with its machine\'s fingerprint');
is($fp[0], $fp[1], 'the two of alpha have one fingerprint');
isnt($fp[0], $fp[2], 'beta has another');
my ($signature) = $out =~ /signature ([0-9a-f]{16})/;
is($sql_of->('SELECT count(*), count(DISTINCT signature) FROM pgbench_ext.experiment_sources'),
	'3|1', 'three experiments of one signature');
is($sql_of->('SELECT string_agg(hostname || ' . q{':'} . ' || (facts ->> \'cpu_model\'), \',\' ORDER BY hostname) FROM pgbench_ext.machines'),
	'alpha:Xeon,beta:EPYC', 'two machines, with their facts');

# idempotent: again, nothing new; a resumed experiment adds its new runs only
($rc, $out, $err) = run_client_on($node, 'import', @alpha, "dbname=$db");
is($rc, 0, 'importing again exits 0') or diag $err;
is(() = $out =~ /^experiment \d+ was imported before from .*: 0 new runs of 16$/mg, 2, 'and adds nothing') or diag $out;
ReportFixture::append_runs($alpha[0], [ map { { round => 9, variant => $_, clients => 2, tps => 1000 } } qw(base patch) ]);
($rc, $out, $err) = run_client_on($node, 'import', $alpha[0], "dbname=$db");
like($out, qr/^experiment \d+ was imported before from .*: 2 new runs of 18$/m, 'a resumed experiment: its 2 new runs')
  or diag $out, $err;
# a bare database name as the last argument, as with one directory before
($rc, $out, $err) = run_client_on($node, 'import', $beta, $db);
like($out, qr/^experiment \d+ was imported before from .*beta1: 0 new runs of 16$/m, 'a database name as the last argument')
  or diag $out, $err;
is($sql_of->('SELECT count(*) FROM pgbench_ext.experiments'), 3, 'still three experiments');
is($sql_of->('SELECT count(*) FROM pgbench_ext.runs'), 50, 'and 16 + 18 + 16 runs');

# history(): not pooled across machines unless asked
my $stderr;
$node->psql($db, "SELECT * FROM pgbench_ext.history('$signature', 'base', 'default', 2)", stderr => \$stderr);
like($stderr, qr/the experiments of signature $signature ran on 2 machines\nDETAIL:  Their fingerprints are [0-9a-f, ]+\.\nHINT:  A history is of one machine/,
	'history() refuses to pool two machines by default');
is($sql_of->("SELECT string_agg(point || ':' || hostname || ':' || runs, ',') FROM pgbench_ext.history('$signature', 'base', 'default', 2, '$fp[0]')"),
	'1:alpha:9,2:alpha:8', 'history() of one machine, its points in the order written');
is($sql_of->("SELECT count(*) FROM pgbench_ext.history('$signature', 'base', 'default', 2, '*')"),
	3, "with '*' every machine's points");
$node->psql($db, "SELECT * FROM pgbench_ext.history('0000', 'base', 'default', 2)", stderr => \$stderr);
like($stderr, qr/no imported experiment has signature 0000/, 'an unknown signature is said');
$node->psql($db, "SELECT * FROM pgbench_ext.history('$signature', 'base', 'default', 2, 'ffff')", stderr => \$stderr);
like($stderr, qr/no imported experiment has signature $signature on machine ffff/, 'so is an unknown machine');

# --- changepoints() over history() = "pgbench_ext history" of the directories ---
my @steps;
for my $i (1 .. 14)
{
	push @steps, ReportFixture::host_experiment(sprintf("$base/step%02d", $i), 'alpha', 10 + $i, 1, $wobble,
		clients => [2], level => $i > 8 ? 550 : 500);
}
($rc, $out, $err) = run_client_on($node, 'import', @steps, "dbname=$db");
is($rc, 0, 'import of a history of 14 experiments') or diag $err;
($rc, $out, $err) = run_client('history', '--variant', 'base', '-o', "$base/plot", @steps);
is($rc, 0, 'pgbench_ext history of the same directories') or diag $err;
my @csv = split /\n/, slurp_file("$base/plot/changepoints.csv");
is(scalar @csv, 2, 'the client finds one change point');
my (undef, undef, $shift, undef, $lo, $hi, $p) = split /,/, $csv[1];
my $sql = "SELECT point, round(shift::numeric, 5), round(ci_low::numeric, 5), round(ci_high::numeric, 5), p_value "
  . "FROM pgbench_ext.changepoints((SELECT array_agg(tps ORDER BY point) FROM pgbench_ext.history('$signature', 'base', 'default', 2, '$fp[0]') WHERE experiment_id > 3))";
is($sql_of->($sql), join('|', 9, map({ sprintf('%.5f', $_) } $shift, $lo, $hi), $p),
	'changepoints() over history() finds it at the same point with the same shift, CI and p');

# --- "pgbench_ext history CONNINFO": the pages of every history imported ---
# the same histories, change points and files as "history --farm" of the
# directories imported, in the order written
# and a second experiment (another script) on beta, 10% faster from its 6th point
my @other = map {
	ReportFixture::host_experiment(sprintf("$base/other%02d", $_), 'beta', 10 + $_, 1, $wobble,
		clients => [2], script => 'other', level => $_ > 5 ? 550 : 500)
} 1 .. 10;
($rc, $out, $err) = run_client_on($node, 'import', @other, "dbname=$db");
is($rc, 0, 'import of a history of another experiment on beta') or diag $err;
($rc, $out, $err) = run_client('report', $steps[8]);
is($rc, 0, 'a report.html in one directory imported') or diag $err;
($rc, my $from_db, $err) = run_client_on($node, 'history', '-o', "$base/db", "dbname=$db");
is($rc, 0, 'history CONNINFO -o exits 0') or diag $err;
($rc, my $from_dirs, $err) = run_client('history', '--farm', '-o', "$base/dirs", @alpha, $beta, @steps, @other);
is($rc, 0, 'history --farm of the directories imported') or diag $err;
is(() = $from_db =~ /^== experiment $signature on machine [0-9a-f]{16} \("(alpha|beta)"\): variant base, default, 2 clients$/mg,
	2, 'from the database: a history per machine, of the first variant and cell') or diag $from_db;
like($from_db, qr/^== experiment (?!$signature)[0-9a-f]{16} on machine [0-9a-f]{16} \("beta"\): variant base, other, 2 clients$/m,
	'and one of the other experiment');
my $strip = sub { (my $t = $_[0]) =~ s/^written: .*\n//mg; $t =~ s/\Q$base\E//g; return $t };
is($strip->($from_db), $strip->($from_dirs), 'the terminal shows the points and change points of the directories');
my %html_changes;
my @db_pages = map { s{^\Q$base\E/db/}{}r } sort glob("$base/db/*/history.html");
is_deeply(\@db_pages, [ map { s{^\Q$base\E/dirs/}{}r } sort glob("$base/dirs/*/history.html") ],
	'a page per (signature, machine), in the directories --farm names') or diag explain \@db_pages;
is(scalar @db_pages, 3, 'three of them');
foreach my $page (@db_pages)
{
	(my $dir = $page) =~ s{/history\.html$}{};
	my $csv = slurp_file("$base/db/$dir/changepoints.csv");
	is($csv, slurp_file("$base/dirs/$dir/changepoints.csv"), "$dir: the change points of the directories");
	is(scalar(() = $csv =~ /\n/g) - 1, $html_changes{$dir} = () = slurp_file("$base/db/$page") =~ /<tr id="c\d+">/g,
		"$dir: each in the page's table");
	my $html = slurp_file("$base/db/$page");
	my @href = $html =~ /<a href="([^"#]+)"/g;
	ok(scalar(grep { -f "$base/db/$dir/$_" } @href) == @href, "$dir: its links resolve (@href)");
	like($html, qr{<a href="[./]*step09/report\.html">}, "$dir: the point with a report links it") if $html =~ /on alpha \(/;
}
is_deeply([ sort values %html_changes ], [ 0, 0, 1 ], 'one history with a change point')
  or diag $from_db;
like(slurp_file("$base/db/index.html"), qr/3 histories \(an experiment&#39;s signature on one machine\) from 27 imported experiments of the database \Q$db\E;/,
	'index.html: the database named');

# changepoints() on its own
is($sql_of->('SELECT point, round(shift::numeric, 9), n_before, n_after FROM pgbench_ext.changepoints(ARRAY[10,10.1,9.9,10,10.1,9.9,20,20.2,19.8,20,20.2,19.8]::float8[])'),
	'7|2.000000000|6|6', 'a doubling after 6 points: at point 7, shift 2');
is($sql_of->('SELECT count(*) FROM pgbench_ext.changepoints(ARRAY[5,5,5,5,5,5,5]::float8[])'), 0,
	'a constant series: none');
foreach my $case (
	[ 'ARRAY[1,0,1]::float8[]', qr/must contain only finite values greater than zero/ ],
	[ 'ARRAY[1,2,3]::float8[], alpha => 1', qr/"alpha" must be greater than 0 and less than 1/ ],
	[ 'ARRAY[1,2,3]::float8[], permutations => 0', qr/"permutations" must be between 1 and 1000000/ ],
	[ 'ARRAY[1,2,3]::float8[], min_segment => 0', qr/"min_segment" must be at least 1/ ],
	[ 'NULL', qr/argument "x" of changepoints\(\) must not be NULL/ ],
	[ '(SELECT array_agg(1.0::float8) FROM generate_series(1, 1001))', qr/changepoints\(\) takes at most 1000 points, not 1001/ ])
{
	$node->psql($db, "SELECT * FROM pgbench_ext.changepoints($case->[0])", stderr => \$stderr);
	like($stderr, $case->[1], "changepoints($case->[0]): an error");
}

# --- machines as a level: farm_compare() = "report DIR1 DIR2 DIR3" ---------
my @dirs = map { ReportFixture::host_experiment("$base/m_$_->[0]", $_->[1], $_->[2], $_->[3], $wobble) }
  [ 'alpha1', 'alpha', 1, 1.05 ], [ 'beta1', 'beta', 2, 1.045 ], [ 'alpha2', 'alpha', 3, 1.052 ];

($rc, $out, $err) = run_client_on($node, 'import', @dirs, "dbname=$db");
is($rc, 0, 'import of three directories of two machines') or diag $err;
my ($two_machines) = $out =~ /signature ([0-9a-f]{16})/;
($rc, $out, $err) = run_client('report', @dirs);
is($rc, 0, 'report of the same three directories') or diag $err;

foreach my $clients (1, 2)
{
	my ($block) = grep { /^default, $clients clients?: patch vs base:/ } split /\n\n/, $out;
	my ($line) = $block =~ /^  across machines\s+(.*)$/m;
	ok($line, "the client's verdict across machines at $clients clients: $line");
	my $row = $sql_of->(
		"SELECT estimate, ci_low, ci_high, verdict, n_units, unit, array_length(machines, 1) "
		  . "FROM pgbench_ext.farm_compare('$two_machines', 'base', 'patch', 'default', $clients)");
	my ($est, $lo, $hi, $verdict, $units, $unit, $nmachines) = split /\|/, $row;
	my $pct = sub { sprintf('%+.2f%%', 100 * ($_[0] - 1)) };
	# SQL names its verdicts without figures, the client's words with them:
	# the noise threshold (1% here), the MDE beside no change
	$verdict =~ s/the threshold/1%/;
	$line =~ s/~ no change \(MDE [^)]*\)/no change/;
	my $sql = sprintf('%s [%s, %s]  %s  (%d %ss)', $pct->($est), $pct->($lo), $pct->($hi), $verdict, $units, $unit);
	is($sql, $line, "farm_compare() at $clients clients gives the same figures");
	is($nmachines, 2, '  over two machines');
}

# compare() with machine pairs by hand: two machines, paired rounds in each
is($sql_of->(
		q{SELECT n_units, unit, round(estimate::numeric, 6) FROM pgbench_ext.compare(
		    ARRAY[100,100,200,200]::float8[], ARRAY[110,110,230,230]::float8[],
		    round_a => ARRAY[1,2,1,2], round_b => ARRAY[1,2,1,2],
		    unit_a => ARRAY[1,1,2,2], unit_b => ARRAY[1,1,2,2], unit_kind => 'machine pair')}),
	sprintf('2|machine pair|%.6f', sqrt(1.1 * 1.15)), 'compare() with unit_kind machine pair: one summary per machine');

$session->quit;
$node->stop;
done_testing();
