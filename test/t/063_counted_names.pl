# Under profile = counted nothing of a variant's name reaches its server:
# two variants of one binary, each with a server of its own, named "A"
# and "a_much_longer_variant_name", have their clusters in
# clusters/00 and clusters/01, and while both servers run under
# callgrind their postmasters' command lines (valgrind's and the
# postgres argv it starts, postmaster.opts) are of one length and name
# neither variant, their environments are the same, and so are the
# lengths of the paths their configuration gives them.  A path of another
# length moves the heap and the initial stack of every server process,
# and with them the paths string functions take: an A/A of those two
# names counted -8 instructions per transaction (-0.008%) in 7 of 8
# instance pairs before (docs/counted-noise.md).  Checked
# on what the servers are given, not on counts: a count's difference of a
# few instructions needs many rounds to tell from the flushes of
# statistics, and this check has nothing to tell apart.  The command line
# also shows each function whose time, not work, is left out of the count.
#
# What it assumes of the machine: valgrind (tools/deps installs it) and
# Debian's postgres with PostgresMain in .dynsym, as 093 does; the
# experiment is 2 runs of 20 transactions under valgrind, without the
# warm-up run after each start that restart = auto would add under
# valgrind too (restart = never: what the servers are given is the point).
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $dir = shared_tempdir() . '/names';
my @names = ('A', 'a_much_longer_variant_name');
my ($out, $err) = ('', '');
my $h = IPC::Run::start(
	[
		client(), 'ab', '-s', '1', '-c', '1', '-t', '20', '-r', '1', '-b', 'select-only',
		'--reset', 'never', '--restart', 'never', '--profile', 'counted', '--seed', '3',
		'--variant', $names[0], '--bindir', pg_bindir(),
		'--variant', $names[1], '--bindir', pg_bindir(), '-o', $dir
	],
	'<', \undef, '>', \$out, '2>', \$err);

# the two postmasters, once both run under callgrind, whatever their
# clusters are named (a pid file the glob saw may be gone when read: a
# server stopped between set-up and its start under valgrind)
sub postmaster_of
{
	my ($file) = @_;
	open(my $pf, '<', $file) or return undef;
	my $pid = <$pf>;
	close $pf;
	chomp $pid if defined $pid;
	return undef unless $pid && open(my $fh, '<', "/proc/$pid/cmdline");
	local $/;
	my $cmdline = <$fh>;
	return defined $cmdline && $cmdline =~ /--tool=callgrind/ ? $pid : undef;
}
my $pids = wait_until(600, sub {
	my @p = map { postmaster_of($_) } glob("$dir/clusters/*/data/postmaster.pid");
	return (grep { defined } @p) == 2 ? \@p : undef;
}, $h);
ok(defined $pids, 'both servers run under callgrind') or diag "$out\n$err";

my %seen;
if (defined $pids)
{
	foreach my $i (0, 1)
	{
		foreach my $what ('cmdline', 'environ')
		{
			open my $fh, '<', "/proc/$pids->[$i]/$what" or die "could not read /proc/$pids->[$i]/$what: $!";
			local $/;
			$seen{$what}[$i] = <$fh>;
		}
	}
	is(length($seen{cmdline}[0]), length($seen{cmdline}[1]), 'the two command lines are of one length')
	  or diag join("\n", map { s/\0/ /gr } @{ $seen{cmdline} });
	is($seen{environ}[0], $seen{environ}[1], 'the two environments are the same');
	# what is time rather than work is left out of the count (docs/profiles.md,
	# counted: how): each of these reaches callgrind
	foreach my $f (qw(secure_read pgstat_report_stat xact_end statement_ended pgstat_assoc_relation
		enable_timeout_after disable_timeout ReceiveSharedInvalidMessages))
	{
		ok(index($seen{cmdline}[0], "\0--toggle-collect=$f\0") >= 0, "callgrind toggles collection in $f");
	}
	foreach my $what ('cmdline', 'environ')
	{
		ok(!grep({ index($_, "/$names[0]/") >= 0 || index($_, $names[1]) >= 0 } @{ $seen{$what} }),
			"no $what names a variant");
	}
}
$h->finish;
is($h->result(0), 0, 'the experiment completes') or diag "$out\n$err";

ok(-d "$dir/clusters/00" && -d "$dir/clusters/01" && !-e "$dir/clusters/$names[0]" && !-e "$dir/clusters/$names[1]",
	'the clusters are named by index, not by the variants\' names');
my @opts = map { slurp_file("$dir/clusters/$_/data/postmaster.opts") } ('00', '01');
is(length($opts[0]), length($opts[1]), 'postmaster.opts, the postgres argv: of one length');
my @conf = map { slurp_file("$dir/clusters/$_/postgresql.pgbench_ext.conf") } ('00', '01');
foreach my $key ('hba_file', 'ident_file', 'unix_socket_directories', 'port')
{
	my @v = map { /^$key = (.*)$/m ? $1 : '' } @conf;
	ok(length($v[0]) && length($v[0]) == length($v[1]), "$key: of one length in both servers' configuration ($v[0])");
}
is(join(' ', map { "$_->{server}:$_->{instance}:$_->{env_pad}" } grep { $_->{cause} eq 'valgrind' } read_instances($dir)),
	"$names[0]:2:0 $names[1]:2:0", 'instances.csv: each server\'s start under valgrind, its second, with no environment padding');

done_testing();
