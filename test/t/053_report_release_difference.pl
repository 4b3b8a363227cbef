# The report of an experiment between two releases (docs/versions.md,
# "Comparing releases"), from a results directory whose environment() rows
# are those PostgreSQL 15.20 (Debian's package) and 18.6 (built from source)
# gave: the differing server_version_num is declared, not warned, and the
# rows of one release only are named in the declaration; the configure
# options that shape the code (not the packaging's, not the words the
# variant's own "configure" declares), CFLAGS word by word, and
# data_checksums, whose default changed in 18, are warned of.  Between two
# builds of one release nothing is declared and CONFIGURE stays the build's.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $base = shared_tempdir();

my $debian_configure =
	"'--build=x86_64-linux-gnu' '--prefix=/usr' '--includedir=\${prefix}/include' "
  . "'--libdir=/usr/lib/x86_64-linux-gnu/' '--disable-option-checking' '--disable-dependency-tracking' "
  . "'--with-extra-version= (Debian 15.20-0+deb12u1)' '--enable-debug' '--with-uuid=e2fs' "
  . "'--with-system-tzdata=/usr/share/zoneinfo' 'CFLAGS=-g -O2 -fstack-protector-strong' "
  . "'--enable-tap-tests' '--with-llvm' 'LLVM_CONFIG=/usr/bin/llvm-config-14' '--with-lz4'";
my $source_configure =
	"'--prefix=/usr/local/pgsql' '--enable-depend' '--without-icu' '--without-llvm' "
  . "'--enable-debug' '--with-segsize=2' 'CFLAGS=-O2 -ffunction-sections'";

