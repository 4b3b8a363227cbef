# Benjamini-Hochberg q-values and the false discovery rate of the
# per-function verdict, proven by simulation (test/unit/test_stats_fdr.c):
# its TAP passes through.
use strict;
use warnings;

my $top = $ENV{PGBENCH_EXT_TOP} or die "PGBENCH_EXT_TOP not set";
exec "$top/test/unit/test_stats_fdr"
  or die "could not run $top/test/unit/test_stats_fdr: $!";
