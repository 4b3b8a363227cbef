# The profile readers' and the flame graph's C unit tests
# (test/unit/test_profile.c) on the fixtures in test/fixtures/profiles: its
# TAP passes through.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program(q{test_profile});
