# pgbench_ext.compare() needs no shared memory, so it must work on a server
# that does not preload pgbench_ext: start a throwaway cluster of our own with
# shared_preload_libraries empty (the last setting written wins) and call it.
use strict;
use warnings;

use File::Path qw(rmtree);
use File::Temp qw(tempdir);
use PostgreSQL::Test::Utils;
use Test::More;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
# (removed explicitly at the end: File::Temp's own cleanup does not run here)
my $dir = tempdir('pgbench_ext_nopreload.XXXXXX', TMPDIR => 1);
chmod 0755, $dir;

my $script = <<'SH';
. tools/cluster.sh || exit 1
trap cluster_stop EXIT
cluster_start "$1/cluster" "shared_preload_libraries = ''" >&2 || exit 1
psql -X -q -A -t -v ON_ERROR_STOP=1 -d postgres \
	-c "SHOW shared_preload_libraries" \
	-c "CREATE EXTENSION pgbench_ext" \
	-c "SELECT verdict, p_value = 2.0 / 252 FROM pgbench_ext.compare('{100,102,98,101,99}', '{105,107,103,106,104}')"
SH

my ($out, $err) = ('', '');
my $ok = IPC::Run::run([ 'bash', '-c', $script, 'nopreload', $dir ],
	'>', \$out, '2>', \$err, init => sub { chdir $top or die "chdir $top: $!" });
ok($ok, 'cluster without preloading ran the queries') or diag $err;
my @lines = split /\n/, $out;
is($lines[0], '', 'shared_preload_libraries is empty');
is($lines[1], 'faster|t', 'compare() works without shared_preload_libraries');

rmtree($dir);
done_testing();
