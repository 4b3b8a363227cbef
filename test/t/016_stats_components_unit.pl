# Where the noise lives (test/unit/test_stats_components.c): variance
# components recovered from simulated nested data of known components, and the
# cheapest design planned from them simulated as planned.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_components" or die "cannot run $top/test/unit/test_stats_components: $!";
