// A campaign killed with SIGKILL in three different phases and resumed each time ends with the same
// decisions and the same artifact hashes as one that ran straight through. The campaign runs through
// the built bin (rollouts use the compiled package), with a small random policy and a tiny budget.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomMlp, writeMlpOnnx } from '../../models/build/mlp-onnx.js';

const BIN = join(process.cwd(), 'bin', 'zetta.js');
const BUILT = join(process.cwd(), 'dist', 'cli', 'commands', 'evolve.js');
let policy = '';

beforeAll(() => {
  if (!existsSync(BUILT)) throw new Error('the kill test runs the built bin: run `npm run build` first');
  policy = join(mkdtempSync(join(tmpdir(), 'zetta-kill-policy-')), 'policy.onnx');
  writeMlpOnnx(policy, randomMlp({ inputDim: 8, hidden: [32], horizon: 10, actionDim: 7, seed: 11 }), { inputName: 'observation/state' });
});

const args = (root: string) => [
  BIN, 'evolve', '--suite', 'spatial', '--task', 'spatial/left_cube_in_bowl', '--policy', `onnx:${policy}`,
  '--dev-episodes', '4', '--heldout-seeds', '1-4', '--generations', '1', '--max-candidates', '1', '--root', root, '--json',
];

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

/** Runs the campaign; with `killAt`, SIGKILLs it `delayMs` after it logs entering that phase. */
function run(root: string, killAt?: { phase: string; delayMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args(root), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (killAt && stderr.includes(`evolve: phase ${killAt.phase}`)) {
        const at = killAt;
        killAt = undefined;
        setTimeout(() => child.kill('SIGKILL'), at.delayMs);
      }
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== null && code !== 0) reject(new Error(`zetta evolve exited ${code}: ${stderr.slice(-2000)}`));
      else resolve({ code, signal, stdout });
    });
  });
}

const ledger = (root: string) => JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')).ledger as Record<string, string>;
const phaseOf = (root: string) => JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')).phase as string;
const lastJson = (out: string) => JSON.parse(out.trim().split('\n').at(-1)!) as Record<string, unknown>;
/** The summary without the paths that name the root. */
const portable = (s: Record<string, unknown>) => ({ ...s, root: null, report: null, bundle_dir: null });

describe('a campaign killed with SIGKILL', () => {
  it('resumes from three different phases to the same decisions and hashes as an uninterrupted run', async () => {
    const straight = mkdtempSync(join(tmpdir(), 'zetta-straight-'));
    const killed = mkdtempSync(join(tmpdir(), 'zetta-killed-'));
    const reference = run(straight); // in parallel with the killed one: two cores
    const phases: string[] = [];
    for (const killAt of [
      { phase: 'dev-rollouts (generation 1)', delayMs: 400 }, // mid-episodes (short: a quiet machine ends the phase sooner)
      { phase: 'clustering (generation 1)', delayMs: 0 }, // reading the recordings
      { phase: 'gating (generation 1, candidate 0)', delayMs: 400 }, // the candidate's rollouts
    ]) {
      const r = await run(killed, killAt);
      expect(r.signal).toBe('SIGKILL');
      phases.push(phaseOf(killed));
    }
    const resumed = await run(killed);
    const done = await reference;
    expect(new Set(phases).size).toBe(3);
    expect(phaseOf(killed)).toBe('done');
    expect(ledger(killed)).toEqual(ledger(straight));
    expect(portable(lastJson(resumed.stdout))).toEqual(portable(lastJson(done.stdout)));
    expect(readFileSync(join(killed, 'report.html'), 'utf8')).toBe(readFileSync(join(straight, 'report.html'), 'utf8'));
  }, 120_000);
});
