# "pgbench_ext bisect" without builds: every refusal before the first build,
# each with exit status 2 and a message naming the problem (the file's
# variants, the measure, the cell, the series, its ends, a patch that does
# not apply at its state, a commit range, a directory that holds a bisect,
# run's own checks of the first step); and the state file replayed by
# --resume: a bisect whose steps are all answered is not run again, its
# report (terminal and bisect.md) names the first differing state, the last
# same one and every step; a search stopped undecided says which states
# remain and how to go on.  The experiment key a middle step's looks test
# against (reference) is refused with bad values, without rounds = auto,
# and in a bisect's own file.  bisect.json is untrusted data: a repository's
# smudge filter never runs (git reads objects from a scratch repository),
# exports are unpacked by the build account, and a bisect.json altered one
# field at a time (a commit that is an option or a path, a repository others
# may write, a patch or a step directory outside DIR, a step's
# experiment.json naming another source, a source tree others may write) is
# refused, or the field ignored, before git, tar or a build runs; a patch
# series is kept in DIR/patches.  Assumes only git and tar (any machine);
# the builds the steps start fail at once (the trees' configure exits 1).
# The search itself is proven in
# test/unit/test_bisect.c; builds and measurements in test/t/090_bisect.pl.
use strict;
use warnings;

use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $base = shared_tempdir();
my $n = 0;

# A tree that looks like a PostgreSQL source tree to the checks (an
# executable configure), and a series of patches of it: 1 and 2 apply in
# order, 3 applies only without 2, 4 touches a file the tree lacks.
my $src = "$base/src";
mkdir $src;
mkdir "$src/src";
write_file("$src/configure", "#!/bin/sh\nexit 1\n");
chmod 0755, "$src/configure";
write_file("$src/src/a.c", "one\ntwo\nthree\n");
write_file("$src/src/b.c", "alpha\nbeta\n");
my $p1 = write_file("$base/1-b.patch", "--- a/src/b.c\n+++ b/src/b.c\n@@ -1,2 +1,2 @@\n alpha\n-beta\n+gamma\n");
my $p2 = write_file("$base/2-a.patch", "--- a/src/a.c\n+++ b/src/a.c\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n");
my $p3 = write_file("$base/3-a-again.patch", "--- a/src/a.c\n+++ b/src/a.c\n@@ -1,3 +1,3 @@\n one\n-two\n+deux\n three\n");

my $head = "[experiment]\nscale = 1\nclients = 1\ntransactions = 60\nrounds = 4\nscript = select-only\nprofile = counted\n";
my $variant = "[variant pg]\nsource = $src\npatch = $p1\npatch = $p2\n";
sub experiment_file
{
	my ($text) = @_;
	return write_file("$base/exp" . ++$n . ".ini", $text);
}
my $good_file = experiment_file($head . $variant);

