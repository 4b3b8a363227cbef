# FarmQueue.pm — what the queue's tests (141, 143–148) share: the three
# roles of a results database granted as docs/farm.md ("Roles") says, the
# tiny experiment their agents run (one server, two variants on it), and a
# watch's experiment.
package FarmQueue;

use strict;
use warnings;

use Exporter 'import';
use PgbenchExtTest qw(write_file);

our @EXPORT = qw(farm_roles farm_experiment_file watch_experiment_file);

# farm_roles($node, $db): farm_submit, farm_run and farm_read, as logins
sub farm_roles
{
	my ($node, $db) = @_;
	$node->safe_psql($db, <<'SQL');
CREATE ROLE farm_submit LOGIN;
CREATE ROLE farm_run LOGIN;
CREATE ROLE farm_read LOGIN;
GRANT USAGE ON SCHEMA pgbench_ext TO farm_submit, farm_run, farm_read;
GRANT SELECT ON ALL TABLES IN SCHEMA pgbench_ext TO farm_read;
GRANT SELECT ON pgbench_ext.jobs, pgbench_ext.agents TO farm_submit;
GRANT INSERT (name, experiment, builds, seed, machines, repeat_index, repeat_count) ON pgbench_ext.jobs TO farm_submit;
GRANT USAGE ON SEQUENCE pgbench_ext.jobs_job_id_seq TO farm_submit;
GRANT SELECT, INSERT, UPDATE ON pgbench_ext.agents TO farm_run;
GRANT SELECT, UPDATE ON pgbench_ext.jobs TO farm_run;
GRANT SELECT, INSERT ON pgbench_ext.experiments, pgbench_ext.variants, pgbench_ext.runs,
    pgbench_ext.budget_blocks, pgbench_ext.machines, pgbench_ext.experiment_sources,
    pgbench_ext.profile_runs, pgbench_ext.profile_functions, pgbench_ext.profile_stacks TO farm_run;
GRANT UPDATE (sequential, plan) ON pgbench_ext.experiments TO farm_run;
GRANT USAGE ON SEQUENCE pgbench_ext.experiments_experiment_id_seq TO farm_run;
GRANT INSERT (kind, repo, branch, variant, every_commits, every) ON pgbench_ext.jobs TO farm_submit;
GRANT SELECT ON pgbench_ext.change_points TO farm_submit;
GRANT EXECUTE ON FUNCTION pgbench_ext.watch_point(int, int, int, text, float8, float8) TO farm_run;
GRANT SELECT, UPDATE ON pgbench_ext.change_points TO farm_run;
SQL
}

# farm_experiment_file($path, $rounds, $duration, $bindir): a file of two
# variants on one server of $bindir, restarted never, reset never, without
# a pilot, its runs throttled to 50 transactions a second.  What the farm's
# tests check is who takes which job, what is imported once and what
# survives a kill, never a speed: unthrottled, each run took a core for its
# whole duration, and a fresh copy of the data before each run a
# checkpoint; throttled, a run still lasts $duration seconds, which the
# tests that stop an agent mid-run need.
sub farm_experiment_file
{
	my ($path, $rounds, $duration, $bindir) = @_;
	write_file($path, <<"INI");
[experiment]
scale = 1
clients = 1
duration = $duration
rounds = $rounds
script = select-only
restart = never
reset = never
pilot = off
schedule = interleaved
pgbench_args = -R 50

[variant a]
bindir = $bindir

[variant b]
cluster = a
session_set = work_mem=8MB
INI
	return $path;
}

# watch_experiment_file($path, $budget, $bindir) -> $path: a watch's file,
# the installation $bindir (base) against the watched variant head, whose
# source the agent sets to each head's tree, decided under rounds = auto
# within $budget as a watch requires
sub watch_experiment_file
{
	my ($path, $budget, $bindir) = @_;
	return write_file($path, <<"INI");
[experiment]
scale = 1
clients = 1
duration = 1
rounds = auto
budget = $budget
restart = auto
script = select-only
pilot = off

[variant base]
bindir = $bindir

[variant head]
source = /nonexistent
INI
}

1;
