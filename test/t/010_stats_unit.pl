# The statistics module's unit tests (test/unit/test_stats.c): known values
# from published tables and brute-force enumeration, the verdict rule on
# synthetic A/B samples, and the small-n cases that must say "insufficient".
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_stats');
