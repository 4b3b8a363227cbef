# PGBENCH_EXT_INITDB_CACHE: a managed cluster is a copy of a data directory
# fresh from initdb, kept once per installation, initdb options and locale.
# The first cluster of a kind runs initdb and leaves a complete entry (the
# server account's, private); the next is a copy and runs as well; other
# initdb options are another entry; a cache or an entry someone else could
# have written is refused with the fix, before any run; without the
# variable nothing is kept.  Beside them, the template cache: the first
# cluster of a kind whose template was filled keeps its data directory
# once the template is ready; the next of that kind (installation,
# scale, settings) is a copy of it and runs no pgbench -i.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $cache = "$base/initdb";
# The clusters' set-up is the point, not the runs: no restarts with
# their warm-up runs, no copy of the run database before each run, and
# where one cluster is looked at, the other variant runs on its server.
# The first experiment keeps the default restart = auto, whose choice on
# servers of their own it shows (a restart before every round: with one
# round, only warm-up runs after the set-up's start).
my @one_round = ('ab', '-s', '1', '-c', '1', '-t', '20', '-r', '1', '-b', 'select-only', '--seed', '3',
	'--reset', 'never');
my @tiny = (@one_round, '--restart', 'never');
# Runs that fail unless the template holds what pgbench -i -s 1 and the
# set-up made: pgbench_accounts' 100000 rows, analyzed, and the extension
# at its default version (a division by zero fails the run otherwise).
my $check_script = "$base/check-template.sql";
write_file($check_script,
	"SELECT 1 / (count(*) = 100000)::int FROM pgbench_accounts;\n"
	  . "SELECT 1 / count(*)::int FROM pg_stats WHERE tablename = 'pgbench_accounts';\n"
	  . "SELECT 1 / count(*)::int FROM pg_extension e JOIN pg_available_extensions a ON a.name = e.extname "
	  . "AND e.extversion = a.default_version WHERE e.extname = 'pgbench_ext';\n");
my @checked = map { $_ eq 'select-only' ? $check_script : $_ } @one_round;
my $account = $> == 0 ? ($ENV{PGBENCH_EXT_OS_USER} || 'postgres') : scalar getpwuid($>);

sub variant_of
{
	my ($dir, $name) = @_;
	return read_json("$dir/experiment.json")->{variants}{$name};
}

local $ENV{PGBENCH_EXT_INITDB_CACHE} = $cache;

# --- A runs initdb and keeps it; B, of the same kind, is a copy; C, with
# other initdb options, is another entry --------------------------------------
my $dir = "$base/first";
my ($rc, $out, $err) = run_client(@checked, '--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--bindir', $bindir,
	'--variant', 'C', '--bindir', $bindir, '--initdb-args', '--data-checksums', '-o', $dir);
