# The profile readers' and the flame graph's C unit tests
# (test/unit/test_profile.c) on the fixtures in test/fixtures/profiles: its
# TAP passes through.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_profile"
  or die "could not run $top/test/unit/test_profile: $!";
