#!/bin/sh
# bench/design_promise.sh [REV] — does the design the planner prints from a
# pilot keep its promise where instance offsets are large?  For instance-pair
# sds of 1-3%, round sds of 5-15% and pilots of 3, 5 and 10 instance pairs,
# the share of pilots that print a design to see 2%, the share of those
# designs, run as made with a true +2%, decided faster (should be >= 80%),
# and what is printed otherwise.  Built against the statistics of the
# working tree, or of git revision REV (e.g. main: the figures before a
# change).  SIMS pilots a cell (default 2000).  Prints one line per cell.
exec "$(dirname "$0")/stats_sim.sh" design_promise 2000 "$@"
