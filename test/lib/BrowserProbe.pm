# BrowserProbe.pm — a page rendered by headless Chromium with a probe of
# the test's own inserted into it: the report's (054) and the history's
# (057) pages are checked the same way.  The probe is a script whose result
# it writes as JSON into <pre id="probe-result">, which --dump-dom returns.
package BrowserProbe;

use strict;
use warnings;

use Exporter 'import';
use File::Temp;
use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Utils;

our @EXPORT = qw(browse_with_probe browse_pages_with_probe);

# browse_with_probe(chromium => PATH, page => HTML file, copy => where the
# page with the probe is written, head => / body => what the probe adds
# after <head> and before </body>, tmp => a directory for Chromium's
# profile, width => the window's width): the probe's result (undef when
# it did not run) and Chromium's log.
sub browse_with_probe
{
	my (%a) = @_;
	my $html = slurp_file($a{page});
	$html =~ s/<head>/<head>$a{head}/ or die "no <head> in $a{page}";
	$html =~ s/<\/body>/$a{body}<\/body>/ or die "no </body> in $a{page}";
	open my $f, '>', $a{copy} or die "$a{copy}: $!";
	print $f $html;
	close $f;
	my $profile = File::Temp->newdir("$a{tmp}/chromium-XXXX");
	my ($dom, $log) = ('', '');
	local $ENV{HOME} = "$profile";
	IPC::Run::run(
		[ $a{chromium}, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
		  "--user-data-dir=$profile", "--window-size=$a{width},1000", '--enable-logging=stderr',
		  '--v=0', '--dump-dom', "file://$a{copy}" ],
		'<', \undef, '>', \$dom, '2>', \$log, IPC::Run::timeout(120));
	my ($json) = $dom =~ /<pre id="probe-result">(.*?)<\/pre>/s;
	return (undef, $log) unless defined $json;
	return (probe_json($json), $log);
}

# --dump-dom serializes the text with &, < and > as entities
sub probe_json
{
	my ($json) = @_;
	$json =~ s/&lt;/</g;
	$json =~ s/&gt;/>/g;
	$json =~ s/&amp;/&/g;
	return decode_json($json);
}

# a file's path as a file: URL (every byte but the plain ones escaped)
sub file_url
{
	my ($path) = @_;
	utf8::encode($path) if utf8::is_utf8($path);
	$path =~ s{([^A-Za-z0-9/._~-])}{sprintf('%%%02X', ord $1)}ge;
	return "file://$path";
}

# browse_pages_with_probe(chromium => PATH, pages => [ { page =>, copy =>,
# head =>, body => }, ... ], tmp =>, width =>): as browse_with_probe for
# each page, with one start of Chromium for them all (a start costs more
# CPU than rendering a page).  Each copy is a frame of its own, of the
# window's size (width x 1000 px), in a page written under tmp that, once
# every frame has loaded, copies each frame's probe result into itself for
# --dump-dom; the frames are file: pages, which
# --allow-file-access-from-files lets that page read.  Returns a pair per
# page: its probe's result (undef when it did not run) and the log as that
# page's: Chromium's lines, less the console lines another page's source
# gave (a console line of no page's source is every page's).
sub browse_pages_with_probe
{
	my (%a) = @_;
	my @pages = @{ $a{pages} };
	foreach my $pg (@pages)
	{
		my $html = slurp_file($pg->{page});
		$html =~ s/<head>/<head>$pg->{head}/ or die "no <head> in $pg->{page}";
		$html =~ s/<\/body>/$pg->{body}<\/body>/ or die "no </body> in $pg->{page}";
		open my $f, '>', $pg->{copy} or die "$pg->{copy}: $!";
		print $f $html;
		close $f;
	}
	my $profile = File::Temp->newdir("$a{tmp}/chromium-XXXX");
	my $frames = join '', map { '<iframe src="' . file_url($_->{copy}) . "\"></iframe>\n" } @pages;
	open my $f, '>', "$profile/pages.html" or die "$profile/pages.html: $!";
	print $f <<"EOF";
<!DOCTYPE html>
<html><head><style>body{margin:0}iframe{display:block;border:0;width:$a{width}px;height:1000px}</style></head><body>
$frames<script>window.addEventListener('load',function(){
document.querySelectorAll('iframe').forEach(function(f,i){
	var d=null;try{d=f.contentDocument;}catch(e){}
	var r=d&&d.getElementById('probe-result');
	if(!r)return;
	var p=document.createElement('pre');p.id='probe-result-'+i;p.textContent=r.textContent;
	document.body.appendChild(p);
});});</script>
</body></html>
EOF
	close $f;
	my ($dom, $log) = ('', '');
	local $ENV{HOME} = "$profile";
	IPC::Run::run(
		[ $a{chromium}, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
		  '--allow-file-access-from-files', "--user-data-dir=$profile",
		  "--window-size=$a{width}," . 1000 * @pages, '--enable-logging=stderr',
		  '--v=0', '--dump-dom', file_url("$profile/pages.html") ],
		'<', \undef, '>', \$dom, '2>', \$log, IPC::Run::timeout(120 + 30 * @pages));
	my @result;
	foreach my $i (0 .. $#pages)
	{
		my @lines = grep {
			my ($url) = /:CONSOLE.*, source: (\S+) \(\d+\)$/;
			my $from = defined $url ? $url =~ s/%([0-9A-Fa-f]{2})/chr hex $1/ger =~ s{^file://}{}r : undef;
			!defined $from || !grep({ $_->{copy} eq $from } @pages) || $from eq $pages[$i]{copy};
		} split /\n/, $log;
		my ($json) = $dom =~ /<pre id="probe-result-$i">(.*?)<\/pre>/s;
		push @result, [ defined $json ? probe_json($json) : undef, join("\n", @lines) ];
	}
	return @result;
}

1;
