# Command-line handling that needs no server: --help (each command's first
# line its question, in one line), --version, and a table of usage errors,
# each with its message and exit status 2
# (in the manner of src/bin/pgbench/t/002_pgbench_no_server.pl); getopt's
# errors are the client's own messages, an argument's control characters
# and bytes that are not UTF-8 shown escaped.
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $prog = client();

program_help_ok($prog);
program_version_ok($prog);
program_options_handling_ok($prog);

my $version = control_version();
command_like([ $prog, '--version' ], qr/^pgbench_ext \(pgbench_ext\) \Q$version\E$/,
	'--version prints the version of pgbench_ext.control');
command_like([ $prog, '--help' ], qr/Usage:.*Commands:.*env/s, '--help lists the commands');
command_like([ $prog, 'env', '--help' ], qr/Usage:.*env .*CONNINFO.*--host/s,
	'env --help shows connection options');

# one question per command, stated by the first line of its --help; one
# spelling of the dry run (--check of run and ab, no command of its own)
my ($help) = run_command([ $prog, '--help' ]);
like($help, qr/\Apgbench_ext: [^\n]+\?\n\n/, 'pgbench_ext --help: its question first, in one line');
my ($list) = $help =~ /^Commands:\n(.*?)\n\n/ms;
my @commands = map { /^  (\w+) / } split /\n/, $list // '';
is("@commands", 'run ab calibrate report compare import history bisect submit jobs agent env layout', 'the commands');
foreach my $command (@commands)
{
	my ($out) = run_command([ $prog, $command, '--help' ]);
	like($out, qr/\Apgbench_ext $command: [^\n]+\?\n\n/, "$command --help: its question first, in one line");
}
my %first = map { my ($out) = run_command([ $prog, $_, '--help' ]); ($out =~ /\A([^\n]*)/)[0] => $_ } @commands;
is(scalar keys %first, scalar @commands, 'no two commands ask the same question');
foreach my $command ('run', 'ab')
{
	my ($out) = run_command([ $prog, $command, '--help' ]);
	like($out, qr/^      --check +\S/m, "$command --help: --check, the dry run");
}

# [ description, arguments, expected stderr ]
my @usage_errors = (
	[ 'no command', [], qr/error: no command given.*hint: Try "pgbench_ext --help"/s ],
	[ 'unknown command', ['frobnicate'], qr/error: unrecognized command "frobnicate"/ ],
	[ 'no check command: the dry run is --check', [ 'check', 'x.ini' ], qr/error: unrecognized command "check"/ ],
	[ '--check with --resume', [ 'run', '--resume', 'x', '--check' ], qr/error: --check takes an experiment file alone/ ],
	[ 'unknown global option', ['--frobnicate'], qr/error: unrecognized option "--frobnicate"\n.*hint: Try "pgbench_ext --help"/s ],
	[ 'unknown env option', [ 'env', '--frobnicate' ], qr/unrecognized option "--frobnicate".*Try "pgbench_ext env --help"/s ],
	[ 'missing option argument', [ 'env', '--host' ], qr/error: option "--host" requires an argument\n.*Try "pgbench_ext env --help"/s ],
	# getopt's own messages echo the argument raw: the client's show it escaped
	[ 'unknown option with ESC and BEL', [ 'run', "--bogus\e[31m\a" ],
		qr/error: unrecognized option "--bogus\\x1b\[31m\\x07"\n.*hint: Try "pgbench_ext run --help" for more information\./s ],
	[ 'unknown option with CSI and byte ff', [ 'report', "--x\xc2\x9b" . "2J\xff" ], qr/unrecognized option "--x\\u009b2J\\xff"/ ],
	[ 'unknown short option', [ 'run', '-vZ' ], qr/error: unrecognized option "-Z"\n.*Try "pgbench_ext run --help"/s ],
	[ 'unknown short ESC', [ 'run', "-\e" ], qr/error: unrecognized option "-\\x1b"/ ],
	[ 'missing short option argument', [ 'run', '-o' ], qr/error: option "-o" requires an argument/ ],
	[ 'an argument to a flag', [ 'run', '--verb=1' ], qr/error: option "--verbose" does not take an argument/ ],
	[ 'ambiguous option', [ 'run', '--re', 'x' ], qr/error: option "--re" is ambiguous/ ],
	[ '--help after other options', [ 'run', '-v', '--help' ], qr/error: "--help" must be the first argument/ ],
	[ 'too many arguments', [ 'env', 'a', 'b' ], qr/too many command-line arguments \(first is "b"\)/ ],
	[ 'submit without a file', ['submit'], qr/error: no experiment file given\n.*Try "pgbench_ext submit --help"/s ],
	[ 'submit --repeat 0', [ 'submit', '--repeat', '0', 'x.ini' ], qr/--repeat must be in range 1\.\.1000/ ],
	[ 'submit of a file that is not there', [ 'submit', '/nonexistent/x.ini', 'db' ], qr/nonexistent\/x\.ini.*\n.*Nothing was queued/s ],
	[ 'agent --poll 0', [ 'agent', '--poll', '0' ], qr/--poll must be in range 1\.\.3600/ ],
	[ 'agent --timeout x', [ 'agent', '--timeout', 'x' ], qr/invalid value "x" for option --timeout/ ],
	[ 'agent with two databases', [ 'agent', 'a', 'b' ], qr/too many command-line arguments \(first is "b"\)/ ],
	[ 'jobs with two databases', [ 'jobs', 'a', 'b' ], qr/too many command-line arguments \(first is "b"\)/ ],
);

foreach my $case (@usage_errors)
{
	my ($name, $args, $stderr_re) = @$case;
	my ($stdout, $stderr);
	my $ok = IPC::Run::run([ $prog, @$args ], '>', \$stdout, '2>', \$stderr);
	is($? >> 8, 2, "$name: exit status 2");
	like($stderr, $stderr_re, "$name: message");
	unlike($stderr, qr/[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xff/,
		"$name: no control character, CSI or byte ff on the terminal");
}

done_testing();
