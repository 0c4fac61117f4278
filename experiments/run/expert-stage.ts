// Stage of the run experiment (`zetta run`): the scripted expert on every task, the upper bound the
// report compares to.
import { createEnv, evaluateExpert, listTasks, type TabletopEnv } from '../../sim/tabletop/index.js';
import { wilson } from '../../measure/success-rate.js';

export interface ExpertStageResult {
  episodes_per_task: number;
  tasks: Record<string, { success: number; episodes: number; mean_steps: number }>;
  macro_success: number;
  ok: boolean;
}

export async function runExpertStage(
  episodes: number,
  firstSeed: number,
  onProgress: (done: number, total: number) => void,
): Promise<ExpertStageResult> {
  const env = (await createEnv()) as TabletopEnv;
  const tasks = listTasks();
  const result: ExpertStageResult = { episodes_per_task: episodes, tasks: {}, macro_success: 0, ok: true };
  let done = 0;
  try {
    for (const task of tasks) {
      const s = evaluateExpert(env, { task: task.id, episodes, firstSeed, onEpisode: () => onProgress(++done, tasks.length * episodes) });
      result.tasks[task.id] = { success: s.successes, episodes: s.episodes, mean_steps: s.meanSteps };
    }
  } finally {
    await env.close();
  }
  const rates = Object.values(result.tasks).map((t) => wilson(t.success, t.episodes).rate);
  result.macro_success = rates.reduce((a, b) => a + b, 0) / rates.length;
  // The expert is the suite's proof of solvability: anything short of near-perfect means a broken scene.
  result.ok = result.macro_success >= 0.9;
  return result;
}
