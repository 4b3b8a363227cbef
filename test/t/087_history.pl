# "pgbench_ext history DIR...": a series of synthetic results directories,
# one point each, with a known shift: the change point at its place with
# its size and CI, its plot with the change marked, a flat series without
# any, points of other machines refused unless --any-machine, and the
# command line's errors.  No server: every directory is written here,
# deterministically (the noise is a fixed pattern, not drawn at random).
use strict;
use warnings;

use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $base = PostgreSQL::Test::Utils::tempdir;

# uniform noise in [-1, 1) with a fixed seed: the same on every machine
my $wobble = ReportFixture::noise(12345);

# One point: 8 rounds of one variant, tps = level * (1 + 1% noise)
sub point
{
	my ($dir, $level, $i, %o) = @_;
	ReportFixture::write_dir(
		$dir,
		clients => [2],
		rounds => 8,
		variants => [ { name => 'head' } ],
		written_at => sprintf('2026-01-%02dT00:00:00Z', $i + 1),
		tps => sub {
			return $level * (1 + 0.01 * $wobble->());
		},
		%o);
	return $dir;
}

# 20 points, 5% faster from point 12 on
my @dirs = map { point(sprintf("$base/step%02d", $_), $_ >= 11 ? 1050 : 1000, $_) } 0 .. 19;
my ($rc, $out, $err) = run_client('history', '-o', "$base/plot", @dirs);
is($rc, 0, 'history of 20 points exits 0') or diag $err;
like($out, qr/^------ change: \+5\.\d\d% \[\+\d\.\d\d%, \+\d\.\d\d%\], p = 0\.001 \(11 points before, 9 after\)\n\s+12 /m,
	'one change point, before point 12, +5% with its CI and p') or diag $out;
is(() = $out =~ /^------ change/mg, 1, 'and no other');
like($out, qr/^1 change point at alpha 0\.05 \(999 permutations, seed 1\)$/m, 'the test\'s settings are stated');
my ($shift, $lo, $hi) = $out =~ /change: \+([\d.]+)% \[\+([\d.]+)%, \+([\d.]+)%\]/;
ok($lo < 5 && $hi > 5 && $lo < $shift && $shift < $hi, "its CI [$lo%, $hi%] holds the true 5% and the estimate $shift%");

my @csv = split /\n/, slurp_file("$base/plot/changepoints.csv");
is(scalar @csv, 2, 'changepoints.csv: a header and one change point');
like($csv[1], qr{^12,"\Q$dirs[11]\E",1\.05\d*,}, '  at point 12, the first results directory after the change');
is(lines_in("$base/plot/history.dat"), 1 + 20 + 3 + 2 * 3, 'history.dat: 20 points and two segments');
SKIP:
{
	skip 'gnuplot is not installed', 2 unless grep { -x "$_/gnuplot" } split /:/, $ENV{PATH};
	ok(-s "$base/plot/history.svg", 'history.svg is drawn');
	my $svg = slurp_file("$base/plot/history.svg");
	like($svg, qr/\+5\.\d%/, 'the change point is marked with its shift');
}

# a flat history of 12 points: no change point
my @flat = map { point("$base/flat$_", 1000, $_) } 0 .. 11;
($rc, $out, $err) = run_client('history', @flat);
is($rc, 0, 'a flat history exits 0') or diag $err;
like($out, qr/^0 change points at alpha 0\.05/m, 'and has no change point') or diag $out;

# points of another machine: refused, then pooled when asked
my $other = point("$base/other", 1000, 12,
	machine => { arch => 'x86_64', cpus => 4, hostname => 'elsewhere', kernel => '6.1' });
($rc, $out, $err) = run_client('history', @flat, $other);
is($rc, 2, 'a point of another machine: exit status 2');
like($err, qr/ran on different machines \(fingerprints [0-9a-f]{16} of "fixture" and [0-9a-f]{16} of "elsewhere"\)/,
	'  naming both machines');
like($err, qr/hint: .*--any-machine/, '  with the option that pools them');
($rc, $out, $err) = run_client('history', '--any-machine', @flat, $other);
is($rc, 0, '--any-machine pools them') or diag $err;

# a point of another experiment (another scale): refused
my $scale = point("$base/scale", 1000, 13);
{
	my $doc = PgbenchExtTest::read_json("$scale/experiment.json");
	$doc->{spec}{experiment}{scale} = 10;
	open my $f, '>', "$scale/experiment.json" or die;
	print $f JSON::PP->new->canonical->encode($doc);
	close $f;
}
($rc, $out, $err) = run_client('history', @flat, $scale);
is($rc, 2, 'a point of another experiment: exit status 2');
like($err, qr/\Q$scale\E holds another experiment than \Q$flat[0]\E \(signatures [0-9a-f]{16} and [0-9a-f]{16}\)/,
	'  naming it');

