/* pgbench_ext--1.0.0--1.1.0.sql — from 1.0.0 to 1.1.0: the queue (extension/sql/55_queue.sql) and compare()'s verdicts */
\echo Use "ALTER EXTENSION pgbench_ext UPDATE TO '1.1.0'" to load this file. \quit

-- The queue (1.1.0): experiments submitted to the results database
-- ("pgbench_ext submit"), taken by an agent on each host ("pgbench_ext
-- agent") with FOR UPDATE SKIP LOCKED, run there, and imported in the
-- transaction that marks the job done.  An agent proves it is alive by its
-- heartbeat; a running job whose heartbeat is older than the taker's
-- timeout is taken again.  Each take raises attempt, and an agent updates
-- its job only while the attempt is the one it took, so an agent given up
-- for dead cannot finish, fail or import a job another agent has taken.
--
-- Nothing is granted to PUBLIC on these tables: docs/farm.md ("Roles")
-- gives the grants of the three roles that submit, run and read.

-- A host that runs an agent.  Its fingerprint is that of its machine
-- object (farm_machine.c) alone: the fingerprint of its results adds the
-- environment() rows of a server it started, known only after its first
-- experiment, and those are kept in result_fingerprints.
CREATE TABLE agents (
    fingerprint text PRIMARY KEY,
    hostname text NOT NULL,
    facts jsonb NOT NULL,
    result_fingerprints text[] NOT NULL DEFAULT '{}',
    registered_by name NOT NULL DEFAULT current_user,
    registered_at timestamptz NOT NULL DEFAULT now(),
    seen_at timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE agents IS
'one row per host that runs "pgbench_ext agent": its machine''s fingerprint and host name, and the fingerprints of the results it imported';

-- One experiment to run once: "submit --repeat N" queues N of them.  A
-- submitting role is granted INSERT on the columns up to repeat_count
-- only, so submitted_by is always the role that submitted and a new job is
-- always queued.
CREATE TABLE jobs (
    job_id serial PRIMARY KEY,
    -- the experiment file: its name where it was submitted, and its text
    name text NOT NULL,
    experiment text NOT NULL,
    -- what its variants need built or installed on the agent's host
    -- (source trees, patches, installations), as the file names them
    builds jsonb NOT NULL DEFAULT '[]',
    -- the plan's seed, drawn at submission: one per repetition
    seed bigint NOT NULL,
    -- a machine's fingerprint, a host name, or 'any'
    machines text NOT NULL DEFAULT 'any',
    repeat_index int NOT NULL DEFAULT 1,
    repeat_count int NOT NULL DEFAULT 1,
    submitted_by name NOT NULL DEFAULT current_user,
    submitted_at timestamptz NOT NULL DEFAULT now(),
    state text NOT NULL DEFAULT 'queued',
    -- the agent that took it last, and how many times it was taken
    agent text REFERENCES agents,
    attempt int NOT NULL DEFAULT 0,
    started_at timestamptz,
    heartbeat_at timestamptz,
    finished_at timestamptz,
    -- the imported results, once done
    experiment_id int REFERENCES experiments ON DELETE SET NULL,
    error text,
    CHECK (state IN ('queued', 'running', 'done', 'failed')),
    CHECK (repeat_index BETWEEN 1 AND repeat_count),
    CHECK (machines <> '')
);

CREATE INDEX jobs_state_idx ON jobs (state, job_id);

COMMENT ON TABLE jobs IS
'experiments queued for the agents: the file''s text, the machines it is for, its state, the agent that took it and its heartbeat, and the imported experiment once done';

SELECT pg_catalog.pg_extension_config_dump('agents', '');
SELECT pg_catalog.pg_extension_config_dump('jobs', '');
SELECT pg_catalog.pg_extension_config_dump('jobs_job_id_seq', '');

-- The next job for the agent of this fingerprint: queued, or running with
-- a heartbeat older than timeout (its agent is taken for dead), and meant
-- for any machine, the agent's host name, its fingerprint or the
-- fingerprint of results it imported; the oldest first.  SKIP LOCKED: two
-- agents asking at once take two jobs, never one twice, and neither waits
-- for the other.  Runs with the caller's rights: it needs UPDATE on jobs.
CREATE FUNCTION take_job(agent text, timeout interval DEFAULT '2 minutes')
RETURNS SETOF jobs
LANGUAGE sql VOLATILE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
    UPDATE jobs AS j
    SET state = 'running', agent = take_job.agent, attempt = j.attempt + 1,
        started_at = now(), heartbeat_at = now(), error = NULL
    WHERE j.job_id = (
        SELECT q.job_id
        FROM jobs AS q, agents AS a
        WHERE a.fingerprint = take_job.agent
          AND (q.state = 'queued'
               OR (q.state = 'running' AND q.heartbeat_at < now() - take_job.timeout))
          AND (q.machines IN ('any', a.hostname, a.fingerprint)
               OR q.machines = ANY (a.result_fingerprints))
        ORDER BY q.job_id
        LIMIT 1
        FOR UPDATE OF q SKIP LOCKED)
    RETURNING j.*;
$$;

COMMENT ON FUNCTION take_job(text, interval) IS
'take the next job for the agent of this fingerprint (queued, or running with a heartbeat older than timeout), with FOR UPDATE SKIP LOCKED; the job''s row, or none';

-- compare()'s verdict words follow its CI (extension/sql/30_compare.sql)
COMMENT ON FUNCTION compare(float8[], float8[], boolean, float8, float8, int[], int[], int[], int[], text) IS
'B against A from per-run measurements: ratio b/a with its CI, p, the smallest change the verdict would see (mde_pct) and the verdict (faster or slower: p < alpha and the whole CI beyond the noise threshold; otherwise, when the CI excludes 0, its direction: faster or slower, by less than the threshold, when the CI lies wholly inside it, or faster or slower; beyond the threshold not settled, when it crosses the threshold''s edge; no change when the CI includes 0; insufficient). Unpaired: Hodges-Lehmann and Mann-Whitney. Given each run''s round, rounds with one run of each side are compared pair by pair (signed-rank test) once there are enough of them. Given each run''s unit (unit_a, unit_b: an instance pair or build seed pair, named by unit_kind), one summary per unit and a t test across units. n_pairs counts the paired rounds, n_units the units of the test, unit says what they were';
