# NodeTemplate.pm — a test's PostgreSQL::Test::Cluster node initialized as
# a copy of the first one's data directory instead of by initdb again.
#
# PostgreSQL::Test::Cluster->init runs initdb and then writes the same
# configuration for every node of one installation, its port and socket
# directory aside; initdb is most of the CPU a node's set-up costs (0.9
# CPU-s of initdb -N on a 2-vCPU AMD EPYC VM), and some twenty tests each
# make one or two.  The first node's data directory, initialized so and
# never started, is kept below the test run's initdb cache
# (PGBENCH_EXT_INITDB_CACHE, which make prove_installcheck makes afresh for
# each run and gives to the server account); a later node
# is a copy of it (cp -a) with its own port and socket directory.  A copy
# differs from a fresh initdb only in pg_control's system identifier, which
# the copies share: these nodes are never each other's standbys.  Without
# the cache, over TCP, or with TEMP_CONFIG, init_node() is $node->init.
package NodeTemplate;

use strict;
use warnings;

use Exporter 'import';
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;

our @EXPORT = qw(init_node);

# init_node($node): $node initialized, as $node->init would, not started
sub init_node
{
	my ($node) = @_;
	my $cache = $ENV{PGBENCH_EXT_INITDB_CACHE};
	return $node->init
	  if !$cache || !-d $cache || !-w $cache || $PostgreSQL::Test::Cluster::use_tcp || defined $ENV{TEMP_CONFIG};
	my $template = "$cache/test-node";
	# the test that makes the directory "making" makes the template; one
	# started meanwhile waits for it (prove starts several at once), and
	# runs initdb itself when it takes over a minute
	if (!-d $template && mkdir "$template.making")
	{
		$node->init;
		my $tmp = "$template.$$";
		system('cp', '-a', $node->data_dir, $tmp) == 0 or die "could not copy " . $node->data_dir . " to $tmp";
		rename($tmp, $template) or die "could not rename $tmp to $template: $!";
		return;
	}
	for (my $t0 = time; !-d $template && time - $t0 < 60;)
	{
		select(undef, undef, undef, 0.2);
	}
	return $node->init unless -d $template;
	mkdir $node->backup_dir;
	mkdir $node->archive_dir;
	system('cp', '-a', $template, $node->data_dir) == 0 or die "could not copy $template to " . $node->data_dir;
	# init appended the port and the socket directory last: this node's
	my $conf = $node->data_dir . '/postgresql.conf';
	my $text = slurp_file($conf);
	my ($port, $host) = ($node->port, $node->host);
	$text =~ s/^port = \d+$/port = $port/m or die "no port in $conf";
	$text =~ s/^unix_socket_directories = '[^'\n]*'$/unix_socket_directories = '$host'/m
	  or die "no unix_socket_directories in $conf";
	open my $fh, '>', $conf or die "could not write $conf: $!";
	print $fh $text;
	close $fh or die "could not write $conf: $!";
	return;
}

1;
