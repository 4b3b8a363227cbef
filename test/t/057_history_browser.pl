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

use File::Temp;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;
use ReportFixture;

my $install_failed = wait_for_install();
my ($chromium) = grep { -x } map { "$_/chromium" } split /:/, $ENV{PATH};
ok($chromium, 'chromium is on PATH (tools/deps install brings Debian\'s chromium)')
  or BAIL_OUT('no chromium: ' . ($install_failed // 'run tools/deps install'));
my $base = PostgreSQL::Test::Utils::tempdir;

# The probe: errors from the first moment; at the end of the body what the
# page holds, written into it for --dump-dom.
my $probe_head = <<'EOF';
<script>window.__errors=[];window.addEventListener('error',function(e){window.__errors.push(String(e.message))});</script>
EOF
my $probe_body = <<'EOF';
<script>(function(){
var out={errors:window.__errors,unrendered:[],untitled:[],dangling:[],marks:[],dashes:0};
var svgs=document.querySelectorAll('svg');
out.svgs=svgs.length;
svgs.forEach(function(s,i){
	var r=s.getBoundingClientRect(),b={width:0,height:0};
	try{b=s.getBBox();}catch(e){}
	if(!(r.width>0&&r.height>0&&b.width>0&&b.height>0))out.unrendered.push(i);
	var t=s.querySelector('title');
	if(!t||!t.textContent.trim())out.untitled.push(i);
	s.querySelectorAll('text').forEach(function(x){
		var r=x.getBoundingClientRect();
		if(/^[+-][0-9]+\.[0-9]%$/.test(x.textContent.trim())&&r.width>0&&r.height>0)out.marks.push(x.textContent.trim());
	});
	s.querySelectorAll('path[stroke-dasharray]').forEach(function(p){
		var r=p.getBoundingClientRect();
		if(r.height>0)out.dashes++;
	});
});
document.querySelectorAll('a[href^="#"]').forEach(function(a){
	if(!document.getElementById(a.getAttribute('href').substring(1)))out.dangling.push(a.getAttribute('href'));
});
out.links=document.querySelectorAll('a[href]').length;
out.injected=document.querySelectorAll('b,i[id],[id="x"]').length;
out.rows=document.querySelectorAll('tr').length;
out.resources=performance.getEntriesByType('resource').length;
var p=document.createElement('pre');p.id='probe-result';p.textContent=JSON.stringify(out);
document.body.appendChild(p);
})();</script>
EOF

# $page in Chromium (a copy beside it with the probe): what the probe found, and the log
sub browse
{
	my ($page) = @_;
	my $html = slurp_file($page);
	$html =~ s/<head>/<head>$probe_head/ or die "no <head> in $page";
	$html =~ s/<\/body>/$probe_body<\/body>/ or die "no </body> in $page";
	(my $copy = $page) =~ s/\.html$/-probe.html/;
	open my $f, '>', $copy or die "$copy: $!";
	print $f $html;
	close $f;
	my $profile = File::Temp->newdir("$base/chromium-XXXX");
	my ($dom, $log) = ('', '');
	local $ENV{HOME} = "$profile";
	IPC::Run::run(
		[ $chromium, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
		  "--user-data-dir=$profile", '--window-size=1400,1000', '--enable-logging=stderr',
		  '--v=0', '--dump-dom', "file://$copy" ],
		'<', \undef, '>', \$dom, '2>', \$log, IPC::Run::timeout(120));
	unlink $copy;
	my ($json) = $dom =~ /<pre id="probe-result">(.*?)<\/pre>/s;
	return (undef, $log) unless defined $json;
	$json =~ s/&lt;/</g;
	$json =~ s/&gt;/>/g;
	$json =~ s/&amp;/&/g;
	return (decode_json($json), $log);
}

sub check_page
{
	my ($page, $what) = @_;
	my ($p, $log) = browse($page);
	ok($p, "$what: Chromium rendered the page and the probe ran") or return diag $log;
	is_deeply($p->{errors}, [], "$what: no script error");
	is_deeply([ grep { /:CONSOLE/ } split /\n/, $log ], [], "$what: nothing on the console");
	is($p->{resources}, 0, "$what: nothing loaded: the page is self-contained");
	is($p->{injected}, 0, "$what: no element made by a name");
	is_deeply($p->{unrendered}, [], "$what: every SVG rendered");
	is_deeply($p->{untitled}, [], "$what: every SVG titled");
	is_deeply($p->{dangling}, [], "$what: every link inside the page finds its element");
	cmp_ok($p->{links}, '>', 0, "$what: has links ($p->{links})");
	return $p;
}

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

my $p = check_page("$base/pages/index.html", 'index.html');
cmp_ok($p->{rows}, '>=', 5, 'index.html: its tables have rows (two machines, two histories)') if $p;
foreach my $page (@pages)
{
	my $stepped = slurp_file($page) =~ /fixture/;
	my $what = $stepped ? 'the history with a step' : 'the flat history';
	$p = check_page($page, $what) or next;
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
