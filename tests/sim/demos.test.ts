// Demonstration recording: the files numpy reads, that they hold exactly what the policy will see
// and what the expert did, that training seeds stay out of the held-out range, and determinism.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../cli/command.js';
import { demosCommand } from '../../cli/commands/demos.js';
import {
  checkInitialStates,
  demoSchedule,
  ExecutionNoise,
  HELD_OUT_SEED_MIN,
  INITIAL_STATES_PER_TASK,
  recordDemos,
  recordEpisode,
  TaskDemos,
  taskSlots,
} from '../../models/demos/index.js';
import { ScriptedExpert, TabletopEnv } from '../../sim/tabletop/index.js';
import { POLICY_KEYS, PolicyObservationWriter } from '../../sim/tabletop/policy-io.js';
import type { NdArray } from '../../protocol/ndarray.js';

const PYTHON = '/usr/bin/python3';
const hasNumpy = spawnSync(PYTHON, ['-c', 'import numpy'], { encoding: 'utf8' }).status === 0;
const TASKS = ['spatial/left_cube_in_bowl', 'goal/press_button'];
const dir = mkdtempSync(join(tmpdir(), 'zetta-demos-'));
let env: TabletopEnv;

beforeAll(async () => {
  env = await TabletopEnv.create();
});
afterAll(() => {
  env.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

async function runDemos(out: string, ...extra: string[]): Promise<number> {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    return await demosCommand.run(['--suite', 'all', '--tasks', TASKS.join(','), '--episodes', '3', '--out', out, '--json', ...extra]);
  } finally {
    vi.restoreAllMocks();
  }
}

function files(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(root, f)).isFile())
    .sort();
}

const floats = (obs: Record<string, NdArray | string>, key: string): number[] => Array.from((obs[key] as NdArray).data as Float32Array);

