# Every [experiment] key the client takes — as its error for an unknown key
# lists them, from the one table experiment.c keeps with the keys of
# quiet.c and profile_spec.c — is in docs/experiments.md's key tables and
# has a flag in "pgbench_ext ab --help" (its name with "-" for "_").
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $base = shared_tempdir();
open my $f, '>', "$base/unknown.ini" or die $!;
print $f "[experiment]\nno_such_key = 1\n\n[variant a]\nbindir = /x\n\n[variant b]\nbindir = /x\n";
close $f;
my ($rc, $out, $err) = run_client('check', "$base/unknown.ini");
is($rc, 2, 'an unknown key: a usage error');
my ($list) = $err =~ /unknown key "no_such_key" in \[experiment\]; known keys: ([^\n]+)/;
ok($list, 'the error lists the known keys') or diag $err;
my @keys = split /, /, $list // '';
cmp_ok(scalar @keys, '>=', 25, scalar(@keys) . ' keys');

my $docs = slurp_file(source_tree() . '/docs/experiments.md');
my $help;
($rc, $help, $err) = run_client('ab', '--help');
my (@undocumented, @no_flag);
foreach my $key (@keys)
{
	push @undocumented, $key unless $docs =~ /^\| `\Q$key\E` \|/m;
	(my $flag = $key) =~ s/_/-/g;
	push @no_flag, $key unless $help =~ /--\Q$flag\E\b/;
}
is("@undocumented", '', 'every key has a row in docs/experiments.md');
is("@no_flag", '', 'every key has a flag in ab --help');

done_testing();
