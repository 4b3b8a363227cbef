# The report as a reader opens it: report.html of a real, short experiment
# (two variants on one cluster, 1-second runs, the snapshot probe on) and of
# a results directory of three variants and two client counts, rendered by
# headless Chromium (Debian's chromium, which tools/deps installs).  In the
# page: no console error and no resource loaded from anywhere; the forest
# plot the first figure, within the first screen and of non-zero size; with
# every section opened, every SVG rendered (a non-empty box and content)
# and titled; the page no wider than 1,400 px.  Also the end of the run on
# the terminal: one screen, the forest plot in text under the table.
#
# Nothing here judges noisy data: the checks are of the page's structure,
# whatever the verdicts of the short run are.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;
use BrowserProbe;

# make test installs the browser beside the other tests: wait for it
my $install_failed = wait_for_install();
my ($chromium) = grep { -x } map { "$_/chromium" } split /:/, $ENV{PATH};
ok($chromium, 'chromium is on PATH (tools/deps install brings Debian\'s chromium)')
  or BAIL_OUT('no chromium: ' . ($install_failed // 'run tools/deps install'));

my $bindir = pg_bindir();
my $base = shared_tempdir();
my $screen_w = 1400;

# The checks run in the page itself: a copy of report.html with a script
# that collects errors from the first moment and, at the end of the body,
# measures the page and writes what it found into it for --dump-dom.
my $probe_head = <<'EOF';
<script>window.__errors=[];window.addEventListener('error',function(e){window.__errors.push(String(e.message))});</script>
EOF
my $probe_body = <<'EOF';
<script>(function(){
var out={errors:window.__errors,screen_h:innerHeight,screen_w:innerWidth,untitled:[],unrendered:[]};
var f=document.querySelector('svg.forest');
out.forest=!!f;
out.forest_first=document.querySelector('svg')===f;
if(f){var r=f.getBoundingClientRect();out.forest_top=r.top;out.forest_bottom=r.bottom;out.forest_w=r.width;out.forest_h=r.height;}
document.querySelectorAll('details').forEach(function(d){d.open=true;});
var svgs=document.querySelectorAll('svg');
out.svgs=svgs.length;
svgs.forEach(function(s,i){
	var r=s.getBoundingClientRect(),b={width:0,height:0};
	try{b=s.getBBox();}catch(e){}
	if(!(r.width>0&&r.height>0&&b.width>0&&b.height>0))out.unrendered.push(i);
	var t=s.querySelector('title');
	if(!t||!t.textContent.trim())out.untitled.push(i);
});
out.page_w=document.documentElement.scrollWidth;
out.resources=performance.getEntriesByType('resource').length;
var p=document.createElement('pre');p.id='probe-result';p.textContent=JSON.stringify(out);
document.body.appendChild(p);
})();</script>
EOF

# report.html of each [ $dir, $what ] in one start of Chromium (each page
# in a frame of the window's size): the checks of each
sub check_pages
{
	my @found = browse_pages_with_probe(chromium => $chromium, tmp => $base, width => $screen_w,
		pages => [ map { { page => "$_->[0]/report.html", copy => "$_->[0]/probe.html", head => $probe_head,
			body => $probe_body } } @_ ]);
	check_page($_[$_][1], @{ $found[$_] }) for 0 .. $#_;
	return;
}

sub check_page
{
	my ($what, $p, $log) = @_;
	ok($p, "$what: Chromium rendered the page and the probe ran") or return diag $log;
	is_deeply($p->{errors}, [], "$what: no script error in the page");
	my @console = grep { /:CONSOLE/ } split /\n/, $log;
	is_deeply(\@console, [], "$what: nothing on the console");
	is($p->{resources}, 0, "$what: no resource loaded: the page is self-contained");
	ok($p->{forest} && $p->{forest_first}, "$what: the forest plot is the first figure");
	ok($p->{forest_w} > 0 && $p->{forest_h} > 0, "$what: the forest plot has a size ($p->{forest_w} x $p->{forest_h} px)");
	ok($p->{forest_top} >= 0 && $p->{forest_bottom} <= $p->{screen_h},
		"$what: the forest plot within the first screen (rows $p->{forest_top} to $p->{forest_bottom} of $p->{screen_h} px)");
	cmp_ok($p->{svgs}, '>=', 3, "$what: the page has its plots ($p->{svgs} SVGs)");
	is_deeply($p->{unrendered}, [], "$what: every SVG rendered, with every section opened");
	is_deeply($p->{untitled}, [], "$what: every SVG has a title");
	cmp_ok($p->{page_w}, '<=', $screen_w, "$what: the page fits $screen_w px ($p->{page_w} px)");
	return;
}

# --- a real experiment ------------------------------------------------------
# throttled to 100 transactions a second (-R): the page's structure is
# checked, not a speed, and an unthrottled run took a core for its second
my $dir = "$base/ab";
my ($rc, $out, $err) = run_client('ab', '-s', '1', '-T', '1', '-c', '1', '-b', 'select-only', '--seed', '54',
	'-r', '6', '--restart', 'never', '--reset', 'never', '--snapshot-probe', '--pgbench-args', '-R 100',
	'--variant', 'A', '--bindir', $bindir,
	'--variant', 'B', '--cluster', 'A', '--session-set', 'pgbench_ext.inject_slowdown_pct=40', '-o', $dir);
is($rc, 0, 'a short A/B on one cluster completes') or diag "$out\n$err";
like($out, qr/^ B vs A  .{41}  \S.*\n +-\d+%.* B\/A, log scale/m, 'the terminal: the forest plot in text under the table');
cmp_ok(scalar(split /\n/, $out), '<=', 40, 'the end of the run fits a screen');
unlike($out, qr/^(noise|levels|design): /m, 'the noise, levels and designs only with --verbose');
my $svg = slurp_file("$dir/plots/forest.svg");
like($svg, qr/<title>[^<]+<\/title>/, 'forest.svg: a title');
like($svg, qr/>B\/A: change of tps against the baseline, log scale; shaded: the ±1% noise band</,
	'forest.svg: its axis labelled');
like(slurp_file("$dir/report.md"), qr/^# .*\n\n!\[[^]]*\]\(plots\/forest\.svg\)\n/,
	'report.md: the forest plot first');
my $real = $dir;

# --- three variants, two client counts, every counter -----------------------
my @noise = (-0.02, -0.01, 0, 0.01, 0.02, -0.015, 0.005, 0.015);
$dir = "$base/three";
ReportFixture::write_dir(
	$dir,
	clients => [ 1, 8 ],
	rounds => scalar @noise,
	variants => [ { name => 'head' }, { name => 'patch' }, { name => 'a-variant-with-a-long-name' } ],
	tps => sub {
		my ($variant, $clients, $round) = @_;
		my %f = (head => 1, patch => 1.004, 'a-variant-with-a-long-name' => 0.8);
		return 500 * $clients * $f{$variant} * (1 + $noise[ ($round * 3 + length $variant) % @noise ]);
	});
($rc, $out, $err) = run_client('report', $dir);
is($rc, 0, 'three variants: report exits 0') or diag $err;
is(scalar(() = $out =~ /^ \S+, \d+ clients?: \S+ vs head  /mg), 4, 'the terminal: a forest row per comparison');
check_pages([ $real, 'a real A/B' ], [ $dir, 'three variants' ]);

done_testing();