is($rc, 0, 'an A/B/C with the cache named completes') or diag "$out\n$err";
is(variant_of($dir, 'A')->{initdb_template}, undef, 'A ran initdb');
my $entry = variant_of($dir, 'B')->{initdb_template};
like($entry // '', qr{^\Q$cache\E/initdb-[0-9a-f]{16}$}, 'B is a copy of the entry A left');
is(variant_of($dir, 'C')->{initdb_template}, undef, 'C, with --data-checksums, ran initdb');
my @st = stat($entry);
is(scalar getpwuid($st[4]), $account, 'the entry belongs to the server account');
is($st[2] & 07777, 0700, 'and is private to it');
ok(-f "$entry/data/PG_VERSION" && -s "$entry/initdb.key", 'it holds the data directory and its key');
like(slurp_file("$entry/initdb.key"), qr{^initdb template \d+\ninitdb [0-9a-f]{64}\npostgres [0-9a-f]{64}\n}, 'the key file holds what its name hashes');
is(scalar(my @entries = glob("$cache/initdb-*")), 2, 'two entries: C\'s options are another');
my @runs = read_runs($dir);
is(scalar(grep { $_->{status} ne 'ok' } @runs), 0, 'every run of the three variants is ok (' . scalar(@runs) . ')');
my $filled = variant_of($dir, 'B')->{template_cache};
like($filled // '', qr{^\Q$cache\E/template-[0-9a-f]{16}$}, 'B\'s data directory is a copy of the filled template A left');
like(slurp_file("$dir/clusters/B/initdb.log"), qr/^\$ cp -a -T \Q$filled\E\/data /m, 'B\'s initdb.log shows the copy');
is(variant_of($dir, 'A')->{template_cache}, undef, 'A filled its template');
is(variant_of($dir, 'C')->{template_cache}, undef, 'so did C, of another initdb entry');
like(slurp_file("$dir/pgbench-init-A.log"), qr/done in/, 'A ran pgbench -i');
like(slurp_file("$dir/pgbench-init-B.log"), qr/^pgbench -i not run: the template database came ready \(pgbench -i -I dtgp -s 1, .*from the template cache, in the copy of entry \Q$filled\E$/m,
	'B did not, and its log says whence its template came');
is(variant_of($dir, 'B')->{pgbench_init_s}, 0, 'no time went into filling B\'s');
is(join(',', sort keys %{ variant_of($dir, 'B') }), join(',', sort keys %{ variant_of($dir, 'A') }), 'A and B are recorded alike');
@st = stat($filled);
ok(@st && scalar getpwuid($st[4]) eq $account && ($st[2] & 07777) == 0700, 'the filled entry is the server account\'s, private');
like(slurp_file("$filled/template.key"), qr/^filled template \d+\ninitdb template \d+\n.*^pgbench [0-9a-f]{64}\nscale 1\nunlogged no\nextension control [0-9a-f]{64}\nextension module [0-9a-f]{64}\n(extension script pgbench_ext--\S+ [0-9a-f]{64}\n)+settings\n/ms,
	'its key holds the initdb entry\'s, pgbench, the scale, the extension and the settings');
ok(!-e "$filled/data/postmaster.pid" && !-e "$filled/data/postmaster.opts" && !-e "$filled/data/log",
	'it holds no pid file, no command line and no log');
{
	my @starts = read_instances($dir);
	is(join(',', map { "$_->{instance}:$_->{cause}" } grep { $_->{server} eq 'A' && $_->{cause} eq 'setup' } @starts),
		'1:setup', 'A\'s restart to keep its data directory is its one set-up start, instance 1');
}
is(scalar(my @tentries = glob("$cache/template-*")), 2, 'two filled entries: A\'s (copied by B) and C\'s');
@st = stat("$dir/clusters/B/data");
is($st[2] & 07777, 0700, 'the copied data directory is private as initdb makes it');
like($out . $err, qr/setting data_checksums is "off" in A but "on" in C/, 'and each cluster is what its options made');
my $exp = read_json("$dir/experiment.json");
is($exp->{spec}{experiment}{restart}, 'auto', 'restart = auto is the default');
is($exp->{restart}{rounds_per_instance}, 1, 'servers of their own: a restart before every round');
like($exp->{restart}{why}, qr/variants on different servers/, 'and why');
is(join(',', sort keys %{ { map { ($_->{variant} => 1) } grep { $_->{warmup} eq 'true' && $_->{round} == 0 } @runs } }),
	'A,B,C', 'each variant warms up after its start');

# --- settings planted in an entry are not the cluster's ---------------------
# The server account owns the cache, so it can write an entry's
# configuration: postgresql.auto.conf, read after the client's settings,
# and postgresql.conf, initdb's own values in it included.  None of it
# reaches a cluster copied from the entry: initdb's values come from the
# client's record of them (in its state directory), the rest from the
# client alone.
my %planted = (
	'postgresql.auto.conf' => "listen_addresses = '127.0.0.1'\narchive_command = 'touch /tmp/planted-archive'\n"
	  . "cluster_name = 'planted'\n",
	'postgresql.conf' => "listen_addresses = '127.0.0.1'\nwork_mem = '7MB'\nshared_preload_libraries = 'planted_library'\n"
	  . "include_if_exists = '/tmp/planted.conf'\nmax_connections = 76\n");
my %kept;
foreach my $file (sort keys %planted)
{
	$kept{$file} = slurp_file("$entry/data/$file");
	append_to_file("$entry/data/$file", $planted{$file});
}
my ($initdb_max) = $kept{'postgresql.conf'} =~ /^max_connections = (\d+)/m;
# initdb's own line edited in place
write_file("$entry/data/postgresql.conf",
	slurp_file("$entry/data/postgresql.conf") =~ s/^max_connections = \d+/max_connections = 77/mr);
# (B on A's server: A's cluster is the one looked at)
$dir = "$base/planted-settings";
# (at scale 2, of which no filled template is kept yet: a copy of the
# initdb entry)
($rc, $out, $err) = run_client(@tiny, '-s', '2', '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--cluster', 'A', '-o', $dir);
is($rc, 0, 'an A/B copied from an entry with planted settings completes') or diag "$out\n$err";
is(variant_of($dir, 'A')->{template_cache}, undef, 'scale 2: A filled its template');
is(scalar(my @scaled = glob("$cache/template-*")), 3, 'and kept a new filled entry');
is(variant_of($dir, 'A')->{initdb_template}, $entry, 'A is a copy of that entry');
my %env = map { ($_->{name} => $_) } grep { ($_->{category} // '') eq 'changed' } @{ variant_of($dir, 'A')->{environment} // [] };
ok(%env, 'A\'s settings are recorded');
is($env{listen_addresses}{value}, '', 'the cluster listens on no TCP address');
like($env{listen_addresses}{note} // '', qr/command line/, 'as its command line says');
ok(!exists $env{archive_command} && !exists $env{cluster_name}, 'the settings planted in postgresql.auto.conf are absent')
  or diag explain [ $env{archive_command}, $env{cluster_name} ];
ok(!exists $env{work_mem}, 'so are those planted in postgresql.conf') or diag explain $env{work_mem};
is($env{max_connections}{value} // '100', $initdb_max, 'initdb\'s values are the client\'s record of them, not the entry\'s');
is($env{shared_preload_libraries}{value}, 'pgbench_ext', 'only the client preloads a library');
unlike(slurp_file("$dir/clusters/A/server.log"), qr/listening on IPv[46]/, 'server.log: no TCP socket opened');
is(slurp_file("$dir/clusters/A/data/postgresql.auto.conf"),
	"# Do not edit this file manually!\n# It will be overwritten by the ALTER SYSTEM command.\n",
	'the copy\'s postgresql.auto.conf is ALTER SYSTEM\'s empty header');
unlike(slurp_file("$dir/clusters/A/data/postgresql.conf"), qr/planted|listen_addresses|work_mem|= '7[67]'/,
	'its postgresql.conf holds nothing planted');
like($err, qr/warning: initdb cache entry "\Q$entry\E": postgresql.auto.conf holds settings \(listen_addresses = '127.0.0.1', archive_command/,
	'a warning names the entry and what was dropped');
write_file("$entry/data/$_", $kept{$_}) foreach sort keys %kept;

# --- an entry the client has no record of is not copied ---------------------
# (another state directory: another user's client made the entries)
{
	local $ENV{PGBENCH_EXT_STATE_DIR} = "$base/other-state";
	$dir = "$base/no-record";
	($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', $dir);
	is($rc, 0, 'an A/B without a record of initdb\'s values completes') or diag "$out\n$err";
	is(variant_of($dir, 'A')->{initdb_template}, undef, 'A ran initdb, although the entry is there');
	is(variant_of($dir, 'B')->{initdb_template}, $entry, 'B is a copy: A recorded initdb\'s values');
	my ($record) = glob("$base/other-state/initdb/initdb-*.conf");
	like(slurp_file($record // '/dev/null'), qr/^max_connections = '$initdb_max'$/m, 'the record holds initdb\'s values');
	my @rst = stat($record // '/dev/null');
	is($rst[4], $>, 'and belongs to the client\'s user');
}

# --- filled entries: another setting is another; one incomplete is not
# copied; one writable by others is refused -------------------------------
$dir = "$base/setting";
($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--set', 'work_mem=5MB',
	'--variant', 'B', '--cluster', 'A', '-o', $dir);
is($rc, 0, 'an A/B of another setting completes') or diag "$out\n$err";
is(variant_of($dir, 'A')->{template_cache}, undef, 'another setting: A filled its template');
is(scalar(my @set = glob("$cache/template-*")), 4, 'and kept another filled entry');
rename("$filled/template.key", "$base/template.key") or die;
$dir = "$base/unfinished";
($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--cluster', 'A', '-o', $dir);
is($rc, 0, 'an A/B beside an incomplete filled entry completes') or diag "$out\n$err";
is(variant_of($dir, 'A')->{template_cache}, undef, 'the incomplete entry is not copied');
like(slurp_file("$dir/pgbench-init-A.log"), qr/done in/, 'pgbench -i ran');
rename("$base/template.key", "$filled/template.key") or die;
chmod 0707, $filled or die;
$dir = "$base/open-entry";
($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--cluster', 'A', '-o', $dir);
is($rc, 2, 'a filled entry writable by others is refused (status 2)');
like($err, qr/template cache entry "\Q$filled\E" is writable by others/, 'naming it');
chmod 0700, $filled or die;

# --- refusals, before any run -----------------------------------------------
chmod 0777, $cache or die;
$dir = "$base/open";
($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', $dir);
is($rc, 2, 'a cache writable by others is refused (status 2)');
like($err, qr/initdb cache "\Q$cache\E" is writable by others \(mode 0777\)/, 'naming it and why');
like($err, qr/hint: Name a cache of your own with PGBENCH_EXT_INITDB_CACHE=DIR/, 'and the fix');
is(-e "$dir/runs.csv" ? scalar(read_runs($dir)) : 0, 0, 'nothing ran');
chmod 0700, $cache or die;

SKIP:
{
	skip 'planting an entry of another user needs root', 2 unless $> == 0;
	my $nobody = getpwnam('nobody');
	my @entries = glob("$cache/initdb-*");
	foreach my $e (@entries)
	{
		chown $nobody, -1, $e or die "chown $e: $!";
	}
	$dir = "$base/planted";
	($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir, '-o', $dir);
	is($rc, 2, 'an entry of another user is refused (status 2)');
	like($err, qr/initdb cache entry "\Q$cache\E\/initdb-[0-9a-f]{16}" belongs to user "nobody"/, 'naming it');
	chown((getpwnam($account))[2], -1, $_) foreach @entries;
}

# --- without the variable, initdb runs and nothing is kept -------------------
delete local $ENV{PGBENCH_EXT_INITDB_CACHE};
$dir = "$base/none";
($rc, $out, $err) = run_client(@tiny, '--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--cluster', 'A', '-o', $dir);
is($rc, 0, 'a run without the cache completes') or diag "$out\n$err";
is(variant_of($dir, 'A')->{initdb_template}, undef, 'initdb ran');

done_testing();
