import { describe, expect, it } from 'vitest';
import { planJobs, type EpisodeJob } from '../../zinfra/runtime/evaluation-plan.js';
import { LongestFirstJobs } from '../../zinfra/runtime/job-order.js';

const plan = (tasks: string[], episodesPerTask: number) =>
  planJobs({ tasks, episodesPerTask, firstSeed: 1000, policy: 'null:open', executeSteps: 1 });

function drain(order: LongestFirstJobs, lengthOf: (job: EpisodeJob) => number): EpisodeJob[] {
  const out: EpisodeJob[] = [];
  for (let job = order.next(); job; job = order.next()) {
    out.push(job);
    order.finished(job, lengthOf(job));
  }
  return out;
}

/**
 * Makespan of `slots` simulators taking jobs from `order` as they free up, each job lasting its
 * length: a discrete-event model of the rollout runtime's dispatcher.
 */
function makespan(
  order: { next(): EpisodeJob | undefined; finished?(job: EpisodeJob, steps: number): void },
  slots: number,
  lengthOf: (job: EpisodeJob) => number,
): number {
  const running: { end: number; job: EpisodeJob }[] = [];
  let now = 0;
  for (let i = 0; i < slots; i++) {
    const job = order.next();
    if (job) running.push({ end: lengthOf(job), job });
  }
  while (running.length > 0) {
    running.sort((a, b) => a.end - b.end);
    const done = running.shift()!;
    now = done.end;
    order.finished?.(done.job, lengthOf(done.job));
    const job = order.next();
    if (job) running.push({ end: now + lengthOf(job), job });
  }
  return now;
}

describe('longest-first episode order', () => {
  it('hands out every episode exactly once', () => {
    const jobs = plan(['a', 'b', 'c'], 7);
    const order = new LongestFirstJobs(jobs);
    const out = drain(order, (j) => (j.task === 'b' ? 50 : 10));
    expect(out.map((j) => j.index).sort((x, y) => x - y)).toEqual(jobs.map((j) => j.index));
    expect(order.next()).toBeUndefined();
  });

  it('tries every task first, then runs the longest task’s episodes before the short ones', () => {
    const order = new LongestFirstJobs(plan(['short', 'long', 'mid'], 6));
    const steps: Record<string, number> = { short: 10, long: 300, mid: 40 };
    const out = drain(order, (j) => steps[j.task]!);
    expect(out.slice(0, 6).map((j) => j.task)).toEqual(['short', 'long', 'mid', 'short', 'long', 'mid']);
    expect(out.slice(6).map((j) => j.task)).toEqual([...Array(4).fill('long'), ...Array(4).fill('mid'), ...Array(4).fill('short')]);
    // within a task, seeds go out in plan order
    expect(out.filter((j) => j.task === 'long').map((j) => j.seed)).toEqual([1000, 1001, 1002, 1003, 1004, 1005]);
  });

  it('counts a task whose probes have not finished as long', () => {
    const order = new LongestFirstJobs(plan(['a', 'b'], 4));
    const probes = [order.next()!, order.next()!, order.next()!, order.next()!];
    expect(probes.map((j) => j.task)).toEqual(['a', 'b', 'a', 'b']);
    order.finished(probes[0]!, 5); // a is known to be short; b is not known yet
    expect(order.next()!.task).toBe('b');
  });

  it('ends a run sooner than plan order when one task’s episodes are long (a dispatcher model)', () => {
    // 5 tasks × 40 episodes on 16 simulators; the last task's episodes are ten times longer
    const jobs = plan(['t1', 't2', 't3', 't4', 'long'], 40);
    const lengthOf = (j: EpisodeJob) => (j.task === 'long' ? 300 : 30);
    let i = 0;
    const planOrder = { next: () => jobs[i++] };
    const inPlanOrder = makespan(planOrder, 16, lengthOf);
    const longestFirst = makespan(new LongestFirstJobs(jobs), 16, lengthOf);
    const bound = Math.max(300, jobs.reduce((s, j) => s + lengthOf(j), 0) / 16);
    expect(longestFirst).toBeLessThan(inPlanOrder);
    expect(inPlanOrder).toBeGreaterThan(bound * 1.1); // 1200 against a bound of 1050
    expect(longestFirst).toBeLessThanOrEqual(bound * 1.02);
  });
});
