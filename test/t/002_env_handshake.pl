# "pgbench_ext env" against a live server, and the version handshake: the
# library and SQL objects installed are of pgbench_ext.control's version; the
# client refuses a database whose extension is missing or of another
# version, naming the part that differs and what to do.
use strict;
use warnings;

use AsServerAccount;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $top = source_tree();
my ($rc, $out, $err);

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgbench_ext'");
$node->start;

create_database($node, 'env_ok');
($rc, $out, $err) = run_client_on($node, 'env', '-d', 'env_ok');
is($rc, 0, 'env succeeds') or diag $err;
like($out, qr/server\s+\|\s+server_version_num\s+\|\s+\d{6}/, 'env prints server_version_num');
like($out, qr/build\s+\|\s+debug_assertions\s+\|\s+(on|off)/, 'env prints debug_assertions');
like($out, qr/setting\s+\|\s+fsync\s+\|\s+off/, 'env prints the cluster\'s fsync = off');
like($out, qr/changed\s+\|\s+shared_preload_libraries\s+\|\s+pgbench_ext/,
	'env lists changed settings');
like($out, qr/machine\s+\|\s+cpu_count\s+\|\s+\d+/, 'env prints the CPU count');

($rc, $out) = run_client_on($node, 'env', "dbname=env_ok application_name=x");
is($rc, 0, 'a positional conninfo string works');

# The library and the SQL objects installed are of this tree's version, the
# one pgbench_ext.control gives (001 checks the client's --version against it).
is($node->safe_psql('env_ok', 'SELECT pgbench_ext.version()'), control_version(),
	'pgbench_ext.version() is the version of pgbench_ext.control');
is($node->safe_psql('env_ok', "SELECT extversion FROM pg_extension WHERE extname = 'pgbench_ext'"),
	control_version(), 'the SQL objects are of the version of pgbench_ext.control');

# Missing extension: name the database and give the CREATE EXTENSION line.
create_database($node, 'env_noext', extension => 0);
($rc, $out, $err) = run_client_on($node, 'env', 'dbname=env_noext');
is($rc, 1, 'missing extension: exit 1');
like($err, qr/error: extension "pgbench_ext" is not installed in database "env_noext"/,
	'missing extension: names the database');
like($err, qr/hint: .*CREATE EXTENSION pgbench_ext;/, 'missing extension: gives the command');

# Server down: libpq's message plus the parameters tried, never the password.
my $nowhere = PostgreSQL::Test::Utils::tempdir;
($rc, $out, $err) = run_client('env', "host=$nowhere port=1 password=sekrit dbname=x");
is($rc, 1, 'server down: exit 1');
like($err, qr/error: connection to server on socket "\Q$nowhere\E\/\.s\.PGSQL\.1" failed/,
	'server down: libpq\'s message');
like($err, qr/detail: Connection parameters tried: host=\Q$nowhere\E port=1 dbname=x/,
	'server down: the parameters tried');
unlike($err, qr/sekrit/, 'server down: no password in the message');

# SQL objects of another version than the library (an upgrade without
# ALTER EXTENSION): refused, naming both versions.
create_database($node, 'env_oldsql');
my $libversion = $node->safe_psql('env_oldsql', 'SELECT pgbench_ext.version()');
$node->safe_psql('env_oldsql', "UPDATE pg_extension SET extversion = '0.0.1' WHERE extname = 'pgbench_ext'");
($rc, $out, $err) = run_client_on($node, 'env', '-d', 'env_oldsql');
is($rc, 1, 'stale SQL objects: exit 1');
like($err,
	qr/extension objects in database "env_oldsql" are version 0\.0\.1, but the loaded library is version \Q$libversion\E/,
	'stale SQL objects: names both versions');
like($err, qr/hint: Run ALTER EXTENSION pgbench_ext UPDATE/, 'stale SQL objects: says what to do');

# A client of another version than the server's library: build one.
my $build = PostgreSQL::Test::Utils::tempdir;
my $common = "$top/common";
# The built client is copied with its objects (times kept); only those that
# compile the version in are made again, with the other version.
system("cp -a $top/client $common $top/pgbench_ext.control $build/") == 0
  or die "copy failed";
foreach my $source (glob("$build/client/*/*.c"))
{
	next unless slurp_file($source) =~ /PGBENCH_EXT_VERSION/;
	unlink($source =~ s/\.c$/.o/r);
}
unlink("$build/client/pgbench_ext");
system("make -s -C $build/client EXTVERSION=9.9.9 PG_CONFIG=" . $node->config_data('--bindir')
	  . "/pg_config >$build/build.log 2>&1") == 0
  or BAIL_OUT("could not build a 9.9.9 client: " . slurp_file("$build/build.log"));
my ($o2, $e2) = ('', '');
IPC::Run::run([ "$build/client/pgbench_ext", 'env', '-h', $node->host, '-p', $node->port, '-d', 'env_ok' ],
	'>', \$o2, '2>', \$e2);
is($? >> 8, 1, 'mismatched client: exit 1');
like($e2,
	qr/the server's pgbench_ext library is version \Q$libversion\E, but this client is version 9\.9\.9/,
	'mismatched client: names both versions');
like($e2, qr/hint: Install pgbench_ext 9\.9\.9 on the server/, 'mismatched client: says what to do');

done_testing();
