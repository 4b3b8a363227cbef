# One tree, two installations (docs/building.md): the README's install
# lines in turn — "make install" for the installed PostgreSQL, then
# "make PG_CONFIG=<another> install", then the first again — each recompile
# for the installation they install into, and both servers then load the
# module (a short experiment with a variant on each, which preloads
# pgbench_ext and calls it).  Before pg_config.stamp, the second install
# copied the first one's objects, and PostgreSQL 18 refused them
# ("undefined symbol: ShmemVariableCache").
#
# It needs an installation of another major version: PGBENCH_EXT_TEST_RELEASES
# (CI names the PostgreSQL 18 of tools/pg-build).  Both installations are
# copied into the test's directory first (PostgreSQL installations are
# relocatable, PGXS included), so that installing into them cannot disturb
# the tests running beside this one.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

sub config_of
{
	my ($pg_config, $what) = @_;
	chomp(my $value = `'$pg_config' --$what`);
	return $value;
}

sub major_of { return (config_of($_[0], 'version') =~ /^PostgreSQL (\d+)/)[0] // 0; }

my ($other) = grep { major_of($_) != major_of(pg_config()) } split(' ', $ENV{PGBENCH_EXT_TEST_RELEASES} // '');
plan skip_all => 'needs an installation of another major version: set PGBENCH_EXT_TEST_RELEASES to its pg_config'
  unless $other;

my $base = shared_tempdir();

# A copy of an installation under $base/NAME, every directory at its own
# path below it; its pg_config, which finds the rest relative to itself.
sub relocated_copy
{
	my ($pg_config, $name) = @_;
	foreach my $what ('bindir', 'pkglibdir', 'sharedir', 'includedir', 'includedir-server')
	{
		my $dir = config_of($pg_config, $what);
		next if -d "$base/$name$dir";
		system('mkdir', '-p', "$base/$name$dir") == 0 or die;
		system('cp', '-a', "$dir/.", "$base/$name$dir/") == 0 or die "could not copy $dir";
	}
	# and PostgreSQL's own libraries of libdir, which the client links
	# (libdir itself may be the system's)
	my $libdir = config_of($pg_config, 'libdir');
	system('mkdir', '-p', "$base/$name$libdir") == 0 or die;
	system('cp', '-a', glob("$libdir/libp[gq]*"), "$base/$name$libdir/") == 0 or die "could not copy $libdir";
	return "$base/$name" . config_of($pg_config, 'bindir') . '/pg_config';
}

my ($first, $second) = (relocated_copy(pg_config(), 'first'), relocated_copy($other, 'second'));
is(config_of($first, 'pkglibdir'), "$base/first" . config_of(pg_config(), 'pkglibdir'),
	'the first installation\'s copy describes itself');
my @installs = ($first, $second, $first);
my %bindir = map { ($_ => config_of($_, 'bindir')) } @installs;

# A copy of the tree that has been built for neither, as a user's clone
chomp(my $tree = `${\ source_tree()}/tools/readable-copy $base/tree`);
ok(-f "$tree/Makefile", "a copy of the tree in $tree");

# as a user types them: not silenced by the make that runs this test
delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)};
foreach my $i (0 .. $#installs)
{
	my $pg_config = $installs[$i];
	my $out = `make -C '$tree' PG_CONFIG='$pg_config' install 2>&1`;
	is($?, 0, "step $i: make PG_CONFIG=$pg_config install") or diag join("\n", grep { !/^gcc / } split /\n/, $out);
	my $compiled = () = $out =~ m{ -c -o extension/hooks\.o }g;
	is($compiled, 1, "step $i: the server module is compiled for $pg_config");
}

my $dir = "$base/ab";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-t', '20', '-c', '1', '-r', '1', '-b', 'select-only',
	'--variant', 'first', '--bindir', $bindir{ $installs[0] },
	'--variant', 'second', '--bindir', $bindir{$second}, '-o', $dir);
is($rc, 0, 'both servers load the module: an experiment across them completes') or diag "$out\n$err";
my @runs = grep { $_->{warmup} eq 'false' } read_runs($dir);
is(join(',', sort map { "$_->{variant}:$_->{status}" } @runs), 'first:ok,second:ok', 'a run on each');
foreach my $run (@runs)
{
	my $detail = read_json(sprintf('%s/runs/%04d.json', $dir, $run->{run_id}));
	cmp_ok($detail->{counters}{xact}{commits} // 0, '>=', 20,
		"$run->{variant}: counters() of the extension, read from its library");
}

done_testing();
