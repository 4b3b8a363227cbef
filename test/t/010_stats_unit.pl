# The statistics module's unit tests (test/unit/test_stats.c): known values
# from published tables and brute-force enumeration, the verdict rule on
# synthetic A/B samples, the small-n cases that must say "insufficient", and
# the exact distributions given ties and zeros against enumeration.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_stats');
