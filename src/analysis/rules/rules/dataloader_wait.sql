-- dataloader_wait: OS-runtime waits (read/recv/poll/select/epoll, condition variables, semaphores,
-- joins, sleeps) of at least wait= ms on a process's main thread (tid = pid), inside the span of
-- that process's GPU work, during which its GPUs were idle for at least idle= % of the wait: the
-- training loop waits for input (a data loader, a queue) while the GPU has nothing to do.
DROP TABLE IF EXISTS temp.gsys_rule_gpu_busy;
CREATE TEMP TABLE gsys_rule_gpu_busy AS
WITH
  busy_src AS (
    SELECT (globalPid >> 24) & 0x00FFFFFF AS pid, 0 AS deviceId, start, end
    FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE start > 0
    UNION ALL
    SELECT (globalPid >> 24) & 0x00FFFFFF, 0, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY
    WHERE start > 0
    UNION ALL
    SELECT (globalPid >> 24) & 0x00FFFFFF, 0, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET
    WHERE start > 0
  ),
{{>busy_islands}};
CREATE INDEX temp.gsys_rule_gpu_busy_idx ON gsys_rule_gpu_busy(pid, start);
WITH
  wait_names AS (
    SELECT id, value FROM StringIds
    WHERE value IN ('read', 'pread', 'pread64', 'readv', 'preadv', 'recv', 'recvfrom', 'recvmsg',
                    'poll', 'ppoll', 'select', 'pselect', 'pselect6', 'epoll_wait', 'epoll_pwait',
                    'pthread_cond_wait', 'pthread_cond_timedwait', 'pthread_cond_clockwait',
                    'sem_wait', 'sem_timedwait', 'sem_clockwait', 'pthread_join', 'futex',
                    'sleep', 'usleep', 'nanosleep', 'clock_nanosleep', 'waitpid', 'wait')
  ),
  spans AS (SELECT pid, min(start) AS start, max(end) AS end FROM gsys_rule_gpu_busy GROUP BY pid),
  longest AS (SELECT coalesce(max(end - start), 0) AS len FROM gsys_rule_gpu_busy),
  waits AS (
    SELECT o.start, o.end, o.end - o.start AS dur, o.globalTid,
           (o.globalTid >> 24) & 0x00FFFFFF AS pid, n.value AS name
    FROM OSRT_API AS o JOIN wait_names AS n ON n.id = o.nameId
    WHERE o.end - o.start >= {{wait}} * 1000000
      AND (o.globalTid & 0xFFFFFF) = ((o.globalTid >> 24) & 0x00FFFFFF)
  ),
  idle AS (
    SELECT w.*, w.dur - coalesce((
             SELECT sum(min(b.end, w.end) - max(b.start, w.start)) FROM gsys_rule_gpu_busy AS b
             WHERE b.pid = w.pid AND b.start BETWEEN w.start - longest.len AND w.end - 1
               AND b.end > w.start), 0) AS gpu_idle
    FROM waits AS w, longest
    JOIN spans AS s ON s.pid = w.pid AND w.start >= s.start AND w.end <= s.end
  )
SELECT
  count(*) AS "Waits",
  sum(dur) AS "Total Wait:dur_ns",
  sum(gpu_idle) AS "GPU Idle:dur_ns",
  max(dur) AS "Max Wait:dur_ns",
  pid AS "PID",
  globalTid & 0xFFFFFF AS "TID",
  name AS "Function"
FROM idle
WHERE gpu_idle * 100.0 >= {{idle}} * dur
GROUP BY globalTid, name
ORDER BY 3 DESC, 1 DESC, 7
LIMIT {{rows}}
