# Benjamini-Hochberg q-values (test/unit/test_stats_fdr.c): R's p.adjust on
# the published example, and the false discovery rate by simulation.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_stats_fdr');
