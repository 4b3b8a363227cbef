# The false discovery rate and power of the per-function verdict of
# profiles, proven by simulation (test/unit/test_profile_fdr.c): its TAP
# passes through.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_profile_fdr"
  or die "could not run $top/test/unit/test_profile_fdr: $!";
