# No shell in the client: every child process goes through client/os/subprocess.c
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

# line by line; comments may name what is not done, code may not do it
forbid_in_client(sub { split /\n/, $_[0] }, @forbidden);

done_testing();
