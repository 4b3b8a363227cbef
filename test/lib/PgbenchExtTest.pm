# PgbenchExtTest — what the TAP tests need that is particular to pgbench_ext:
# where this tree's client and unit-test programs are, running the client,
# a database with the extension on a node, directories for the client's
# results, and reading the runs.csv and JSON files the client writes.
#
# Servers are not started here: a test that needs one makes its own with
# PostgreSQL::Test::Cluster, after "use AsServerAccount;" (docs/testing.md).
# The client's own managed clusters are the client's business.
package PgbenchExtTest;

use strict;
use warnings;

use Cwd qw(abs_path);
use Exporter 'import';
use Fcntl ();
use File::Basename qw(dirname);
use IPC::Run;
use JSON::PP;
use Time::HiRes ();
use Test::More;
use Text::CSV;

our @EXPORT =
  qw(client run_client run_client_on create_database shared_tempdir read_csv read_runs read_instances read_json unit_program
  source_tree postgresql_source source_build_test long_leg end_unless_long_leg pg_config pg_bindir wait_until
  lines_in c_code_of forbid_in_client write_file
  variant_build usable_cpus round_noise noisier_than wait_for_install control_version);

# test/lib/ is two levels below the top of the tree
my $top = abs_path(dirname(__FILE__) . '/../..');

# The host's noise history, which the client reads to plan and writes after
# every experiment: each test starts with none of its own, so that no test
# plans from another's runs (a test of the history sets its own).
$ENV{PGBENCH_EXT_STATE_DIR} = "$ENV{TESTDATADIR}/noise_history_$$" if $ENV{TESTDATADIR};

# The top of the source tree the tests belong to.
sub source_tree { return $top; }

# control_version([PATH]) -> default_version of pgbench_ext.control (this
# tree's, or PATH's): the project's one version string, which the client,
# the library and META.json must repeat
sub control_version
{
	my ($path) = @_;
	$path //= "$top/pgbench_ext.control";
	open my $fh, '<', $path or die "could not open $path: $!";
	while (<$fh>)
	{
		return $1 if /^default_version\s*=\s*'([^']*)'/;
	}
	die "no default_version in $path";
}

# postgresql_source([MAJOR]) -> the unpacked PostgreSQL source tree of a
# release (15 unless MAJOR says otherwise), as tools/pg-source fetches,
# verifies and caches it; the test bails out when it cannot be had, since
# every test that asks builds from it.
sub postgresql_source
{
	my @major = @_;
	my ($src, $err);
	IPC::Run::run([ "$top/tools/pg-source", @major ], '<', \undef, '>', \$src, '2>', \$err)
	  or BAIL_OUT("tools/pg-source @major could not provide the PostgreSQL source: $err");
	chomp $src;
	return $src;
}

# long_leg() -> whether PGBENCH_EXT_TEST_LONG asks for what takes minutes by
# nature (make test-build, CI), as test_long() does for the unit tests.
sub long_leg
{
	return $ENV{PGBENCH_EXT_TEST_LONG} ? 1 : 0;
}

# end_unless_long_leg(WHAT): outside the long leg, the test ends here with
# what it has checked, noting that WHAT, the rest, is the long leg's.
sub end_unless_long_leg
{
	my ($what) = @_;
	return if long_leg();
	Test::More::note("$what: PGBENCH_EXT_TEST_LONG=1 (make test-build)");
	Test::More::done_testing();
	exit 0;
}

# source_build_test(WHAT) -> (BASE, SRC): the prologue of a test that
# builds PostgreSQL from source: skipped (WHAT says why it is long) unless
# PGBENCH_EXT_TEST_LONG is set; BASE a shared temporary directory, the
# build cache in it unless PGBENCH_EXT_BUILD_CACHE names one; SRC the
# PostgreSQL 15 source.
sub source_build_test
{
	my ($what) = @_;
	Test::More::plan(skip_all => "$what: run \"make test-build\", or set PGBENCH_EXT_TEST_LONG=1")
	  unless long_leg();
	my $base = shared_tempdir();
	$ENV{PGBENCH_EXT_BUILD_CACHE} ||= "$base/cache";
	return ($base, postgresql_source());
}

# A variant built from source compiles this tree's server module, not the
# copy installed with the client (test/t/076_installed_sources.pl tests that).
$ENV{PGBENCH_EXT_TOP} //= $top;

# This tree's client, as "make" built it.
sub client
{
	my $path = "$top/client/pgbench_ext";
	BAIL_OUT("$path is not built: run \"make\" first") unless -x $path;
	return $path;
}

# A unit-test program of test/unit/, as test/Makefile built it into test/bin/.
sub unit_program
{
	my ($name) = @_;
	my $path = "$top/test/bin/$name";
	BAIL_OUT("$path is not built: run \"make -C test\" first") unless -x $path;
	return $path;
}

