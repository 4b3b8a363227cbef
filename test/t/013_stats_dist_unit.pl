# Student's t distribution and its power (test/unit/test_stats_dist.c): t
# quantiles against a published table, the cdf against closed forms, the
# incomplete beta function against its binomial sum, the noncentral t power
# against a simulation.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_stats_dist');
