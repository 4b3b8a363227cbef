# tools/deps checks the things a build needs, not the packages installed:
# against a pg_config whose server include directory lacks postgres.h (as
# on a Debian machine with postgresql-15 but not postgresql-server-dev-15)
# it names postgres.h and the server-dev package, and exits 2; against an
# installation outside Debian's layout it names the file with no package;
# against the real installation, which make test has just completed, it
# finds nothing missing, in either of the groups make test installs one
# after the other (all but the browser, then the browser).  No server is
# started.
use strict;
use warnings;

use File::Temp qw(tempdir);
use IPC::Run;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $deps = source_tree() . '/tools/deps';
my $real = pg_config();
chomp(my $major = `$real --version`);
$major =~ s/^PostgreSQL (\d+).*/$1/;
chomp(my $bindir = `$real --bindir`);

sub deps
{
	my ($pg_config, @args) = @_;
	my ($out, $err) = ('', '');
	local $ENV{PG_CONFIG} = $pg_config;
	IPC::Run::run([ $deps, @args ], '<', \undef, '>', \$out, '2>', \$err);
	return ($? >> 8, $out, $err);
}

# A pg_config that answers as the real one, but for the options named
sub fake_pg_config
{
	my (%answer) = @_;
	my $dir = tempdir(CLEANUP => 1);
	my $cases = join '', map { "\t$_) echo '$answer{$_}' ;;\n" } sort keys %answer;
	open my $fh, '>', "$dir/pg_config" or die $!;
	print $fh "#!/bin/sh\nfor o in \"\$@\"; do\n\tcase \$o in\n$cases\t*) '$real' \"\$o\" ;;\n\tesac\ndone\n";
	close $fh;
	chmod 0755, "$dir/pg_config";
	return "$dir/pg_config";
}

my ($rc, $out, $err) = deps($real, 'check');
is($rc, 0, 'the installation make test built against lacks nothing') or diag $err;

my $empty = tempdir(CLEANUP => 1);
my $no_headers = fake_pg_config('--includedir-server' => $empty);
($rc, $out, $err) = deps($no_headers, 'check');
is($rc, 2, 'server headers missing: exit status 2');
SKIP:
{
	skip 'not Debian\'s layout of PostgreSQL', 2 unless $bindir eq "/usr/lib/postgresql/$major/bin";
	like($err, qr{^  \Q$empty\E/postgres\.h \(the server headers, the extension's build; Debian package postgresql-server-dev-$major\)$}m,
		'postgres.h is named, with the package that provides it');
	like($err, qr/^tools\/deps: hint: as root run: apt-get install postgresql-server-dev-$major$/m,
		'and the command that installs it');
}
unlike($err, qr/pgxs\.mk|libpq-fe\.h/, 'nothing else of the installation is named');

# An installation of its own (a build from source): no package to name
my $elsewhere = tempdir(CLEANUP => 1);
my $own = fake_pg_config('--includedir-server' => $empty, '--bindir' => $elsewhere);
($rc, $out, $err) = deps($own, 'check');
is($rc, 2, 'an installation outside Debian\'s: exit status 2');
like($err, qr{^  \Q$empty\E/postgres\.h \(the server headers, the extension's build\)$}m,
	'postgres.h is named without a package');
like($err, qr/comes only from rebuilding that installation/, 'and the hint says how it is had');

# make test's two groups: all but the browser first, the browser beside the
# tests; a group of another name is refused, the groups named
foreach my $group ('first', 'browser')
{
	($rc, $out, $err) = deps($real, 'check', $group);
	is($rc, 0, "group $group: nothing missing") or diag $err;
}
($rc, $out, $err) = deps($no_headers, 'check', 'browser');
is($rc, 0, 'the browser group asks nothing of the installation');
($rc, $out, $err) = deps($no_headers, 'check', 'first');
like($err, qr/postgres\.h/, 'the first group does');
($rc, $out, $err) = deps($real, 'check', 'browsers');
is($rc, 2, 'an unknown group: exit status 2');
like($err, qr/the groups are "first", "browser", "bench" and "package"/, 'and the groups are named');

($rc, $out, $err) = deps($real, 'fetch');
is($rc, 2, 'an unknown mode: exit status 2');
like($err, qr/unknown mode "fetch"/, 'and the mode is named');

# A dpkg killed half-way elsewhere makes apt-get refuse every install
# until "dpkg --configure -a" has run: install mode runs it, says so, and
# installs again.  Root's install on Debian, with apt-get and dpkg standing
# in (on PATH before the real ones) so that the machine's packages are not
# touched: apt-get refuses as an interrupted dpkg makes it until dpkg
# --configure -a has run, and each call is written down.
SKIP:
{
	skip 'install mode runs apt-get only as root on Debian', 4
	  unless $> == 0 && -f '/etc/debian_version';
	my $bin = tempdir(CLEANUP => 1);
	my $calls = "$bin/calls";
	my %script = (
		'apt-get' => qq{echo "apt-get \$*" >>'$calls'
case " \$* " in *" install "*)
	[ -f '$bin/configured' ] && exit 0
	echo "E: dpkg was interrupted, you must manually run 'dpkg --configure -a' to correct the problem."
	exit 100 ;;
esac
exit 0
},
		'dpkg' => qq{echo "dpkg \$*" >>'$calls'
[ "\$*" = "--configure -a" ] && : >'$bin/configured'
exit 0
});
	foreach my $name (keys %script)
	{
		open my $fh, '>', "$bin/$name" or die $!;
		print $fh "#!/bin/sh\n$script{$name}";
		close $fh;
		chmod 0755, "$bin/$name";
	}
	local $ENV{PATH} = "$bin:$ENV{PATH}";
	local $ENV{PGBENCH_EXT_DEPS_LOG} = "$bin/apt.log";
	($rc, $out, $err) = deps($no_headers, 'install', 'first');
	like($out, qr/^tools\/deps: an earlier dpkg was interrupted: finishing it \(dpkg --configure -a\)$/m,
		'an interrupted dpkg is said') or diag "$out\n$err";
	my @calls = grep { !/ update / } split /\n/, slurp_file($calls);
	is_deeply([ map { s/^(\S+ \S+).*/$1/r } @calls[0 .. 2] ],
		[ 'apt-get -o', 'dpkg --configure', 'apt-get -o' ],
		'dpkg --configure -a runs between the refused install and the next one');
	like($calls[2], qr/ install -y -q postgresql-server-dev-$major$/, 'which installs the same package');
	# the stand-in installs nothing, so the headers are still missing
	is($rc, 2, 'what is still missing afterwards is named: exit status 2');
}

done_testing();