# The pg_config of the installation under test, as make was given it; its
# bindir is first on PATH, where PostgreSQL::Test::Cluster finds initdb and
# postgres.
sub pg_config { return $ENV{PG_CONFIG} || 'pg_config'; }

# That installation's bindir, e.g. for the client's --bindir.
sub pg_bindir
{
	my $pg_config = pg_config();
	chomp(my $bindir = `$pg_config --bindir`);
	BAIL_OUT("$pg_config --bindir failed") unless $? == 0 && $bindir ne '';
	return $bindir;
}

# A temporary directory under tmp_check that the server account can enter:
# for results directories and build caches, since the client's servers and
# builds run as that account when the test runs as root.  (The test has
# loaded PostgreSQL::Test::Utils; this module does not, so that the unit
# tests' wrappers keep their standard output.)
sub shared_tempdir
{
	my $dir = PostgreSQL::Test::Utils::tempdir();
	chmod 0755, $dir or die "could not chmod $dir: $!";
	return $dir;
}

# wait_for_install() -> undef, or why what make test installs in the
# background is missing: make test installs the browser beside its build
# and the tests (tools/run-tests), holding an exclusive lock on
# PGBENCH_EXT_DEPS_LOCK until it is done; a shared lock waits for that.
# Run otherwise, there is nothing to wait for.
sub wait_for_install
{
	my $lock = $ENV{PGBENCH_EXT_DEPS_LOCK};
	return undef unless $lock && -e $lock;
	open my $fh, '<', $lock or return "could not open $lock: $!";
	flock($fh, Fcntl::LOCK_SH()) or return "could not lock $lock: $!";
	close $fh;
	my $text_of = sub {
		open my $f, '<', $_[0] or return '';
		local $/;
		return scalar <$f>;
	};
	my $status = $text_of->("$lock.status");
	chomp $status;
	return undef if $status eq '0';
	return "make test's install in the background (tools/deps install browser) failed: "
	  . $text_of->("$lock.log");
}

# Poll check->() every tenth of a second until it returns a defined value,
# which is returned, or until SECONDS have passed (undef).  Given an
# IPC::Run harness, pump its output meanwhile and give up when it ended.
sub wait_until
{
	my ($seconds, $check, $h) = @_;
	for (my $t0 = Time::HiRes::time(); Time::HiRes::time() - $t0 < $seconds; Time::HiRes::sleep(0.1))
	{
		$h->pump_nb if $h;
		my $got = $check->();
		return $got if defined $got;
		last if $h && !$h->pumpable;
	}
	return undef;
}

