# Benjamini-Hochberg q-values (test/unit/test_stats_fdr.c): R's p.adjust on
# the published example, and the false discovery rate by simulation.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_fdr" or die "cannot run $top/test/unit/test_stats_fdr: $!";
