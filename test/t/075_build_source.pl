# Variants built from PostgreSQL source (docs/building.md: variants from
# source).  The PostgreSQL 15 source comes from Debian's source package,
# fetched and unpacked by tools/pg-source outside the repository.  A is the
# unmodified tree, B the same with test/fixtures/snapshot-move-curcid.patch;
# both build (B from a copy of A's tree), the layout diff shows curcid
# moved, a tiny A/B ends with a verdict, a second run reuses both builds,
# and a patch that does not apply or bad cflags stop before any cluster.
# Build seeds, relinks of these two builds, are 079_build_seeds_source.pl's,
# which runs beside the tests that start from this test's builds.
# The builds have symbols and frame pointers (symbols = on), so that the
# tests that profile source builds reuse the stock one.
#
# It builds PostgreSQL (minutes), so it runs under "make test-build" (and
# CI), not plain "make test".
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

plan skip_all => 'builds PostgreSQL from source (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $top = source_tree();
my $base = shared_tempdir();

# A cache of this test's own, so that the first run really builds; or the
# one make test-build gives every test that builds (a fresh one per run,
# shared so that 078 and 097 reuse this test's builds), where this test
# comes first.
$ENV{PGBENCH_EXT_BUILD_CACHE} ||= "$base/cache";
my $cache = $ENV{PGBENCH_EXT_BUILD_CACHE};

my $src = postgresql_source();
# With symbols and frame pointers (symbols = on), as a profile's builds are:
# the builds of 078, 097 and 098 start from this test's.
my @src = ('--source', $src, '--symbols', 'on');
ok(-x "$src/configure", "PostgreSQL source unpacked in $src");

my $patch = "$top/test/fixtures/snapshot-move-curcid.patch";
my @tiny = ('ab', '-s', '1', '-r', '2', '-T', '2', '-c', '1', '-b', 'select-only', '--seed', '7');
my @ab = (@tiny, '--variant', 'A', @src,
	'--variant', 'B', @src, '--patch', $patch);

# --- A and B build, run, and differ in SnapshotData's layout ---------------
# Two builds are two servers: restarted before each of the two rounds.
my $dir1 = "$base/first";
my ($rc, $out, $err) = run_client(@ab, '--restart', '1', '-o', $dir1);
is($rc, 0, 'A/B of two source builds completes') or diag "$out\n$err";
like($out, qr/^variant A: building in \Q$cache\E\/[0-9a-f]{16}$/m, 'A is built');
like($out, qr/^variant B: building in .* \(starting from \Q$cache\E\/[0-9a-f]{16}\)$/m,
	'B starts from a copy of A\'s build tree');
like($out, qr/^ select-only\s*\|\s*1\s*\|.*\|\s*2 instance pairs\s*\|\s*(faster|slower|~ no change|insufficient)/m,
	'the report gives a verdict for B against A, across instance pairs');
foreach my $v ('A', 'B')
{
	my @r = grep { $_->{variant} eq $v } read_runs($dir1);
	is(join(',', map { "$_->{round}:$_->{instance}" } @r), '0:1,1:1,0:2,2:2',
		"$v: a warm-up after each start, round 1 on instance 1, round 2 on instance 2");
	my %builds = map { ($_->{build} => 1) } @r;
	is(scalar keys %builds, 1, "$v: every run records one build");
	like((keys %builds)[0], qr/^[0-9a-f]{16}$/, "$v: its build key");
}
like(slurp_file("$dir1/instances.csv"), qr/^B,2,[^,]+,[0-9.]+,[0-9.]+,\d+,restart$/m,
	'instances.csv: B restarted');

