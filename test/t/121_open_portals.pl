# More top-level statements open at once than the counters' table of open
# statements first has room for (8), on a server that preloads pgbench_ext.
#
# Portals of the extended query protocol are top-level statements: each
# Execute with a row limit leaves one suspended, its executor open until
# the portal is closed.  libpq and psql cannot leave portals suspended, so
# this test speaks the protocol itself over the server's Unix socket:
# twelve portals suspended at once, a tight loop of counters() reads while
# they are open, then each portal run to its end and closed.  Every
# statement must be counted, with its rows: none may be lost for want of
# room.
use strict;
use warnings;

use AsServerAccount;
use IO::Socket::UNIX;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;

my $node = PostgreSQL::Test::Cluster->new('main');
init_node($node);
$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pgbench_ext'");
$node->start;
my $db = create_database($node, 'open_portals');
my $portals = 12;
my $reads = 30;

# --- the protocol, as much of it as the test needs

sub message
{
	my ($type, $body) = @_;
	return $type . pack('N', 4 + length $body) . $body;
}

# Read messages up to ReadyForQuery; dies on an ErrorResponse.
sub read_until_ready
{
	my ($sock) = @_;
	my %seen;
	for (;;)
	{
		my $head = '';
		while (length $head < 5)
		{
			my $got = sysread($sock, $head, 5 - length $head, length $head);
			die "connection closed by the server" unless $got;
		}
		my ($type, $len) = unpack('a N', $head);
		my $body = '';
		while (length $body < $len - 4)
		{
			my $got = sysread($sock, $body, $len - 4 - length $body, length $body);
			die "connection closed by the server" unless $got;
		}
		if ($type eq 'E')
		{
			my %f = map { substr($_, 0, 1) => substr($_, 1) } grep { length } split /\0/, $body;
			die "server error: $f{M}";
		}
		$seen{$type}++;
		return \%seen if $type eq 'Z';
	}
}

my ($host, $port) = ($node->host, $node->port);
my $sock = IO::Socket::UNIX->new(Type => SOCK_STREAM, Peer => "$host/.s.PGSQL.$port")
  or die "could not connect to $host/.s.PGSQL.$port: $!";

# the start-up packet has no type byte
my $params = join('', map { "$_\0" } user => scalar(getpwuid($>)),
	database => $db) . "\0";
print $sock pack('N N', 8 + length $params, 196608) . $params;
read_until_ready($sock);

{
	local $ENV{PGOPTIONS} = '-c pgbench_ext.track=off';
	$node->safe_psql($db, 'SELECT pgbench_ext.reset()');
}

print $sock message('Q', "BEGIN\0");
read_until_ready($sock);

my $batch = '';
foreach my $i (1 .. $portals)
{
	$batch .= message('P', "\0SELECT g FROM generate_series(1, $i) g\0" . pack('n', 0));
	$batch .= message('B', "p$i\0\0" . pack('n n n', 0, 0, 0));
	$batch .= message('E', "p$i\0" . pack('N', 1));
}
foreach (1 .. $reads)
{
	$batch .= message('P', "\0SELECT count(*) FROM pgbench_ext.counters()\0" . pack('n', 0));
	$batch .= message('B', "\0\0" . pack('n n n', 0, 0, 0));
	$batch .= message('E', "\0" . pack('N', 0));
}
foreach my $i (1 .. $portals)
{
	$batch .= message('E', "p$i\0" . pack('N', 0));
	$batch .= message('C', "Pp$i\0");
}
print $sock $batch . message('S', '');
my $seen = read_until_ready($sock);
is($seen->{s}, $portals, "$portals portals were suspended at once");

print $sock message('Q', "COMMIT\0");
read_until_ready($sock);
print $sock message('X', '');
close $sock;

my %c;
{
	local $ENV{PGOPTIONS} = '-c pgbench_ext.track=off';
	%c = map { split /\|/ } split /\n/,
	  $node->safe_psql($db, "SELECT scope || '.' || metric || '|' || value FROM pgbench_ext.counters() "
		  . "WHERE metric IN ('calls', 'rows', 'commits')");
}
is($c{'select.calls'}, $portals + $reads,
	"every select counted: $portals portals and $reads reads while they were open");
is($c{'select.rows'}, $portals * ($portals + 1) / 2 + $reads,
	'with every row: 1 + 2 + ... + 12 from the portals, one per read');
is($c{'utility.calls'}, 2, 'BEGIN and COMMIT');
is($c{'xact.commits'}, 1, 'one transaction');

done_testing();
