# The installed client does not need the checkout it was built from: a
# variant built from source gets its server module compiled from the
# extension's sources that "make install" put under the installation's
# share directory.  The installed pgbench_ext, run from elsewhere with no
# PGBENCH_EXT_TOP, builds the linked source and compiles the module from
# that copy (the same files as this tree's); a PGBENCH_EXT_TOP naming no
# source tree is refused with exit status 2 before anything runs.
use strict;
use warnings;

use File::Compare;
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use LinkedSource;
use PgbenchExtTest;

my $top = source_tree();
my $installed = pg_bindir() . '/pgbench_ext';
ok(-x $installed, "the client is installed as $installed");

my $pg_config = pg_config();
chomp(my $sharedir = `$pg_config --sharedir`);
my $sources = "$sharedir/pgbench_ext/source";
ok(-f "$sources/pgbench_ext.control", "make install put the extension's sources in $sources");
foreach my $f (qw(Makefile pgbench_ext.control extension/counters.c extension/sql/00_base.sql common/stats.c))
{
	is(compare("$sources/$f", "$top/$f"), 0, "installed $f is this tree's");
}

my $base = private_cache();
sub run_installed
{
	my ($dir, %env) = @_;
	local $ENV{PGBENCH_EXT_TOP};
	delete $ENV{PGBENCH_EXT_TOP};
	$ENV{PGBENCH_EXT_TOP} = $env{top} if defined $env{top};
	my ($out, $err) = ('', '');
	# the build alone (--build-only): the module's sources are the point,
	# not an experiment on the build
	IPC::Run::run([ $installed, linked_ab($dir), '--build-only' ], '<', \undef, '>', \$out, '2>', \$err,
		init => sub { chdir '/' or die "chdir /: $!" });
	return ($? >> 8, $out, $err);
}

my ($rc, $out, $err) = run_installed("$base/from-install");
is($rc, 0, 'the installed client builds a variant from source without the checkout') or diag "$out\n$err";
my ($entry) = $out =~ /variant A: building in (\S+)/;
ok(defined $entry && -f "$entry/ext/extension/counters.c", 'the server module was compiled in the build entry')
  or diag $out;
is(compare("$entry/ext/extension/counters.c", "$sources/extension/counters.c"), 0,
	'... from the installed sources') if defined $entry;

($rc, $out, $err) = run_installed("$base/refused", top => "$base/no-such-tree");
is($rc, 2, 'a PGBENCH_EXT_TOP without sources: exit status 2');
like($err, qr/the extension's sources, which a build from source compiles, are not in "\Q$base\E\/no-such-tree"/,
	'... naming the directory') or diag $err;
like($err, qr/make install/, '... and the fix');
ok(!-e "$base/refused", '... before the results directory exists');

done_testing();
