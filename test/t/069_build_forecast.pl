# The pre-flight's builds line (docs/building.md, the builds' time): before
# the first run, and in the dry run, what building the source variants
# takes, from the build cache alone: nothing for a build in it; for the
# others the time the cache's earlier builds of their kind took (the
# median of those built from nothing, of those started from another
# build's tree), or that the cache has none.  Of the linked source, whose
# builds take seconds; the cache's recorded times are set by hand so that
# the figures are known.  The dry run writes nothing, not even the cache.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use LinkedSource;
use PgbenchExtTest;

my $base = private_cache();
my $cache = $ENV{PGBENCH_EXT_BUILD_CACHE};
my $bindir = pg_bindir();

# a patch of the linked source's one file: another line returned
sub write_patch
{
	my ($name, $value) = @_;
	my $path = "$base/$name.patch";
	open my $f, '>', $path or die "$path: $!";
	print $f <<"PATCH";
--- a/hello.c
+++ b/hello.c
@@ -5,4 +5,4 @@
 linked_source_hello(void)
 {
-	return 42;
+	return $value;
 }
PATCH
	close $f;
	return $path;
}

# the build.json of entry with its build time set to seconds
sub set_build_seconds
{
	my ($entry, $seconds) = @_;
	my $path = "$entry/build.json";
	my $record = decode_json(slurp_file($path));
	$record->{build_s} = $seconds;
	open my $f, '>', $path or die "$path: $!";
	print $f JSON::PP->new->canonical->pretty->encode($record);
	close $f;
}

my ($rc, $out, $err) = run_client(linked_ab("$base/none"), '--check');
is($rc, 0, 'the dry run of a source variant, nothing built yet') or diag "$out\n$err";
like($out, qr/^pre-flight: builds: 1 to make before the first run \(1 from nothing, 0 from another build's tree\), 0 in the build cache; their time is not known here: the build cache has no earlier build of a tree from nothing$/m,
	'one to build from nothing, its time not known: the cache has no build');
ok(!-e $cache, 'the dry run creates no build cache');

($rc, $out, $err) = run_client(linked_ab("$base/first"), '--build-only');
is($rc, 0, 'the linked source built') or diag "$out\n$err";
my $entry = entry_of($out);
ok(defined $entry, 'in an entry of the cache');
set_build_seconds($entry, 200);

($rc, $out, $err) = run_client(linked_ab("$base/cached"), '--check');
like($out, qr/^pre-flight: builds: every variant built from source is in the build cache \(1\), so none takes time$/m,
	'built: in the cache, no time');

# counted_view builds with symbols, as the run takes it: another build
($rc, $out, $err) = run_client(linked_ab("$base/counted-view"), '--counted-view', '--check');
like($out, qr/^pre-flight: builds: 1 to make before the first run \(1 from nothing, 0 from another build's tree\), 0 in the build cache; about 3m20s by the cache's earlier builds here/m,
	'with counted_view, the build with symbols the run makes, not the one in the cache') or diag "$out\n$err";

my $patch1 = write_patch('one', 43);
($rc, $out, $err) = run_client(linked_ab("$base/patched", '--patch', $patch1), '--check');
like($out, qr/^pre-flight: builds: 1 to make before the first run \(0 from nothing, 1 from another build's tree\), 0 in the build cache; their time is not known here: the build cache has no earlier build of one started from another's tree$/m,
	'a patch starts from the unpatched build\'s tree, whose kind the cache has no time of');

# one from nothing (its kind's time known) and one from a tree (not known):
# the line names the kind whose time the cache lacks
($rc, $out, $err) = run_client('ab', '-s', '1', '-r', '1', '-T', '1', '-c', '1', '-b', 'select-only',
	'--variant', 'A', '--source', linked_source(), '--cflags', '-O1',
	'--variant', 'B', '--source', linked_source(), '--patch', $patch1, '-o', "$base/two-kinds", '--check');
like($out, qr/^pre-flight: builds: 2 to make before the first run \(1 from nothing, 1 from another build's tree\), 0 in the build cache; their time is not known here: the build cache has no earlier build of one started from another's tree$/m,
	'of two kinds, the one whose time the cache lacks is named');

($rc, $out, $err) = run_client(linked_ab("$base/patched", '--patch', $patch1), '--build-only');
is($rc, 0, 'the patched build made') or diag "$out\n$err";
my $patched_entry = entry_of($out);
like($out, qr/^variant A: building in \S+ \(starting from \Q$entry\E\)$/m, 'starting from the unpatched tree');
set_build_seconds($patched_entry, 7);

# A with other flags (built from nothing), B with another patch (from the
# unpatched tree), C as A: one build of A's, counted once
my $patch2 = write_patch('two', 44);
my @linked = ('--source', linked_source());
($rc, $out, $err) = run_client('ab', '-s', '1', '-r', '1', '-T', '1', '-c', '1', '-b', 'select-only',
	'--variant', 'A', @linked, '--cflags', '-O1', '--variant', 'B', @linked, '--patch', $patch2,
	'--variant', 'C', @linked, '--cflags', '-O1', '--variant', 'D', @linked,
	'-o', "$base/mixed", '--check');
is($rc, 0, 'the dry run of four source variants') or diag "$out\n$err";
like($out, qr/^pre-flight: builds: 2 to make before the first run \(1 from nothing, 1 from another build's tree\), 1 in the build cache; about 3m27s by the cache's earlier builds here, on top of the runs' time below$/m,
	'a build from nothing at 200 s and one started at 7 s: 3m27s; the same build twice made once, the cached one free');
ok(!-e "$base/mixed", 'and nothing written for it');

done_testing();
