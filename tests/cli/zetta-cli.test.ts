// The `zetta` command as a user runs it: the built bin in a child process (npm test builds first).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runZetta } from '../support/zetta-process.js';
import { randomMlp, writeMlpOnnx } from '../../models/build/mlp-onnx.js';

const zetta = (args: string[], timeout = 120_000) => runZetta(args, timeout);

const lastJsonLine = (stdout: string): Record<string, unknown> => JSON.parse(stdout.trim().split('\n').at(-1)!);

describe('zetta CLI', () => {
  it('lists its commands with --help and refuses an unknown one', async () => {
    const help = await zetta(['--help']);
    expect(help.code).toBe(0);
    for (const c of ['run', 'serve-policy', 'bench']) expect(help.stdout).toContain(c);
    const bad = await zetta(['frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown command "frobnicate"');
  });

  it.each([['run'], ['eval'], ['serve-policy'], ['bench'], ['bench', 'transport'], ['bench', 'infra'], ['bench', 'rollout']])(
    'zetta %s --help describes its flags',
    async (...cmd) => {
      const r = await zetta([...cmd, '--help']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^usage: zetta/);
    },
  );

  it('explains a bad flag with exit code 2', async () => {
    const r = await zetta(['bench', 'transport', '--iterations', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--iterations must be an integer');
    const missing = await zetta(['serve-policy']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--onnx FILE is required');
  });

  it('bench transport --json ends with one JSON object holding every transport', async () => {
    const r = await zetta(['bench', 'transport', '--iterations', '20', '--warmup', '2', '--json']);
    expect(r.code).toBe(0);
    const result = lastJsonLine(r.stdout);
    for (const key of [
      'payload_bytes',
      'zmq_p50_us',
      'zmq_p99_us',
      'python_p50_us',
      'ws_p50_us',
      'ws_p99_us',
      'ratio_p50',
      'zmq_raw_p50_us',
      'zmq_raw_p99_us',
    ]) {
      expect(result, key).toHaveProperty(key);
    }
    expect(result.payload_bytes).toBeGreaterThan(2 * 224 * 224 * 3);
    expect(result.ratio_p50).toBeCloseTo((result.ws_p50_us as number) / (result.zmq_p50_us as number), 6);
    expect(result.zmq_raw_p50_us).toBeGreaterThan(0);
    expect(result.zetta_over_floor_p50).toBeCloseTo((result.zmq_p50_us as number) / (result.zmq_raw_p50_us as number), 6);
    expect(result.zetta_over_floor_with_model_p50).toBeCloseTo((result.zmq_p50_us as number) / (result.zmq_raw_model_p50_us as number), 6);
    // the counts that explain a row: the client's of every transport, the server's from /proc here
    const counts = result.counts_per_round as Record<
      string,
      { client: { minorFaults: number; v8Bytes: number }; server: { contextSwitches: number } | null }
    >;
    expect(Object.keys(counts).sort()).toEqual(['python', 'ws', 'zmq', 'zmq_ipc', 'zmq_raw', 'zmq_raw_model']);
    expect(counts.zmq!.client.v8Bytes).toBeGreaterThan(0);
    expect(counts.zmq!.server!.contextSwitches).toBeGreaterThan(0);
  });

  it('bench infra --json compares a blocking client with the asynchronous pipeline', async () => {
    const r = await zetta(['bench', 'infra', '--latency-ms', '30', '--episodes', '1', '--steps', '12', '--json']);
    expect(r.code).toBe(0);
    const result = lastJsonLine(r.stdout) as Record<string, number>;
    for (const key of ['policy_latency_ms', 'sync_ms_per_action', 'zetta_ms_per_action', 'ratio', 'late_chunks'])
      expect(result, key).toHaveProperty(key);
    expect(result.sync_ms_per_action).toBeGreaterThanOrEqual(30); // every blocking request waits a whole policy call
    expect(result.steps_per_arm).toBe(12);
  });

  it('bench rollout --json compares sequential episodes with the rollout runtime', async () => {
    const r = await zetta([
      'bench',
      'rollout',
      '--latency-ms',
      '5',
      '--sequential-episodes',
      '1',
      '--runtime-episodes',
      '5',
      '--workers',
      '2',
      '--envs-per-worker',
      '2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const result = lastJsonLine(r.stdout) as Record<string, number>;
    for (const key of [
      'sequential_episodes_per_min',
      'runtime_episodes_per_min',
      'ratio',
      'mean_batch_size',
      'onnx_runtime_episodes_per_min',
    ]) {
      expect(result, key).toHaveProperty(key);
    }
    expect(result.runtime_episodes).toBe(5);
    expect(result.mean_batch_size).toBeGreaterThanOrEqual(1);
    // no run is shorter than its longest episode's calls one after another at 5 ms each
    expect(result.longest_episode_calls).toBeGreaterThan(0);
    expect(result.workload_bound_s).toBeGreaterThanOrEqual((result.longest_episode_calls! * 5) / 1000);
    expect(result.fraction_of_workload_bound).toBeGreaterThan(0);
  });

  it('zetta eval runs episodes on worker threads and reports per-task success as JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zetta-eval-'));
    const model = join(dir, 'random.onnx');
    writeMlpOnnx(model, randomMlp({ inputDim: 8, hidden: [16], horizon: 10, actionDim: 7, seed: 4 }), { inputName: 'observation/state' });
    const r = await zetta([
      'eval',
      '--tasks',
      'goal/press_button,goal/lift_red_cube',
      '--episodes',
      '2',
      '--workers',
      '2',
      '--policy',
      `onnx:${model}`,
      '--out',
      dir,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const report = lastJsonLine(r.stdout) as {
      tasks: Record<string, { success: number; episodes: number }>;
      macro_success: number;
      infra_failures: number;
      unmodified_policy_share: number;
    };
    expect(Object.keys(report.tasks)).toEqual(['goal/press_button', 'goal/lift_red_cube']);
    expect(report.tasks['goal/press_button']!.episodes).toBe(2);
    expect(report.infra_failures).toBe(0);
    expect(report.unmodified_policy_share).toBe(1); // no critic: every executed step is the policy's own
    expect(existsSync(join(dir, 'episodes', 'goal__press_button', '1001.mcap'))).toBe(true);
  });

  it.each([
    [['eval', '--suite', 'goal', '--critic', 'no-such-bundle'], /--critic no-such-bundle: no critic bundle/],
    [['eval', '--suite', 'goal', '--skills', 'default'], /--skills default: must be none or active/],
    [['eval', '--tasks', 'goal/fly'], /goal\/fly/],
    [['eval', '--suite', 'kitchen'], /--suite must be one of/],
    [['eval', '--suite', 'goal', '--perturb', 'no-such-perturbation'], /no-such-perturbation/],
  ])('zetta eval refuses bad input clearly: %j', async (args, message) => {
    const r = await zetta(args as string[]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
  });

  it.each([[[]], [['--critic', 'none']]])('zetta eval --arms without a critic exits 2 with one line: %j', async (extra) => {
    const r = await zetta(['eval', '--suite', 'goal', '--arms', ...(extra as string[])]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'zetta eval: --arms needs --critic C (the bundle whose governance is measured, e.g. --critic default)',
    ]);
  });

  it('zetta run --json runs the pipeline and writes its report', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'zetta-run-')), 'run');
    const db = join(dirname(out), 'skills.db');
    const r = await zetta(
      [
        'run',
        '--out',
        out,
        '--quick',
        '--wire-requests',
        '10',
        '--episodes',
        '1',
        '--expert-episodes',
        '1',
        '--skills-db',
        db,
        '--auto-approve',
        '--json',
      ],
      900_000,
    );
    expect(r.code).toBe(0);
    type Arms = {
      arms: Record<'policy' | 'critic' | 'both', { macroSuccess: number }>;
      controls: Record<string, unknown>;
      macro: { synergy: { value: number } };
    };
    const line = lastJsonLine(r.stdout) as Record<string, unknown>;
    for (const key of ['baseline_macro', 'critic_alone_macro', 'critic_macro', 'final_macro', 'synergy', 'policy_action_share'])
      expect(typeof line[key]).toBe('number');
    expect(line.transfer).toBeTypeOf('object');
    expect(line.report).toBe(join(out, 'report.html'));
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      ok: boolean;
      stages: {
        wire: { node: { requests: number } };
        expert: { tasks: Record<string, unknown> };
        governance: { conditions: Record<string, Arms>; mean_synergy: number };
        evolution: { campaigns: { task: string; perturbation: string }[] };
        promotion: unknown;
        reach: unknown;
        final: unknown;
      };
    };
    expect(line.ok).toBe(report.ok);
    expect(report.ok).toBe(true);
    expect(report.stages.wire.node.requests).toBe(10);
    expect(Object.keys(report.stages.expert.tasks).length).toBeGreaterThanOrEqual(10);
    // Every perturbation has the three arms at the same seeds, the critic alone from each trivial policy.
    const governance = report.stages.governance;
    expect(Object.keys(governance.conditions)).toEqual(['position-shift', 'object-change', 'disturbance', 'sensor-noise-delay']);
    for (const arms of Object.values(governance.conditions)) {
      expect(Object.keys(arms.controls)).toEqual(['null:open', 'null:closed', 'null:random:0']);
      expect(Number.isFinite(arms.macro.synergy.value)).toBe(true);
    }
    expect(Number.isFinite(governance.mean_synergy)).toBe(true);
    // a quick run's two campaigns, on two tasks
    const tasks = report.stages.evolution.campaigns.map((c) => c.task);
    expect(tasks).toHaveLength(2);
    expect(new Set(tasks).size).toBe(2);
    // the last stages ran too: the promotion (a quick campaign rarely promotes) and the final system
    expect(report.stages.promotion).toBeDefined();
    expect(report.stages.reach).toBeDefined();
    expect(report.stages.final).toBeDefined();
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('<svg');
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('| **macro** |');
    expect(md).toContain('## Governance: policy alone, critic alone, both');
  }, 900_000);
});
