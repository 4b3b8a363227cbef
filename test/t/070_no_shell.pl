# No shell in the client: every child process goes through client/subprocess.c
# as an argv vector.  The client's sources are searched for what would
# start a shell or bypass that module (system, popen, /bin/sh, sh -c, the
# exec family, fork), and the search is first shown to find each of them.
use strict;
use warnings;

use Test::More;

use PgbenchExtTest;

my $top = source_tree();

# what must not appear, and where it may (the module that runs children)
my @forbidden = (
	[ 'system()',   qr/\bsystem\s*\(/,                     [] ],
	[ 'popen()',    qr/\bpopen\s*\(/,                      [] ],
	[ '/bin/sh',    qr{/bin/(?:ba|da)?sh\b},                  [] ],
	[ 'sh -c',      qr/"(?:ba|da)?sh"\s*,\s*"-c"/,           [] ],
	[ 'exec*()',    qr/\bexec(?:l|lp|le|v|vp|ve|vpe)\s*\(/, ['subprocess.c'] ],
	[ 'fork()',     qr/\b(?:v?fork|posix_spawnp?)\s*\(/,   ['subprocess.c'] ],
);

# The patterns themselves: each finds what it is meant to find.
my %sample = (
	'system()' => 'if (system(cmd) != 0)',
	'popen()'  => 'FILE *p = popen(cmd, "r");',
	'/bin/sh'  => 'char *argv[] = {"/bin/sh", NULL};',
	'sh -c'    => 'char *argv[] = {"sh", "-c", script, NULL};',
	'exec*()'  => 'execl("/bin/true", "true", NULL);',
	'fork()'   => 'pid = fork();');
foreach my $f (@forbidden)
{
	like($sample{ $f->[0] }, $f->[1], "the search for $f->[0] finds it");
}

my @files = sort glob("$top/client/*.[ch]");
ok(@files > 20, 'the client\'s sources are there to search') or diag "found: @files";
foreach my $f (@forbidden)
{
	my ($what, $re, $allowed) = @$f;
	my @hits;
	foreach my $path (@files)
	{
		(my $name = $path) =~ s{.*/}{};
		next if grep { $_ eq $name } @$allowed;
		my $n = 0;
		foreach my $line (split /\n/, c_code_of($path))
		{
			$n++;
			push @hits, "$name: $line" if $line =~ $re;
		}
	}
	is(scalar(@hits), 0, "no $what in client/" .
		  (@$allowed ? " outside @$allowed" : ''))
	  or diag join("\n", @hits);
}

done_testing();
