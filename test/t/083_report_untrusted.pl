# A results directory is data, whoever wrote it: report, compare, import
# and --resume read it as such.  Names with backquotes, $(), quotes, "<",
# "&" and "|" are shown and never run (gnuplot runs `commands` in double-
# quoted strings); a name in runs.csv that experiment.json lacks, a run_id
# that is no number or past any experiment's, a line cut short and broken
# JSON are errors naming the file and line, exit status 2, and so are lists
# of experiment.json longer than an experiment may have; a control
# character (C0, DEL, C1) or a byte that is not UTF-8 in a name, a CFLAGS
# or a directory's name is shown escaped (\x1b, \u009b, \xff) on the
# terminal, in report.md and in report.html, never as itself; a link
# planted among the files report writes is refused, its target untouched.
use strict;
use warnings;

use AsServerAccount;
use File::Copy qw(copy);
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use NodeTemplate;
use ReportFixture;

my $base = shared_tempdir();
my $witness = "$base/RAN";
my $script = "t`touch $witness-bq`\$(touch $witness-dp)'q\"<b>&|x.sql";

sub fixture
{
	my ($dir, %o) = @_;
	ReportFixture::write_dir(
		$dir,
		clients => [1],
		rounds => 6,
		script => $o{script} // $script,
		variants => [ { name => 'A' }, { name => 'B' } ],
		tps => sub {
			my ($variant, $clients, $round) = @_;
			return ($variant eq 'B' ? 1050 : 1000) * (1 + 0.01 * ($round % 3));
		});
	return $dir;
}

sub nothing_ran
{
	my ($what) = @_;
	ok(!glob("$witness*"), "$what: no command of a name was run");
}

sub slurp_lines { return split /\n/, slurp_file($_[0]); }

# Rewrite one file of a fixture: sub(text) -> text.
sub edit
{
	my ($path, $sub) = @_;
	my $text = $sub->(slurp_file($path));
	open my $fh, '>', $path or die "$path: $!";
	print $fh $text;
	close $fh;
}

# --- names that would run commands: shown, never run -----------------------
# (with a second script, every plot title names the script too)
my $dir = fixture("$base/names");
edit("$dir/experiment.json", sub {
	my $doc = decode_json($_[0]);
	push @{ $doc->{spec}{experiment}{script} }, 'plain.sql';
	encode_json($doc) });
