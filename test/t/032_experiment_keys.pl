# Every [experiment] key the client takes — as its error for an unknown key
# lists them, from the one table experiment.c keeps with the keys of
# quiet.c and profile_spec.c — is in docs/experiments.md's key tables and
# has a flag in "pgbench_ext ab --help" (its name with "-" for "_"); so is
# every [variant] key.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $base = shared_tempdir();
open my $f, '>', "$base/unknown.ini" or die $!;
print $f "[experiment]\nno_such_key = 1\n\n[variant a]\nbindir = /x\n\n[variant b]\nbindir = /x\n";
close $f;
my ($rc, $out, $err) = run_client('run', "$base/unknown.ini", '--check');
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

# [variant] keys: a row of the variant table may group several
open $f, '>', "$base/unknown_variant.ini" or die $!;
print $f "[variant a]\nbindir = /x\nno_such_key = 1\n";
close $f;
($rc, $out, $err) = run_client('run', "$base/unknown_variant.ini", '--check');
my ($vlist) = $err =~ /unknown key "no_such_key" in \[variant a\]; known keys: ([^\n]+)/;
ok($vlist, 'the error lists the known variant keys') or diag $err;
my @vkeys = split /, /, $vlist // '';
my ($vtable) = $docs =~ /\*\*`\[variant NAME\]`\*\*.*?\n(\| key \|.*?)\n\n/s;
ok($vtable, 'docs/experiments.md has the [variant] key table');
my @vfirst = map { (split /\|/)[1] } split /\n/, $vtable // '';
(@undocumented, @no_flag) = ();
foreach my $key (@vkeys)
{
	push @undocumented, $key unless grep { /`\Q$key\E`/ } @vfirst;
	(my $flag = $key) =~ s/_/-/g;
	push @no_flag, $key unless $help =~ /--\Q$flag\E\b/;
}
cmp_ok(scalar @vkeys, '>=', 15, scalar(@vkeys) . ' variant keys');
is("@undocumented", '', 'every variant key is in the [variant] table');
is("@no_flag", '', 'every variant key has a flag in ab --help');

done_testing();
