# A managed cluster is private, and what the client writes into its
# directory never follows a link.  While an experiment runs: a value with a
# quote and a backslash comes back from SHOW as given, the socket directory
# is 0700 and the server account's, pg_hba.conf has no host line and the
# server no TCP address, the cluster's directory is ours and only data/ the
# server's.  Then SIGHUP interrupts like Ctrl-C (exit 129, servers stopped);
# a symbolic link planted as pg_ctl.log, or as the configuration file the
# client rewrites at every start, makes --resume refuse it by name with its
# target untouched; without them --resume finishes.  Last, a -o directory
# replaced by a link while a run is under way: the client refuses it by
# name and exits, and no postmaster of the run is left.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $dir = "$base/private";
my $prefix = q{%m it's a \ "test" [%p]};
my $server_user = $ENV{PGBENCH_EXT_OS_USER} || 'postgres';
my $server_uid = $> == 0 ? (getpwnam($server_user))[2] : $>;

# postmaster.pid: pid, data directory, start time, port, socket directory, ...
sub postmaster_of
{
	my ($variant) = @_;
	my $file = "$dir/clusters/$variant/data/postmaster.pid";
	return () unless -f $file;
	my @lines = split /\n/, slurp_file($file);
	return (pid => $lines[0], port => $lines[3], sockdir => $lines[4], status => $lines[7] // '');
}

sub servers_left
{
	return grep { my %pm = postmaster_of($_); %pm && kill 0, $pm{pid} } qw(A B);
}

sub server_psql
{
	my ($pm, $sql) = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'psql', '-X', '-A', '-t', '-h', $pm->{sockdir}, '-p', $pm->{port}, '-U', 'postgres',
			'-d', 'postgres', '-c', $sql ], '>', \$out, '2>', \$err)
	  or diag "psql: $err";
	chomp $out;
	return $out;
}

my ($out, $err) = ('', '');
# throttled (pgbench -R), runs of a second (the servers stay up between
# runs, restart = never): the servers' privacy is the point, not their speed
my $h = IPC::Run::start([ client(), 'ab', '-s', '1', '-T', '1', '-r', '3', '-b', 'select-only', '--seed', '3', '--restart', 'never',
		'--reset', 'never', '--pgbench-args', '-R 100', '--variant', 'A', '--bindir', $bindir, '--set', "log_line_prefix=$prefix",
		'--variant', 'B', '--bindir', $bindir, '-o', $dir ], '>', \$out, '2>', \$err);
wait_until(180, sub { -f "$dir/runs/0001.err" || undef });
my %pm = postmaster_of('A');
ok(%pm && $pm{status} =~ /ready/, 'the server of A is up during the run') or diag $err;

is(server_psql(\%pm, 'SHOW log_line_prefix'), $prefix, 'a value with a quote and a backslash: SHOW returns it as given');
is(server_psql(\%pm, 'SHOW listen_addresses'), '', 'the server listens on no TCP address');
is(server_psql(\%pm, q{SELECT string_agg(DISTINCT type, ',') FROM pg_hba_file_rules}), 'local',
	'its authentication rules are all for the local socket');
my $hba = server_psql(\%pm, 'SHOW hba_file');
is($hba, "$dir/clusters/A/pg_hba.conf", 'pg_hba.conf is the one in the cluster\'s directory');
unlike(slurp_file($hba), qr/^\s*host/m, 'pg_hba.conf has no host line');
unlike(slurp_file("$dir/clusters/A/data/pg_hba.conf"), qr/^\s*host\S*\s.*\s(trust|md5|scram-sha-256|password)\s*$/m,
	'the data directory\'s own pg_hba.conf trusts nothing over TCP either');
my @sock = stat $pm{sockdir};
is(sprintf('%04o', $sock[2] & 07777), '0700', 'the socket directory is 0700');
is($sock[4], $server_uid, 'the socket directory belongs to the server account');
my @cdir = stat "$dir/clusters/A";
is($cdir[4], $>, 'the cluster\'s directory is ours');
is($cdir[2] & 022, 0, 'and writable by nobody else');
is((stat "$dir/clusters/A/data")[4], $server_uid, 'only data/ is the server account\'s');

# SIGHUP once a run is recorded
wait_until(120, sub { lines_in("$dir/runs.csv") >= 2 || undef });
$h->signal('HUP');
$h->finish;
is($? >> 8, 129, 'SIGHUP: exit status 129');
like($err, qr/interrupted: \d+ of 6 runs are recorded in .* \(signal: Hangup\).*hint: Continue with: .* run --resume/s,
	'SIGHUP: says how to continue');
