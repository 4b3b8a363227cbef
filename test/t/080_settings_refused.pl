# Managed clusters stay private: settings that would open, move or expose
# the server, or run commands as it, are refused in set and session_set
# with the reason, and so are values a configuration file cannot hold (a
# line break would add lines of its own) — from an experiment file, from
# flags, and from the experiment.json that --rerun repeats; initdb_args are
# read as initdb reads them (a bundled -c, an abbreviated --set); the four
# settings that name libraries take bare names found in the installation.
# Exit status 2 each time, before anything starts.
use strict;
use warnings;

use File::Path qw(make_path);
use JSON::PP;
use PostgreSQL::Test::Utils;
use Test::More;

use PgbenchExtTest;

my $bindir = pg_bindir();
my $base = shared_tempdir();
chdir $base;	# where a results directory would go without -o
my $n = 0;

sub experiment_file
{
	my ($variant_lines) = @_;
	my $path = "$base/exp" . ++$n . ".ini";
	open my $fh, '>', $path or die;
	print $fh "[experiment]\nscale = 1\nduration = 1\nrounds = 2\n"
	  . "[variant A]\nbindir = $bindir\n[variant B]\nbindir = $bindir\n$variant_lines";
	close $fh;
	return $path;
}

# A results directory whose experiment.json records variant B with these
# set and session_set lists (JSON can carry a line break).
sub recorded_experiment
{
	my (%b) = @_;
	my $dir = "$base/recorded" . ++$n;
	make_path($dir);
	my $spec = {
		experiment => { scale => 1, clients => [1], duration => 1, rounds => 2, script => ['select-only'] },
		variants => [
			{ name => 'A', bindir => $bindir, set => [] },
			{ name => 'B', bindir => $bindir, set => $b{set} // [] },
			(defined $b{session_set} ? { name => 'C', cluster => 'A', set => [], session_set => $b{session_set} } : ()),
		],
	};
	open my $fh, '>', "$dir/experiment.json" or die;
	print $fh encode_json({ format => '1.0', spec => $spec });
	close $fh;
	return $dir;
}

my $why = qr/\(docs\/security\.md, "Managed clusters"\)/;
my @cases = (
	[ 'listen_addresses', [ 'run', experiment_file("set = listen_addresses=*\n") ],
		qr/variant "B": set listen_addresses is refused: it would open the server to the network $why/ ],
	[ 'port, any case', [ 'run', experiment_file("set = PORT=5999\n") ],
		qr/variant "B": set PORT is refused: each managed server gets its own port/ ],
	[ 'socket directory', [ 'run', experiment_file("set = unix_socket_directories=/tmp\n") ],
		qr/set unix_socket_directories is refused: the server's socket lives in a private directory/ ],
	[ 'socket permissions', [ 'run', experiment_file("set = unix_socket_permissions=0777\n") ],
		qr/set unix_socket_permissions is refused: it would open the server's socket to others/ ],
	[ 'hba_file', [ 'run', experiment_file("set = hba_file=/tmp/hba\n") ],
		qr/set hba_file is refused: a managed server authenticates only on its private socket/ ],
	[ 'ssl_*', [ 'run', experiment_file("set = ssl_passphrase_command=/bin/sh -c id\n") ],
		qr/set ssl_passphrase_command is refused: a managed server takes no network connections/ ],
	[ 'archive_command', [ 'run', experiment_file("set = archive_command=cp %p /tmp\n") ],
		qr/set archive_command is refused: it runs a shell command as the server account/ ],
	[ 'include', [ 'run', experiment_file("set = include_dir=/etc\n") ],
		qr/set include_dir is refused: it reads settings from other files, past these checks/ ],
	[ 'data_directory', [ 'run', experiment_file("set = data_directory=/var/lib/postgresql\n") ],
		qr/set data_directory is refused: it would move the server's data/ ],
	[ 'preload list that is not one', [ 'run', experiment_file("set = shared_preload_libraries='a', 'b'\n") ],
		qr/set shared_preload_libraries = "'a', 'b'" is refused: it must be a comma-separated list of library names, which is merged with pgbench_ext's/ ],
	[ 'a control character', [ 'run', experiment_file("set = work_mem=4MB\tx\n") ],
		qr/variant "B": set work_mem: the value contains a control character, which a configuration file cannot hold/ ],
	[ 'not a setting name', [ 'run', experiment_file("set = work mem=4MB\n") ],
		qr/variant "B": set: "work mem" is not a setting name/ ],
	[ 'initdb -c', [ 'run', experiment_file("initdb_args = --data-checksums -c listen_addresses=*\n") ],
		qr/initdb_args of variant "B" may not set server settings \(initdb -c\/--set listen_addresses=\*\): give them with set, where they are checked/ ],
	# read with initdb's option table, as its getopt_long() reads them
	[ 'initdb -c bundled', [ 'run', experiment_file("initdb_args = -kcport=5432\n") ],
		qr/initdb_args of variant "B" may not set server settings \(initdb -c\/--set port=5432\)/ ],
	[ 'initdb --set abbreviated', [ 'run', experiment_file("initdb_args = --se=listen_addresses=*\n") ],
		qr/initdb_args of variant "B" may not set server settings \(initdb -c\/--set listen_addresses=\*\)/ ],
	[ 'initdb data directory', [ 'run', experiment_file("initdb_args = -k /tmp/elsewhere\n") ],
		qr/initdb_args of variant "B" may not name the data directory \("\/tmp\/elsewhere"\)/ ],
	[ 'initdb ambiguous option', [ 'run', experiment_file("initdb_args = --no\n") ],
		qr/initdb_args of variant "B": "--no" is not an option initdb takes as given/ ],
	# libraries: bare names, found in the variant's installation
	[ 'shared_preload_libraries path', [ 'run', experiment_file("set = shared_preload_libraries=/tmp/evil.so\n") ],
		qr/set shared_preload_libraries = "\/tmp\/evil\.so" is refused: .*each a bare name/ ],
	[ 'local_preload_libraries path', [ 'run', experiment_file("set = local_preload_libraries=\$libdir/../../../tmp/evil\n") ],
		qr/variant "B": set local_preload_libraries = "\$libdir\/\.\.\/\.\.\/\.\.\/tmp\/evil" is refused: a library is named by its bare name/ ],
	[ 'session_preload_libraries path', [ 'run', experiment_file("set = session_preload_libraries=/tmp/evil\n") ],
		qr/variant "B": set session_preload_libraries = "\/tmp\/evil" is refused: a library is named by its bare name/ ],
	[ 'session_preload_libraries in session_set', [ 'run', experiment_file("[variant C]\ncluster = A\nsession_set = session_preload_libraries=../evil\n") ],
		qr/variant "C": session_set session_preload_libraries = "\.\.\/evil" is refused: a library is named by its bare name/ ],
	[ 'jit_provider path', [ 'run', experiment_file("set = jit_provider=/tmp/evil\n") ],
		qr/variant "B": set jit_provider = "\/tmp\/evil" is refused: a library is named by its bare name/ ],
	[ 'jit_provider not installed', [ 'run', experiment_file("set = jit_provider=no_such_provider\n"), '-o', "$base/out6" ],
		qr/variant "B": jit_provider names library "no_such_provider", which is not in its installation's pkglibdir/ ],
	[ 'local_preload_libraries not installed', [ 'run', experiment_file("set = local_preload_libraries=auto_explain,no_such_lib\n"), '-o', "$base/out7" ],
		qr/variant "B": local_preload_libraries names library "no_such_lib", which is not in its installation's pkglibdir/ ],
	[ 'session_set listen_addresses', [ 'run', experiment_file("[variant C]\ncluster = A\nsession_set = listen_addresses=*\n") ],
		qr/variant "C": session_set listen_addresses is refused: it would open the server to the network/ ],
	[ 'session_set preload', [ 'run', experiment_file("[variant C]\ncluster = A\nsession_set = shared_preload_libraries=auto_explain\n") ],
		qr/variant "C": session_set shared_preload_libraries is refused: libraries are loaded at server start; give them with set/ ],
	[ 'ab: --set listen_addresses', [ 'ab', '-o', "$base/out4", '--variant', 'A', '--bindir', $bindir, '--set', 'listen_addresses=0.0.0.0' ],
		qr/variant "A": set listen_addresses is refused/ ],
	[ 'ab: --set with a line break', [ 'ab', '-o', "$base/out5", '--variant', 'A', '--bindir', $bindir, '--set', "work_mem=4MB\nlisten_addresses = '*'" ],
		qr/variant "A": set work_mem: the value contains a line break, which a configuration file cannot hold/ ],
	[ '--rerun: a line break in a recorded set',
		[ 'run', '--rerun', recorded_experiment(set => ["application_name=x\nlisten_addresses = '*'"]), '-o', "$base/out1" ],
		qr/the experiment recorded in ".*" is refused: ".*\/experiment\.json": variant "B": set application_name: the value contains a line break/ ],
	[ '--rerun: listen_addresses recorded',
		[ 'run', '--rerun', recorded_experiment(set => ['listen_addresses=*']), '-o', "$base/out2" ],
		qr/the experiment recorded in ".*" is refused: ".*\/experiment\.json": variant "B": set listen_addresses is refused/ ],
	[ '--rerun: a line break in a recorded session_set',
		[ 'run', '--rerun', recorded_experiment(session_set => ["work_mem=1MB\r\nport=1"]), '-o', "$base/out3" ],
		qr/variant "C": session_set work_mem: the value contains a line break/ ],
	[ '--resume: a recorded set that is not a string',
		[ 'run', '--resume', recorded_experiment(set => [ { 'listen_addresses' => '*' } ]) ],
		qr/\[variant B\] set must be a list of strings/ ],
);

foreach my $case (@cases)
{
	my ($name, $args, $pattern) = @$case;
	my ($rc, $out, $err) = run_client(@$args);
	is($rc, 2, "$name: exit status 2") or diag $err;
	like($err, $pattern, "$name: refused, with the reason");
	unlike($out, qr/setting up variant/, "$name: nothing started");
}
ok(!-e "$base/out$_", "case with -o $base/out$_: no results directory made") foreach 1 .. 7;
ok(!glob("$base/results-*"), 'no results directory made where none was named');

done_testing();
