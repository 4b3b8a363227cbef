# The client against servers of other releases (docs/versions.md): bindir
# variants of the installed PostgreSQL and of every installation named in
# PGBENCH_EXT_TEST_RELEASES (pg_config paths, the extension installed into
# each: CI gives the PostgreSQL 18 of tools/pg-build, into which
# tools/test-release installed it) run one short experiment end to end.
#
# The script updates a row and checkpoints in every one of its 5
# transactions, so on every release runs.csv must hold exactly 5
# checkpoints (pg_stat_bgwriter before 17, pg_stat_checkpointer from 17),
# buffer hits, WAL bytes (from 14) and the buffers the checkpointer wrote
# (pg_stat_bgwriter before 16, pg_stat_io from 16); pgbench's output of
# each release is read; the counters are there; the report renders and
# declares the release difference.  A runs.csv of other columns is not
# resumed.
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $base = shared_tempdir();

# pg_config of the installed PostgreSQL, then of the others asked for
my @pg_configs = (pg_config(), split(' ', $ENV{PGBENCH_EXT_TEST_RELEASES} // ''));
my (@names, @variants, %major, %seen);
foreach my $pg_config (@pg_configs)
{
	my ($version) = `$pg_config --version` =~ /^PostgreSQL (\d+)/
	  or BAIL_OUT("$pg_config does not run");
	chomp(my $bindir = `$pg_config --bindir`);
	chomp(my $pkglibdir = `$pg_config --pkglibdir`);
	-f "$pkglibdir/pgbench_ext.so"
	  or BAIL_OUT("pgbench_ext is not installed into $bindir: make PG_CONFIG=$pg_config install");
	my $name = "pg$version" . ($seen{$version}++ ? "_$seen{$version}" : '');
	$major{$name} = $version;
	push @names, $name;
	push @variants, '--variant', $name, '--bindir', $bindir;
}
# one release alone still makes an A/B: a second cluster of it
if (@names == 1)
{
	push @variants, '--variant', "$names[0]_again", '--bindir', $variants[3];
	$major{"$names[0]_again"} = $major{ $names[0] };
	push @names, "$names[0]_again";
}
note 'variants: ', join(', ', map { "$_ (PostgreSQL $major{$_})" } @names);

my $script = "$base/update_checkpoint.sql";
open my $f, '>', $script or die $!;
print $f "\\set aid random(1, 100000 * :scale)\n",
  "UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;\n", "CHECKPOINT;\n";
close $f;
chmod 0644, $script;

my $dir = "$base/releases";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-c', '1', '-t', '5', '-r', '1', '--seed', '3',
	'-b', "$script,select-only", @variants, '-o', $dir);
is($rc, 0, 'an experiment across ' . join(', ', @names) . ' completes') or diag "$out\n$err";

# restart = auto on different servers: a warm-up run after each start, not counted
my @runs = grep { $_->{warmup} eq 'false' } read_runs($dir);
is(scalar @runs, 2 * @names, 'a counted run of each script on each variant');
foreach my $run (sort { $a->{variant} cmp $b->{variant} || $a->{script} cmp $b->{script} } @runs)
{
	my $v = $run->{variant};
	my $what = "$v, $run->{script}";
	my $checkpointing = $run->{script} eq $script;
	is($run->{status}, 'ok', "$what: ok") or diag $run->{reason};
	is($run->{transactions}, 5, "$what: pgbench $major{$v}'s output read: 5 transactions");
	cmp_ok($run->{tps}, '>', 0, "$what: tps");
	cmp_ok($run->{blks_hit}, '>', 0, "$what: buffer hits");
	is($run->{checkpoints_during}, $checkpointing ? 5 : 0, "$what: checkpoints inside the run");
	if ($major{$v} >= 14)
	{
		cmp_ok($run->{wal_bytes}, $checkpointing ? '>' : '>=', 0, "$what: WAL bytes");
	}
	else
	{
		is($run->{wal_bytes}, '', "$what: no WAL bytes before 14 (no pg_stat_wal)");
	}
	cmp_ok($run->{buffers_written_checkpointer}, '>=', $checkpointing ? 5 : 0,
		"$what: buffers the checkpointer wrote");
	like("$run->{buffers_written_bgwriter},$run->{buffers_written_backends}", qr/^\d+,\d+$/,
		"$what: buffers the background writer and the backends wrote");
	my $detail = JSON::PP->new->decode(slurp_file(sprintf('%s/runs/%04d.json', $dir, $run->{run_id})));
	cmp_ok($detail->{counters}{xact}{commits} // 0, '>=', 5, "$what: counters() of the extension");
}

like($out, qr/^ select-only\s*\|\s*1\s*\|/m, 'the verdict table');
ok(-s "$dir/report.md" && -s "$dir/report.html", 'report.md and report.html rendered');
my $declared = () = $out =~ /^declared: the release: /mg;
is($declared, scalar(grep { $major{$_} != $major{ $names[0] } } @names),
	"the release difference declared against $names[0] for each other release");

# runs.csv of an older pgbench_ext (without the columns of pg_stat_io's
# figures) cannot be resumed: lines of two layouts would be misread
my $csv = slurp_file("$dir/runs.csv");
my ($header) = split /\n/, $csv;
my %drop = map { $_ => 1 } qw(buffers_written_checkpointer buffers_written_bgwriter buffers_written_backends);
my @keep = grep { !$drop{ (split /,/, $header)[$_] } } 0 .. scalar(split /,/, $header) - 1;
my $older = join('', map { join(',', (split /,/, $_, -1)[@keep]) . "\n" } split /\n/, $csv);
isnt($older, $csv, 'an older runs.csv header');
open my $w, '>', "$dir/runs.csv" or die $!;
print $w $older;
close $w;
($rc, $out, $err) = run_client('run', '--resume', $dir);
isnt($rc, 0, '--resume of a runs.csv of other columns stops');
like($err, qr/runs\.csv" has the columns of another version of pgbench_ext: resume it with that version/,
	'and says why');
is(slurp_file("$dir/runs.csv"), $older, 'runs.csv untouched');

done_testing();
