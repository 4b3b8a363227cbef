# Least privilege and a private build cache.  Started as root, a source
# build (of the linked source: every step real, in seconds) runs every
# step as the build account, so that the cache holds no file written by
# root, configure ran with that account's uid and the compiler's objects
# are its own; the cache is created 0700.  Then what is refused: an entry
# of another user, an entry or cache writable by others, a directory above
# the cache that others can write or that belongs to the build account, a
# build.json whose bindir lies outside its entry (named directly, or
# through a link).  A client waits for the lock of an entry another holds.  Not as root, the
# default cache is private under $XDG_CACHE_HOME or ~/.cache.
use strict;
use warnings;

use Fcntl qw(:flock);
use File::Find;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use LinkedSource;
use PgbenchExtTest;

plan skip_all => 'the ownership checks need root (as CI runs)' unless $> == 0;

my $base = private_cache();
# the installation under test, whose bindir no cache entry may name
my $installed_bindir = pg_bindir();
my $cache = $ENV{PGBENCH_EXT_BUILD_CACHE};
my $builder = build_account_uid();

# --- a build as root: everything written by the build account ---------------
# (the build alone, --build-only: the A/B that waits for its lock below
# runs on it, and the cache is looked at again after that)
my ($rc, $out, $err) = run_client(linked_ab("$base/first"), '--build-only');
is($rc, 0, 'a linked-source build completes') or diag "$out\n$err";
my $entry = entry_of($out);
ok(defined $entry && -f "$entry/build.json", "the build finished in $entry");

my @cache_st = stat $cache;
is($cache_st[4], $builder, 'the cache directory belongs to the build account');
is($cache_st[2] & 07777, 0700, 'the cache directory is private (0700)');

is(slurp_file("$entry/build/configure.uid"), "$builder\n", 'configure ran as the build account, not root');
is((stat "$entry/build/hello.o")[4], $builder, 'the compiler\'s object file belongs to the build account');
ok(-f "$entry/dest/usr/local/pgsql/lib/pgbench_ext.so", 'the extension was compiled into the build, as that account too');
my $record = JSON::PP->new->decode(slurp_file("$entry/build.json"));
is($record->{bindir}, "$entry/dest/usr/local/pgsql/bin", 'build.json names the bindir inside its entry');