# [ name, arguments, stderr pattern ]
my @cases = (
	[ 'no file', [], qr/no experiment file given/ ],
	[ 'two files', [ $good_file, $good_file ], qr/too many command-line arguments/ ],
	[ 'no such file', [ "$base/none.ini" ], qr/could not open experiment file/ ],
	[ 'two variants', [ experiment_file($head . $variant . "[variant other]\nsource = $src\n") ],
		qr/has 2 variants: a bisect's experiment file describes one/ ],
	[ 'not from source', [ experiment_file($head . "[variant pg]\nbindir = /usr/bin\n") ],
		qr/variant "pg" is not built from source: set source = DIR/ ],
	[ 'tps with fixed rounds', [ experiment_file($head =~ s/profile = counted\n//r . $variant) ],
		qr/a step answers same, differs or undecided by profile = counted .* or by tps with rounds = auto/ ],
	[ 'tps on servers started once', [ experiment_file($head =~ s/profile = counted\n/restart = never\n/r
			=~ s/transactions = 60\nrounds = 4/duration = 1\nrounds = auto\nbudget = 1m/r . $variant) ],
		qr/by tps a step compares two builds, each on a server of its own: with restart = never/ ],
	[ 'two client counts', [ experiment_file($head =~ s/clients = 1/clients = 1,2/r . $variant) ],
		qr/one cell: one script and one client count \(found 1 and 2\)/ ],
	[ 'fewer than 2 states', [ experiment_file($head . "[variant pg]\nsource = $src\n") ],
		qr/has fewer than 2 states/ ],
	[ 'good end after the bad end', [ $good_file, '--good', '2', '--bad', '1' ],
		qr/the good end \(state 2\) must come before the bad end \(state 1\), both among states 0 to 2/ ],
	[ 'bad end beyond the series', [ $good_file, '--bad', '5' ], qr/among states 0 to 2/ ],
	[ 'a patch that does not apply at its state',
		[ experiment_file($head . $variant . "patch = $p3\n") ],
		qr/patch 3 of the series \(".*3-a-again.patch"\) does not apply to state 2 \(the source with the 2 patches before it\)/ ],
	[ 'commits with patch keys', [ $good_file, '--commits', 'a..b' ],
		qr/with --commits the states are commits: variant "pg" must have no patch keys/ ],
	[ 'commits and --good', [ $good_file, '--commits', 'a..b', '--good', '1' ],
		qr/--good and --bad number the states of a patch series/ ],
	[ 'resume with a file', [ '--resume', $base, $good_file ], qr/--resume takes only the bisect's directory/ ],
	[ 'resume of no bisect', [ '--resume', "$base/src" ], qr/bisect.json/ ],
	[ 'retries out of range', [ $good_file, '--retries', '9' ], qr/--retries must be in range 0\.\.4/ ],
	[ 'a file that sets reference', [ experiment_file($head =~ s/profile = counted\n/reference = 0.9\n/r
			=~ s/transactions = 60\nrounds = 4/duration = 1\nrounds = auto\nbudget = 1m/r . $variant) ],
		qr/sets reference: a bisect sets it itself, the halfway point between the ends for each middle step; drop it/ ],
	[ 'valgrind missing: run\'s own checks of the first step', [ $good_file, '-o', "$base/novalgrind" ],
		qr/profile = counted needs valgrind/, { PGBENCH_EXT_VALGRIND => '/nonexistent/valgrind' } ],
);

foreach my $case (@cases)
{
	my ($name, $args, $pattern, $env) = @$case;
	local %ENV = (%ENV, %{ $env || {} });
	my ($rc, $out, $err) = run_client('bisect', @$args);
	is($rc, 2, "$name: exit status 2");
	like($err, $pattern, "$name: the message");
	unlike($out . $err, qr/building in/, "$name: nothing built");
}

# the experiment key "reference" (a middle step's, set by bisect): bad values
# and its use without rounds = auto are usage errors, for check and for ab
my $auto = "[experiment]\nduration = 1\nrounds = auto\nbudget = 5m\n";
my $two = "[variant a]\nbindir = /x\n[variant b]\nbindir = /x\n";
foreach my $value ('abc', '0', '-0.9', '101', 'inf', 'nan', '0.9x', '')
{
	my ($rc, $out, $err) = run_client('run', experiment_file($auto . "reference = $value\n" . $two), '--check');
	is($rc, 2, "reference = \"$value\": exit status 2");
	like($err, qr/reference must be a ratio B\/A from 0\.01 to 100 \(0\.94: B 6% below A\), got "\Q$value\E"/,
		"reference = \"$value\": the message");
}
{
	my ($rc, $out, $err) = run_client('run', experiment_file("[experiment]\nrounds = 6\nreference = 0.9\n" . $two), '--check');
	is($rc, 2, 'reference with fixed rounds: exit status 2');
	like($err, qr/reference applies only to rounds = auto \(the looks test against it\); with rounds = 6 give rounds = auto/,
		'reference with fixed rounds: the message');
	($rc, $out, $err) = run_client('ab', '--reference', '0', '--variant', 'a', '--bindir', '/x',
		'--variant', 'b', '--bindir', '/x', '-o', "$base/ab-reference");
	is($rc, 2, 'ab --reference 0: exit status 2');
	like($err, qr/reference must be a ratio B\/A/, 'ab --reference 0: the message');
	ok(!-e "$base/ab-reference", 'ab --reference 0: no results directory');
}

# a patch that does not apply: the hint, and the bad end before it is accepted
# as far as the series goes (it stops at run's checks: no source tree to build)
my ($rc, $out, $err) = run_client('bisect', experiment_file($head . $variant . "patch = $p3\n"));
like($err, qr/hint: Nothing was built\.  Fix the series, or end the bisect before that patch with --bad/,
	'a patch that does not apply: how to go on');

# a commit range of a git repository with one commit after GOOD, and one of none
my $git = "$base/git";
mkdir $git;
my @git = ('git', '-C', $git, '-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false');
IPC::Run::run([ 'git', 'init', '-q', $git ]) or die 'git init';
write_file("$git/configure", "#!/bin/sh\nexit 1\n");
chmod 0755, "$git/configure";
IPC::Run::run([ @git, 'add', 'configure' ]) && IPC::Run::run([ @git, 'commit', '-q', '-m', 'first' ]) or die 'commit';
my $range_file = experiment_file($head . "[variant pg]\nsource = $git\n");
($rc, $out, $err) = run_client('bisect', $range_file, '--commits', 'HEAD..HEAD');
is($rc, 2, 'an empty commit range: exit status 2');
like($err, qr/HEAD\.\.HEAD has fewer than 2 states: the range holds no commit after GOOD/, 'an empty commit range: the message');
($rc, $out, $err) = run_client('bisect', $range_file, '--commits', 'nosuch..HEAD');
is($rc, 2, 'a commit that is not there: exit status 2');
like($err, qr/git in ".*" failed/, 'a commit that is not there: the message');
($rc, $out, $err) = run_client('bisect', $range_file, '--commits', 'HEAD');
like($err, qr/--commits takes GOOD\.\.BAD/, 'a range without two dots: the message');

# a commit range of three commits is read with its subjects, and the states
# measured are exported from git before their build (which fails here: the
# tree's configure is no PostgreSQL's); the failed step says how to go on.
# The repository defines a smudge filter its .gitattributes applies: git
# runs in a scratch repository of the client's, so the filter never runs.
IPC::Run::run([ @git, 'config', 'filter.pw.smudge', "sh -c 'touch $base/SMUDGED; cat'" ]) or die 'config';
write_file("$git/.gitattributes", "* filter=pw\n");
write_file("$git/configure", "#!/bin/sh\necho second\nexit 1\n");
IPC::Run::run([ @git, 'add', '.gitattributes' ]) or die 'add';
IPC::Run::run([ @git, 'commit', '-q', '-a', '-m', 'second' ]) or die 'commit';
write_file("$git/configure", "#!/bin/sh\necho third\nexit 1\n");
IPC::Run::run([ @git, 'commit', '-q', '-a', '-m', 'third' ]) or die 'commit';
{
	local $ENV{PGBENCH_EXT_BUILD_CACHE} = "$base/cache";
	my $tps = experiment_file("[experiment]\nscale = 1\nclients = 1\nduration = 1\nrounds = auto\nbudget = 1m\n"
		  . "script = select-only\n[variant pg]\nsource = $git\n");
	($rc, $out, $err) = run_client('bisect', $tps, '--commits', 'HEAD~2..HEAD', '-o', "$base/range");
}
isnt($rc, 0, 'a commit range whose build fails: a non-zero exit status');
like($out, qr/^bisect of 3 states, 0 \(\w{12} \(HEAD~2\)\) to 2 \(\w+ third\), by tps/m, 'the range: GOOD and the commits after it');
my $range = read_json("$base/range/bisect.json");
is_deeply([ map { $_->{label} =~ s/^\w+ //r } @{ $range->{states} }[ 1, 2 ] ], [ 'second', 'third' ], 'the states in order, with their subjects');
my ($head_src) = glob("$base/range/sources/$range->{states}[2]{commit}");
ok($head_src && slurp_file("$head_src/configure") =~ /echo third/, 'the bad end exported from its commit');
ok(slurp_file("$base/range/sources/$range->{states}[0]{commit}/configure") =~ /^#!\/bin\/sh\nexit 1\n$/,
	'the good end exported from its commit');
like($err, qr/bisect step \S+\/step-1 \(state 2\) did not finish.*\n.*hint: Continue the bisect with: \S*pgbench_ext bisect --resume \S+\/range/,
	'the failed step: how to go on');
ok(!-e "$base/SMUDGED", "the repository's smudge filter did not run");
if ($> == 0)
{
	my $account = $ENV{PGBENCH_EXT_OS_USER} || 'postgres';
	is(scalar getpwuid((lstat "$base/range/sources/$range->{states}[2]{commit}/configure")[4]), $account,
		'as root, the export is unpacked by the build account');
}

# --- bisect.json is data: what it names is checked before git, tar or a build runs
# (the range's bisect.json, altered one field at a time, resumed)
my $victim = write_file("$base/victim", "keep me\n");
my $victim_dir = "$base/victim-dir";
mkdir $victim_dir;
write_file("$victim_dir/file", "keep me too\n");
sub resume_altered
{
	my ($name, $alter) = @_;
	my $dir = "$base/altered-" . ++$n;
	my %copy = %{ JSON::PP->new->decode(JSON::PP->new->encode($range)) };
	mkdir $dir;
	chmod 0711, $dir;
	$alter->(\%copy, $dir);
	write_file("$dir/bisect.json", JSON::PP->new->encode(\%copy));
	local $ENV{PGBENCH_EXT_BUILD_CACHE} = "$base/cache";
	return (run_client('bisect', '--resume', $dir), $dir);
}
my $altered;
($rc, $out, $err, $altered) = resume_altered('an option as a commit', sub { $_[0]{states}[2]{commit} = "--output=$victim" });
is($rc, 2, 'a commit that is an option: exit status 2');
like($err, qr/state 2's commit is not a full object name \(40 or 64 hex digits\)/, 'a commit that is an option: the message');
($rc, $out, $err, $altered) = resume_altered('a path as a commit', sub { $_[0]{states}[0]{commit} = "../../victim-dir" });
like($err, qr/state 0's commit is not a full object name/, 'a commit that is a path: refused');
is(slurp_file($victim), "keep me\n", 'the file an option named is untouched');
is(slurp_file("$victim_dir/file"), "keep me too\n", 'the directory a path named is untouched');
($rc, $out, $err, $altered) = resume_altered('a repository of someone else', sub {
	my $other = "$base/other-git";
	IPC::Run::run([ 'cp', '-a', "$git/.git", $other ]) or die 'cp';
	chmod 0777, $other;
	$_[0]{git} = $other;
});
is($rc, 2, 'a repository others may write: exit status 2');
like($err, qr/the repository "\S+other-git" is writable by others: refusing to read commits from it/,
	'a repository others may write: the message');
($rc, $out, $err, $altered) = resume_altered('a relative repository', sub { $_[0]{git} = 'git/.git' });
like($err, qr/the repository "git\/\.git" is not an absolute path/, 'a relative repository: refused');
($rc, $out, $err, $altered) = resume_altered('a patch outside the directory', sub {
	$_[0]{git} = undef;
	$_[0]{states}[$_]{commit} = undef foreach 0 .. 2;
	$_[0]{patches} = [ '../victim', 'p2' ];
});
like($err, qr/patch 1 is not a file name of \S+\/patches/, 'a patch named outside the directory: refused');
# a step whose "dir" lies outside: the step runs in the bisect's own step-1
# (and fails at the build), nothing is written at the place named
($rc, $out, $err, $altered) = resume_altered('a step outside the directory', sub {
	$_[0]{steps} = [ { state => 2, attempt => 0, dir => $victim_dir } ];
});
like($out, qr/=== bisect step \S+\/altered-\d+\/step-1: state 2/, 'a step named outside: run in DIR/step-1');
is_deeply([ sort map { s/.*\///r } glob("$victim_dir/*") ], [ 'file' ], 'nothing written where the step named');
# an interrupted step whose experiment.json names another source than bisect.json
# gives it is refused; the one bisect.json gives is resumed (and fails at the build)
my $step = "$altered/step-1";
sub resume_step_with_source
{
	my ($source) = @_;
	my @variants = map {
		{ %{ $range->{experiment}{variants}[0] }, name => "state-$_",
			source => "$altered/sources/$range->{states}[$_]{commit}", patch => [] }
	} 0, 2;
	$variants[1]{source} = $source if $source;
	mkdir $step;
	chmod 0700, $step;
	write_file("$step/experiment.json", JSON::PP->new->encode({ format => '1.0', spec => { %{ $range->{experiment} }, variants => \@variants } }));
	local $ENV{PGBENCH_EXT_BUILD_CACHE} = "$base/cache";
	return run_client('bisect', '--resume', $altered);
}
($rc, $out, $err) = resume_step_with_source(undef);
like($out, qr/=== bisect step \S+\/step-1: state 2 .*, resumed/, 'a step whose experiment.json is the one bisect.json gives: resumed');
($rc, $out, $err) = resume_step_with_source($victim_dir);
is($rc, 2, 'a step whose experiment.json was altered: exit status 2');
like($err, qr/step-1\/experiment\.json names other variants than bisect\.json gives state 2: refusing to resume it/,
	'a step whose experiment.json was altered: the message');

# a patch series is kept in the bisect's directory, named there by file name
# only; resumed, its source tree must still be the user's own
{
	local $ENV{PGBENCH_EXT_BUILD_CACHE} = "$base/cache";
	($rc, $out, $err) = run_client('bisect', $good_file, '-o', "$base/series");
}
like($out, qr/=== bisect step \S+\/series\/step-1: state 2/, 'a patch series: its first step runs (and fails at the build)');
is_deeply(read_json("$base/series/bisect.json")->{patches}, [ '01-1-b.patch', '02-2-a.patch' ],
	'bisect.json names the patches by file name');
is(slurp_file("$base/series/patches/02-2-a.patch"), slurp_file($p2), 'the patch kept in DIR/patches');
chmod 0777, $src;
{
	local $ENV{PGBENCH_EXT_BUILD_CACHE} = "$base/cache";
	($rc, $out, $err) = run_client('bisect', '--resume', "$base/series");
}
chmod 0755, $src;
is($rc, 2, 'resumed with a source tree others may write: exit status 2');
like($err, qr/the bisect's source tree "\S+\/src" is not a directory of yours that no one else may write: refusing to build from it/,
	'resumed with a source tree others may write: the message');

# --- the state file, replayed: every step answered, nothing runs
my $json = JSON::PP->new->canonical;
my $dir = "$base/done";
mkdir $dir;
chmod 0700, $dir;
my @points = ({ label => '(no patch)', commit => undef }, map { { label => "$_.patch", commit => undef } } 1 .. 8);
my %spec = (experiment => { scale => 1, clients => [1], transactions => 60, rounds => 4, script => ['select-only'],
		profile => 'counted', seed => '1' },
	variants => [ { name => 'pg', source => $src, patch => [] } ]);
sub step
{
	my ($k, $state, $answer, $verdict, $est, $attempt) = @_;
	return { state => $state, attempt => $attempt // 0, dir => "$dir/step-$k", answer => $answer, verdict => $verdict,
		estimate => $est, ci_low => $est - 0.0001, ci_high => $est + 0.0001,
		good_value => 100000, state_value => 100000 * $est, units => 4 };
}
my %state = (format => 1, experiment => \%spec, method => 'counted', git => undef,
	patches => [ map { "$_.patch" } 1 .. 8 ], states => \@points, good => 0, bad => 8, retries => 1,
	steps => [ step(1, 8, 'differs', 'more', 1.02), step(2, 4, 'same', 'same within ±0.05%', 1.0),
		step(3, 6, 'differs', 'more', 1.02), step(4, 5, 'differs', 'more', 1.02) ]);
write_file("$dir/bisect.json", $json->encode(\%state));
($rc, $out, $err) = run_client('bisect', '--resume', $dir);
is($rc, 0, 'a finished bisect resumed: exit status 0') or diag $err;
unlike($out, qr/=== bisect step/, 'no step runs again');
like($out, qr/The first state that differs from the good end \(state 0\) by instructions per transaction: state 5, 5\.patch\./,
	'the first differing state');
like($out, qr/The last state the same: state 4, 4\.patch\./, 'the last same state');
like($out, qr/^ step-4 +\| 5 +\| 5\.patch +\| 100000\.0 \| 102000\.0 \| \+2\.000% \[\+1\.990%, \+2\.010%\] \| 4 +\| differs +\| more/m,
	'each step in the table: figures, CI, units, answer, verdict');
my $md = slurp_file("$dir/bisect.md");
like($md, qr/^\| \[step-2\]\(step-2\/report\.md\) \| 4 \| 4\.patch \| 100000\.0 \| 100000\.0 \| \+0\.000% .* \| same \| same within/m,
	'bisect.md: a row per step, linked to its report');
like($md, qr/## Answer\n\nThe first state that differs .* state 5, 5\.patch/, 'bisect.md: the answer');

# a search stopped undecided at the last attempt: which states remain, how to go on
$dir = "$base/undecided";
mkdir $dir;
chmod 0700, $dir;
$state{steps} = [ step(1, 8, 'differs', 'more', 1.02), step(2, 4, 'undecided', '~ no change (MDE 0.50%)', 1.0),
	step(3, 4, 'undecided', '~ no change (MDE 0.30%)', 1.0, 1) ];
$_->{dir} =~ s/done/undecided/ foreach @{ $state{steps} };
write_file("$dir/bisect.json", $json->encode(\%state));
($rc, $out, $err) = run_client('bisect', '--resume', $dir);
is($rc, 1, 'a bisect stopped undecided: exit status 1');
like($out, qr/No answer yet: state 4 stayed undecided after 2 attempts\.  States 1 to 8 remain: 0 is the last known the same, 8 the first known to differ\./,
	'the states that remain');
like($out, qr/To go on, run a bisect of those states with more rounds \(rounds = N\) in the experiment file:\n  \S*pgbench_ext bisect FILE --good 0 --bad 8/,
	'how to go on');

# and a directory that holds a bisect is not begun again
($rc, $out, $err) = run_client('bisect', $good_file, '-o', $dir);
is($rc, 2, 'a directory holding a bisect: exit status 2');
like($err, qr/already holds a bisect\n.*hint: Continue it with ".*bisect --resume /, 'a directory holding a bisect: the message');

# --help
($rc, $out, $err) = run_client('bisect', '--help');
is($rc, 0, '--help');
like($out, qr/--commits=GOOD\.\.BAD/, '--help names --commits');

done_testing();
