# Sequential decisions (test/unit/test_stats_sequential.c): alpha spending,
# A/A experiments looked at after every block (false positives and coverage),
# and how soon effects of 1, 2, 5 and 40% stop.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_sequential" or die "cannot run $top/test/unit/test_stats_sequential: $!";