# --- one client at a time per entry: the next waits for the lock (held
# here, as another client's build would hold it), then reuses the build
open my $lock, '<', "$entry.lock" or die "no lock file beside $entry: $!";
flock($lock, LOCK_EX) or die "flock: $!";
my ($out2, $err2) = ('', '');
my $h = IPC::Run::start([ client(), linked_ab("$base/again") ], '<', \undef, '>', \$out2, '2>', \$err2);
ok(defined(wait_until(60, sub { $out2 =~ /^variant A: waiting for another client's build of \Q$entry\E$/m ? 1 : undef }, $h)),
	'a second A/B waits while another client holds the entry');
ok(!-e "$base/again/runs.csv", 'and runs nothing meanwhile');
close $lock;
$h->finish;
is($? >> 8, 0, 'once the lock is released it completes: an A/B with a linked-source build') or diag "$out2\n$err2";
like($out2, qr/^variant A: reusing build \Q$entry\E$/m, 'the private entry is reused');

my @foreign;
find({ no_chdir => 1, wanted => sub {
	my @st = lstat $File::Find::name;
	push @foreign, "$File::Find::name (uid $st[4])" if $st[4] != $builder;
} }, $cache);
is(scalar(@foreign), 0, 'no file in the cache was written by anyone but the build account, after a build and an A/B')
  or diag join("\n", @foreign[ 0 .. ($#foreign > 9 ? 9 : $#foreign) ]);

# --- what is refused ----------------------------------------------------------
my $nobody = getpwnam('nobody') // die 'no account nobody';
my $bindir = "$entry/dest/usr/local/pgsql/bin";
my $json = "$entry/build.json";
my $json_text = slurp_file($json);
sub record_with_bindir
{
	my ($dir) = @_;
	my $r = JSON::PP->new->decode($json_text);
	$r->{bindir} = $dir;
	open my $fh, '>', $json or die $!;
	print $fh JSON::PP->new->encode($r);
	close $fh;
	chown $builder, -1, $json;
}
my @refusals = (
	[ 'an entry of another user', sub { chown $nobody, -1, $entry }, sub { chown $builder, -1, $entry },
		qr/build cache entry "\Q$entry\E" belongs to user "nobody", not to you \(user "root"\) or to user "\w+", who runs the builds/,
		qr/hint: Remove it \(rm -rf "\Q$entry\E"\)/ ],
	[ 'an entry writable by others', sub { chmod 0757, $entry }, sub { chmod 0700, $entry },
		qr/build cache entry "\Q$entry\E" is writable by others \(mode 0757\)/, qr/hint: Remove it/ ],
	[ 'a build.json writable by its group', sub { chmod 0664, $json }, sub { chmod 0644, $json },
		qr/build record "\Q$json\E" is writable by its group/, qr/hint: Remove it/ ],
	[ 'a bindir outside the entry', sub { record_with_bindir($installed_bindir) }, sub { record_with_bindir($bindir) },
		qr/build record "\Q$json\E" names bindir "\Q$installed_bindir\E", which lies outside its entry/,
		qr/hint: Remove the entry/ ],
	[ 'a bindir that leaves the entry through a link',
		sub { symlink($installed_bindir, "$entry/elsewhere") or die $!; record_with_bindir("$entry/elsewhere") },
		sub { unlink "$entry/elsewhere"; record_with_bindir($bindir) },
		qr/names bindir "\Q$entry\E\/elsewhere", which lies outside its entry \(it resolves to "[^"]+"\)/,
		qr/hint: Remove the entry/ ],
	[ 'a cache writable by others', sub { chmod 0777, $cache }, sub { chmod 0700, $cache },
		qr/build cache "\Q$cache\E" is writable by others \(mode 0777\)/,
		qr/hint: Name a cache of your own with PGBENCH_EXT_BUILD_CACHE=DIR/ ],
	[ 'a directory above the cache that others can write', sub { chmod 0777, $base }, sub { chmod 0755, $base },
		qr/directory "\Q$base\E" above the build cache is writable by others \(mode 0777\) and not sticky/,
		qr/hint: Name a cache under a directory only you can write/ ],
	# the build account runs code from patches and source trees: a directory
	# of its own above the cache would let that code swap the cache
	[ 'a directory above the cache of the build account\'s', sub { chown $builder, -1, $base }, sub { chown 0, -1, $base },
		qr/directory "\Q$base\E" above the build cache belongs to user "\w+": someone else could replace the cache/,
		qr/hint: Name a cache under a directory only you can write/ ],
	[ 'a cache of root\'s that the build account cannot write', sub { chown 0, -1, $cache }, sub { chown $builder, -1, $cache },
		qr/build cache "\Q$cache\E" belongs to user "root", but the builds run as user "\w+", who cannot write it/,
		qr/hint: Give it to that user \(chown / ]);
my $n = 0;
foreach my $r (@refusals)
{
	my ($what, $break, $mend, $message, $hint) = @$r;
	my $dir = "$base/refused" . $n++;
	$break->();
	($rc, $out, $err) = run_client(linked_ab($dir));
	$mend->();
	is($rc, 2, "$what: exit status 2");
	like($err, $message, "$what: refused with a message naming it") or diag $err;
	like($err, $hint, "$what: and the fix");
	unlike($out, qr/reusing build|setting up/, "$what: nothing is used from it");
	ok(!-e $dir, "$what: no results directory, no cluster");
}
# (the build alone, --build-only: the entry's use is the point, and the
# experiments above ran on it)
($rc, $out, $err) = run_client(linked_ab("$base/mended"), '--build-only');
like($out, qr/^variant A: reusing build \Q$entry\E$/m, 'mended, the entry is used again') or diag "$out\n$err";

# --- pgbench runs as the server account: a script it cannot read is refused ---
my $private = PostgreSQL::Test::Utils::tempdir();    # 0700, root's
open my $sfh, '>', "$private/select.sql" or die $!;
print $sfh "SELECT 1;\n";
close $sfh;
($rc, $out, $err) = run_client('ab', '-s', '1', '-r', '1', '-T', '1', '-b', "$private/select.sql",
	'--variant', 'A', '--bindir', $installed_bindir, '--variant', 'B', '--bindir', $installed_bindir,
	'-o', "$base/script");
is($rc, 2, 'a script only root can read: exit status 2');
like($err, qr/pgbench runs as the server account, which cannot read script "\Q$private\E\/select.sql"/,
	'... refused before anything runs, naming the script');
ok(!-e "$base/script", '... no results directory');

# --- not as root: the default cache, private to the user ----------------------
SKIP:
{
	my $home = shared_tempdir();
	chown $nobody, -1, $home;
	my @as_nobody = ('runuser', '-u', 'nobody', '--', 'env', "HOME=$home", 'PGBENCH_EXT_BUILD_CACHE=',
		'LINKED_SOURCE_CONFIGURE_FAIL=1');
	skip 'user nobody cannot run this tree\'s client', 6
	  unless IPC::Run::run([ @as_nobody, 'test', '-x', client() ]) &&
	  IPC::Run::run([ @as_nobody, 'test', '-r', linked_source() . '/configure' ]);
	foreach my $xdg (undef, "$home/xdg")
	{
		my ($o, $e);
		my @env = defined $xdg ? ("XDG_CACHE_HOME=$xdg") : ();
		IPC::Run::run([ @as_nobody, @env, client(), linked_ab("$home/r" . (defined $xdg ? 2 : 1)) ],
			'>', \$o, '2>', \$e);
		my $want = defined $xdg ? "$xdg/pgbench_ext/builds" : "$home/.cache/pgbench_ext/builds";
		like($o, qr/^variant A: building in \Q$want\E\/[0-9a-f]{16}$/m,
			'default cache: ' . ($want =~ s/\Q$home\E/HOME/r)) or diag "$o\n$e";
		my @st = stat $want;
		is($st[4], $nobody, '... it belongs to the user');
		is(($st[2] // 0) & 07777, 0700, '... and is private (0700)');
	}
}

done_testing();
