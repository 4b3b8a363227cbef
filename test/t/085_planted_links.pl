# Results directories are data, and what the client writes into them goes
# through its one write path (client/os/safe_file.c).  The attacks of issue
# #28, each refused with exit status 2 and a message naming the file, its
# target untouched, none needing a server: links planted at
# profiles/*.folded, at profiles/ itself and at plots/flame-1.svg for
# report; at runs/0001.out for run -o and at runs/0003.out for --resume; at
# calibration.md for calibrate --reanalyse; a -o directory of another user
# (nobody) with a clusters link to a directory of root's, and one of ours
# with the same link; a FIFO as runs.csv (refused at once, report does not
# hang) and as a run's .err (skipped with a warning); a script name with a
# terminal escape sequence, echoed with its control characters escaped.
use strict;
use warnings;

use File::Path qw(make_path);
use IPC::Run;
use JSON::PP;
use POSIX qw(mkfifo);
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

plan skip_all => 'the attacks are root\'s to suffer (CI runs as root)' unless $> == 0;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $nobody = getpwnam('nobody') // die 'no account nobody';

# what a planted link points at: a file and a directory only root may write
my $secret = "$base/secret";
mkdir $secret, 0700 or die $!;
my $target = "$secret/precious";
open my $fh, '>', $target or die $!;
print $fh "precious\n";
close $fh;
sub untouched
{
	my ($what) = @_;
	is(slurp_file($target), "precious\n", "$what: the target is untouched");
	is((stat $secret)[2] & 07777, 0700, "$what: the directory of root's keeps its mode");
	is_deeply([ sort map { s{.*/}{}r } glob("$secret/*") ], ['precious'], "$what: nothing new in it");
}

# run_client with a time limit: a FIFO must not hang the client
sub run_bounded
{
	my @args = @_;
	my ($out, $err) = ('', '');
	my $ok = eval {
		IPC::Run::run([ client(), @args ], '<', \undef, '>', \$out, '2>', \$err,
			IPC::Run::timeout(60));
		1;
	};
	return ($ok ? $? >> 8 : -1, $out, $err);
}

# A report fixture with a sampled profile: runs/NNNN.profile.json for every run.
sub profile_fixture
{
	my ($dir) = @_;
	my $runs = ReportFixture::write_dir(
		$dir,
		clients => [1],
		rounds => 4,
		variants => [ { name => 'A' }, { name => 'B' } ],
		tps => sub { my ($v, $c, $r) = @_; return ($v eq 'B' ? 1050 : 1000) * (1 + 0.01 * ($r % 3)); });
	my $doc = decode_json(slurp_file("$dir/experiment.json"));
	$doc->{spec}{experiment}{profile} = 'sampled';
	$doc->{spec}{experiment}{sample_event} = 'cpu-clock';
	$doc->{spec}{experiment}{sample_rate} = 99;
	open my $f, '>', "$dir/experiment.json" or die $!;
	print $f encode_json($doc);
	close $f;
	for my $id (1 .. $runs)
	{
		open $f, '>', sprintf("%s/runs/%04d.profile.json", $dir, $id) or die $!;
		print $f encode_json({
			events => ['cpu-clock'], totals => [ 1000 + $id ], floor => [1], samples => 100,
			functions => { PostgresMain => { self => [ 600 + $id ], incl => [1000], object => 'postgres' } },
			stacks => { 'PostgresMain;exec_simple_query' => 600 + $id } });
		close $f;
	}
	return $dir;
}

# --- report: profiles/*.folded, profiles/, plots/flame-1.svg --------------
my $dir = profile_fixture("$base/profile");
my ($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 0, 'the profile fixture reports') or diag $err;
my @folded = map { s{.*/}{}r } glob("$dir/profiles/*.folded");
ok(@folded == 2, 'it writes the folded stacks of both sides') or diag "@folded";
ok(-s "$dir/plots/flame-1.svg", 'and a flame graph');

my $folded = "$dir/profiles/$folded[0]";
unlink $folded;
symlink $target, $folded or die $!;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 2, 'a link at profiles/*.folded: exit status 2');
like($err, qr/"\Q$folded\E" is a symbolic link: refusing to write through it/, '... the error names it');
untouched('a link at profiles/*.folded');
unlink $folded;

rename "$dir/profiles", "$base/profiles.real" or die $!;
symlink $secret, "$dir/profiles" or die $!;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 2, 'profiles/ a link to a directory of root\'s: exit status 2');
like($err, qr/"\Q$dir\E\/profiles" is a symbolic link: refusing to write through it/, '... the error names it');
untouched('profiles/ a link');
unlink "$dir/profiles";

my $flame = "$dir/plots/flame-1.svg";
unlink $flame;
symlink $target, $flame or die $!;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 2, 'a link at plots/flame-1.svg: exit status 2');
like($err, qr/"\Q$flame\E" is a symbolic link: refusing to write through it/, '... the error names it');
untouched('a link at plots/flame-1.svg');
unlink $flame;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 0, 'without the links, report writes again') or diag $err;
ok(-f $flame && !-l $flame, '... a flame graph of its own');

# a results directory of another user's is read, never written into
chown $nobody, -1, $dir or die $!;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 2, 'report of a directory of nobody\'s: exit status 2');
like($err, qr/directory "\Q$dir\E" belongs to user "nobody", not to you \(user "root"\): refusing to write into it.*hint: .*a copy, for a report/s,
	'... the error names it, and the hint says to report a copy');
