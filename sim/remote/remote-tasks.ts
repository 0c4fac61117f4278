// A remote env's tasks as the runtime names them. The wire names a task by (suite, task); Zetta's
// task ids are `SUITE/TASK`, unique even where two suites share a task name (LIBERO-Pro's
// perturbed suites reuse LIBERO's task names).
import { SimInputError } from '../errors.js';
import type { WorldTask } from '../world.js';
import type { WireEnvSpec } from './env-wire.js';

export interface WireTask extends WorldTask {
  /** The task's name on the wire (in `reset`). */
  readonly wireTask: string;
}

export function remoteTasks(spec: WireEnvSpec): WireTask[] {
  return Object.entries(spec.suites).flatMap(([suite, names]) =>
    names.map((name) => ({
      id: `${suite}/${name}`,
      suite,
      wireTask: name,
      instruction: spec.instructions?.[name] ?? name.replaceAll('_', ' '),
      maxSteps: spec.max_steps[suite]!,
      milestones: [],
    })),
  );
}

/** The task with this id; throws a SimInputError naming a few known ones. */
export function findTask(tasks: readonly WireTask[], id: string, server: string): WireTask {
  const t = tasks.find((x) => x.id === id);
  if (t) return t;
  const known = tasks
    .slice(0, 6)
    .map((x) => x.id)
    .join(', ');
  throw new SimInputError(
    `unknown task "${id}" on env server "${server}"; tasks are SUITE/TASK, e.g. ${known}${tasks.length > 6 ? ', ...' : ''}`,
  );
}
