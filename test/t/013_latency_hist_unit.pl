# The latency histogram's unit test (test/unit/test_latency_hist.c), under prove.
use strict;
use warnings;
exec "$ENV{PGBENCH_EXT_TOP}/test/unit/test_latency_hist"
  or die "cannot run test_latency_hist: $!";
