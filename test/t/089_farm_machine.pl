# The machine's facts a real run records in experiment.json (CPU model, a
# digest of its flags, microcode where visible, cores, memory, kernel,
# virtualization), as /proc says them; two runs on this machine have one
# fingerprint ("report DIR1 DIR2" sees one machine, "history" accepts
# them), and a directory whose environment() rows of the machine differ is
# another machine.
#
# What it assumes of the machine: nothing particular.  Every fact is
# compared with what /proc says on the host it runs on (a "microcode"
# line is absent on most virtual machines, and then undef on both sides;
# a VM is recognised by the CPU's hypervisor flag), so Intel or AMD, bare
# or virtual, give their own answers.
use strict;
use warnings;

use Digest::SHA qw(sha256_hex);
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();

my @dirs;
foreach my $i (1, 2)
{
	my $dir = "$base/ab$i";
	# 50 transactions a run, both variants on one server, the data never
	# copied again: the machine's record is the point, not speed
	my ($rc, $out, $err) = run_client('ab', '-s', '1', '-t', '50', '-c', '1', '-b', 'select-only', '--seed', "$i",
		'-r', '2', '--restart', 'never', '--reset', 'never', '--variant', 'a', '--bindir', $bindir,
		'--variant', 'b', '--cluster', 'a', '-o', $dir);
	is($rc, 0, "A/B $i completes") or diag "$out\n$err";
	push @dirs, $dir;
}

# what /proc says
my $cpuinfo = slurp_file('/proc/cpuinfo');
my ($model) = $cpuinfo =~ /^model name\s*: (.*)$/m;
my ($flags) = $cpuinfo =~ /^flags\s*: (.*)$/m;
my ($microcode) = $cpuinfo =~ /^microcode\s*: (.*)$/m;
my ($memory) = slurp_file('/proc/meminfo') =~ /^MemTotal:\s*(.*)$/m;

my $machine = read_json("$dirs[0]/experiment.json")->{machine};
is($machine->{cpu_model}, $model, "the CPU model: $model");
is($machine->{cpu_flags_sha256}, defined $flags ? substr(sha256_hex($flags), 0, 16) : undef,
	'a digest of the CPU flags');
is($machine->{microcode}, $microcode, 'the microcode revision, where /proc shows it');
is($machine->{memory}, $memory, "the memory: $memory");
chomp(my $release = `uname -r`);
is($machine->{kernel}, $release, 'the kernel');
ok($machine->{cpus} >= 1, 'the CPUs');
if (defined $flags && $flags =~ /\bhypervisor\b/)
{
	like($machine->{virtualization}, qr/^virtual machine/, "a virtual machine: $machine->{virtualization}");
}
else
{
	is($machine->{virtualization}, 'none', 'no hypervisor');
}

# one machine: report and history take the two directories as one
my ($rc, $out, $err) = run_client('report', @dirs);
is($rc, 0, 'report of the two directories') or diag $err;
like($out, qr/on 1 machine:/, 'one machine');
my ($fp) = $out =~ /machine 1: ([0-9a-f]{16})/;
($rc, $out, $err) = run_client('history', '--variant', 'b', @dirs);
is($rc, 0, 'history accepts both as points of one machine') or diag $err;

# the environment() rows of category machine are part of the fingerprint
my $copy = "$base/copy";
system('cp', '-a', $dirs[1], $copy) == 0 or die "could not copy $dirs[1]";
my $doc = read_json("$copy/experiment.json");
my $n = 0;
foreach my $variant (values %{ $doc->{variants} })
{
	foreach my $row (@{ $variant->{environment} })
	{
		$row->{value} = "" . ($row->{value} + 64), $n++ if $row->{category} eq 'machine' && $row->{name} eq 'cpu_count';
	}
}
is($n, 2, 'a copy whose environment() rows say 64 more CPUs');
open my $f, '>', "$copy/experiment.json" or die;
print $f JSON::PP->new->canonical->encode($doc);
close $f;
($rc, $out, $err) = run_client('report', $dirs[0], $copy);
like($out, qr/on 2 machines:/, 'is another machine');
my %fps = map { $_ => 1 } $out =~ /^  machine \d: ([0-9a-f]{16})/mg;
ok($fps{$fp} && keys %fps == 2, 'with a fingerprint of its own beside this machine\'s');

done_testing();
