# One write path: every file the client creates or replaces and every
# directory it makes goes through client/os/safe_file.c (openat with
# O_NOFOLLOW | O_CLOEXEC relative to a checked directory, O_EXCL for new
# files, NAME.tmp renamed over NAME for replaced ones, mkdirat then fstat,
# fchmod/fchown on a descriptor).  The client's sources are searched for
# what would open, make, rename or change the mode or owner of a file
# anywhere else, and for a descriptor that would leak into a child (an
# fopen without "e", an open without O_CLOEXEC, pipe(), dup()); the search
# is first shown to find each of them.  Reading with fopen(..., "re") stays
# allowed: the files of a results directory are read through
# safe_fopen_read(), which test/t/085_planted_links.pl checks with a FIFO.
use strict;
use warnings;

use Test::More;

use PgbenchExtTest;

my $top = source_tree();
my $module = 'safe_file.c';

# what must not appear, and where it may
my @forbidden = (
	[ 'fopen() for writing',         qr/\bf(?:re)?open\s*\([^;]*"[^"]*[wa+][^"]*"\s*\)/, [$module] ],
	[ 'fopen() without "e"',         qr/\bf(?:re)?open\s*\([^;]*"[^"e]*"\s*\)/,           [] ],
	[ 'open() for writing',          qr/\bopen(?:at)?\s*\([^;]*\bO_(?:CREAT|WRONLY|TRUNC|APPEND)\b/, [$module] ],
	[ 'open() without O_CLOEXEC',    qr/\bopen(?:at)?\s*\((?![^;]*O_CLOEXEC)[^;]*;/,      [] ],
	[ 'creat()',                     qr/\bcreat\s*\(/,                                     [] ],
	[ 'making a directory',          qr/\b(?:mkdir|mkdirat|mkdtemp|mkstemp|pg_mkdir_p)\s*\(/, [$module] ],
	[ 'chmod()',                     qr/\bf?chmod(?:at)?\s*\(/,                            [$module] ],
	[ 'chown()',                     qr/\b[lf]?chown(?:at)?\s*\(/,                         [$module] ],
	[ 'rename()',                    qr/\brename(?:at2?)?\s*\(/,                           [$module] ],
	[ 'link()',                      qr/\b(?:sym)?link(?:at)?\s*\(/,                       [] ],
	[ 'truncate()',                  qr/\bf?truncate\s*\(/,                                [] ],
	[ 'jansson\'s own file I/O',     qr/\bjson_(?:dump|load)_file\s*\(/,                   [] ],
	[ 'pipe() without O_CLOEXEC',    qr/\bpipe\s*\(|\bpipe2\s*\((?![^;]*O_CLOEXEC)/,       [] ],
	[ 'dup()',                       qr/\bdup\s*\(/,                                       [] ],
	# messages echo values from files: cli.c escapes their control characters (escape.c)
	[ 'pg_log_error()/pg_log_warning()', qr/\bpg_log_(?:error|warning)\s*\(/,           ['cli.c'] ],
);

# The patterns themselves: each finds what it is meant to find.
my %sample = (
	'fopen() for writing'      => 'FILE *f = fopen(path, "w");',
	'fopen() without "e"'      => 'if ((f = fopen(path, "r")) == NULL)',
	'open() for writing'       => 'int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);',
	'open() without O_CLOEXEC' => 'int fd = open(path, O_RDONLY);',
	'creat()'                  => 'fd = creat(path, 0644);',
	'making a directory'       => 'if (mkdir(dir, 0755) != 0 && errno != EEXIST)',
	'chmod()'                  => 'chmod(psprintf("%s/clusters", dir), 0755);',
	'chown()'                  => 'if (lchown(path, uid, gid) != 0)',
	'rename()'                 => 'if (rename(tmp, path) != 0)',
	'link()'                   => 'symlink(target, path);',
	'truncate()'               => 'ftruncate(fd, 0);',
	'jansson\'s own file I/O'  => 'json_dump_file(root, path, 0);',
	'pipe() without O_CLOEXEC' => 'if (pipe(fds) != 0)',
	'dup()'                    => 'int fd = dup(dirfd);',
	'pg_log_error()/pg_log_warning()' => 'pg_log_error("bindir \"%s\"", v->bindir);');
foreach my $f (@forbidden)
{
	like($sample{ $f->[0] }, $f->[1], "the search for $f->[0] finds it");
}
unlike('f = fopen(path, "re");', $forbidden[1][1], 'a read with "re" is allowed');
unlike('fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);', $forbidden[3][1], 'an open with O_CLOEXEC is allowed');
unlike('if (pipe2(fds, O_CLOEXEC) != 0)', $forbidden[12][1], 'pipe2(O_CLOEXEC) is allowed');

# The code statement by statement, each on one line and ending in ";", so
# that a call's flags on its next line count.
sub statements_of
{
	my ($text) = @_;
	$text =~ s{"(?:[^"\\\n]|\\.)*"}{ (my $s = $&) =~ tr/;/,/; $s }ge;    # no ";" inside strings
	$text =~ s/\s+/ /g;
	return map { "$_;" } split /;/, $text;
}

ok(-f "$top/client/os/$module", "the write path is $module");
forbid_in_client(\&statements_of, @forbidden);

done_testing();