# a directory without the variant asked for is left out, with a warning
($rc, $out, $err) = run_client('history', '--variant', 'head', @flat[0 .. 5], "$base/step00");
is($rc, 0, 'history --variant head');
($rc, $out, $err) = run_client('history', '--variant', 'patch', @flat[0 .. 5]);
like($err, qr/\Q$flat[0]\E is left out of the history: it has no variant "patch"/, 'a point without the variant is left out');
like($out, qr/^no change point can be found in 0 points: it takes at least 6/m, 'and too few points is said');

# the command line
foreach my $case (
	[ [], qr/no results directory given/ ],
	[ [ '--alpha', '2', $flat[0] ], qr/--alpha must be a number above 0 and below 1/ ],
	[ [ '--permutations', '0', $flat[0] ], qr/--permutations must be in range/ ],
	[ [ '--bogus', $flat[0] ], qr/unrecognized option/ ],
	[ ["$base/none"], qr/must be a results directory/ ])
{
	($rc, $out, $err) = run_client('history', @{ $case->[0] });
	is($rc, 2, "history @{$case->[0]}: exit status 2");
	like($err, $case->[1], '  and why');
}
($rc, $out) = run_client('history', '--help');
like($out, qr/Usage:\n  pgbench_ext history \[OPTION\]\.\.\. DIR\.\.\./, 'history --help');

