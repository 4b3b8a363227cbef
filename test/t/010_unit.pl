# The C unit tests of test/unit/, each built by test/Makefile into
# test/bin/test_NAME, which prints TAP of its own: this script runs every one
# of them and passes each result on, named "NAME: description", so that one
# prove file holds them all.  A program that dies, exits non-zero or stops
# short of its plan is a failure.  What each proves is in its header comment
# and in docs/testing.md: the statistics (test_stats*: known values,
# distributions, the nested verdict, variance components, the MDE, sequential
# decisions, Benjamini-Hochberg, each error rate by simulation), the
# pgbench output parser and the latency histogram, the profiles' readers
# and per-function verdict, and the client's logic that needs no server:
# the plan, the budget, the experiment file's parser, results CSV reading,
# the noise history and the pre-flight's judgement after a pilot.
# PGBENCH_EXT_TEST_LONG=1 makes the simulations larger (make test-build).
use strict;
use warnings;

use File::Basename qw(basename);
use TAP::Parser;
use Test::More;
use PgbenchExtTest;

my @programs = sort glob(source_tree() . '/test/bin/test_*');
BAIL_OUT('no unit-test program in test/bin: run "make test-programs" first')
  unless @programs;

foreach my $program (@programs)
{
	my $name = basename($program) =~ s/^test_//r;
	my $parser = TAP::Parser->new({ exec => [$program] });
	while (my $result = $parser->next)
	{
		if ($result->is_test)
		{
			my $description = "$name: " . ($result->description =~ s/^- //r);
			if ($result->has_skip)
			{
			  SKIP: { skip "$description: " . $result->explanation, 1; }
			}
			else
			{
				ok($result->is_ok, $description);
			}
		}
		elsif ($result->is_bailout)
		{
			BAIL_OUT("$name: " . $result->explanation);
		}
		elsif ($result->is_comment)
		{
			note("$name: " . $result->as_string);
		}
		elsif ($result->is_unknown && $result->as_string ne '')
		{
			diag("$name: " . $result->as_string);
		}
	}
	ok(!$parser->has_problems && $parser->exit == 0 && $parser->wait == 0,
		"$name: ran to the end of its plan of "
		  . ($parser->tests_planned // '?') . ' tests, exit status '
		  . $parser->exit);
}

done_testing();
