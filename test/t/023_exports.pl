# Only the module's entry points are exported from pgbench_ext.so: the
# server loads libraries RTLD_GLOBAL, so any other global symbol could
# clash with another module's.  The entry points are _PG_init, the module
# magic, each C function the install script names (with its pg_finfo_
# record) and the background worker's main function; the installed library
# must export exactly those (nm -D --defined-only).
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
my $pg_config = $ENV{PG_CONFIG} || 'pg_config';
chomp(my $pkglibdir = `$pg_config --pkglibdir`);
my $so = "$pkglibdir/pgbench_ext.so";
ok(-f $so, "the installed library $so exists");

my %expected = map { $_ => 1 } qw(_PG_init Pg_magic_func);
foreach my $sql (glob "$top/extension/sql/*.sql")
{
	my $text = slurp_file($sql);
	$expected{$_} = $expected{"pg_finfo_$_"} = 1
	  foreach $text =~ /'MODULE_PATHNAME',\s*'(\w+)'/g;
}
my $sampler = slurp_file("$top/extension/wait_sampler.c");
my ($worker_main) = $sampler =~ /bgw_function_name, BGW_MAXLEN, "(\w+)"/;
ok($worker_main, "the background worker's entry point: $worker_main");
$expected{$worker_main} = 1;
cmp_ok(scalar(keys %expected), '>', 20, 'the install script names the SQL functions');

my ($out, $err) = ('', '');
IPC::Run::run([ 'nm', '-D', '--defined-only', $so ], '>', \$out, '2>', \$err)
  or BAIL_OUT("nm -D failed: $err");
my %exported = map { (split ' ')[2] => 1 } grep { /^\S+ [A-Za-z] \S+$/ } split /\n/, $out;

my @extra = sort grep { !$expected{$_} } keys %exported;
my @missing = sort grep { !$exported{$_} } keys %expected;
is(scalar(@extra), 0, 'nothing but the entry points is exported') or diag "also exported: @extra";
is(scalar(@missing), 0, 'every entry point is exported') or diag "not exported: @missing";

done_testing();
