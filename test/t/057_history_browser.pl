# The pages of "pgbench_ext history --farm -o" as a reader opens them, in
# headless Chromium (as 054 opens report.html): index.html and each
# history's page from synthetic results directories of two machines, one
# with a 5% step and one flat, the second's host name and directory names
# markup.  In each page: no script error, nothing on the console, nothing
# loaded from anywhere, no element a name could have made; every SVG
# rendered and titled; every link inside the page finds its element; on
# the page with the step, the plot's change point drawn: a dashed line and
# its shift as text, both of non-zero size.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;
use PageProbe;

my $chromium = PageProbe::chromium();
my $base = PostgreSQL::Test::Utils::tempdir;

# 16 points of machine "fixture", 5% faster from point 9 on; 8 flat points
# of a machine whose host name is markup, in directories named with markup
my $wobble = ReportFixture::noise(577);
my $mark = q{<b id="x">&'"};
sub point
{
	my ($dir, $level, $i, %o) = @_;
	ReportFixture::write_dir($dir, clients => [2], rounds => 8, variants => [ { name => 'head' } ],
		written_at => sprintf('2026-03-%02dT00:00:00Z', $i + 1),
		tps => sub { return $level * (1 + 0.01 * $wobble->()); }, %o);
	return $dir;
}
my @step = map { point(sprintf("$base/step%02d", $_), $_ >= 8 ? 1050 : 1000, $_) } 0 .. 15;
my @flat = map {
	point("$base/flat $mark #$_", 1000, $_,
		machine => { arch => 'x86_64', cpus => 2, hostname => "host$mark", kernel => '6.0' })
} 0 .. 7;
my ($rc, $out, $err) = run_client('report', $step[8]);
is($rc, 0, 'a report.html for the point after the step') or diag $err;
($rc, $out, $err) = run_client('history', '--farm', '-o', "$base/pages", @step, @flat);
is($rc, 0, 'history --farm -o exits 0') or diag $err;
my @pages = sort glob("$base/pages/*/history.html");
is(scalar @pages, 2, 'two histories, two pages');

# the three pages in one start of Chromium
my %stepped = map { $_ => scalar(slurp_file($_) =~ /fixture/) } @pages;
my %what = map { $_ => $stepped{$_} ? 'the history with a step' : 'the flat history' } @pages;
my ($p, @p) = PageProbe::check_pages([ [ "$base/pages/index.html", 'index.html' ], map { [ $_, $what{$_} ] } @pages ],
	$chromium, $base);
cmp_ok($p->{rows}, '>=', 5, 'index.html: its tables have rows (two machines, two histories)') if $p;
foreach my $page (@pages)
{
	my $stepped = $stepped{$page};
	my $what = $what{$page};
	$p = shift @p or next;
	is($p->{svgs}, 1, "$what: its plot");
	if ($stepped)
	{
		is(scalar @{ $p->{marks} }, 1, "$what: the change point's shift drawn on the plot (@{ $p->{marks} })");
		like($p->{marks}[0] // '', qr/^\+[45]\.\d%$/, "$what: about +5%");
		cmp_ok($p->{dashes}, '>=', 1, "$what: its dashed line drawn");
	}
	else
	{
		is_deeply($p->{marks}, [], "$what: no change point on the plot");
	}
}

done_testing();
