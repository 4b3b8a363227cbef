# The pgbench output parser's C unit tests (test/unit/test_pgbench_output.c)
# on the captured outputs in test/fixtures/pgbench: its TAP passes through.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_pgbench_output"
  or die "could not run $top/test/unit/test_pgbench_output: $!";
