# A source variant of PostgreSQL 18 (docs/versions.md): the client builds
# the tree tools/pg-source 18 gives through its build cache, installs the
# extension into the build, and runs it end to end against the installed
# PostgreSQL as the other variant, which makes it the cross-version
# experiment in small: short runs of select-only and tpcb-like, pgbench 18's
# output read, the statistics columns and the counters filled on both sides,
# the report rendered and declaring the release, warning of the builds'
# configure options.
#
# It builds PostgreSQL (about 10 minutes here), so it runs under
# "make test-build" (and CI), not plain "make test".
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

plan skip_all => 'builds PostgreSQL 18 from source (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $bindir = pg_bindir();
my $base = shared_tempdir();

# A cache of this test's own, so that the build really happens, or the one
# make test-build gives every test that builds (fresh for each run), where
# tools/pg-build built this tree with these configure words before: then
# the build is reused, as an experiment would reuse it.
$ENV{PGBENCH_EXT_BUILD_CACHE} ||= "$base/cache";
my $cache = $ENV{PGBENCH_EXT_BUILD_CACHE};
my $configure = '--enable-tap-tests --enable-debug';

my $src = postgresql_source('18');
like($src, qr{/postgresql-18\.\d+$}, "PostgreSQL 18 source unpacked in $src");

my $dir = "$base/ab";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '2', '-T', '2', '-r', '2', '--seed', '5',
	'-b', 'select-only,tpcb-like', '--variant', 'pg15', '--bindir', $bindir,
	'--variant', 'pg18', '--source', $src, '--configure', $configure, '-o', $dir);
is($rc, 0, 'the installed PostgreSQL against a source build of 18 completes') or diag "$out\n$err";
like($out, qr/^variant pg18: (?:building in|reusing build) \Q$cache\E\/[0-9a-f]{16}$/m,
	'pg18 is built, or reused from tools/pg-build 18 (CI\'s first leg) in the same cache');

my $exp = JSON::PP->new->decode(slurp_file("$dir/experiment.json"));
my $build = $exp->{variants}{pg18}{build};
like($build->{source} // '', qr/^PostgreSQL 18\.\d+, files [0-9a-f]{64}, tarball postgresql-18_/,
	'experiment.json records the 18 source');
ok($build->{extension_installed}, 'the extension is installed into the build');
cmp_ok($exp->{variants}{pg18}{server_version_num}, '>=', 180000, 'pg18 runs a PostgreSQL 18 server');
cmp_ok($exp->{variants}{pg15}{server_version_num}, '<', 180000, 'pg15 runs the installed one');

my @runs = read_runs($dir);
# restart = auto on two servers adds a warm-up run after each start, not counted
is(scalar(grep { $_->{warmup} eq 'false' } @runs), 8, '2 scripts x 2 variants x 2 rounds counted');
foreach my $run (@runs)
{
	my $what = "run $run->{run_id} ($run->{variant}, $run->{script})";
	is($run->{status}, 'ok', "$what: ok") or diag $run->{reason};
	cmp_ok($run->{transactions}, '>', 0, "$what: pgbench's transactions read");
	cmp_ok($run->{blks_hit}, '>', 0, "$what: buffer hits");
	cmp_ok($run->{wal_bytes}, $run->{script} eq 'tpcb-like' ? '>' : '>=', 0, "$what: WAL bytes");
	like(join(',', map { $run->{$_} } qw(checkpoints_during buffers_written_checkpointer
		buffers_written_bgwriter buffers_written_backends)), qr/^\d+,\d+,\d+,\d+$/,
		"$what: checkpoints and buffers written");
	my $detail = JSON::PP->new->decode(slurp_file(sprintf('%s/runs/%04d.json', $dir, $run->{run_id})));
	cmp_ok($detail->{counters}{xact}{commits} // 0, '>', 0, "$what: counters() of the extension");
}

like($out, qr/^ select-only\s*\|\s*2\s*\|/m, 'the verdict table, select-only');
like($out, qr/^ tpcb-like\s*\|\s*2\s*\|/m, 'and tpcb-like');
like($out, qr/^declared: the release: pg15 runs PostgreSQL 15\.\d+.*; pg18 runs PostgreSQL 18\.\d+, server_version_num 18\d{4}/m,
	'the release is declared');
like($out, qr/^warning: the builds differ beyond the release: configure options only pg15 has: \S.*; only pg18 has: .*--without-llvm/m,
	'the builds\' configure options are warned of');
unlike($out, qr/^warning: .*server_version_num/m, 'the version is not warned');
ok(-s "$dir/report.md" && -s "$dir/report.html", 'report.md and report.html rendered');

done_testing();