# The CPUs this process may run on (its affinity, as the client counts
# them for a duet), from /proc/self/status; 0 when that cannot be read.
sub usable_cpus
{
	open my $fh, '<', '/proc/self/status' or return 0;
	my ($list) = map { /^Cpus_allowed_list:\s*(\S+)/ ? $1 : () } <$fh>;
	close $fh;
	my $n = 0;
	foreach my $range (split /,/, $list // '')
	{
		my ($lo, $hi) = $range =~ /^(\d+)(?:-(\d+))?$/ or next;
		$n += ($hi // $lo) - $lo + 1;
	}
	return $n;
}

# round_noise(DIR, A, B) -> the noise of B against A in DIR's counted runs
# as a comparison round by round sees it, for a test's premise: the sd of
# the rounds' log ratios (a round of a stalled run raises it more than it
# moves the rank tests: a premise that errs towards skipping); undef with
# fewer than 6 complete rounds, which are compared on all runs unpaired,
# the drift between rounds and all.  In list context also the number of
# rounds.
sub round_noise
{
	my ($dir, $a, $b) = @_;
	my %by_round;
	foreach my $run (read_runs($dir))
	{
		next unless $run->{status} eq 'ok' && $run->{warmup} eq 'false' && $run->{tps} > 0;
		$by_round{ $run->{round} }{ $run->{variant} } = log($run->{tps});
	}
	my @ratios = map { $_->{$b} - $_->{$a} } grep { defined $_->{$a} && defined $_->{$b} } values %by_round;
	my $m = 0;
	$m += $_ / @ratios foreach @ratios;
	my $ss = 0;
	$ss += ($_ - $m)**2 foreach @ratios;
	my $noise = @ratios >= 6 ? sqrt($ss / (@ratios - 1)) : undef;
	return wantarray ? ($noise, scalar @ratios) : $noise;
}

# noisier_than(DIR, A, B, PREMISE, WHAT) -> why a check of WHAT must skip
# (round_noise() at or above PREMISE, or fewer than 6 rounds), or undef
# when the host was quiet enough for it
sub noisier_than
{
	my ($dir, $a, $b, $premise, $what) = @_;
	my ($noise, $rounds) = round_noise($dir, $a, $b);
	return undef if defined $noise && $noise < $premise;
	my ($load) = eval { split ' ', PostgreSQL::Test::Utils::slurp_file('/proc/loadavg') };
	return sprintf('%s (load average %s): %s assumes a noise below %.2f, measured on 6 rounds or more',
		defined $noise ? sprintf('this host\'s noise is %.3f on the log scale over %d rounds', $noise, $rounds)
		: "the budget paid for $rounds rounds on this host", $load // '?', $what, $premise);
}

# The number of lines of FILE, 0 when it is not there (yet).
sub lines_in
{
	my ($file) = @_;
	return 0 unless -f $file;
	return scalar(() = PostgreSQL::Test::Utils::slurp_file($file) =~ /\n/g);
}

# run_client(ARGS...) -> (exit status, stdout, stderr), stdin empty
sub run_client
{
	my @args = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ client(), @args ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# run_client_on(NODE, ARGS...): run_client with libpq's PGHOST and PGPORT
# naming NODE (a PostgreSQL::Test::Cluster), for the commands that connect
sub run_client_on
{
	my ($node, @args) = @_;
	local $ENV{PGHOST} = $node->host;
	local $ENV{PGPORT} = $node->port;
	return run_client(@args);
}

# create_database(NODE, NAME [, extension => 0]) -> NAME: a database of the
# test's own on NODE, with pgbench_ext created in it unless told otherwise
sub create_database
{
	my ($node, $name, %opts) = @_;
	$node->safe_psql('postgres', "CREATE DATABASE $name");
	$node->safe_psql($name, 'CREATE EXTENSION pgbench_ext') if $opts{extension} // 1;
	return $name;
}

# read_csv(DIR, NAME) -> a hash per record of DIR/NAME, a CSV file of a
# results directory, keyed by its header
sub read_csv
{
	my ($dir, $name) = @_;
	my $csv = Text::CSV->new({ binary => 1, auto_diag => 2 });
	open my $fh, '<', "$dir/$name" or die "could not open $dir/$name: $!";
	$csv->header($fh, { sep_set => [','], munge_column_names => 'none' });
	my @records;
	while (my $record = $csv->getline_hr($fh))
	{
		push @records, $record;
	}
	close $fh;
	return @records;
}

# read_runs(DIR) -> a hash per record of DIR/runs.csv
sub read_runs { return read_csv($_[0], 'runs.csv'); }

# read_instances(DIR) -> a hash per start of DIR/instances.csv
sub read_instances { return read_csv($_[0], 'instances.csv'); }

# variant_build(DIR, VARIANT) -> variants.VARIANT.build of DIR/experiment.json:
# a source variant's build (key, bindir, flags, whether reused)
sub variant_build
{
	my ($dir, $variant) = @_;
	return read_json("$dir/experiment.json")->{variants}{$variant}{build};
}

# c_code_of(PATH) -> a C source's text with its comments blanked, for the
# tests that search the client's code (comments may name what is not done;
# code may not do it)
sub c_code_of
{
	my ($path) = @_;
	open my $fh, '<', $path or die "could not open $path: $!";
	local $/;
	my $text = <$fh>;
	close $fh;
	$text =~ s{/\*.*?\*/}{ }gs;
	$text =~ s{//[^\n]*}{}g;
	return $text;
}

# forbid_in_client(PIECES, [WHAT, RE, ALLOWED FILES], ...): one test per
# WHAT, that no piece of the client's code outside ALLOWED matches RE.
# PIECES is a sub(text) -> the pieces of a file's code to match (its
# lines, its statements ...); comments are blanked first.
sub forbid_in_client
{
	my ($pieces, @forbidden) = @_;
	my @files = sort(glob("$top/client/*.[ch]"), glob("$top/client/*/*.[ch]"));
	ok(@files > 20, 'the client\'s sources are there to search') or diag "found: @files";
	foreach my $f (@forbidden)
	{
		my ($what, $re, $allowed) = @$f;
		my @hits;
		foreach my $path (@files)
		{
			(my $name = $path) =~ s{.*/}{};
			next if grep { $_ eq $name } @$allowed;
			push @hits, map { "$name: $_" } grep { $_ =~ $re } $pieces->(c_code_of($path));
		}
		is(scalar(@hits), 0, "no $what in client/" . (@$allowed ? " outside @$allowed" : ''))
		  or diag join("\n", @hits);
	}
}

# read_json(PATH) -> the decoded contents of a JSON file
sub read_json
{
	my ($path) = @_;
	open my $fh, '<', $path or die "could not open $path: $!";
	local $/;
	return JSON::PP->new->decode(<$fh>);
}

# write_file(PATH, TEXT) -> PATH, written anew
sub write_file
{
	my ($path, $text) = @_;
	open my $fh, '>', $path or die "could not write $path: $!";
	print $fh $text;
	close $fh or die "could not write $path: $!";
	return $path;
}

1;
