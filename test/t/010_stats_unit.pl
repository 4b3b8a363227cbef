# The statistics module's unit tests (test/unit/test_stats.c): known values
# from published tables and brute-force enumeration, the verdict rule on
# synthetic A/B samples, the small-n cases that must say "insufficient", and
# the exact distributions given ties and zeros against enumeration.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats" or die "cannot run $top/test/unit/test_stats: $!";
