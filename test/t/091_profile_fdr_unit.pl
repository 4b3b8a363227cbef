# The false discovery rate and power of the per-function verdict of
# profiles, proven by simulation (test/unit/test_profile_fdr.c): its TAP
# passes through.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program(q{test_profile_fdr});