describe('zetta demos', () => {
  it('writes one npz per task that numpy reads with the documented keys and shapes', async () => {
    expect(await runDemos(join(dir, 'a'))).toBe(0);
    expect(files(join(dir, 'a'))).toEqual(['demos.json', 'goal/press_button.npz', 'spatial/left_cube_in_bowl.npz']);
    if (!hasNumpy) return; // the layout is still checked below through TaskDemos
    const script = `
import json, sys, numpy as np
z = np.load(sys.argv[1])
print(json.dumps({k: [str(z[k].dtype), list(z[k].shape)] for k in z.files} | {"seeds": z["episode_seed"].tolist(), "format": str(z["format"])}))`;
    const r = spawnSync(PYTHON, ['-c', script, join(dir, 'a', 'spatial/left_cube_in_bowl.npz')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout) as Record<string, [string, number[]]> & { seeds: number[]; format: string };
    const n = info['actions']![1][0]!;
    expect(info.format).toBe('zetta-demos/1');
    expect(info.seeds).toEqual([0, 1, 2]);
    expect(info['observation/state']).toEqual(['float32', [n, 8]]);
    expect(info['observation/objects']).toEqual(['float32', [n, 42]]);
    expect(info['observation/task']).toEqual(['float32', [n, 14]]);
    expect(info['observation/step']).toEqual(['float32', [n, 1]]);
    expect(info['actions']).toEqual(['float32', [n, 7]]);
    expect(info['executed_actions']).toEqual(['float32', [n, 7]]);
    for (const k of ['episode', 'step', 'task_index']) expect(info[k]).toEqual(['int64', [n]]);
    for (const k of ['episode_seed', 'episode_pass', 'episode_start', 'episode_length', 'episode_success'])
      expect(info[k]).toEqual(['int64', [3]]);
    expect(info['episode_noise_std']).toEqual(['float32', [3]]);
  });

  it("names each task's object slots and the ones its goal refers to, so training can tell distractors", () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'a', 'demos.json'), 'utf8')) as { slots: Record<string, unknown> };
    expect(manifest.slots['spatial/left_cube_in_bowl']).toEqual({
      names: ['red_cube_1', 'red_cube_2', 'bowl'],
      movables: 2,
      goal_objects: ['red_cube_1', 'bowl'],
    });
    expect(manifest.slots['goal/press_button']).toMatchObject({ movables: 2, goal_objects: ['button'] });
    expect(taskSlots('object/green_cube_in_bowl')).toEqual({
      names: ['red_cube', 'blue_cylinder', 'green_cube', 'yellow_cube', 'bowl'],
      movables: 4,
      goal_objects: ['green_cube', 'bowl'],
    });
    expect(taskSlots('long/red_cube_in_drawer_and_close').goal_objects).toEqual(['red_cube', 'cabinet']);
  });

  it('is deterministic: the same command writes the same bytes', async () => {
    expect(await runDemos(join(dir, 'b'))).toBe(0);
    for (const f of files(join(dir, 'a'))) expect(readFileSync(join(dir, 'b', f)).equals(readFileSync(join(dir, 'a', f))), f).toBe(true);
  });

  it('rejects bad calls with a usage error', async () => {
    await expect(demosCommand.run(['--suite', 'all', '--episodes', '2'])).rejects.toThrow(UsageError);
    await expect(demosCommand.run(['--suite', 'kitchen', '--episodes', '2', '--out', dir])).rejects.toThrow(/unknown suite/);
    await expect(demosCommand.run(['--suite', 'spatial', '--tasks', 'goal/press_button', '--episodes', '2', '--out', dir])).rejects.toThrow(
      /not in suite/,
    );
    await expect(demosCommand.run(['--suite', 'all', '--episodes', '0', '--out', dir])).rejects.toThrow(UsageError);
    await expect(demosCommand.run(['--suite', 'all', '--episodes', '2', '--noise', '-1', '--out', dir])).rejects.toThrow(/--noise/);
    await expect(demosCommand.run(['--suite', 'all', '--episodes', '2', '--initial-states', '0', '--out', dir])).rejects.toThrow(
      /--initial-states/,
    );
    await expect(demosCommand.run(['--suite', 'all', '--episodes', '2', '--initial-states', '2.5', '--out', dir])).rejects.toThrow(
      /--initial-states/,
    );
    await expect(demosCommand.run(['--suite', 'all', '--episodes', '2', '--initial-states', '1001', '--out', dir])).rejects.toThrow(
      /held-out/,
    );
  });

  it('--initial-states spreads the episodes over that many seeds and says so in demos.json', async () => {
    expect(await runDemos(join(dir, 'c'), '--initial-states', '2')).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'c', 'demos.json'), 'utf8')) as { seeds: unknown; episodes_per_task: number };
    expect(manifest.seeds).toEqual({ first: 0, last: 1, held_out_from: HELD_OUT_SEED_MIN });
    expect(manifest.episodes_per_task).toBe(3);
    // The default is today's 50 states: the same bytes as without the flag.
    expect(await runDemos(join(dir, 'd'), '--initial-states', String(INITIAL_STATES_PER_TASK))).toBe(0);
    for (const f of files(join(dir, 'a'))) expect(readFileSync(join(dir, 'd', f)).equals(readFileSync(join(dir, 'a', f))), f).toBe(true);
    if (!hasNumpy) return;
    const r = spawnSync(
      PYTHON,
      [
        '-c',
        'import sys, numpy as np; z = np.load(sys.argv[1]); print(z["episode_seed"].tolist(), z["episode_pass"].tolist())',
        join(dir, 'c', 'spatial/left_cube_in_bowl.npz'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('[0, 1, 0] [0, 0, 1]');
  });
});

