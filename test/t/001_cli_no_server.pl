# Command-line handling that needs no server: --help, --version, and a table
# of usage errors, each with its message and exit status 2
# (in the manner of src/bin/pgbench/t/002_pgbench_no_server.pl).
use strict;
use warnings;

use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $prog = client();

program_help_ok($prog);
program_version_ok($prog);
program_options_handling_ok($prog);

command_like([ $prog, '--version' ], qr/^pgbench_ext \(pgbench_ext\) \d+\.\d+\.\d+$/,
	'--version prints the version');
command_like([ $prog, '--help' ], qr/Usage:.*Commands:.*env/s, '--help lists the commands');
command_like([ $prog, 'env', '--help' ], qr/Usage:.*env .*CONNINFO.*--host/s,
	'env --help shows connection options');

# [ description, arguments, expected stderr ]
my @usage_errors = (
	[ 'no command', [], qr/error: no command given.*hint: Try "pgbench_ext --help"/s ],
	[ 'unknown command', ['frobnicate'], qr/error: unrecognized command "frobnicate"/ ],
	[ 'unknown global option', ['--frobnicate'], qr/unrecognized option '--frobnicate'.*hint: Try/s ],
	[ 'unknown env option', [ 'env', '--frobnicate' ], qr/unrecognized option.*Try "pgbench_ext env --help"/s ],
	[ 'missing option argument', [ 'env', '--host' ], qr/requires an argument/ ],
	[ 'too many arguments', [ 'env', 'a', 'b' ], qr/too many command-line arguments \(first is "b"\)/ ],
);

foreach my $case (@usage_errors)
{
	my ($name, $args, $stderr_re) = @$case;
	my ($stdout, $stderr);
	my $ok = IPC::Run::run([ $prog, @$args ], '>', \$stdout, '2>', \$stderr);
	is($? >> 8, 2, "$name: exit status 2");
	like($stderr, $stderr_re, "$name: message");
}

done_testing();
