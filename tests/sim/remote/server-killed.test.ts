// Killing the env server mid-episode (SIGKILL, a real process) is the infrastructure's failure: the
// episode is reported as an infra failure (or re-run at its seed), never as a task failure, and the
// evaluation goes on with the next episode once a server is back on the same port.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { resolveWorld } from '../../../sim/worlds.js';
import { evaluate } from '../../../measure/evaluation.js';
import { missing } from '../../support/python-shim-harness.js';
import { EnvServerProcess, SLIDER_SERVER } from './env-server-process.js';
import { writeSliderPolicy } from './slider-policy.js';

const dir = mkdtempSync(join(tmpdir(), 'zetta-remote-kill-'));
const policy = `onnx:${writeSliderPolicy(join(dir, 'slider.onnx'))}`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Kills the server once it has stepped `seed`'s episode to step `step`, then starts another on its port. */
async function killMidEpisode(server: EnvServerProcess, seed: number, step: number, servers: EnvServerProcess[]): Promise<void> {
  await server.until((line) => line === `step ${seed} ${step}`);
  await server.kill('SIGKILL');
  await new Promise((r) => setTimeout(r, 300)); // the client sees the server gone before it is back
  servers.push(await EnvServerProcess.start(SLIDER_SERVER, ['--bind', `tcp://127.0.0.1:${server.port}`, '--log-steps']));
}

describe.skipIf(missing !== null)(`an env server killed mid-episode${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const servers: EnvServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGTERM')));
    servers.length = 0;
  });

  async function run(infraRetries: number) {
    const first = await EnvServerProcess.start(SLIDER_SERVER, ['--bind', 'tcp://127.0.0.1:*', '--log-steps', '--step-delay-ms', '10']);
    servers.push(first);
    const restarted = killMidEpisode(first, 1001, 3, servers);
    const result = evaluate(
      {
        world: resolveWorld(`${first.zmq}?timeout_ms=5000&reset_timeout_ms=20000`),
        tasks: ['slide/open'],
        episodesPerTask: 4,
        firstSeed: 1000,
        policy,
        executeSteps: 2,
        infraRetries,
      },
      { workers: 1 },
    );
    await restarted;
    return result;
  }

  it('reports the episode as an infra failure, not a task failure, and runs the next ones on the restarted server', async () => {
    const r = await run(0);
    const killed = r.outcomes.find((o) => o.seed === 1001)!;
    expect(killed.success).toBe(false);
    expect(killed.infraFailure).toMatch(/env server tcp:\/\/127\.0\.0\.1:\d+ closed the connection (during|before) "step"/);
    // killed mid-episode: the server logged its third step, whose reply may or may not have left it
    expect(killed.steps).toBeGreaterThanOrEqual(2);
    expect(r.infraFailures).toBe(1);
    // The killed episode left the denominator; the others, before and after the restart, all count.
    expect(r.tasks['slide/open']).toMatchObject({ successes: 3, episodes: 3, infraFailures: 1 });
    expect(r.outcomes.filter((o) => o.seed > 1001).every((o) => o.success && o.infraFailure === null)).toBe(true);
  });

  it('with re-runs allowed, the killed episode is run again at its seed once the server is back', async () => {
    const r = await run(2);
    const killed = r.outcomes.find((o) => o.seed === 1001)! as (typeof r.outcomes)[number] & { infraRetries: number };
    expect(killed.infraRetries).toBe(1);
    expect(killed.success).toBe(true);
    expect(r.infraRetries).toBe(1);
    expect(r.tasks['slide/open']).toMatchObject({ successes: 4, episodes: 4, infraFailures: 0 });
  });
});
