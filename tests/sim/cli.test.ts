import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../cli/command.js';
import { benchSimCommand, simCommand } from '../../cli/commands/sim.js';

function captureStdout(): { lines: () => string[] } {
  const chunks: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  });
  return { lines: () => chunks.join('').trimEnd().split('\n') };
}

afterEach(() => vi.restoreAllMocks());

describe('zetta sim', () => {
  it('digest --json ends with one JSON object carrying the reset digest, stable across calls', async () => {
    const out = captureStdout();
    expect(await simCommand.run(['digest', '--task', 'goal/open_drawer', '--seed', '4', '--perturb', 'position-shift', '--json'])).toBe(0);
    expect(await simCommand.run(['digest', '--task', 'goal/open_drawer', '--seed', '4', '--perturb', 'position-shift', '--json'])).toBe(0);
    const [a, b] = out.lines().map((l) => JSON.parse(l) as { resetDigest: string });
    expect(a!.resetDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(b!.resetDigest).toBe(a!.resetDigest);
  });

  it('tasks --json lists every suite', async () => {
    const out = captureStdout();
    expect(await simCommand.run(['tasks', '--json'])).toBe(0);
    const { tasks } = JSON.parse(out.lines().at(-1)!) as { tasks: Array<{ suite: string }> };
    expect(new Set(tasks.map((t) => t.suite))).toEqual(new Set(['spatial', 'object', 'goal', 'long']));
    expect(tasks.length).toBeGreaterThanOrEqual(10);
  });

  it('expert --json reports a success rate', async () => {
    const out = captureStdout();
    expect(await simCommand.run(['expert', '--task', 'goal/press_button', '--episodes', '2', '--json'])).toBe(0);
    const { tasks } = JSON.parse(out.lines().at(-1)!) as { tasks: Array<{ success_rate: number }> };
    expect(tasks[0]!.success_rate).toBe(1);
  });

  it('turns bad input into usage errors', async () => {
    captureStdout();
    await expect(simCommand.run(['digest', '--task', 'nope', '--seed', '1'])).rejects.toThrow(UsageError);
    await expect(simCommand.run(['digest', '--task', 'goal/open_drawer'])).rejects.toThrow(/--seed is required/);
    await expect(simCommand.run(['digest', '--task', 'goal/open_drawer', '--seed', '1', '--perturb', 'no-such-thing'])).rejects.toThrow(
      /no built-in perturbation/,
    );
    await expect(simCommand.run(['fly'])).rejects.toThrow(/unknown subcommand/);
  });

  it('every subcommand has --help', async () => {
    const out = captureStdout();
    for (const sub of ['tasks', 'digest', 'expert']) expect(await simCommand.run([sub, '--help'])).toBe(0);
    expect(await benchSimCommand.run(['--help'])).toBe(0);
    expect(out.lines().filter((l) => l.startsWith('usage: zetta')).length).toBe(4);
  });

  it('bench sim --json ends with actions_per_s and physics_steps_per_s', async () => {
    const out = captureStdout();
    expect(await benchSimCommand.run(['--actions', '200', '--warmup', '20', '--json'])).toBe(0);
    const r = JSON.parse(out.lines().at(-1)!) as Record<string, number>;
    expect(r.actions_per_s).toBeGreaterThan(0);
    expect(r.physics_steps_per_s).toBeCloseTo(r.actions_per_s! * 25, -2);
  });
});
