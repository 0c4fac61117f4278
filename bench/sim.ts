// The simulator benchmark: control steps per second on a pick-and-place scene, driven by the
// scripted expert so the physics sees real grasps and contacts. Only env.step is timed.
import { ScriptedExpert } from '../sim/tabletop/expert/expert.js';
import { TabletopEnv } from '../sim/tabletop/env.js';
import { SUBSTEPS } from '../sim/tabletop/episode.js';

export interface SimBenchOptions {
  readonly task?: string;
  /** Measured control steps. */
  readonly actions?: number;
  /** Unmeasured control steps first (JIT warm-up). */
  readonly warmup?: number;
  readonly onProgress?: (done: number, total: number) => void;
}

export interface SimBenchResult {
  readonly task: string;
  readonly actions: number;
  readonly episodes: number;
  readonly substeps: number;
  readonly median_us: number;
  readonly p99_us: number;
  readonly actions_per_s: number;
  readonly physics_steps_per_s: number;
}

export const DEFAULT_BENCH_TASK = 'spatial/left_cube_in_bowl';

export async function benchSim(options: SimBenchOptions = {}): Promise<SimBenchResult> {
  const task = options.task ?? DEFAULT_BENCH_TASK;
  const total = options.actions ?? 4000;
  const warmup = options.warmup ?? 300;
  const env = await TabletopEnv.create();
  const times = new Float64Array(total);
  let seed = 0;
  let episodes = 0;
  let expert = start(env, task, seed++);
  try {
    for (let i = -warmup; i < total; i++) {
      const action = expert.act();
      const t0 = performance.now();
      const r = env.stepSync(action);
      const dt = performance.now() - t0;
      if (i >= 0) {
        times[i] = dt;
        if (i % 200 === 0) options.onProgress?.(i, total);
      }
      if (r.done) {
        if (i >= 0) episodes++;
        expert = start(env, task, seed++);
      }
    }
  } finally {
    env.closeSync();
  }
  options.onProgress?.(total, total);
  const sum = times.reduce((a, b) => a + b, 0) / 1000;
  const sorted = Float64Array.from(times).sort();
  return {
    task,
    actions: total,
    episodes,
    substeps: SUBSTEPS,
    median_us: round(sorted[Math.floor(total / 2)]! * 1000),
    p99_us: round(sorted[Math.min(total - 1, Math.floor(total * 0.99))]! * 1000),
    actions_per_s: round(total / sum),
    physics_steps_per_s: round((total * SUBSTEPS) / sum),
  };
}

function start(env: TabletopEnv, task: string, seed: number): ScriptedExpert {
  env.resetSync({ task, seed });
  return ScriptedExpert.forEpisode(env.current);
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}