my ($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'names: report exits 0') or diag $err;
nothing_ran('names');
like($out, qr/^ \Q$script\E \| 1 /m, 'names: the terminal table shows the script name as it is');
my $md = slurp_file("$dir/report.md");
my $md_name = $script =~ s/([\\|<>`])/\\$1/gr;
like($md, qr/^\| \Q$md_name\E \| 1 \|/m, 'names: report.md escapes |, <, ` and keeps the table row');
my $html = slurp_file("$dir/report.html");
like($html, qr/<td>t`touch [^<]*-bq`\$\(touch [^<]*-dp\)&#39;q&quot;&lt;b&gt;&amp;\|x\.sql<\/td>/,
	'names: report.html shows the name with every special character as an entity');
unlike($html, qr/<b>/, 'names: no markup of the name reaches report.html');
SKIP:
{
	# on whether gnuplot is there, not on what it drew: a plot it failed to
	# draw (a cell without runs, once) must fail here, not skip
	skip 'gnuplot is not installed', 3 unless -x '/usr/bin/gnuplot' || grep { -x "$_/gnuplot" } split /:/, $ENV{PATH};
	my $gp = slurp_file("$dir/plots/plots.gp");
	my $gp_name = $script =~ s/'/''/gr;
	like($gp, qr/title 'A \Q$gp_name\E'/, 'names: plots.gp holds the name single-quoted, quote doubled');
	my $outside_quotes = $gp =~ s/'(?:[^'\n]|'')*'//gr =~ s/^#.*$//mgr;
	unlike($outside_quotes, qr/["`]/, 'names: no double-quoted gnuplot string, no backquote outside single quotes');
	my $svg = slurp_file("$dir/plots/tps_clients.svg");
	like($svg, qr/&lt;b>&amp;/, 'names: the SVG holds the name as text');
}

# The text of runs.csv with one field of the run with run_id 3 (line 4)
# replaced by raw text, written as it is: quoting is the caller's.
sub set_field
{
	my ($text, $column, $raw) = @_;
	my @lines = split /\n/, $text;
	my @cols = split /,/, $lines[0];
	my ($col) = grep { $cols[$_] eq $column } 0 .. $#cols;
	my @f = ($lines[3] =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g);
	$f[$col] = $raw;
	$lines[3] = join(',', @f[ 0 .. $#cols ]);
	return join("\n", @lines) . "\n";
}

# --- a variant runs.csv names but experiment.json lacks -------------------
# (every other kind of damaged line, each field's check and the CSV format
# itself are tested without the client: test/unit/test_results_csv.c)
my $bad = "b`touch $witness-v`x";
foreach my $case (
	[ 'unknown variant', sub { set_field($_[0], 'variant', $bad) }, qr/line 4: variant "b`touch .*-v`x" is not a variant of the experiment \(experiment.json has "A", "B"\)/ ],
	# a report takes memory by run number: refused at that line, before more is read
	[ 'run_id beyond any experiment', sub { set_field($_[0], 'run_id', '300000000') },
		qr/line 4: run_id 300000000 is more than 1000000, the most runs an experiment numbers\n.*hint: The results directory is damaged/ ],
	[ 'truncated', sub { substr($_[0], 0, length($_[0]) - 20) }, qr/line 13: (the line is cut short|\d+ fields, but the header has 26)/ ],
  )
{
	my ($name, $sub, $pattern) = @$case;
	my $d = fixture("$base/csv-" . ($name =~ s/\W/_/gr));
	edit("$d/runs.csv", $sub);
	($rc, $out, $err) = run_client('report', $d);
	is($rc, 2, "$name: report exits 2");
	like($err, qr/\Q$d\E\/runs\.csv"/, "$name: the error names runs.csv");
	like($err, $pattern, "$name: and says what is wrong");
	nothing_ran($name);
}
# the same for compare, and for --resume (before any server starts)
$dir = fixture("$base/compare-bad", script => 'select-only');
edit("$dir/runs.csv", sub { set_field($_[0], 'variant', $bad) });
($rc, $out, $err) = run_client('compare', fixture("$base/compare-good", script => 'select-only'), $dir);
is($rc, 2, 'compare of a damaged directory exits 2');
like($err, qr/compare-bad\/runs\.csv" line 4: variant "b`touch/, 'compare names the file and line');
($rc, $out, $err) = run_client('run', '--resume', $dir);
is($rc, 2, '--resume of a damaged directory exits 2') or diag $err;
like($err, qr/compare-bad\/runs\.csv" line 4: variant "b`touch/, '--resume names the file and line');
ok(!-d "$dir/clusters", '--resume: no cluster was made');
nothing_ran('compare and --resume');

# --- broken JSON --------------------------------------------------------------
$dir = fixture("$base/json-experiment");
edit("$dir/experiment.json", sub { substr($_[0], 0, 200) });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 2, 'broken experiment.json: exit 2');
like($err, qr/could not read "\Q$dir\E\/experiment\.json": .*\(line \d+\)/, 'broken experiment.json: file and line named');
$dir = fixture("$base/json-run");
edit("$dir/runs/0002.json", sub { '{"counters": {"xact": ' });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 2, 'broken runs/0002.json: exit 2');
like($err, qr/could not read "\Q$dir\E\/runs\/0002\.json": .*\(line 1\)/, 'broken runs/0002.json: file and line named');
$dir = fixture("$base/json-types");
edit("$dir/experiment.json", sub {
	my $doc = decode_json($_[0]);
	$doc->{spec}{variants}[1]{set} = [ 5 ];
	encode_json($doc) });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 2, 'a set list of numbers: exit 2');
like($err, qr/\[variant B\] set must be a list of strings/, 'a set list of numbers: said so');
my $nlist = 0;
# lists longer than any experiment has: refused before their items are read
# (a clients list of 99,999 took over a minute, each item checked against
# the others, before it was refused)
foreach my $case (
	[ 'a clients list of 99,999', sub { $_[0]{spec}{experiment}{clients} = [ 1 .. 99999 ] },
		qr/"\Q$base\E\/json-list-0\/experiment\.json": \[experiment\] clients lists 99999 items, more than the 32 it may have\n.*hint: The results directory is damaged/ ],
	[ 'a set list of 100,000', sub { $_[0]{spec}{variants}[1]{set} = [ map { "work_mem=${_}kB" } 1 .. 100000 ] },
		qr/\[variant B\] set lists 100000 items, more than the 32 it may have/ ],
	[ 'variants beyond 16', sub { $_[0]{spec}{variants} = [ map { { name => "v$_" } } 1 .. 50000 ] },
		qr/variants lists 50000 items, more than the 16 it may have/ ],
	[ 'an environment of 20,001 rows', sub {
		$_[0]{variants}{A}{environment} = [ map { { category => "changed", name => "x$_", value => "1" } } 1 .. 20001 ] },
		qr/the environment of variant "A" has 20001 rows, more than the 10000 a server reports/ ],
  )
{
	my ($name, $sub, $pattern) = @$case;
	$dir = fixture("$base/json-list-" . $nlist++);
	edit("$dir/experiment.json", sub { my $doc = decode_json($_[0]); $sub->($doc); encode_json($doc) });
	my $t0 = time;
	($rc, $out, $err) = run_client('report', $dir);
	is($rc, 2, "$name: exit 2");
	like($err, qr/error: "\Q$dir\E\/experiment\.json": /, "$name: the error names experiment.json");
	like($err, $pattern, "$name: and the limit");
	note sprintf('%s: refused after %d s', $name, time - $t0);
}
# a script name with a line break cannot be one of runs.csv's
$dir = fixture("$base/json-newline");
edit("$dir/experiment.json", sub {
	my $doc = decode_json($_[0]);
	$doc->{spec}{experiment}{script} = [ "a\nset output '/tmp/x'" ];
	encode_json($doc) });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 2, 'a script name with a line break: exit 2');
like($err, qr/script "a\nset output.*has a control character \(such as a line break\) in its name/s,
	'a script name with a line break: said so');

# --- control characters and bytes that are not UTF-8: shown escaped ---------
# A C1 CSI (U+009B, bytes c2 9b) in a script name, an ESC, a BEL and a CSI
# in B's CFLAGS (the "environment differs" warning), and all of them with
# a byte that is not UTF-8 in the directory's name (the report's title and
# its last line); JSON cannot hold such a byte, runs.csv can (the error
# quotes it).  None reaches the terminal or a report as itself: each is
# shown as \x1b, \u009b or \xff.
my $raw = qr/[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xff/;
my $ctl_script = "c1\xc2\x9b" . '31m-x.sql';    # bytes: valid UTF-8
$dir = fixture("$base/ctl-\e]0;t\a\xc2\x9b\xff", script => $ctl_script);
edit("$dir/experiment.json", sub {
	my $doc = decode_json($_[0]);
	foreach my $v ([ 'A', '-O2' ], [ 'B', "-O2 -DX=\e[31m\a\x{9b}y" ])
	{
		push @{ $doc->{variants}{ $v->[0] }{environment} },
		  { category => 'build', name => 'CFLAGS', value => $v->[1], note => undef };
	}
	encode_json($doc) });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'control characters: report exits 0') or diag $err;
my $ctl_dir = $dir =~ s/\e/\\x1b/r =~ s/\a/\\x07/r =~ s/\xc2\x9b/\\u009b/r =~ s/\xff/\\xff/r;
like($out, qr/^ c1\\u009b31m-x\.sql \| 1 /m, 'control characters: the table shows the script name\'s CSI as \u009b');
my ($head) = grep { /^ script +\|/ } split /\n/, $out;
my ($row) = grep { /^ c1/ } split /\n/, $out;
is(index($row, '|', 2), index($head, '|', 2), 'control characters: the table\'s columns line up, the escape counted as shown');
like($out, qr/^warning: .*CFLAGS.*-DX=\\x1b\[31m\\x07\\u009by/m,
	'control characters: the CFLAGS warning shows ESC, BEL and CSI escaped');
like($out, qr/^report: \Q$ctl_dir\E\/report\.html/m, 'control characters: the directory\'s name escaped, its byte ff as \xff');
unlike($out . $err, $raw, 'control characters: no control character, CSI or byte ff on the terminal');
$md = slurp_file("$dir/report.md");
like($md, qr/^\| c1\\\\u009b31m-x\.sql \| 1 \|/m, 'control characters: report.md shows \u009b (its backslash escaped)');
like($md, qr/-DX=\\\\x1b\[31m\\\\x07\\\\u009by/, 'control characters: report.md shows the CFLAGS escaped');
like($md, qr/^# pgbench_ext report: .*ctl-\\\\x1b\]0;t\\\\x07\\\\u009b\\\\xff$/m, 'control characters: report.md\'s title shows the directory escaped');
unlike($md, $raw, 'control characters: no control character, CSI or byte ff in report.md');
$html = slurp_file("$dir/report.html");
like($html, qr/<td>c1\\u009b31m-x\.sql<\/td>/, 'control characters: report.html shows \u009b');
like($html, qr/-DX=\\x1b\[31m\\x07\\u009by/, 'control characters: report.html shows the CFLAGS escaped');
like($html, qr/<h1>pgbench_ext report: .*ctl-\\x1b\]0;t\\x07\\u009b\\xff<\/h1>/, 'control characters: report.html\'s title shows the directory escaped');
unlike($html, $raw, 'control characters: no control character, CSI or byte ff in report.html');
SKIP:
{
	skip 'gnuplot is not installed', 3 unless -x '/usr/bin/gnuplot' || grep { -x "$_/gnuplot" } split /:/, $ENV{PATH};
	like($out, qr/^no plots: the path of ".*ctl-\\x1b\]0;t\\x07\\u009b\\xff" holds a control character/m,
		'control characters: a path gnuplot\'s script cannot hold gets no plots, said so');
	# a byte that is not UTF-8 (a Latin-1 name): shown escaped, yet the plots are drawn where they belong
	$dir = fixture("$base/latin1-r\xe9sultats");
	($rc, $out, $err) = run_client('report', $dir);
	ok($rc == 0 && -s "$dir/plots/tps_runs.svg", 'a Latin-1 directory name: gnuplot draws into it, the path unescaped')
	  or diag $out, $err;
	like($out, qr/^report: .*latin1-r\\xe9sultats\/report\.html/m, 'a Latin-1 directory name: shown as \xe9');
}
# runs.csv holds what JSON cannot: a byte that is not UTF-8
$dir = fixture("$base/ctl-csv");
edit("$dir/runs.csv", sub { set_field($_[0], 'variant', "b\e[2J\a\xc2\x9b\xffx") });
($rc, $out, $err) = run_client('report', $dir);
is($rc, 2, 'control characters in runs.csv: report exits 2');
like($err, qr/line 4: variant "b\\x1b\[2J\\x07\\u009b\\xffx" is not a variant/,
	'control characters in runs.csv: the error shows them escaped');
unlike($out . $err, $raw, 'control characters in runs.csv: none reaches the terminal');

# --- import reads the same way, and imports nothing of a damaged directory ----
my $node = PostgreSQL::Test::Cluster->new('import');
init_node($node);
$node->start;
create_database($node, 'untrusted_import');
$dir = fixture("$base/import-bad");
edit("$dir/runs.csv", sub { set_field($_[0], 'variant', $bad) });
my $before = $node->safe_psql('untrusted_import', 'SELECT count(*) FROM pgbench_ext.experiments');
($rc, $out, $err) = run_client_on($node, 'import', $dir, 'dbname=untrusted_import');
is($rc, 2, 'import of a damaged directory exits 2') or diag $err;
like($err, qr/import-bad\/runs\.csv" line 4: variant "b`touch/, 'import names the file and line');
is($node->safe_psql('untrusted_import', 'SELECT count(*) FROM pgbench_ext.experiments'), $before, 'import: nothing imported');
$dir = fixture("$base/import-good");
($rc, $out, $err) = run_client_on($node, 'import', $dir, 'dbname=untrusted_import');
is($rc, 0, 'import of the crafted names exits 0') or diag $err;
is($node->safe_psql('untrusted_import', 'SELECT DISTINCT script FROM pgbench_ext.runs'), $script,
	'import: the name is stored as it is');
nothing_ran('import');

# --- links planted among the files report writes --------------------------
$dir = fixture("$base/links");
my $target = "$base/target.txt";
open my $fh, '>', $target or die;
print $fh "precious\n";
close $fh;
foreach my $name (qw(report.html benchstat.txt summary.json.tmp))
{
	unlink "$dir/$name";
	symlink $target, "$dir/$name" or die "symlink: $!";
	($rc, $out, $err) = run_client('report', $dir);
	isnt($rc, 0, "link as $name: report fails");
	like($err, qr/"\Q$dir\/$name\E" is a symbolic link: refusing to write through it.*hint: Remove the link/s,
		"link as $name: the error names it");
	is(slurp_file($target), "precious\n", "link as $name: its target is untouched");
	unlink "$dir/$name";
}

done_testing();