my ($ba, $bb) = map { variant_build($dir1, $_) } qw(A B);
ok(defined $ba && defined $bb, 'experiment.json records both builds');
($ba, $bb) = map { $_ // {} } ($ba, $bb);
like($ba->{source}, qr/^PostgreSQL 15\.\d+, files [0-9a-f]{64}, tarball postgresql-15_.+ sha256 [0-9a-f]{64}$/,
	'source identity: version, file checksum, tarball and its checksum');
like(join(' ', map { $_->{sha256} } @{ $bb->{patches} // [] }), qr/^[0-9a-f]{64}$/, 'B records its patch checksum');
is(scalar @{ $ba->{patches} // [] }, 0, 'A has no patch');
like($ba->{compiler}, qr/^gcc/, 'compiler version recorded');
like($ba->{key_text}, qr/^symbols -g -fno-omit-frame-pointer$/m, 'symbols = on is a line of the build key');
like($ba->{cflags}, qr/ -g -fno-omit-frame-pointer$/, 'and in the cflags, without a profile');
like($ba->{build_s}, qr/^[0-9.]+/, 'build time recorded');
my ($pa, $pb) = ($ba->{bindir}, $bb->{bindir});
isnt($pa, $pb, 'A and B have their own installations');
is(length($pa), length($pb), 'install prefixes of equal length');
ok(-f "$pa/../lib/pgbench_ext.so" && -f "$pb/../lib/pgbench_ext.so",
	'the extension is installed into each build');
(my $logs = $pb) =~ s{/dest/.*}{/logs};
ok(-s "$logs/make.log" && -s "$logs/patch-1.log", "build logs kept in $logs");

($rc, $out, $err) = run_client('layout', $dir1, 'A', 'B');
is($rc, 0, 'layout DIR A B succeeds') or diag $err;
my ($row) = $out =~ /^( curcid\s*\|.*)$/m;
ok(defined $row, 'curcid appears in the layout diff') or diag $out;
like($row, qr/^ curcid\s*\|\s*(\d+)\s*\|\s*\d+\s*\|\s*4\s*\|\s*0\s*\|\s*moved/,
	'curcid moved to offset 4, on line 0');

# --- the same experiment again: no rebuild ---------------------------------
my %stamp = map { $_ => (stat("$_/build.json"))[9] } map { (my $d = $_) =~ s{/dest/.*}{}; $d } ($pa, $pb);
my $dir2 = "$base/second";
($rc, $out, $err) = run_client(@ab, '-o', $dir2);
is($rc, 0, 'the second run completes') or diag "$out\n$err";
like($out, qr/^variant A: reusing build /m, 'A is reused');
like($out, qr/^variant B: reusing build /m, 'B is reused');
unlike($out, qr/building in/, 'nothing is built');
is_deeply({ map { $_ => (stat("$_/build.json"))[9] } keys %stamp }, \%stamp, 'build.json untouched');
ok((variant_build($dir2, 'B') // {})->{reused}, 'experiment.json says reused');

# --- --build-only: the builds alone, found in the cache, nothing run ---------
my $dir_b = "$base/build-only";
($rc, $out, $err) = run_client(@ab, '--build-only', '-o', $dir_b);
is($rc, 0, '--build-only completes') or diag "$out\n$err";
like($out, qr/^variant A: reusing build /m, '--build-only: A found in the cache');
like($out, qr/^variant A: bindir \Q$pa\E$/m, 'and where A is installed is printed');
like($out, qr/^variant B: bindir \Q$pb\E$/m, 'and B\'s');
unlike($out, qr/pre-flight|round/, 'no pre-flight, no rounds');
ok(!-e $dir_b, 'no results directory');

# --- failures stop before any cluster ----------------------------------------
my @fails = (
	[ 'patch does not apply', [ '--patch', "$top/test/fixtures/does-not-apply.patch" ], 'patch-1' ],
	[ 'bad cflags', [ '--cflags', '-O2 -fno-such-flag-pgbench-ext' ], 'configure' ]);
foreach my $f (@fails)
{
	my ($name, $opts, $step) = @$f;
	my $d = "$base/fail-$step";
	($rc, $out, $err) = run_client(@tiny, '--variant', 'A', @src,
		'--variant', 'bad', @src, @$opts, '-o', $d);
	is($rc, 2, "$name: exit status 2");
	like($err, qr/variant "bad": build step "\Q$step\E" failed; see \S+\/logs\/\Q$step\E\.log/,
		"$name: the message names the variant, the step and the log");
	ok(!-e "$d/clusters", "$name: no cluster was started");
	ok(!-e $d, "$name: not even the results directory was created");
}

done_testing();
