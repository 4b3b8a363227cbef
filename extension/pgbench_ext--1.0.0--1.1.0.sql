/* pgbench_ext--1.0.0--1.1.0.sql — from 1.0.0 to 1.1.0: the queue and watched branches (extension/sql/55_queue.sql) and compare()'s verdicts */
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
    -- run: the experiment once; watch: the experiment at each new head of
    -- branch in the git repository repo (on the agent's host), its variant
    -- named variant built from it, every every_commits commits or every
    -- interval, taken again from not_before on; bisect: the experiment
    -- between the commits good and bad of repo, queued by watch_point()
    kind text NOT NULL DEFAULT 'run',
    repo text,
    branch text,
    variant text,
    every_commits int,
    every interval,
    not_before timestamptz,
    -- watch: the head of its last point
    last_commit text,
    good text,
    bad text,
    CHECK (state IN ('queued', 'running', 'done', 'failed')),
    CHECK (repeat_index BETWEEN 1 AND repeat_count),
    CHECK (machines <> ''),
    CHECK (kind IN ('run', 'watch', 'bisect')),
    CHECK (kind = 'run' OR (repo <> '' AND variant <> '')),
    CHECK ((kind = 'watch') = (branch IS NOT NULL)),
    CHECK (kind <> 'watch' OR ((every_commits IS NULL) <> (every IS NULL))),
    CHECK (every_commits >= 1 AND every > '0'),
    CHECK ((kind = 'bisect') = (good IS NOT NULL AND bad IS NOT NULL))
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
-- fingerprint of results it imported, of one of the kinds the agent runs,
-- and not before its not_before (a watch waiting for its next look); the
-- oldest first.  SKIP LOCKED: two agents asking at once take two jobs,
-- never one twice, and neither waits for the other.  Runs with the caller's rights: it needs UPDATE on jobs.
CREATE FUNCTION take_job(agent text, timeout interval DEFAULT '2 minutes',
                         kinds text[] DEFAULT '{run}')
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
          AND q.kind = ANY (take_job.kinds)
          AND (q.not_before IS NULL OR q.not_before <= now())
        ORDER BY q.job_id
        LIMIT 1
        FOR UPDATE OF q SKIP LOCKED)
    RETURNING j.*;
$$;

COMMENT ON FUNCTION take_job(text, interval, text[]) IS
'take the next job of one of these kinds for the agent of this fingerprint (queued and not before its time, or running with a heartbeat older than timeout), with FOR UPDATE SKIP LOCKED; the job''s row, or none';

-- A watched branch (1.1.0): a job of kind watch stays in the queue.  The
-- agent that takes it looks at the head of its branch; when the head has
-- moved by its schedule it builds the head as the watched variant, runs
-- the experiment, and records the point with watch_point(), which imports
-- nothing itself (the agent imported the experiment in the same
-- transaction) but ties the point to its commit, queues the watch again,
-- and finds the change points of the watched variant's history on that
-- machine.  A change point not seen before queues a bisect job between the
-- commit of the last point before it and that of the first after it; the
-- bisect's answer is stored with the change point (bisect_answer()).
-- When the head has not moved far enough, watch_wait() queues the watch
-- again for a later look.

-- The commit each point of a watch was built from.
CREATE TABLE watch_points (
    experiment_id int PRIMARY KEY REFERENCES experiments ON DELETE CASCADE,
    job_id int NOT NULL REFERENCES jobs,
    commit text NOT NULL,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    CHECK (commit ~ '^[0-9a-f]{40,64}$')
);

COMMENT ON TABLE watch_points IS
'per experiment run by a watch job: the watch and the commit of the branch''s head it was built from';

-- A change point of a watch's history, one per cell of the watched variant
-- (script, clients) and pair of commits around it, and its bisect: the
-- job queued for it and, once that is done, its answer.
CREATE TABLE change_points (
    change_point_id serial PRIMARY KEY,
    watch_job int NOT NULL REFERENCES jobs,
    fingerprint text NOT NULL,
    signature text NOT NULL,
    variant text NOT NULL,
    script text NOT NULL,
    clients int NOT NULL,
    -- the last point before the change and the first after it
    experiment_before int REFERENCES experiments ON DELETE SET NULL,
    experiment_after int REFERENCES experiments ON DELETE SET NULL,
    commit_before text NOT NULL,
    commit_after text NOT NULL,
    -- changepoints()'s test and shift (after against before, in %)
    p_value float8 NOT NULL,
    shift_pct float8 NOT NULL,
    ci_low float8,
    ci_high float8,
    found_at timestamptz NOT NULL DEFAULT now(),
    bisect_job int REFERENCES jobs,
    -- the bisect's answer: the first commit whose result is the changed
    -- one, and its shift against its parent with that CI (in %)
    culprit text,
    culprit_shift_pct float8,
    culprit_ci_low float8,
    culprit_ci_high float8,
    answered_at timestamptz,
    UNIQUE (watch_job, variant, script, clients, commit_before, commit_after)
);

