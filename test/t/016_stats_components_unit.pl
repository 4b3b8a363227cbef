# Where the noise lives (test/unit/test_stats_components.c): variance
# components recovered from simulated nested data of known components, and the
# cheapest design planned from them simulated as planned.
# The program prints TAP itself; this wrapper hands it to prove.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_stats_components');
