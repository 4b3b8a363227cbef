# The results format (docs/formats.md).  test/fixtures/results-1.0 is a
# results directory of format 1.0, kept as written: the report read from it
# gives its known figures (B 5% above A in each of 6 rounds), so that a
# later change to the format that misreads it fails here.  A directory of
# format 2.0, of a number, or of no format at all (before 1.0) is refused
# by every command that reads one, naming the file, the format found and
# the one this client reads.  No server is needed.
use strict;
use warnings;

use File::Copy qw(copy);
use File::Path qw(make_path);
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $base = PostgreSQL::Test::Utils::tempdir;
my $fixture = source_tree() . '/test/fixtures/results-1.0';

# A copy of the fixture (report writes into the directory it reads),
# experiment.json's text passed through edit
sub copy_fixture
{
	my ($name, $edit) = @_;
	my $dir = "$base/$name";
	make_path("$dir/runs");
	foreach my $file (map { s/^\Q$fixture\E\///r } glob("$fixture/*.* $fixture/runs/*"))
	{
		copy("$fixture/$file", "$dir/$file") or die "copying $fixture/$file: $!";
	}
	if ($edit)
	{
		my $text = slurp_file("$dir/experiment.json");
		my $edited = $edit->($text);
		isnt($edited, $text, "$name: experiment.json edited");
		write_file("$dir/experiment.json", $edited);
	}
	return $dir;
}

# --- format 1.0: read, its figures known -----------------------------------
my $dir = copy_fixture('v1');
local $ENV{PGBENCH_EXT_GNUPLOT} = '';
my ($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'format 1.0: report exits 0') or diag $err;
like($out, qr/^ default \| 2 +\| 1990\.0 ±2\.5% \| 2089\.5 ±2\.5% \| \+5\.00% \| \[\+5\.00%, \+5\.00%\] \| 0\.0312 \| 6 rounds \| faster$/m,
	'format 1.0: the verdict row (6 rounds of +5%: exact signed-rank p 2/64)');
my $summary = read_json("$dir/summary.json");
is($summary->{format}, '1.0', 'format 1.0: summary.json written in it');
is($summary->{cells}[0]{comparison}{verdict}, 'faster', 'format 1.0: summary.json verdict');
is($summary->{cells}[0]{a}{n}, 6, 'format 1.0: six counted runs of base');

# --- refused: another format, a number, none --------------------------------
my $this = qr/this pgbench_ext \([^)]+\) does not read; it reads results format 1\.0/;
foreach my $case (
	[ 'format 2.0', sub { $_[0] =~ s/"format" : "1\.0"/"format" : "2.0"/r }, qr/is of results format "2\.0", which $this/ ],
	[ 'format 2 (a number)', sub { $_[0] =~ s/"format" : "1\.0"/"format" : 2/r }, qr/is of results format 2, which $this/ ],
	[ 'no format', sub { $_[0] =~ s/\s*"format" : "1\.0",//r }, qr/has no "format": a results directory of no release of pgbench_ext .*, which $this/ ])
{
	my ($name, $edit, $message) = @$case;
	my $d = copy_fixture($name =~ s/\W+/-/gr, $edit);
	foreach my $cmd ([ 'report', $d ], [ 'compare', $fixture, $d ], [ 'history', $d, $d, $d ], [ 'run', '--resume', $d ])
	{
		($rc, $out, $err) = run_client(@$cmd);
		is($rc, 2, "$name: $cmd->[0] exits 2");
		like($err, qr/^pgbench_ext: error: .*"\Q$d\E\/experiment\.json" $message/m,
			"$name: $cmd->[0] names the file, the format found and the one it reads") or diag $err;
	}
	ok(!-e "$d/report.md", "$name: no report written");
}

done_testing();
