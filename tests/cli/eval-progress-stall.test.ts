// `zetta eval --env …` against a real slider env server that hangs in the middle of its first
// episode (hardening issue, item 10: a 30 s stall left the log silent for 70 s, because progress
// spoke only when an episode finished). Progress lines must keep coming while the episode waits.
// The interval is shortened with ZETTA_PROGRESS_MS so the stall can be short; what is asserted is
// the gaps between lines across the stall, in units of that interval, never a wall time.
// The CLI runs as a user runs it (bin/zetta.js over dist/: run `npm run build` first).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packagePath } from '../../util/package-root.js';
import { missing } from '../support/python-shim-harness.js';
import { EnvServerProcess, SLIDER_SERVER } from '../sim/remote/env-server-process.js';

const INTERVAL_MS = 1000;
const STALL_MS = 8 * INTERVAL_MS;

interface TimedLine {
  readonly at: number;
  readonly text: string;
}

/** Runs `zetta ARGS` with `env` added, noting when each stderr line arrived. */
function zettaWithTimedStderr(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [packagePath('bin', 'zetta.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: TimedLine[] = [];
  let partial = '';
  child.stderr.on('data', (d: Buffer) => {
    const parts = (partial + d.toString()).split('\n');
    partial = parts.pop()!;
    for (const text of parts) lines.push({ at: performance.now(), text });
  });
  child.stdout.resume();
  return new Promise<{ code: number | null; lines: TimedLine[] }>((resolve) => child.once('close', (code) => resolve({ code, lines })));
}

const dir = mkdtempSync(join(tmpdir(), 'zetta-eval-stall-'));
let server: EnvServerProcess | undefined;
afterAll(async () => {
  await server?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== null)(`zetta eval progress during an env stall${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('prints a progress line at least every few intervals while an episode waits on a stalled env server', async () => {
    server = await EnvServerProcess.start(SLIDER_SERVER, [
      '--bind',
      'tcp://127.0.0.1:*',
      '--stall-at-step',
      '5',
      '--stall-ms',
      String(STALL_MS),
    ]);
    const stallBegins = server.until((l) => l === 'stall begins').then(() => performance.now());
    const stallEnds = server.until((l) => l === 'stall ends').then(() => performance.now());
    // the step timeout outlasts the stall: the episode waits, it is not lost to the infrastructure
    const env = `${server.zmq}?timeout_ms=${STALL_MS + 30_000}`;
    const args = ['eval', '--env', env, '--tasks', 'slide/open', '--episodes', '2', '--policy', 'null:open', '--no-record'];
    const r = await zettaWithTimedStderr([...args, '--out', join(dir, 'eval')], { ZETTA_PROGRESS_MS: String(INTERVAL_MS) });
    const stderr = r.lines.map((l) => l.text).join('\n');
    expect(r.code, stderr).toBe(0);
    const [begins, ends] = [await stallBegins, await stallEnds];
    const progress = r.lines.filter((l) => l.text.startsWith('eval '));
    const during = progress.filter((l) => l.at > begins && l.at < ends);
    const marks = [begins, ...during.map((l) => l.at), ends];
    const gaps = marks.slice(1).map((t, i) => t - marks[i]!);
    expect(Math.max(...gaps), `gaps ${gaps.map((g) => Math.round(g)).join(', ')} ms:\n${stderr}`).toBeLessThanOrEqual(3 * INTERVAL_MS);
    // a line while nothing moves says how long the episodes have been waiting
    expect(
      during.some((l) => /nothing finished in the last \d+ s/.test(l.text)),
      stderr,
    ).toBe(true);
    expect(progress.at(-1)!.text).toMatch(/^eval 2\/2 /);
  }, 120_000);
});
