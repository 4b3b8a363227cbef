# Build seeds of variants built from PostgreSQL source (docs/building.md:
# build seeds): two relinks each of 075_build_source.pl's A (PostgreSQL 15
# from Debian's source package) and B (the same with
# test/fixtures/snapshot-move-curcid.patch), each starting from its
# variant's build tree, linked in other orders into different binaries,
# compared seed by seed and across seed pairs.
#
# It starts from 075's builds, found in the build cache that make
# test-build gives every test that builds (or builds them itself, run
# alone), and runs beside 078, 097 and 098, which start from them too.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my ($base, $src) = source_build_test('relinks PostgreSQL builds from source (minutes)');
my $patch = source_tree() . '/test/fixtures/snapshot-move-curcid.patch';
my @src = ('--source', $src, '--symbols', 'on');
my @tiny = ('ab', '-s', '1', '-r', '2', '-T', '2', '-c', '1', '-b', 'select-only', '--seed', '7');

# where A and B are installed: found in the cache (or built), nothing run
my ($rc, $out, $err) = run_client(@tiny, '--variant', 'A', @src, '--variant', 'B', @src, '--patch', $patch,
	'--build-only', '-o', "$base/build-only");
is($rc, 0, 'A and B are built') or diag "$out\n$err";
my ($pa) = $out =~ /^variant A: bindir (\S+)$/m;
my ($pb) = $out =~ /^variant B: bindir (\S+)$/m;
ok(defined $pa && defined $pb, 'and where each is installed is printed');
($pa, $pb) = map { $_ // '' } ($pa, $pb);

my $dir3 = "$base/seeds";
($rc, $out, $err) = run_client(@tiny, '--variant', 'A', @src, '--build-seeds', '2',
	'--variant', 'B', @src, '--patch', $patch, '--build-seeds', '2', '-o', $dir3);
is($rc, 0, 'A/B with two build seeds each completes') or diag "$out\n$err";
(my $da = $pa) =~ s{/dest/.*}{};
(my $db = $pb) =~ s{/dest/.*}{};
my %build = map { $_ => variant_build($dir3, $_) // {} } qw(A@seed1 A@seed2 B@seed1 B@seed2);
my %bin = map { $_ => $build{$_}{bindir} } keys %build;

# build.json says where each started, built now or reused from a warm
# cache; a seed's build that the cache got before its variant's (another
# experiment asked for the seed first) was built from source, started from
# nothing, and this run only reuses it
foreach my $seeded ([ 'A@seed1', $da ], [ 'B@seed1', $db ])
{
	my ($name, $from) = @$seeded;
	my $b = $build{$name};
	if (!defined $b->{started_from} && $b->{reused})
	{
		pass("$name: reused from the cache, where it was built from source before $from was");
		next;
	}
	is($b->{started_from}, $from, "$name is a relink of its variant's build");
}
ok(-x "$bin{'B@seed2'}/postgres", 'B@seed2 is built');
isnt(slurp_file("$bin{'A@seed1'}/postgres"), slurp_file("$bin{'A@seed2'}/postgres"),
	'the two seeds link different postgres binaries');
is(length($bin{'A@seed1'}), length($bin{'B@seed2'}), 'seeded prefixes of equal length too');
foreach my $k (1, 2)
{
	like($out, qr/^build seeds: select-only, 1 client: B\@seed$k vs A\@seed$k: /m,
		"seed $k: B\@seed$k compared with A\@seed$k");
}
like($out, qr/^ select-only \| 1 +\| B\@seed\* +\|.*\| 2 build seed pairs \|/m,
	'every seed against every seed: B@seed* vs A@seed*, across seed pairs');
unlike($out, qr/all seeds pooled/, 'no pooling of all runs of all seeds');
my %seed_of = map { ("$_->{variant}" => $_->{build_seed}) } read_runs($dir3);
is_deeply(\%seed_of, { 'A@seed1' => 1, 'A@seed2' => 2, 'B@seed1' => 1, 'B@seed2' => 2 },
	'runs.csv: each run\'s build seed');
unlike($out, qr/^build seeds: .*(?:B\@seed2 vs A\@seed1|B\@seed1 vs A\@seed2)/m,
	'no cross-seed comparison among the per-seed verdicts');
like(slurp_file("$dir3/clusters/B\@seed2/pg_ctl.log"), qr/^environment padding: \d+ bytes$/m,
	'a seeded postmaster starts with a random environment size');

# Counted, a seeded server starts with the same environment every time: a
# random size moved the stack and with it the paths string functions take,
# up to 0.08% of a transaction's instructions from one start to the next
# (docs/counted-noise.md)
my $dirc = "$base/seeds-counted";
($rc, $out, $err) = run_client('ab', '-s', '1', '-r', '2', '-t', '20', '-c', '1', '-b', 'select-only', '--seed', '7',
	'--reset', 'never', '--restart', '1', '--profile', 'counted', '--variant', 'A', @src, '--build-seeds', '2',
	'-o', $dirc);
is($rc, 0, 'a counted experiment of two build seeds completes') or diag "$out
$err";
my @counted_starts = grep { $_->{cause} ne 'setup' } read_instances($dirc);
cmp_ok(scalar(@counted_starts), '>=', 4, 'each seed started under valgrind, then restarted');
is(join(' ', map { "$_->{server}:$_->{instance}:$_->{env_pad}" } grep { $_->{env_pad} != 0 } @counted_starts), '',
	'and never with environment padding');

done_testing();