describe('demonstration contents', () => {
  it('visits 50 initial states below the held-out range, noising only repeat visits', () => {
    const plans = demoSchedule(120, 0.1);
    expect(new Set(plans.map((p) => p.seed))).toEqual(new Set(Array.from({ length: 50 }, (_, i) => i)));
    expect(Math.max(...plans.map((p) => p.seed))).toBeLessThan(HELD_OUT_SEED_MIN);
    expect(plans.filter((p) => p.noiseStd === 0).map((p) => p.seed)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const demos = new TaskDemos(TASKS[0]!, 'x');
    expect(() =>
      recordEpisode(env, new PolicyObservationWriter(), demos, { index: 0, seed: HELD_OUT_SEED_MIN, pass: 0, noiseStd: 0 }, false),
    ).toThrow(/held-out/);
  });

  it('visits N initial states when asked, each once clean before any noisy repeat, never reaching the held-out range', () => {
    expect(demoSchedule(120, 0.1, 50)).toEqual(demoSchedule(120, 0.1));
    const plans = demoSchedule(600, 0.1, 200);
    expect(plans.map((p) => p.seed)).toEqual(Array.from({ length: 600 }, (_, i) => i % 200));
    expect(plans.map((p) => p.pass)).toEqual(Array.from({ length: 600 }, (_, i) => Math.floor(i / 200)));
    expect(plans.filter((p) => p.noiseStd === 0).map((p) => p.seed)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(plans.slice(200).every((p) => p.noiseStd === 0.1)).toBe(true);
    // Fewer episodes than states: the first seeds, all clean.
    expect(demoSchedule(3, 0.1, 400).map((p) => [p.seed, p.pass, p.noiseStd])).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [2, 0, 0],
    ]);
    // The largest allowed count ends just below the held-out seeds; one more would reach them.
    expect(Math.max(...demoSchedule(HELD_OUT_SEED_MIN, 0.1, HELD_OUT_SEED_MIN).map((p) => p.seed))).toBe(HELD_OUT_SEED_MIN - 1);
    expect(checkInitialStates(HELD_OUT_SEED_MIN)).toBe(HELD_OUT_SEED_MIN);
    expect(() => demoSchedule(10, 0.1, HELD_OUT_SEED_MIN + 1)).toThrow(/held-out/);
    expect(() => demoSchedule(10, 0.1, 0)).toThrow(RangeError);
    expect(() => demoSchedule(10, 0.1, 1.5)).toThrow(RangeError);
  });

  it('recordDemos refuses initial states that would reach the held-out seeds, before recording anything', async () => {
    await expect(
      recordDemos({ suite: 'all', tasks: TASKS, episodes: 1, initialStates: HELD_OUT_SEED_MIN + 1, out: join(dir, 'never') }),
    ).rejects.toThrow(/held-out/);
  });

  it('records the policy observation and the clean expert action at every step of a noisy episode', () => {
    const task = 'spatial/left_cube_in_bowl';
    const plan = { index: 57, seed: 7, pass: 1, noiseStd: 0.1 };
    const demos = new TaskDemos(task, 'x');
    const outcome = recordEpisode(env, new PolicyObservationWriter(), demos, plan, true);
    const a = demos.arrays();
    const col = (k: string) => a[k]!.data as Float32Array;
    // Replay the same episode by hand and compare row by row.
    const writer = new PolicyObservationWriter();
    let obs = env.resetSync({ task, seed: plan.seed }).obs;
    const expert = ScriptedExpert.forEpisode(env.current);
    const noise = new ExecutionNoise(task, plan.seed, plan.pass, plan.noiseStd);
    let differs = 0;
    for (let t = 0; t < outcome.steps; t++) {
      const p = writer.fill(obs, task);
      expect(Array.from(col(POLICY_KEYS.state).subarray(8 * t, 8 * t + 8))).toEqual(floats(p, POLICY_KEYS.state));
      expect(Array.from(col(POLICY_KEYS.objects).subarray(42 * t, 42 * t + 42))).toEqual(floats(p, POLICY_KEYS.objects));
      expect(Array.from(col(POLICY_KEYS.task).subarray(14 * t, 14 * t + 14))).toEqual(floats(p, POLICY_KEYS.task));
      expect(col(POLICY_KEYS.step)[t]).toBe(t);
      const label = expert.act();
      expect(Array.from(col('actions').subarray(7 * t, 7 * t + 7))).toEqual(Array.from(Float32Array.from(label)));
      const executed = noise.apply(label);
      expect(Array.from(col('executed_actions').subarray(7 * t, 7 * t + 7))).toEqual(Array.from(Float32Array.from(executed)));
      if (executed[0] !== label[0]) differs++;
      expect(executed[6]).toBe(label[6]); // the gripper is never noised
      obs = env.stepSync(executed).obs;
    }
    expect(differs).toBeGreaterThan(0);
    expect(a['episode_seed']!.data).toEqual(BigInt64Array.of(7n));
    expect(a['episode_length']!.data).toEqual(BigInt64Array.of(BigInt(outcome.steps)));
  });

  it('cuts a discarded episode off again', () => {
    const demos = new TaskDemos(TASKS[1]!, 'x');
    const writer = new PolicyObservationWriter();
    recordEpisode(env, writer, demos, { index: 0, seed: 0, pass: 0, noiseStd: 0 }, true);
    const before = demos.steps;
    demos.beginEpisode({ index: 1, seed: 1, pass: 0, noiseStd: 0 });
    demos.addStep(writer.fill(env.resetSync({ task: TASKS[1]!, seed: 1 }).obs, TASKS[1]!), new Float64Array(7), new Float64Array(7));
    demos.endEpisode(false, false);
    expect(demos.steps).toBe(before);
    expect(demos.episodes).toBe(1);
    expect((demos.arrays()['episode']!.data as BigInt64Array).length).toBe(before);
  });
});