# environment() rows as PostgreSQL 15 and 18 give them
sub environment
{
	my (%o) = @_;
	my @rows = (
		[ 'server', 'version', $o{version} ],
		[ 'server', 'server_version_num', $o{num} ],
		[ 'build', 'CONFIGURE', $o{configure} ],
		[ 'build', 'CC', 'gcc' ],
		[ 'build', 'CFLAGS', $o{cflags} ],
		[ 'build', 'debug_assertions', 'off' ],
		[ 'setting', 'fsync', 'on' ],
		[ 'setting', 'data_checksums', $o{checksums} ],
		[ 'setting', 'old_snapshot_threshold', $o{old_snapshot},
			defined $o{old_snapshot} ? undef : 'not present in this server version' ],
		[ 'setting', 'shared_preload_libraries', 'pgbench_ext' ],
		[ 'changed', 'port', $o{port} ],
		@{ $o{extra} // [] });
	return [ map { { category => $_->[0], name => $_->[1], value => $_->[2], note => $_->[3] } } @rows ];
}

my %pg15 = (
	version => 'PostgreSQL 15.20 (Debian 15.20-0+deb12u1) on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit',
	num => '150020', configure => $debian_configure, checksums => 'off', old_snapshot => '-1',
	# Debian's pg_config --cflags says -g twice: listed once
	cflags => '-Wall -Wmissing-prototypes -g -g -O2 -fstack-protector-strong -fno-omit-frame-pointer',
	port => '5432');
my %pg18 = (
	version => 'PostgreSQL 18.6 on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit',
	num => '180006', configure => $source_configure, checksums => 'on', old_snapshot => undef,
	cflags => '-Wall -Wmissing-prototypes -Wshadow=compatible-local -O2 -ffunction-sections',
	port => '5433', extra => [ [ 'changed', 'autovacuum_worker_slots', '16' ] ]);

# A results directory of ReportFixture's, given these variants and rows.
sub write_release_dir
{
	my ($dir, $a, $b) = @_;
	ReportFixture::write_dir(
		$dir,
		clients => [1],
		rounds => 6,
		variants => [ { name => $a->{name}, own_server => 1 }, { name => $b->{name}, own_server => 1 } ],
		tps => sub {
			my ($v, $c, $round) = @_;
			return ($v eq $b->{name} ? 1100 : 1000) * (1 + (-0.02, 0.01, 0, 0.02, -0.01, -0.015)[ $round - 1 ]);
		});
	my $json = JSON::PP->new->canonical->pretty;
	my $exp = read_json("$dir/experiment.json");
	foreach my $v ($a, $b)
	{
		my ($spec) = grep { $_->{name} eq $v->{name} } @{ $exp->{spec}{variants} };
		delete $spec->{bindir};
		$spec->{$_} = $v->{spec}{$_} foreach keys %{ $v->{spec} };
		$exp->{variants}{ $v->{name} }{environment} = environment(%{ $v->{env} });
	}
	open my $f, '>', "$dir/experiment.json" or die $!;
	print $f $json->encode($exp);
	close $f;
}

# --- 15 (the package) against 18 (a source build) --------------------------
my $dir = "$base/releases";
write_release_dir(
	$dir,
	{ name => 'pg15', spec => { bindir => '/usr/lib/postgresql/15/bin' }, env => \%pg15 },
	{ name => 'pg18', spec => { source => '/src/postgresql-18.6', configure => '--with-segsize=2' },
		env => \%pg18 });
my ($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report of two releases') or diag $err;
my $declared = 'the release: pg15 runs PostgreSQL 15.20 (Debian 15.20-0+deb12u1), server_version_num 150020; '
  . 'pg18 runs PostgreSQL 18.6, server_version_num 180006; set or present in one release only, not compared: '
  . 'old_snapshot_threshold (pg15), autovacuum_worker_slots (pg18)';
my @declared = $out =~ /^declared: (.*)$/mg;
is_deeply(\@declared, [$declared], 'the release is declared, once, with the rows of one release only');
my @warnings = $out =~ /^warning: (.*)$/mg;
is_deeply(
	[ grep { !/fewer than 6|servers started once/ } @warnings ],
	[
		'the builds differ beyond the release: configure options only pg15 has: --with-uuid=e2fs, --with-llvm, '
		  . '--with-lz4; only pg18 has: --without-icu, --without-llvm',
		'environment differs beyond the declared settings: build CFLAGS only pg15 has: -g, '
		  . '-fstack-protector-strong, -fno-omit-frame-pointer; only pg18 has: -Wshadow=compatible-local, '
		  . '-ffunction-sections',
		'environment differs beyond the declared settings: setting data_checksums is "off" in pg15 but "on" in pg18',
	],
	'warned: the configure options that shape the code (not paths, packaging or the declared --with-segsize=2), '
	  . 'CFLAGS word by word, data_checksums; nothing of the version or the port');

my $summary = read_json("$dir/summary.json");
is_deeply($summary->{declared}, [$declared], 'summary.json: "declared"');
is(scalar(grep { /server_version_num|old_snapshot_threshold/ } @{ $summary->{warnings} }), 0,
	'summary.json: no warning of the version or of a row of one release only');
like(slurp_file("$dir/report.md"), qr/^Declared difference: \Q$declared\E\.$/m, 'report.md declares it');
like(slurp_file("$dir/report.html"), qr/Declared difference: the release: pg15 runs PostgreSQL 15\.20/,
	'report.html declares it');

# the variant that declares cflags has those words declared too
$dir = "$base/cflags";
write_release_dir(
	$dir,
	{ name => 'pg15', spec => { bindir => '/usr/lib/postgresql/15/bin' }, env => \%pg15 },
	{ name => 'pg18',
		spec => { source => '/src/postgresql-18.6', cflags => '-O2 -ffunction-sections -Wshadow=compatible-local' },
		env => \%pg18 });
($rc, $out, $err) = run_client('report', $dir);
like($out, qr/^warning: .* build CFLAGS only pg15 has: -g, -fstack-protector-strong, -fno-omit-frame-pointer; only pg18 has: none$/m,
	'words of a declared cflags are not warned');

# --- two builds of one release: nothing declared, CONFIGURE is the build's -
$dir = "$base/builds";
write_release_dir(
	$dir,
	{ name => 'debian', spec => { bindir => '/usr/lib/postgresql/15/bin' }, env => \%pg15 },
	{ name => 'mine', spec => { bindir => '/opt/pg15/bin' },
		env => { %pg15, version => 'PostgreSQL 15.20 on x86_64-pc-linux-gnu', configure => $source_configure } });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'report of two builds of 15.20') or diag $err;
unlike($out, qr/^declared:/m, 'one release: nothing declared');
unlike($out, qr/configure options|server_version_num|version is/, 'nor CONFIGURE or the version string warned');
is_deeply(read_json("$dir/summary.json")->{declared}, [], 'summary.json: "declared" is empty');

done_testing();