# --- the pages: --farm, one history per (experiment, machine) ---------------
# A second machine whose host name and directories' names are markup, a
# report.html in the point after the change, and the bisect of that change.
my $mark = q{<b id="x">&'"};
my @evil = map {
	point("$base/evil $mark #$_ ?q=1", 1000, $_,
		machine => { arch => 'x86_64', cpus => 2, hostname => "host$mark", kernel => '6.0' })
} 0 .. 7;
($rc, $out, $err) = run_client('report', $dirs[11]);
is($rc, 0, 'report of the point after the change: its report.html') or diag $err;
symlink("$dirs[11]/report.html", "$dirs[12]/report.html") or die "symlink: $!";
my $bisect = "$base/bisect";
mkdir $bisect;
chmod 0700, $bisect;
{
	my @states = ({ label => '(no patch)', commit => undef }, map { { label => "$_$mark.patch", commit => undef } } 1 .. 4);
	my $step = sub {
		my ($k, $state, $answer) = @_;
		return { state => $state, attempt => 0, dir => "$bisect/step-$k", answer => $answer, verdict => $answer,
			estimate => 1.05, ci_low => 1.04, ci_high => 1.06, good_value => 1000, state_value => 1050, units => 4 };
	};
	write_file("$bisect/bisect.json", JSON::PP->new->canonical->encode({
		format => 1, method => 'tps', git => undef, patches => [ map { "$_$mark.patch" } 1 .. 4 ],
		experiment => { experiment => { scale => 1, clients => [2], rounds => 'auto', script => ['default'], seed => '1' },
			variants => [ { name => 'pg', source => "$base/src", patch => [] } ] },
		states => \@states, good => 0, bad => 4, retries => 1,
		steps => [ $step->(1, 4, 'differs'), $step->(2, 2, 'same'), $step->(3, 3, 'differs') ] }));
	write_file("$bisect/bisect.md", "# bisect\n");
	mkdir "$bisect/patches";
	write_file("$bisect/patches/$_$mark.patch", '') foreach 1 .. 4;
}
my $pages = "$base/pages";
($rc, $out, $err) = run_client('history', '--farm', '-o', $pages, '--bisect', "$dirs[11]=$bisect", @dirs, @evil);
is($rc, 0, 'history --farm of two machines exits 0') or diag $err;
is(() = $out =~ /^== experiment [0-9a-f]{16} on machine [0-9a-f]{16} \("(fixture|host<b .*)"\): variant head, default, 2 clients$/mg,
	2, 'a history per machine on the terminal') or diag $out;
my @page = sort glob("$pages/*/history.html");
is(scalar @page, 2, 'a page per history, each in its directory') or diag $out;
ok(-s "$pages/index.html", 'and index.html');
my ($alpha_page) = grep { slurp_file($_) =~ /fixture/ } @page;
my ($evil_page) = grep { $_ ne ($alpha_page // '') } @page;
ok(-s $_, "$_ beside its page") foreach map { (my $d = $alpha_page) =~ s/history\.html$/$_/; $d } qw(history.dat changepoints.csv);

# every link of every page resolves: a file beside it, or an element of the page
foreach my $html (@page, "$pages/index.html")
{
	my $text = slurp_file($html);
	(my $dir = $html) =~ s{/[^/]+$}{};
	my @href = $text =~ /<a href="([^"]*)"/g;
	ok(@href, "$html has links");
	foreach my $href (@href)
	{
		if ($href =~ /^#(.*)$/)
		{
			like($text, qr/ id="\Q$1\E"/, "$href: an element of the page");
			next;
		}
		unlike($href, qr{^[a-z]+:|^/}, "$href: a relative link");
		(my $path = $href) =~ s/&amp;/&/g;
		$path =~ s/%([0-9A-F]{2})/chr(hex($1))/ge;
		ok(-f "$dir/$path", "$href: resolves to a file");
	}
	unlike($text, qr/\Q$mark\E|<b /, "$html: no markup from a name");
	unlike($text, qr/<script/i, "$html: no script");
}
my $alpha = slurp_file($alpha_page);
like($alpha, qr/<svg.*\+5\.\d%.*<\/svg>/s, 'the plot inlined, the change point marked with its shift');
like($alpha, qr{<tr id="c1"><td><a href="#p12">12</a></td><td>2026-01-12T00:00:00Z</td><td>\+5\.\d\d% \[\+\d\.\d\d%, \+\d\.\d\d%\]</td><td>0\.001</td>},
	'the change point: before point 12, its date, shift, CI and p');
like($alpha, qr{<a href="(\.\./)+bisect/bisect\.md">The first state that differs from the good end \(state 0\) by tps: state 3, 3&lt;b id=&quot;x&quot;&gt;&amp;&#39;&quot;\.patch\.},
	'its bisect\'s answer, linked to bisect.md, the patch\'s name escaped') or diag $alpha;
like($alpha, qr{<tr id="p12"><td><a href="#c1">12 \(change\)</a></td>.*<td><a href="(\.\./)+step11/report\.html">\Q$dirs[11]\E</a></td></tr>},
	'point 12 linked to its report');
like($alpha, qr{<tr id="p11"><td>11</td>.*<td>\Q$dirs[10]\E</td></tr>}, 'a point without report.html: its path');
like($alpha, qr{<tr id="p13"><td>13</td>.*<td>\Q$dirs[12]\E</td></tr>}, 'a point whose report.html is a link elsewhere: its path');
my $evil = slurp_file($evil_page);
like($evil, qr/host&lt;b id=&quot;x&quot;&gt;&amp;&#39;&quot;/, 'a host name as text');
like($evil, qr/No change point at alpha 0\.05/, 'the flat history: no change point');
my $index = slurp_file("$pages/index.html");
like($index, qr{<tr><td>[0-9a-f]{16}</td><td>fixture</td><td>20</td><td>1</td><td><a href="[0-9a-f]{16}-[0-9a-f]{16}/history\.html">[0-9a-f]{16}: \+5\.\d\d% \[[^]]+\] before point 12, 2026-01-12T00:00:00Z</a></td></tr>},
	'index.html: the machine, its experiments and histories, its latest change point') or diag $index;
like($index, qr{<td>none</td></tr>}, 'index.html: a machine without a change point');
like($index, qr{Queues</h2>\s*<p>No queue to show: these pages are of results directories},
	'index.html: no queue from directories, and where one is');

# --bisect must name a point; a point that is not after a change is a warning
($rc, $out, $err) = run_client('history', '--bisect', "$base/nowhere=$bisect", @dirs);
is($rc, 2, '--bisect of no given directory: exit status 2');
like($err, qr/--bisect ".*nowhere=.*" does not begin with a results directory of the history and "="/, '  and why');
($rc, $out, $err) = run_client('history', '--bisect', "$dirs[3]=$bisect", @dirs);
like($err, qr/warning: no change point is before \Q$dirs[3]\E: the bisect \Q$bisect\E is not shown/, 'a bisect of no change: a warning');
($rc, $out, $err) = run_client('history', '--bisect', "$dirs[11]=$base", @dirs);
is($rc, 2, '--bisect of a directory without a bisect: exit status 2');
($rc, $out, $err) = run_client('history', '--farm', '--any-machine', @dirs);
is($rc, 2, '--farm with --any-machine: exit status 2');
($rc, $out, $err) = run_client('history', '-d', 'farm', @dirs[0 .. 1]);
is($rc, 2, 'a database and directories: exit status 2');
like($err, qr/a history is read from results directories or from a database, not both/, '  and why');

done_testing();