COMMENT ON TABLE change_points IS
'change points found in the history of a watched branch: the commits around each, the shift, the bisect job queued for it and its answer (culprit commit, its shift and CI)';

SELECT pg_catalog.pg_extension_config_dump('watch_points', '');
SELECT pg_catalog.pg_extension_config_dump('change_points', '');
SELECT pg_catalog.pg_extension_config_dump('change_points_change_point_id_seq', '');

-- The watch job taken as attempt, or an error: every call of an agent is
-- for the attempt it took, as in finish_job().
CREATE FUNCTION watch_job_of(job int, attempt int, want_kind text)
RETURNS jobs
LANGUAGE plpgsql VOLATILE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
DECLARE
    j jobs;
BEGIN
SELECT * INTO j FROM jobs
WHERE job_id = watch_job_of.job AND jobs.attempt = watch_job_of.attempt
  AND state = 'running' AND kind = want_kind
FOR UPDATE;
IF NOT FOUND THEN
    RAISE EXCEPTION 'job % is no running % job at attempt %', job, want_kind, attempt
        USING ERRCODE = 'object_not_in_prerequisite_state',
              HINT = 'Another agent may have taken it after a timeout: this attempt''s results are not recorded.';
END IF;
RETURN j;
END
$$;

COMMENT ON FUNCTION watch_job_of(int, int, text) IS
'the running job of this kind at this attempt, locked; an error when another agent has taken it since';

-- The watch looked at its branch and found nothing new enough: queued
-- again, to be looked at after wait.
CREATE FUNCTION watch_wait(job int, attempt int, wait interval)
RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
BEGIN
PERFORM watch_job_of(job, attempt, 'watch');
UPDATE jobs SET state = 'queued', heartbeat_at = NULL, not_before = now() + wait
WHERE job_id = job;
END
$$;

COMMENT ON FUNCTION watch_wait(int, int, interval) IS
'a watch job whose branch has not moved by its schedule: queued again for a look after wait';

-- New change points of one cell of a watch's history, with their bisect
-- jobs (one per pair of commits: two cells changing at the same place
-- share it).  A change point counts only where its shift's CI lies wholly
-- beyond the noise threshold, as a verdict of "slower" does: the history
-- is tested again at every point, and a shift within the noise that one of
-- those tests finds by chance would queue a bisect of nothing.
CREATE FUNCTION watch_cell_changes(j jobs, fp text, sig text, cell_script text,
                                   cell_clients int, alpha float8, noise float8)
RETURNS SETOF change_points
LANGUAGE plpgsql VOLATILE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
DECLARE
    eids int[];
    commits text[];
    tps float8[];
    cp record;
    cpr change_points;
BEGIN
SELECT array_agg(h.experiment_id ORDER BY h.point), array_agg(w.commit ORDER BY h.point),
       array_agg(h.tps ORDER BY h.point)
INTO eids, commits, tps
FROM history(sig, j.variant, cell_script, cell_clients, fp) h
JOIN watch_points w ON w.experiment_id = h.experiment_id AND w.job_id = j.job_id;
IF tps IS NULL THEN
    RETURN;
END IF;
FOR cp IN SELECT * FROM changepoints(tps, alpha) LOOP
    CONTINUE WHEN NOT coalesce(cp.ci_high < 1 - noise OR cp.ci_low > 1 + noise, false);
    INSERT INTO change_points (watch_job, fingerprint, signature, variant, script, clients,
                               experiment_before, experiment_after, commit_before, commit_after,
                               p_value, shift_pct, ci_low, ci_high)
    VALUES (j.job_id, fp, sig, j.variant, cell_script, cell_clients,
            eids[cp.point - 1], eids[cp.point], commits[cp.point - 1], commits[cp.point],
            cp.p_value, cp.shift_pct, cp.ci_low, cp.ci_high)
    ON CONFLICT DO NOTHING
    RETURNING * INTO cpr;
    CONTINUE WHEN cpr.change_point_id IS NULL;
    SELECT c.bisect_job INTO cpr.bisect_job FROM change_points c
    WHERE c.watch_job = j.job_id AND c.commit_before = cpr.commit_before
      AND c.commit_after = cpr.commit_after AND c.bisect_job IS NOT NULL
    LIMIT 1;
    IF cpr.bisect_job IS NULL AND cpr.commit_before <> cpr.commit_after THEN
        INSERT INTO jobs (name, experiment, builds, seed, machines, submitted_by,
                          kind, repo, variant, good, bad)
        VALUES (j.name, j.experiment, j.builds, j.seed, fp, j.submitted_by,
                'bisect', j.repo, j.variant, cpr.commit_before, cpr.commit_after)
        RETURNING job_id INTO cpr.bisect_job;
    END IF;
    UPDATE change_points SET bisect_job = cpr.bisect_job
    WHERE change_point_id = cpr.change_point_id;
    RETURN NEXT cpr;
    cpr := NULL;
