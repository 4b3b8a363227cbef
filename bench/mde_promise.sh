#!/bin/sh
# bench/mde_promise.sh [REV] — does the MDE printed beside "no change" keep
# its promise?  For each design, a pilot experiment prints its MDE from its
# own noise estimate and a replicate whose true effect is that MDE is
# compared: the share of replicates decided faster should be >= 80%.
# Built against the statistics of the working tree, or of git revision REV
# (e.g. main: the figures before a change).  Prints one line per design.
exec "$(dirname "$0")/stats_sim.sh" mde_promise 4000 "$@"
