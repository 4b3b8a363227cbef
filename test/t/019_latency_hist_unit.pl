# The latency histogram's unit test (test/unit/test_latency_hist.c), under prove.
use strict;
use warnings;

use PgbenchExtTest;

exec_unit_program('test_latency_hist');
