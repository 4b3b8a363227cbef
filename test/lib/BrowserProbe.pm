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

our @EXPORT = qw(browse_with_probe);

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
	# --dump-dom serializes the text with &, < and > as entities
	$json =~ s/&lt;/</g;
	$json =~ s/&gt;/>/g;
	$json =~ s/&amp;/&/g;
	return (decode_json($json), $log);
}

1;
