# PageProbe — a page of "pgbench_ext history -o" (or a report) opened in
# headless Chromium as a reader opens it, with a probe script added to a
# copy of it: script errors, console messages, resources loaded, elements
# a name could have made, SVGs rendered and titled, links inside the page
# that find no element.  Used by 057 (the pages of directories, all in
# one start of Chromium) and 143 (the farm's index from the database, its
# queues).
package PageProbe;

use strict;
use warnings;

use Test::More;

use BrowserProbe;
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
	(my $copy = $page) =~ s/\.html$/-probe.html/;
	my @result = browse_with_probe(chromium => $chromium, page => $page, copy => $copy,
		head => $probe_head, body => $probe_body, tmp => $base, width => 1400);
	unlink $copy;
	return @result;
}

# check_page(PAGE, WHAT, CHROMIUM, BASE) -> what the probe found, each check a test
sub check_page
{
	my ($page, $what, $chromium, $base) = @_;
	return checks($what, browse($page, $chromium, $base));
}

# check_pages([ [ PAGE, WHAT ], ... ], CHROMIUM, BASE) -> what the probe
# found in each, the checks of check_page for each, with one start of
# Chromium for them all
sub check_pages
{
	my ($pages, $chromium, $base) = @_;
	my @copies = map { $_->[0] =~ s/\.html$/-probe.html/r } @$pages;
	my @found = browse_pages_with_probe(chromium => $chromium, tmp => $base, width => 1400,
		pages => [ map { { page => $pages->[$_][0], copy => $copies[$_], head => $probe_head, body => $probe_body } }
			0 .. $#$pages ]);
	unlink @copies;
	return map { scalar checks($pages->[$_][1], @{ $found[$_] }) } 0 .. $#$pages;
}

# the checks of a page, given what its probe found and Chromium's log
sub checks
{
	my ($what, $p, $log) = @_;
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
