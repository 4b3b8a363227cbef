# The verdict's minimum detectable effect (test/unit/test_stats_mde.c): an
# effect of that size is seen as faster 80% of the time, by simulation at 8, 20
# and 35 rounds, 10 and 30 runs a side, 3, 8 and 20 instance pairs.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_mde" or die "cannot run $top/test/unit/test_stats_mde: $!";
