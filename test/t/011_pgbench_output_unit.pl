# The pgbench output parser's C unit tests (test/unit/test_pgbench_output.c)
# on the captured outputs in test/fixtures/pgbench: its TAP passes through.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_pgbench_output');
