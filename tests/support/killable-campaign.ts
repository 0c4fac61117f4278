// A tiny evolution campaign run through the built bin (`zetta evolve`, a small random policy, a
// tiny budget), which a test may SIGKILL once it logs entering a phase and then run again with the
// same command: the kill-and-resume tests of a local campaign and of one through the job queue.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomMlp, writeMlpOnnx } from '../../models/build/mlp-onnx.js';
import { packagePath } from '../../util/package-root.js';

export interface CampaignRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
}

export interface KillAt {
  /** As the campaign logs it: `evolve: phase <phase>`. */
  readonly phase: string;
  readonly delayMs: number;
}

/** The campaigns' policy: an 8 → 32 → 10×7 MLP with seeded random weights, as ONNX in `dir`. */
export function writeCampaignPolicy(dir: string): string {
  const path = join(dir, 'policy.onnx');
  writeMlpOnnx(path, randomMlp({ inputDim: 8, hidden: [32], horizon: 10, actionDim: 7, seed: 11 }), { inputName: 'observation/state' });
  return path;
}

/** Runs the campaign in `root` (extra flags appended); with `killAt`, SIGKILLs it `delayMs` after it enters that phase. */
export function runCampaign(policy: string, root: string, extra: readonly string[] = [], killAt?: KillAt): Promise<CampaignRun> {
  const args = [
    packagePath('bin', 'zetta.js'),
    'evolve',
    '--suite',
    'spatial',
    '--task',
    'spatial/left_cube_in_bowl',
    '--policy',
    `onnx:${policy}`,
    '--dev-episodes',
    '4',
    '--heldout-seeds',
    '1-4',
    '--generations',
    '1',
    '--max-candidates',
    '1',
    '--root',
    root,
    '--json',
    ...extra,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = killAt;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => {
      stderr += d;
      if (pending && stderr.includes(`evolve: phase ${pending.phase}`)) {
        const at = pending;
        pending = undefined;
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

/** The campaign's state file: its phase and its ledger of artifact hashes. */
export const campaignState = (root: string) =>
  JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')) as { phase: string; ledger: Record<string, string> };

/** The summary of the last line of stdout, without the paths that name the root. */
export function portableSummary(stdout: string): Record<string, unknown> {
  const s = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  return { ...s, root: null, report: null, bundle_dir: null };
}
