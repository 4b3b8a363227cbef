# "pgbench_ext run" and "ab" refuse bad experiments before the first run:
# each problem gets its own message and exit status 2, and no server is
# left running.  Each way into the checks is tried once (a file's syntax,
# a key of the file, the file as a whole, ab's flags); every message of
# the parser and of the checks across keys is tested without the client
# in test/unit/test_experiment.c, the budget's in test_budget.c.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $n = 0;

# An experiment file from a body; [variant] sections default to two valid ones.
sub experiment_file
{
	my ($body) = @_;
	my $path = "$base/exp" . ++$n . ".ini";
	open my $fh, '>', $path or die;
	print $fh $body;
	close $fh;
	return $path;
}

my $good_variants = "[variant A]\nbindir = $bindir\n[variant B]\nbindir = $bindir\nset = synchronous_commit=off\n";
my $good_experiment = "[experiment]\nscale = 1\nduration = 1\nrounds = 2\n";

# a results directory that already holds an experiment
my $used = "$base/used";
mkdir $used;
open my $fh, '>', "$used/runs.csv" or die;
close $fh;

# [ name, arguments, stderr pattern ]
my @cases = (
	[ 'no experiment file', ['run'], qr/error: no experiment file given/ ],
	[ 'missing file', [ 'run', "$base/nope.ini" ], qr/could not open experiment file ".*nope\.ini"/ ],
	[ 'syntax error', [ 'run', experiment_file("[experiment\nscale = 1\n") ], qr/exp\d+\.ini:1: syntax error/ ],
	[ 'unknown key', [ 'run', experiment_file("[experiment]\nbogus = 1\n$good_variants") ],
		qr/:2: unknown key "bogus" in \[experiment\]; known keys: scale, clients/ ],
	[ 'one variant', [ 'run', experiment_file("$good_experiment\[variant A]\nbindir = $bindir\n") ],
		qr/an experiment needs at least two variants, found 1/ ],
	[ 'bindir missing', [ 'run', experiment_file("$good_experiment\[variant A]\nbindir = /nonexistent\n[variant B]\nbindir = $bindir\n") ],
		qr/variant "A": bindir "\/nonexistent" is not a directory/ ],
	[ 'bindir without postgres', [ 'run', experiment_file("$good_experiment\[variant A]\nbindir = /usr/bin\n[variant B]\nbindir = $bindir\n") ],
		qr/variant "A": bindir "\/usr\/bin" has no executable (postgres|initdb|pg_ctl|pgbench)/ ],
	[ 'symbols without source', [ 'ab', '--variant', 'A', '--bindir', $bindir, '--symbols', 'on', '--variant', 'B', '--bindir', $bindir ],
		qr/variant "A": patch, cflags, configure, pgo, lto, symbols and build_seeds apply only to variants built from a source tree/ ],
	[ 'source not a tree', [ 'run', experiment_file("$good_experiment$good_variants\[variant C]\nsource = /nonexistent\n") ],
		qr/variant "C": source "\/nonexistent" is not a PostgreSQL source tree \(no executable configure\)/ ],
	[ 'ab: cluster of a variant with build seeds', [ 'ab', '--variant', 'A', '--source', '/x', '--build-seeds', '2', '--variant', 'B', '--cluster', 'A' ],
		qr/variant "B" has cluster = A, but "A" has build_seeds = 2 and runs as that many servers/ ],
	[ 'unknown script', [ 'run', experiment_file("[experiment]\nscript = tpcc\n$good_variants") ],
		qr/script "tpcc" is neither a builtin \(tpcb-like, simple-update, select-only\) nor a readable file/ ],
	# run numbers are bounded for whoever reads the results (report takes memory by them)
	# (servers that are not there: before this check, a run failed at once connecting to them)
	[ 'a plan of too many runs', [ 'run', experiment_file("[experiment]\nrounds = 100000\nclients = 1,2,3,4,5,6,7,8\n"
			  . "[variant A]\nconninfo = host=/nonexistent port=1\n[variant B]\nconninfo = host=/nonexistent port=1\n"), '-o', "$base/too-many" ],
		qr/the experiment would make \d+ runs, more than the 500000 an experiment may have.*hint: Fewer rounds, variants, scripts or client counts/s ],
	[ 'results directory in use', [ 'run', experiment_file("$good_experiment$good_variants"), '-o', $used ],
		qr/results directory ".*used" already holds an experiment.*hint: Continue it with ".* run --resume/s ],
	[ 'resume of a non-experiment', [ 'run', '--resume', "$base/nothing" ],
		qr/".*nothing" is not a results directory of pgbench_ext/ ],
	[ 'ab: variant option first', [ 'ab', '--set', 'fsync=off' ],
		qr/--set must follow a --variant NAME/ ],
	[ 'ab: bad variant name', [ 'ab', '--variant', 'a b' ],
		qr/variant name "a b" may contain only letters, digits/ ],
	[ 'ab: unknown option', [ 'ab', '--frobnicate' ], qr/unrecognized option.*Try "pgbench_ext ab --help"/s ],
	[ 'ab: --build-only of installations', [ 'ab', '--build-only', '--variant', 'A', '--bindir', $bindir ],
		qr/--build-only: no variant names a source tree, so there is nothing to build.*hint: Give a variant --source DIR/s ],
	[ 'ab: --build-only of no tree', [ 'ab', '--build-only', '--variant', 'A', '--source', '/nonexistent' ],
		qr/variant "A": source "\/nonexistent" is not a PostgreSQL source tree.*hint: Nothing was built/s ],
	[ 'run: --resume with --build-only', [ 'run', '--resume', "$base/nothing", '--build-only' ],
		qr/--resume takes only the results directory/ ],
);

foreach my $case (@cases)
{
	my ($name, $args, $pattern) = @$case;
	my ($rc, $out, $err) = run_client(@$args);
	is($rc, 2, "$name: exit status 2") or diag $err;
	like($err, $pattern, "$name: specific message");
}

# A budget too small for one block: refused before any server starts
my ($rc, $out, $err) = run_client('ab', '-T', '10', '--rounds', 'auto', '--budget', '10s',
	'--restart', '1', '--schedule', 'duet', '--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--bindir', $bindir, '-o', "$base/small-duet");
is($rc, 2, 'a budget below one block: exit status 2');
like($err, qr/a budget of 10 s is less than one block of rounds \(a block of 1 round of 2 runs in pairs at once, about \d+ s/,
	'the block named, with its runs');
ok(!-e "$base/small-duet/runs.csv", 'and nothing was run');

# A setting the server rejects: the trial start fails with the server's own
# words, before any run, and leaves nothing running.
my $dir = "$base/badsetting";
($rc, $out, $err) = run_client('run', experiment_file("$good_experiment\[variant A]\nbindir = $bindir\n[variant B]\nbindir = $bindir\nset = shared_buffers=banana\n"),
	'-o', $dir);
is($rc, 2, 'bad setting: exit status 2');
like($err, qr/the server of variant "B" did not start; its log .* ends with:.*invalid value for parameter "shared_buffers": "banana"/s,
	'bad setting: the server\'s complaint is quoted');
my @pids = map { my $f = "$dir/clusters/$_/data/postmaster.pid"; -f $f ? (split /\n/, slurp_file($f))[0] : () } qw(A B);
ok(!grep({ kill 0, $_ } @pids), 'bad setting: no server left running');
# the socket directory made for the server that never started goes too
my ($sockdir) = slurp_file("$dir/clusters/B/postgresql.pgbench_ext.conf") =~ /^unix_socket_directories = '([^']+)'$/m;
ok(defined $sockdir && !-e $sockdir, 'bad setting: its socket directory is removed (' . ($sockdir // 'none') . ')');

# A session setting the server rejects: the variant's first connection
# fails with the server's words, and the cluster it shares is stopped.
$dir = "$base/badsession";
($rc, $out, $err) = run_client('run', experiment_file("$good_experiment\[variant A]\nbindir = $bindir\n[variant B]\ncluster = A\nsession_set = work_mem=banana\n"),
	'-o', $dir);
is($rc, 2, 'bad session setting: exit status 2');
like($err, qr/could not connect to variant "B": .*invalid value for parameter "work_mem": "banana"/s,
	'bad session setting: the server\'s complaint is quoted');
ok(!-d "$dir/clusters/B", 'bad session setting: no cluster of its own');
my ($pid) = -f "$dir/clusters/A/data/postmaster.pid" ? split(/\n/, slurp_file("$dir/clusters/A/data/postmaster.pid")) : ();
ok(!($pid && kill 0, $pid), 'bad session setting: the shared server is stopped');

done_testing();
