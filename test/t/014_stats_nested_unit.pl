# The nested verdict across instance and seed pairs
# (test/unit/test_stats_nested.c): a worked example, its errors, and its
# false-positive rate and CI coverage proven by simulation, against the
# round-by-round and all-seeds-pooled comparisons that fail on the same data.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_nested" or die "cannot run $top/test/unit/test_stats_nested: $!";
