# A variant's configure arguments are split into words by the documented
# rule (docs/building.md: shell-like quoting, nothing expanded) and reach
# configure as an argv vector.  The linked source's configure writes the
# arguments it got; a table of strings and the words each must give, then
# the strings the rule refuses, with exit status 2 before anything runs.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use LinkedSource;
use PgbenchExtTest;

my $base = private_cache();
$ENV{LINKED_SOURCE_CONFIGURE_FAIL} = 1;    # configure records, then stops the build
my $canary = "$base/canary";

my @table = (
	[ q{--with-foo='a b'},         [ '--with-foo=a b' ] ],
	[ q{"c\"d" "e\\\\f" "g\h"},    [ 'c"d', 'e\\f', 'g\\h' ] ],
	[ q{a\ b \'c\'},               [ 'a b', q{'c'} ] ],
	[ qq{ x \t y\n  z },           [ 'x', 'y', 'z' ] ],
	[ q{'' ""x},                   [ '', 'x' ] ],
	[ qq{'two\nlines'},            [ "two\nlines" ] ],
	[ q{$HOME ${PATH} ~ * ?},      [ '$HOME', '${PATH}', '~', '*', '?' ] ],
	[ qq{\$(touch $canary) `touch $canary`;|&>x},
		[ "\$(touch", "$canary)", '`touch', "$canary`;|&>x" ] ],
	[ q{--a="b c"'d e'f},          [ '--a=b cd ef' ] ],
	[ '',                          [] ]);

my $i = 0;
foreach my $row (@table)
{
	my ($text, $want) = @$row;
	my $dir = "$base/r" . $i++;
	my ($rc, $out, $err) = run_client(linked_ab($dir, '--configure', $text));
	(my $shown = $text) =~ s/\n/\\n/g;
	is($rc, 2, "[$shown]: the build stops at configure, as the fixture asks");
	like($err, qr/build step "configure" failed/, "[$shown]: configure ran") or diag $err;
	my $entry = entry_of($out);
	my $recorded = defined $entry ? slurp_file("$entry/build/configure.args") : '';
	my @args = split /\0/, $recorded, -1;
	pop @args;    # after the last NUL
	my ($first) = grep { $args[$_] eq '--disable-nls' } 0 .. $#args;
	my @words = defined $first ? @args[ $first + 1 .. $#args - 2 ] : ();
	is_deeply(\@words, $want, "[$shown]: configure got exactly these words");
	is($args[-2], 'CFLAGS=-O2 -ffunction-sections', "[$shown]: CFLAGS is one word");
}
ok(!-e $canary, 'nothing in any string was run');

my @refused = (
	[ q{--x='open},   qr/unterminated ' quote/ ],
	[ q{--x="open},   qr/unterminated " quote/ ],
	[ q{--x=a\\},     qr/a backslash ends/ ]);
foreach my $row (@refused)
{
	my ($text, $message) = @$row;
	my $dir = "$base/bad" . $i++;
	my ($rc, $out, $err) = run_client(linked_ab($dir, '--configure', $text));
	is($rc, 2, "[$text]: exit status 2");
	like($err, qr/variant "A": configure: $message/, "[$text]: the message names the variant and the problem");
	like($err, qr/hint: Quote as a shell would/, "[$text]: the hint gives the rule");
	unlike($out, qr/building in/, "[$text]: nothing is built");
	ok(!-e $dir, "[$text]: no results directory");
}

done_testing();
