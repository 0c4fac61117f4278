// A busy machine is not a lost server: the same evaluation (`zetta eval`, two rollout workers with
// four simulators each) against a real policy server process, once on a quiet machine and once while
// two CPU-bound processes hold both cores, must lose no episode to the infrastructure and succeed at
// the same seeds. Runs the built package (npm test builds first).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodePolicyServer, type NodeServerProcess } from '../../bench/node-server-process.js';
import { stopChild } from '../../util/child-process.js';
import { packagePath } from '../../util/package-root.js';
import { EMBEDDED_POLICY_PATH } from '../../zinfra/policy/open-policy.js';

const run = promisify(execFile);

/** A process that spins one core, and ends by itself even if nobody stops it. */
function burner(seconds: number): ChildProcess {
  return spawn(process.execPath, ['-e', `const end = Date.now() + ${seconds * 1000}; while (Date.now() < end) {}`], { stdio: 'ignore' });
}

interface Episode {
  task: string;
  seed: number;
  success: boolean;
  infraFailure: string | null;
  resetDigest: string;
  infraRetries?: number;
}

describe('an evaluation against a policy server process on a loaded machine', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zetta-busy-'));
  let server: NodeServerProcess;
  const burners: ChildProcess[] = [];
  beforeAll(async () => {
    server = await startNodePolicyServer(['--onnx', EMBEDDED_POLICY_PATH, '--bind', 'tcp://127.0.0.1:0']);
  });
  afterAll(async () => {
    await Promise.all(burners.map((b) => stopChild(b, 500)));
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function evaluate(name: string): Promise<Episode[]> {
    const out = join(dir, name);
    const args = [
      'eval',
      '--tasks',
      'spatial/left_cube_in_bowl,goal/press_button',
      '--episodes',
      '4',
      '--seed',
      '1000',
      '--policy',
      `zmq://${server.endpoint.slice('tcp://'.length)}`,
      '--workers',
      '2',
      '--envs-per-worker',
      '4',
      '--no-record',
      '--out',
      out,
    ];
    await run(process.execPath, [packagePath('bin', 'zetta.js'), ...args], { timeout: 150_000 });
    return (JSON.parse(readFileSync(join(out, 'eval.json'), 'utf8')) as { episodes: Episode[] }).episodes;
  }

  it('loses no episode to the infrastructure and succeeds at the same seeds as on a quiet machine', async () => {
    const quiet = await evaluate('quiet');
    burners.push(burner(150), burner(150));
    const busy = await evaluate('busy');
    await Promise.all(burners.map((b) => stopChild(b, 500)));

    const perSeed = (eps: Episode[]) => eps.map((e) => `${e.task}#${e.seed}:${e.success}:${e.resetDigest}`);
    expect(quiet.map((e) => e.infraFailure)).toEqual(quiet.map(() => null));
    expect(busy.map((e) => e.infraFailure)).toEqual(busy.map(() => null));
    expect(perSeed(busy)).toEqual(perSeed(quiet));
    // Re-runs at the same seed are allowed and counted, but each is bounded.
    for (const e of busy) expect(e.infraRetries ?? 0).toBeLessThanOrEqual(2);
  }, 320_000);
});