END LOOP;
END
$$;

COMMENT ON FUNCTION watch_cell_changes(jobs, text, text, text, int, float8, float8) IS
'the change points of a watch''s history in one cell not recorded before, recorded, each with the bisect job queued for its pair of commits';

-- A point of a watch: its experiment (imported in this transaction) tied
-- to the head it was built from, the watch queued again for its next look
-- (after every, for a schedule by time), and the new change points of the
-- watched variant's history on that machine, each with its bisect job.
-- SECURITY DEFINER, executable by no one but those granted it (the running
-- role): the bisect jobs it queues are the watch's experiment, in the name
-- of the watch's submitter, and the agents' role needs no INSERT on jobs,
-- which would let it queue any code for every host.
CREATE FUNCTION watch_point(job int, attempt int, experiment int, head text,
                            alpha float8 DEFAULT 0.05, noise float8 DEFAULT 0.01)
RETURNS SETOF change_points
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
#variable_conflict use_variable
DECLARE
    j jobs := watch_job_of(job, attempt, 'watch');
    fp text;
    sig text;
    cell record;
BEGIN
SELECT s.fingerprint, s.signature INTO fp, sig
FROM experiment_sources s WHERE s.experiment_id = experiment;
IF NOT FOUND THEN
    RAISE EXCEPTION 'experiment % is not imported', experiment
        USING ERRCODE = 'no_data_found',
              HINT = 'Import the point''s results (in the same transaction) before recording it.';
END IF;
INSERT INTO watch_points (experiment_id, job_id, commit) VALUES (experiment, job, head);
UPDATE jobs SET state = 'queued', heartbeat_at = NULL, last_commit = head,
    experiment_id = experiment, not_before = now() + coalesce(j.every, '0')
WHERE job_id = job;
FOR cell IN SELECT DISTINCT r.script, r.clients FROM runs r
            WHERE r.experiment_id = experiment AND r.variant = j.variant
            ORDER BY 1, 2 LOOP
    RETURN QUERY SELECT * FROM watch_cell_changes(j, fp, sig, cell.script, cell.clients, alpha, noise);
END LOOP;
END
$$;

REVOKE ALL ON FUNCTION watch_cell_changes(jobs, text, text, text, int, float8, float8) FROM PUBLIC;
REVOKE ALL ON FUNCTION watch_point(int, int, int, text, float8, float8) FROM PUBLIC;

COMMENT ON FUNCTION watch_point(int, int, int, text, float8, float8) IS
'record a point of a watch job (its imported experiment and the head''s commit), queue the watch again, and return the change points of its history found anew, each with the bisect job queued for it';

-- A bisect job's answer, stored with the change points it was queued for,
-- and the job done.
CREATE FUNCTION bisect_answer(job int, attempt int, culprit text, shift_pct float8,
                              ci_low float8, ci_high float8)
RETURNS SETOF change_points
LANGUAGE plpgsql VOLATILE
SET search_path = @extschema@, pg_catalog, pg_temp
AS $$
#variable_conflict use_variable
BEGIN
PERFORM watch_job_of(job, attempt, 'bisect');
UPDATE jobs SET state = 'done', finished_at = now(), heartbeat_at = NULL WHERE job_id = job;
RETURN QUERY
UPDATE change_points c
SET culprit = bisect_answer.culprit, culprit_shift_pct = bisect_answer.shift_pct,
    culprit_ci_low = bisect_answer.ci_low, culprit_ci_high = bisect_answer.ci_high,
    answered_at = now()
WHERE c.bisect_job = job
RETURNING c.*;
END
$$;

COMMENT ON FUNCTION bisect_answer(int, int, text, float8, float8, float8) IS
'store a bisect job''s answer (the culprit commit, its shift and CI in %) with the change points it was queued for, and mark the job done';

-- compare()'s verdict words follow its CI (extension/sql/30_compare.sql)
COMMENT ON FUNCTION compare(float8[], float8[], boolean, float8, float8, int[], int[], int[], int[], text) IS
'B against A from per-run measurements: ratio b/a with its CI, p, the smallest change the verdict would see (mde_pct) and the verdict (faster or slower: p < alpha and the whole CI beyond the noise threshold; otherwise, when the CI excludes 0, its direction: faster or slower, by less than the threshold, when the CI lies wholly inside it, or faster or slower; beyond the threshold not settled, when it crosses the threshold''s edge; no change when the CI includes 0; insufficient). Unpaired: Hodges-Lehmann and Mann-Whitney. Given each run''s round, rounds with one run of each side are compared pair by pair (signed-rank test) once there are enough of them. Given each run''s unit (unit_a, unit_b: an instance pair or build seed pair, named by unit_kind), one summary per unit and a t test across units. n_pairs counts the paired rounds, n_units the units of the test, unit says what they were';
