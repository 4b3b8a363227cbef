# PageProbe — a page of "pgbench_ext history -o" (or a report) opened in
# headless Chromium as a reader opens it, with a probe script added to a
# copy of it: script errors, console messages, resources loaded, elements
# a name could have made, SVGs rendered and titled, links inside the page
# that find no element, as 057 checks the pages of directories.  Used by
# 143 (the farm's index from the database, its queues).
package PageProbe;

use strict;
use warnings;

use File::Temp;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

# chromium() -> its path, after what make test installs in the background;
# bails out when there is none
sub chromium
{
	my $install_failed = wait_for_install();
	my ($chromium) = grep { -x } map { "$_/chromium" } split /:/, $ENV{PATH};
	ok($chromium, 'chromium is on PATH (tools/deps install brings Debian\'s chromium)')
	  or BAIL_OUT('no chromium: ' . ($install_failed // 'run tools/deps install'));
	return $chromium;
}

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

# $page in Chromium (a copy beside it with the probe), its profile in a
# directory below $base: what the probe found, and the log
sub browse
{
	my ($page, $chromium, $base) = @_;
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

# check_page(PAGE, WHAT, CHROMIUM, BASE) -> what the probe found, each check a test
sub check_page
{
	my ($page, $what, $chromium, $base) = @_;
	my ($p, $log) = browse($page, $chromium, $base);
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

1;