chown 0, -1, $dir or die $!;

# --- FIFOs: refused by name, never waited on ---------------------------------
$dir = profile_fixture("$base/fifo");
unlink "$dir/runs/0001.err";
mkfifo("$dir/runs/0001.err", 0644) or die $!;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 0, 'a FIFO as a run\'s .err: report finishes');
like($err, qr/warning: "\Q$dir\E\/runs\/0001\.err" is not a regular file \(a FIFO\): refusing to read it/,
	'... with a warning naming it');
unlink "$dir/runs.csv";
mkfifo("$dir/runs.csv", 0644) or die $!;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 2, 'a FIFO as runs.csv: exit status 2, without hanging');
like($err, qr/"\Q$dir\E\/runs\.csv" is not a regular file \(a FIFO\): refusing to read it/, '... the error names it');

# --- escape sequences: shown with their control characters escaped -----------
$dir = "$base/escape";
ReportFixture::write_dir($dir, clients => [1], rounds => 2, variants => [ { name => 'A' }, { name => 'B' } ],
	tps => sub { 1000 });
my $doc = decode_json(slurp_file("$dir/experiment.json"));
$doc->{spec}{experiment}{script} = ["x\e]0;owned\a\e[2Jy.sql"];
open $fh, '>', "$dir/experiment.json" or die $!;
print $fh encode_json($doc);
close $fh;
($rc, $out, $err) = run_bounded('report', $dir);
is($rc, 2, 'a script name with escape sequences: exit status 2');
like($err, qr/script "x\\x1b\]0;owned\\x07\\x1b\[2Jy\.sql" has a control character/, '... named with each control character escaped');
unlike($err, qr/[\e\a]/, '... and no escape or bell reaches the terminal');
($rc, $out, $err) = run_bounded('run', '--resume', $dir);
is($rc, 2, '--resume of it: exit status 2');
like($err, qr/the experiment recorded in "\Q$dir\E" is refused: .*script "x\\x1b\]0;owned\\x07\\x1b\[2Jy\.sql"/,
	'... named with each control character escaped');
unlike($err, qr/[\e\a]/, '... and no escape or bell reaches the terminal');

# --- run -o: a directory of another user, a clusters link, runs/0001.out ------
my @ab = ('ab', '-s', '1', '-T', '1', '-r', '1', '--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--bindir', $bindir);
my $foreign = "$base/foreign";
mkdir $foreign, 0755 or die $!;
chown $nobody, -1, $foreign or die $!;
symlink $secret, "$foreign/clusters" or die $!;
($rc, $out, $err) = run_bounded(@ab, '-o', $foreign);
is($rc, 2, 'run -o a directory of nobody\'s: exit status 2');
like($err, qr/directory "\Q$foreign\E" belongs to user "nobody", not to you \(user "root"\): refusing to write into it/,
	'... refused with the reason');
unlike($out, qr/setting up/, '... before anything runs');
untouched('run -o a directory of nobody\'s');

my $own = "$base/own";
mkdir $own, 0755 or die $!;
symlink $secret, "$own/clusters" or die $!;
($rc, $out, $err) = run_bounded(@ab, '-o', $own);
is($rc, 2, 'run -o a directory of ours holding a clusters link: exit status 2');
like($err, qr/"\Q$own\E\/clusters" is a symbolic link: refusing to write through it/, '... the error names it');
untouched('a clusters link');
unlink "$own/clusters";

make_path("$own/runs");
symlink $target, "$own/runs/0001.out" or die $!;
($rc, $out, $err) = run_bounded(@ab, '-o', $own);
is($rc, 2, 'run -o with runs/0001.out a link: exit status 2');
like($err, qr/"\Q$own\E\/runs\/0001\.out" is a symbolic link: refusing to write through it/, '... the error names it');
unlike($out, qr/setting up/, '... before anything runs');
untouched('a link at runs/0001.out');

# --- --resume: runs/0003.out -------------------------------------------------
$dir = "$base/resume";
ReportFixture::write_dir($dir, clients => [1], rounds => 2, variants => [ { name => 'A' }, { name => 'B' } ],
	script => 'select-only', tps => sub { 1000 });
unlink "$dir/runs/0003.out";
symlink $target, "$dir/runs/0003.out" or die $!;
($rc, $out, $err) = run_bounded('run', '--resume', $dir);
is($rc, 2, '--resume with runs/0003.out a link: exit status 2');
like($err, qr/"\Q$dir\E\/runs\/0003\.out" is a symbolic link: refusing to write through it/, '... the error names it');
unlike($out, qr/resuming|setting up/, '... before anything runs');
untouched('a link at runs/0003.out');

# --- calibrate --reanalyse: calibration.md -----------------------------------
my $cal = "$base/calibration";
mkdir $cal, 0755 or die $!;
symlink $target, "$cal/calibration.md" or die $!;
($rc, $out, $err) = run_bounded('calibrate', '--reanalyse', $cal);
is($rc, 2, 'calibrate --reanalyse with calibration.md a link: exit status 2');
like($err, qr/"\Q$cal\E\/calibration\.md" is a symbolic link: refusing to write through it/, '... the error names it');
untouched('a link at calibration.md');

done_testing();
