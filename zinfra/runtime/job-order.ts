// The order the rollout runtime hands episodes out in: longest expected first. A run ends when its
// last episode ends, and an episode's policy calls run one after another, so one long episode
// handed out near the end keeps the whole run waiting while the other simulators sit idle. No
// episode's length is known before it runs, but a task's are alike: every task is tried first
// (round robin, so each has a measured length early), then the remaining episodes go out longest
// task first, by the mean steps of its finished episodes. Outcomes are collected by plan index, so
// the order changes when episodes run, never what they report.
import type { EpisodeJob } from './evaluation-plan.js';

/** Episodes of a task handed out before its measured length decides its turn. */
const PROBES_PER_TASK = 2;

interface TaskQueue {
  readonly jobs: EpisodeJob[];
  next: number;
  finishedSteps: number;
  finished: number;
}

export class LongestFirstJobs {
  private readonly tasks: TaskQueue[] = [];
  private readonly byTask = new Map<string, TaskQueue>();

  constructor(jobs: readonly EpisodeJob[]) {
    for (const job of jobs) {
      let q = this.byTask.get(job.task);
      if (!q) {
        q = { jobs: [], next: 0, finishedSteps: 0, finished: 0 };
        this.byTask.set(job.task, q);
        this.tasks.push(q);
      }
      q.jobs.push(job);
    }
  }

  /** The next episode to run, or undefined when all are handed out. */
  next(): EpisodeJob | undefined {
    const q = this.probe() ?? this.longest();
    if (!q) return undefined;
    return q.jobs[q.next++];
  }

  /** An episode ended after `steps` control steps: its task's expected length learns from it. */
  finished(job: EpisodeJob, steps: number): void {
    const q = this.byTask.get(job.task);
    if (!q || !Number.isFinite(steps)) return;
    q.finishedSteps += steps;
    q.finished++;
  }

  /** A task still short of its probes, fewest handed out first (ties: plan order). */
  private probe(): TaskQueue | undefined {
    let best: TaskQueue | undefined;
    for (const q of this.tasks) {
      if (q.next >= q.jobs.length || q.next >= PROBES_PER_TASK) continue;
      if (!best || q.next < best.next) best = q;
    }
    return best;
  }

  /**
   * The task with the longest mean measured episode among those with episodes left. A task whose
   * probes have not finished yet counts as long: it is not known to be short.
   */
  private longest(): TaskQueue | undefined {
    let best: TaskQueue | undefined;
    let bestLength = -1;
    for (const q of this.tasks) {
      if (q.next >= q.jobs.length) continue;
      const length = q.finished === 0 ? Number.POSITIVE_INFINITY : q.finishedSteps / q.finished;
      if (length > bestLength) {
        best = q;
        bestLength = length;
      }
    }
    return best;
  }
}
