# Build seeds under their old name.  An experiment file written before the
# key was renamed (layout_seeds = 2) still runs, as build_seeds = 2: a real
# A/B whose variant A is built twice from the linked source (every build
# step real, in seconds), as A@seed1 and A@seed2, against the installation
# under test.  Its experiment.json and runs.csv are written with the new
# names (build_seed); the results directory as the client wrote it before
# (layout_seed in experiment.json and as runs.csv's column) still reports
# the same, to the byte, imports with each run's seed in the runs table's
# build_seed, and --resume still loads it (and writes runs.csv's header
# anew).  The ab flag --layout-seeds is checked in 040, the key tables of
# the docs in 032, the old unit name 'layout seed pair' in sql/compare.sql.
use strict;
use warnings;

use AsServerAccount;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use LinkedSource;
use PgbenchExtTest;

# Three builds of the linked source, each with the extension compiled
# into it, take a minute and a half of both CPUs: a long test, as the
# builds from source are.  The old names' parsing is in plain make test
# (032, 040).
plan skip_all => 'builds the linked source three times (minutes): run "make test-build", or set PGBENCH_EXT_TEST_LONG=1'
  unless $ENV{PGBENCH_EXT_TEST_LONG};

my $base = private_cache();
my $ini = "$base/old.ini";
open my $f, '>', $ini or die $!;
print $f "[experiment]\nscale = 1\nrounds = 1\nduration = 1\nclients = 1\n"
  . "script = select-only\nrestart = never\n\n"
  . "[variant A]\nsource = " . linked_source() . "\nlayout_seeds = 2\n\n"
  . "[variant B]\nbindir = " . pg_bindir() . "\n";
close $f;

my $new = "$base/new";
my ($rc, $out, $err) = run_client('run', $ini, '-o', $new);
is($rc, 0, 'an experiment file with the old key layout_seeds runs') or diag "$out\n$err";

# what the old key meant: two builds of A, each its own seed
my $recorded = read_json("$new/experiment.json");
is(join(',', map { "$_->{name}:" . ($_->{build_seed} // '-') } @{ $recorded->{spec}{variants} }),
	'A@seed1:1,A@seed2:2,B:-', 'experiment.json: A expanded into its seeds, recorded as build_seed');
my $text = slurp_file("$new/experiment.json");
unlike($text, qr/"layout_seeds?"/, 'experiment.json is written with the new names only');
my %seed_of = map { ($_->{variant} => $_->{build_seed}) } read_runs($new);
my $seeds = join(',', map { "$_:" . ($seed_of{$_} // '-') } sort keys %seed_of);
is($seeds, 'A@seed1:1,A@seed2:2,B:0', 'runs.csv: each run\'s build seed, in its column build_seed');
my $runs_text = slurp_file("$new/runs.csv");

my ($rc_new, $out_new, $err_new) = run_client('report', $new);
is($rc_new, 0, 'report of the directory') or diag $err_new;
like($out_new, qr/A\@seed2/, 'the report names the seeds');
my $summary_new = slurp_file("$new/summary.json");

# the same results directory as the client wrote it before the rename
# (its servers' data directories stay where they are, for --resume)
(my $old_text = $text) =~ s/"build_seed"/"layout_seed"/g;
isnt($old_text, $text, 'the directory now records layout_seed, as before the rename');
write_file("$new/experiment.json", $old_text);
(my $old_runs = $runs_text) =~ s/^(run_id,.*),build_seed,/$1,layout_seed,/;
isnt($old_runs, $runs_text, 'and runs.csv has the column layout_seed, as before the rename');
write_file("$new/runs.csv", $old_runs);
my $old = $new;
my ($rc_old, $out_old, $err_old) = run_client('report', $old);
is($rc_old, 0, 'report of a directory written with layout_seed') or diag $err_old;
is($out_old, $out_new, 'it reports the same, to the byte');
is(slurp_file("$old/summary.json"), $summary_new, 'the same summary.json');

# imported, runs.csv's old column fills the runs table's build_seed
my $node = PostgreSQL::Test::Cluster->new('import');
$node->init;
$node->start;
my $db = create_database($node, 'old_names');
($rc, $out, $err) = run_client_on($node, 'import', $old, "dbname=$db");
is($rc, 0, 'import of a directory written with layout_seed') or diag "$out\n$err";
is($node->safe_psql($db, "SELECT string_agg(DISTINCT variant || ':' || coalesce(build_seed::text, '-'), ',' ORDER BY variant || ':' || coalesce(build_seed::text, '-')) FROM pgbench_ext.runs"),
	$seeds, 'the runs table holds each run\'s build seed, read from layout_seed');
$node->stop;

# --resume reads the recorded experiment, the old name included: the
# builds are found in the cache and every run is done, so nothing runs
my $runs_before = () = read_runs($old);
($rc, $out, $err) = run_client('run', '--resume', $old);
is($rc, 0, '--resume of a directory written with layout_seed') or diag "$out\n$err";
unlike($err, qr/refused|unknown key/, 'the recorded experiment is accepted');
is(scalar(() = read_runs($old)), $runs_before, 'nothing left to run: no run added');
is(slurp_file("$old/runs.csv"), $runs_text, 'runs.csv is written again with the new header, its lines as they were');

done_testing();