is(scalar(servers_left()), 0, 'SIGHUP: servers stopped');
ok(!-e $pm{sockdir}, 'SIGHUP: the socket directory is removed');
my @runs = read_runs($dir);
# one run under way, or the two of a duet (schedule = auto chose one here)
my $under_way = read_json("$dir/experiment.json")->{spec}{experiment}{schedule} eq 'duet' ? 2 : 1;
ok(scalar(grep { $_->{status} eq 'interrupted' } @runs) <= $under_way,
	'SIGHUP: the runs under way are recorded as interrupted');

# a link planted where the client writes, before --resume
my $target = "$base/target.txt";
foreach my $planted ('clusters/A/pg_ctl.log', 'clusters/B/postgresql.pgbench_ext.conf')
{
	open my $fh, '>', $target or die;
	print $fh "precious\n";
	close $fh;
	rename "$dir/$planted", "$dir/$planted.real" or die "$planted: $!";
	symlink $target, "$dir/$planted" or die "symlink: $!";
	my ($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
	is($rc, 2, "link as $planted: --resume exits 2");
	like($rerr, qr/error: "\Q$dir\/$planted\E" is a symbolic link: refusing to write through it\n.*hint: Remove the link/,
		"link as $planted: the error names it");
	is(slurp_file($target), "precious\n", "link as $planted: its target is untouched");
	is(scalar(servers_left()), 0, "link as $planted: no server left running");
	unlink "$dir/$planted";
	rename "$dir/$planted.real", "$dir/$planted" or die;
}

my ($rc, $rout, $rerr) = run_client('run', '--resume', $dir);
is($rc, 0, '--resume completes') or diag $rerr;
@runs = read_runs($dir);
is_deeply([ map { $_->{run_id} } @runs ], [ 1 .. 6 ], 'after --resume: every planned run once');
is(scalar(grep { $_->{status} eq 'ok' } @runs), 6, 'after --resume: all ok');
is(scalar(servers_left()), 0, 'after --resume: no server left running');

# --- run -o: the directory replaced by a link while the run is under way -----
# The client refuses to write through the link and exits; its servers stop
# with it, although their data directories are no longer where it started
# them (pg_ctl cannot reach them: the postmasters get its signals).  One
# server is enough to show it (B runs on A's): a second would cost a
# cluster's set-up and prove nothing more.
sub postmaster_alive
{
	my ($pid) = @_;
	my $stat = -r "/proc/$pid/stat" ? slurp_file("/proc/$pid/stat") : '';
	return $stat =~ /\)\s+([A-Z])/ && $1 ne 'Z' && $1 ne 'X';
}
my $moving = "$base/moving";
my $elsewhere = "$base/elsewhere";
mkdir $elsewhere, 0700 or die $!;
($out, $err) = ('', '');
$h = IPC::Run::start([ client(), 'ab', '-s', '1', '-T', '3', '-r', '2', '-b', 'select-only', '--restart', 'never',
		'--reset', 'never', '--pgbench-args', '-R 100',
		'--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--cluster', 'A', '-o', $moving ],
	'<', \undef, '>', \$out, '2>', \$err, IPC::Run::timeout(300));
ok(wait_until(240, sub { -f "$moving/runs/0001.out" || undef }, $h), 'replaced -o: the first run is under way')
  or diag $err;
my @postmasters = map { (split /\n/, slurp_file($_))[0] } grep { -f $_ } glob("$moving/clusters/*/data/postmaster.pid");
is(scalar(grep { postmaster_alive($_) } @postmasters), 1, 'replaced -o: the server runs');
rename $moving, "$moving.moved" or die $!;
symlink $elsewhere, $moving or die $!;
eval { $h->finish; 1 } or $h->kill_kill;
$rc = $? >> 8;
ok($rc != 0, "replaced -o: the client fails (exit status $rc)");
like($err, qr/error: .*"\Q$moving\E" is a symbolic link: refusing to write through it/, 'replaced -o: the error names it');
my @left = grep { postmaster_alive($_) } @postmasters;
is(scalar(@left), 0, 'replaced -o: no postmaster of the run is left') or diag $err;
kill 'QUIT', @left;
is_deeply([ glob("$elsewhere/*") ], [], 'replaced -o: nothing written where the link points');

done_testing();
