# tools/pg-source and tools/pg-build trust only caches nobody else controls:
# a cache directory, or anything in it, that is not the invoking user's or
# is writable by group or others is refused with exit status 2 and a
# message naming it; a safe cache with a complete tree is used as it is,
# without the network.  No download happens here: the trees are made up.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $top = source_tree();

sub tool
{
	my ($name, $env, @args) = @_;
	my ($out, $err) = ('', '');
	local @ENV{ keys %$env } = values %$env;
	IPC::Run::run([ "$top/tools/$name", @args ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# A cache holding a "complete" tree of a release no suite carries.
sub fake_cache
{
	my $cache = PostgreSQL::Test::Utils::tempdir();
	chmod 0700, $cache;
	mkdir "$cache/postgresql-99.1" or die;
	foreach my $f ('configure', '.pgbench_ext_origin')
	{
		open my $fh, '>', "$cache/postgresql-99.1/$f" or die;
		print $fh $f eq 'configure' ? "#!/bin/sh\nexit 1\n" : "tarball postgresql-99_99.1.orig.tar.bz2 sha256 "
		  . ('0' x 64) . "\n";
		close $fh;
	}
	chmod 0755, "$cache/postgresql-99.1/configure";
	return $cache;
}

my ($rc, $out, $err) = tool('pg-source', {}, 'eighteen');
is($rc, 2, 'pg-source: a major version that is no number is a usage error');
like($err, qr/"eighteen" is not a PostgreSQL major version/, 'and says so');

my $cache = fake_cache();
($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => $cache }, '99');
is($rc, 0, 'pg-source: a safe cache with a complete tree is used') or diag $err;
is($out, "$cache/postgresql-99.1\n", 'and the tree\'s path printed');
($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => $cache, PG_MAJOR => 99 });
is($out, "$cache/postgresql-99.1\n", 'PG_MAJOR still gives the version');

chmod 0777, $cache;
($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => $cache }, '99');
is($rc, 2, 'pg-source: a world-writable cache directory is refused');
like($err, qr/refusing the source cache: "\Q$cache\E" .*writable by group or others/, 'naming it');
like($err, qr/hint: .*PGBENCH_EXT_SRC_CACHE/, 'with the fix');
chmod 0700, $cache;

chmod 0666, "$cache/postgresql-99.1/configure";
($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => $cache }, '99');
is($rc, 2, 'pg-source: a world-writable file inside a cached tree is refused');
like($err, qr/"\Q$cache\E\/postgresql-99\.1\/configure"/, 'naming the file');
chmod 0755, "$cache/postgresql-99.1/configure";

SKIP:
{
	skip 'making an entry of another user needs root', 2 unless $> == 0;
	my $uid = getpwnam($ENV{PGBENCH_EXT_OS_USER} || 'postgres');
	chown $uid, -1, "$cache/postgresql-99.1/.pgbench_ext_origin" or die;
	($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => $cache }, '99');
	is($rc, 2, 'pg-source: an entry owned by another user is refused');
	like($err, qr/"\Q$cache\E\/postgresql-99\.1\/\.pgbench_ext_origin" \(\w+, mode \d+\) is not owned by/,
		'naming the entry and its owner');
	chown $>, -1, "$cache/postgresql-99.1/.pgbench_ext_origin";
}

SKIP:
{
	skip 'making a directory of another user needs root', 2 unless $> == 0;
	# the build account runs code from patches and trees: a directory of its
	# above the cache could swap the cache
	my $uid = getpwnam($ENV{PGBENCH_EXT_OS_USER} || 'postgres');
	my $above = PostgreSQL::Test::Utils::tempdir();
	chmod 0755, $above;
	mkdir "$above/cache", 0700 or die;
	system('cp', '-a', "$cache/postgresql-99.1", "$above/cache/") == 0 or die;
	chown $uid, -1, $above or die;
	($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => "$above/cache" }, '99');
	is($rc, 2, 'pg-source: a cache below a directory of the build account is refused');
	like($err, qr/directory "\Q$above\E" above it \(\w+, mode 755\) belongs to neither root nor/, 'naming it');
}

# the default cache: private, under XDG_CACHE_HOME
my $xdg = PostgreSQL::Test::Utils::tempdir();
($rc, $out, $err) = tool('pg-source', { PGBENCH_EXT_SRC_CACHE => undef, XDG_CACHE_HOME => $xdg,
		PGBENCH_EXT_SRC_SUITES => 'no-such-suite', PGBENCH_EXT_DEBIAN_MIRROR => 'file:///nonexistent' }, '99');
is($rc, 2, 'pg-source: a release no suite carries is an error');
like($err, qr/no suite of .* carries the source package postgresql-99/, 'saying so');
is(sprintf('%o', (stat "$xdg/pgbench_ext/src")[2] & 07777), '700', 'the default cache was created 0700');

# pg-build (the client's build) refuses a build cache others can write,
# before building anything
my $builds = PostgreSQL::Test::Utils::tempdir();
chmod 0777, $builds;
($rc, $out, $err) = tool('pg-build', { PGBENCH_EXT_SRC_CACHE => $cache, PGBENCH_EXT_BUILD_CACHE => $builds }, '99');
is($rc, 2, 'pg-build: a world-writable build cache is refused');
like($err, qr/build cache "\Q$builds\E" is writable by others \(mode 0777\)/, 'naming it');
opendir my $entries, $builds or die $!;
is(scalar(grep { !/^\.\.?$/ } readdir $entries), 0, 'and nothing was built');

done_testing();
