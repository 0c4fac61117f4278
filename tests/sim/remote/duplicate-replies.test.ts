// A faulty env server that answers every step twice (a real Python ROUTER process echoing the
// envelope, as REP would): each reply is matched to its request by the id in the envelope, so the
// copy is discarded and every step reads the state the server reached at that step, never the
// previous one. Over DEALER (`?socket=dealer`) and over REQ.
import { afterEach, describe, expect, it } from 'vitest';
import { parseEndpoint } from '../../../sim/remote/endpoint.js';
import { RemoteEnv, fetchSpec } from '../../../sim/remote/remote-env.js';
import { missing } from '../../support/python-shim-harness.js';
import { EnvServerProcess, SLIDER_SERVER } from './env-server-process.js';

/** The slider's step (slider_env_server.py): dx = 1 slides it 5 cm. */
const STEP_M = 0.05;
const STEPS = 4;

describe.skipIf(missing !== null)(`an env server that sends each step reply twice${missing ? ` (skipped: ${missing})` : ''}`, () => {
  const servers: EnvServerProcess[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.kill('SIGTERM')));
  });

  it.each(['dealer', 'req'])('over %s, every step reads its own reply, not the copy of the last one', async (socket) => {
    const server = await EnvServerProcess.start(SLIDER_SERVER, ['--bind', 'tcp://127.0.0.1:*', '--log-steps', '--duplicate-step-replies']);
    servers.push(server);
    const endpoint = parseEndpoint(`${server.zmq}?socket=${socket}&timeout_ms=5000`);
    const env = new RemoteEnv(endpoint, await fetchSpec(endpoint));
    const start = (await env.reset({ task: 'slide/open', seed: 7 })).obs.state[0]!;
    const moved: number[] = [];
    for (let k = 1; k <= STEPS; k++) {
      const { obs } = await env.step(Float32Array.of(1, 0, 0, 0, 0, 0, -1));
      moved.push(Math.round((obs.state[0]! - start) / STEP_M));
      await server.until((line) => line === `step 7 ${k}`); // the server took exactly k steps
    }
    expect(moved).toEqual([1, 2, 3, 4]);
    await env.close();
  });
});
