# Student's t distribution and its power (test/unit/test_stats_dist.c): t
# quantiles against a published table, the cdf against closed forms, the
# incomplete beta function against its binomial sum, the noncentral t power
# against a simulation.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_dist" or die "cannot run $top/test/unit/test_stats_dist: $!";
