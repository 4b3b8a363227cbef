# Profiles refuse what cannot work before any run, each with its cause and
# its fix and exit status 2, and without creating the results directory:
# bad keys, valgrind or perf missing, kernel.perf_event_paranoid too strict
# for the account that records, a cycle counter the machine lacks, a
# binary without symbols, a server this tool does not manage.
use strict;
use warnings;

use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $n = 0;

my @two = ('--variant', 'A', '--bindir', $bindir, '--variant', 'B', '--bindir', $bindir);

# a bindir whose postgres has no symbols: a small program, stripped
my $nosym = "$base/nosym";
mkdir $nosym;
symlink("$bindir/$_", "$nosym/$_") for qw(initdb pg_ctl pgbench);
open my $fh, '>', "$base/p.c" or die;
print $fh "int main(void) { return 0; }\n";
close $fh;
IPC::Run::run([ 'cc', '-o', "$base/p", "$base/p.c" ]) or die "cc failed";
IPC::Run::run([ 'strip', '--strip-all', '-o', "$nosym/postgres", "$base/p" ]) or die "strip failed";

open $fh, '>', "$base/paranoid" or die;
print $fh "3\n";
close $fh;

my ($cycles_out, $cycles_err) = ('', '');
IPC::Run::run([ 'perf', 'stat', '-x', ',', '-e', 'cycles:u', '--', 'true' ], '>', \$cycles_out, '2>', \$cycles_err);
my $no_cycles = $cycles_err =~ /<not supported>|<not counted>/;

# [ name, environment, arguments, stderr pattern ]
my @cases = (
	[ 'unknown profile', {}, [ '--profile', 'timed', @two ], qr/profile must be off, counted .* or sampled .*, got "timed"/ ],
	[ 'cache_sim without counted', {}, [ '--cache-sim', 'on', @two ],
		qr/cache_sim applies to counted profiles only.*\n.*hint: Set profile = counted/ ],
	[ 'sample_rate without sampled', {}, [ '--profile', 'counted', '--sample-rate', '99', @two ],
		qr/sample_event and sample_rate apply to sampled profiles only/ ],
	[ 'sample_rate out of range', {}, [ '--profile', 'sampled', '--sample-rate', '0', @two ],
		qr/sample_rate must be a whole number of samples per CPU-second from 1 to 10000, got "0"/ ],
	[ 'valgrind named but absent', { PGBENCH_EXT_VALGRIND => '/nonexistent/valgrind' }, [ '--profile', 'counted', @two ],
		qr/profile = counted needs valgrind: PGBENCH_EXT_VALGRIND names "\/nonexistent\/valgrind", which is not an executable file\n.*hint: Install it \(Debian: apt-get install valgrind/ ],
	[ 'valgrind not on PATH', { PATH => '/nonexistent' }, [ '--profile', 'counted', @two ],
		qr/profile = counted needs valgrind: valgrind is not installed \(not found on PATH, and PGBENCH_EXT_VALGRIND is not set\)/ ],
	[ 'perf not on PATH', { PATH => '/nonexistent' }, [ '--profile', 'sampled', @two ],
		qr/profile = sampled needs perf: perf is not installed.*\n.*hint: Install it \(Debian: apt-get install linux-perf/ ],
	[ 'too few transactions', {}, [ '--profile', 'counted', '-t', '5', @two ],
		qr/profile = counted runs a fixed number of transactions per client, at least 20; transactions is 5/ ],
	[ 'a server not managed', {}, [ '--profile', 'sampled', '--variant', 'A', '--bindir', $bindir,
		'--variant', 'B', '--conninfo', 'host=/tmp dbname=x' ],
		qr/variant "B": profiles need servers this tool manages, not a conninfo server/ ],
	[ 'no symbols (counted)', {}, [ '--profile', 'counted', '--variant', 'A', '--bindir', $bindir,
		'--variant', 'B', '--bindir', $nosym ],
		qr/variant "B": \S+\/nosym\/postgres has no symbols at all: a profile could not name a single function\n.*hint: Use a build that keeps its symbols/ ],
	[ 'no symbols (sampled)', {}, [ '--profile', 'sampled', '--variant', 'A', '--bindir', $bindir,
		'--variant', 'B', '--bindir', $nosym ], qr/variant "B": \S+ has no symbols at all/ ]);
# the account that records is another one only when we are root
if ($> == 0)
{
	push @cases, [ 'perf_event_paranoid 3', { PGBENCH_EXT_PERF_PARANOID_FILE => "$base/paranoid" },
		[ '--profile', 'sampled', @two ],
		qr/kernel\.perf_event_paranoid is 3: "postgres" may not sample even its own processes.*\n.*hint: As root: sysctl -w kernel\.perf_event_paranoid=2/ ];
}
push @cases, [ 'no cycle counter', {}, [ '--profile', 'sampled', '--sample-event', 'cycles', @two ],
	qr/sample_event = cycles, but the CPU's cycle counter is not available here/ ] if $no_cycles;

foreach my $case (@cases)
{
	my ($name, $env, $args, $pattern) = @$case;
	my $dir = "$base/out" . ++$n;
	local @ENV{ keys %$env } = values %$env;
	my ($rc, $out, $err) = run_client('ab', '-s', '1', '-T', '1', '-r', '2', @$args, '-o', $dir);
	is($rc, 2, "$name: exit status 2");
	like($err, $pattern, "$name: the cause and the fix") or diag $err;
	ok(!-e $dir, "$name: nothing was run");
}

done_testing();
