// The `zetta` command as a user runs it: the built bin in a child process (npm test builds first).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../../zinfra/package-root.js';

const run = promisify(execFile);
const BIN = packagePath('bin', 'zetta.js');

async function zetta(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

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

  it.each([['run'], ['serve-policy'], ['bench'], ['bench', 'transport']])('zetta %s --help describes its flags', async (...cmd) => {
    const r = await zetta([...cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^usage: zetta/);
  });

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
    for (const key of ['payload_bytes', 'zmq_p50_us', 'zmq_p99_us', 'python_p50_us', 'ws_p50_us', 'ws_p99_us', 'ratio_p50']) {
      expect(result, key).toHaveProperty(key);
    }
    expect(result.payload_bytes).toBeGreaterThan(2 * 224 * 224 * 3);
    expect(result.ratio_p50).toBeCloseTo((result.ws_p50_us as number) / (result.zmq_p50_us as number), 6);
  });

  it('zetta run --json runs the pipeline and writes its report', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'zetta-run-')), 'run');
    const r = await zetta(['run', '--out', out, '--wire-requests', '10', '--json']);
    expect(r.code).toBe(0);
    const report = lastJsonLine(r.stdout) as { ok: boolean; stages: { wire: { node: { requests: number } } } };
    expect(report.ok).toBe(true);
    expect(report.stages.wire.node.requests).toBe(10);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toEqual(report);
  });
});
