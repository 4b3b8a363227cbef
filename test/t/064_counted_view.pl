# counted_view = on (--counted-view): one command times the variants, then
# counts the same variants under valgrind into DIR/counted/, and its report
# gives both, the counted view under the tps verdicts.  A is the installed
# server; B the same server with log_statement = all for its connections
# (--cluster A --session-set), which does more work per statement: more
# instructions per transaction in every counted run.
#
# The counted runs are interrupted (SIGINT) after the first is recorded:
# exit 130 with the hint to resume the timed experiment's directory, which
# then runs no timed run again and completes the counted ones.  The report
# of the directory alone gives the counted view again; a link planted where
# counted/ was is not followed.  Bad input stops before any run.
#
# What it assumes of the machine: valgrind (tools/deps installs it).  The
# counted runs are 3 rounds of 20 transactions (a counted view's defaults,
# 10 rounds of 1000, are for verdicts, not for make test): no verdict is
# asked of them, only the counts, which log_statement moves by thousands of
# instructions against run-to-run differences of a few (093's figures).
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/view";
my @ab = ('ab', '-s', '1', '-c', '2', '-T', '1', '-r', '2', '-b', 'select-only', '--reset', 'never',
	'--pgbench-args', '-R 200', '--seed', '17',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--cluster', 'A', '--session-set', 'log_statement=all');
my @view = ('--counted-view', '--counted-view-rounds', '3', '--counted-view-transactions', '20');

# --- bad input: refused before any run, nothing written ---------------------
my @bad = (
	[ [ '--profile', 'counted', @view ], qr/counted_view adds counted runs to a timed experiment, and profile = counted is counted already/,
		'with profile = counted' ],
	[ [ '--counted-view-rounds', '3' ], qr/counted_view_rounds and counted_view_transactions apply to the counted view only/,
		'counted_view_rounds without counted_view' ],
	[ [ '--counted-view', '--counted-view-rounds', '1' ], qr/counted_view_rounds must be a whole number of rounds from 2 to 1000, got "1"/,
		'one round' ],
	[ [ '--counted-view', '--counted-view-transactions', '19' ],
		qr/counted_view_transactions must be a whole number of transactions a run from 20 to 1000000, got "19"/,
		'19 transactions' ],
);
foreach my $case (@bad)
{
	my ($args, $msg, $what) = @$case;
	my ($rc, $out, $err) = run_client(@ab, @$args, '-o', "$base/bad");
	is($rc, 2, "$what: exit status 2");
	like($err, $msg, "$what: said");
	ok(!-e "$base/bad", "$what: nothing written");
}
{
	local $ENV{PGBENCH_EXT_VALGRIND} = '/nonexistent/valgrind';
	my ($rc, $out, $err) = run_client(@ab, @view, '-o', "$base/bad");
	is($rc, 2, 'no valgrind: exit status 2 before the timed runs');
	like($err, qr/profile = counted needs valgrind: PGBENCH_EXT_VALGRIND names "\/nonexistent\/valgrind"/, 'what is missing is named');
	unlike($out, qr/^setting up variant/m, 'no server was set up');
}
{
	my ($rc, $out, $err) = run_client('ab', '-T', '1', '-r', '2', '--counted-view',
		'--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--conninfo', 'dbname=postgres', '-o', "$base/bad");
	is($rc, 2, 'a conninfo variant: exit status 2');
	like($err, qr/variant "B": counted_view counts servers this tool starts under valgrind, not a conninfo server/, 'said');
}

# --- timed, then counted, interrupted during the counted runs --------------
my ($out, $err) = ('', '');
my $h = IPC::Run::start([ client(), @ab, @view, '-o', $dir ], '<', \undef, '>', \$out, '2>', \$err);
ok(wait_until(600, sub { lines_in("$dir/counted/runs.csv") >= 2 || undef }, $h),
	'the counted runs begin after the timed ones') or diag "$out\n$err";
$h->signal('INT');
$h->finish;
is($? >> 8, 130, 'Ctrl-C during the counted runs: exit status 130');
like($err, qr/Continue with: \S+ run --resume \Q$dir\E$/m, 'the hint resumes the timed experiment\'s directory');
like($out, qr/^counted_view = on: after the timed runs, 6 runs under valgrind \(3 rounds of 20 transactions a run, 1 client\) into \Q$dir\E\/counted$/m,
	'the counted runs are announced before the timed ones');
like($out, qr/^counted_view: the same variants counted under valgrind: 1 client, 20 transactions a run, 3 rounds, in \Q$dir\E\/counted$/m,
	'and when they begin');
my @timed = read_runs($dir);
is(scalar(grep { $_->{status} eq 'ok' } @timed), 4, 'the 4 timed runs are recorded');

my ($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
is($rc, 0, '--resume completes') or diag "$rout\n$rerr";
is(scalar(read_runs($dir)), scalar(@timed), 'no timed run again');
my @counted = read_runs("$dir/counted");
is(scalar(grep { $_->{status} eq 'ok' && $_->{clients} == 1 } @counted), 6, 'the counted runs complete: 3 rounds of A and B, 1 client');
my $cexp = read_json("$dir/counted/experiment.json");
my $cspec = $cexp->{spec}{experiment};
is($cspec->{profile}, 'counted', 'counted/ is a counted experiment');
is($cspec->{transactions}, 20, 'of 20 transactions a run');
is_deeply($cspec->{clients}, [1], 'of 1 client');
is($cspec->{restart}, 'never', 'on servers started once');
ok($cspec->{prewarm}, 'every counted run warm (pg_prewarm)');
ok(!read_json("$dir/experiment.json")->{spec}{experiment}{prewarm}, 'the timed runs as the file says (prewarm = auto: off)');
is_deeply([ map { $_->{name} } @{ $cexp->{spec}{variants} } ], [ 'A', 'B' ], 'of the same variants');

# --- the report: the counted view under the tps verdicts --------------------
sub check_report
{
	my ($text, $how) = @_;
	like($text, qr/^ select-only \| 2 +\| .*\| (?:2 rounds|2\+2) +\|/m, "$how: the tps verdict of 2 clients");
	like($text, qr/^counted view \(counted\/: the same variants under valgrind, 1 client, 20 transactions a run, 3 rounds\): instructions per transaction$/m,
		"$how: the counted view, what it is");
	my ($a, $b) = $text =~ /^ select-only \| 1 +\| B +\| instructions\/tx \| (\d+) +\| (\d+) +\|/m;
	ok(defined $b && $b > $a * 1.01, "$how: B counts over 1% more instructions per transaction than A: "
		  . ($a // '-') . ' against ' . ($b // '-'));
}
check_report($rout, 'at the end of the resumed run');
($rc, my $report, $rerr) = run_client('report', $dir);
is($rc, 0, 'report of the directory alone') or diag $rerr;
check_report($report, 'report DIR');
like(slurp_file("$dir/report.md"), qr/^## Counted view\n\nAfter the timed runs, counted\/: /m, 'report.md has it');
my $summary = read_json("$dir/summary.json");
is($summary->{counted_view}{rounds}, 3, 'summary.json has it');
ok($summary->{counted_view}{profiles}{cells}[0]{metrics}, 'with its metrics');
ok(-s "$dir/counted/report.html", 'counted/ has its own report');

# a link planted where counted/ was is not followed
rename("$dir/counted", "$base/elsewhere") or die $!;
symlink("$base/elsewhere", "$dir/counted") or die $!;
($rc, $report, $rerr) = run_client('report', $dir);
is($rc, 0, 'a planted link: the report still stands') or diag $rerr;
like($report, qr/^counted view: counted\/ is not a directory \(a link or a file\?\): not read$/m, 'and says the link is not read');
unlike($report, qr/^counted view \(/m, 'nothing of it is shown');

done_testing();
