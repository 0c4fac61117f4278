// Turns a `--policy` argument into a Policy: where the frozen policy lives and how to reach it.
//
//   zmq://HOST:PORT, tcp://HOST:PORT, ipc://PATH   a Zetta policy server (Node or the Python shim)
//   openpi-ws://HOST:PORT                          an unmodified openpi serve_policy.py (π0, π0.5)
//   onnx:FILE, or FILE ending in .onnx             an ONNX model run in this process
//   embedded                                       the committed base policy, models/embedded-bc.onnx
//   null:open, null:closed, null:random:SEED       trivial policies, the controls of governance results
import { existsSync, statSync } from 'node:fs';
import { packagePath } from '../../util/package-root.js';
import { parsePort, portRange } from '../../util/tcp-port.js';
import { PolicyClient } from './zmq/client.js';
import { PolicySpecError } from './errors.js';
import { OnnxPolicy, OnnxPolicyError } from './onnx/onnx-policy.js';
import { OpenpiWebsocketPolicy } from './openpi-ws/policy.js';
import type { Policy } from './policy.js';
import { TrivialPolicy, parseTrivialSpec } from './trivial/trivial-policy.js';

export { TRIVIAL_POLICY_SPECS } from './trivial/trivial-policy.js';
/** The batching ZeroMQ server the rollout runtime hosts a local policy behind, for its workers. */
export { PolicyServer } from './zmq/server.js';

export const POLICY_SPEC_HELP =
  'embedded | zmq://HOST:PORT | ipc://PATH | openpi-ws://HOST:PORT | onnx:FILE | null:open | null:closed | null:random:SEED';

export const EMBEDDED_POLICY_PATH = packagePath('models', 'embedded-bc.onnx');

export interface OpenPolicyOptions {
  /** How long to wait for a remote policy to answer its handshake (a refused connection fails sooner). */
  readonly connectTimeoutMs?: number;
}

/** A model file the user named: missing, not a file or not a loadable model is a spec error. */
export async function loadOnnxFile(path: string, spec = path): Promise<OnnxPolicy> {
  if (path === '') throw new PolicySpecError(`"${spec}": expected onnx:FILE`);
  if (!existsSync(path)) throw new PolicySpecError(`"${spec}": no such file ${path}`);
  if (!statSync(path).isFile()) throw new PolicySpecError(`"${spec}": ${path} is not a file`);
  try {
    return await OnnxPolicy.load(path);
  } catch (err) {
    if (err instanceof OnnxPolicyError && err.failure.startsWith('model-'))
      throw new PolicySpecError(`"${spec}": ${err.message}`, { cause: err });
    throw err;
  }
}

export { PolicySpecError };

/** Remote specs: opening one only connects, so it is a cheap check that the server is there. */
export function isRemotePolicySpec(spec: string): boolean {
  return /^(zmq|tcp|ipc|openpi-wss?):/i.test(spec);
}

/** Opens and closes `spec`: a bad spec or an unreachable server fails here, before any episode runs. */
export async function checkPolicy(spec: string, options: OpenPolicyOptions = {}): Promise<void> {
  await (await openPolicy(spec, options)).close();
}

export async function openPolicy(spec: string, options: OpenPolicyOptions = {}): Promise<Policy> {
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  if (spec === 'embedded') {
    if (!existsSync(EMBEDDED_POLICY_PATH))
      throw new PolicySpecError(`the embedded policy ${EMBEDDED_POLICY_PATH} is missing from this checkout`);
    return OnnxPolicy.load(EMBEDDED_POLICY_PATH);
  }
  const scheme = /^([a-z][a-z0-9+-]*):/i.exec(spec)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'zmq':
    case 'tcp': {
      const rest = spec.slice(scheme.length + 3);
      const port = /^[^/:\s]+:(\d+)$/.exec(rest)?.[1];
      if (port === undefined) throw new PolicySpecError(`"${spec}": expected ${scheme}://HOST:PORT`);
      // ZeroMQ would connect to 99999 mod 65536 without a word
      if (parsePort(port, false) === undefined)
        throw new PolicySpecError(`"${spec}": the port must be an integer from ${portRange(false)}, got "${port}"`);
      return PolicyClient.connect({ endpoint: `tcp://${rest}`, timeoutMs });
    }
    case 'ipc':
      return PolicyClient.connect({ endpoint: spec, timeoutMs });
    case 'openpi-ws':
    case 'openpi-wss': {
      const policy = new OpenpiWebsocketPolicy(spec, { connectTimeoutMs: timeoutMs });
      await policy.connect();
      return policy;
    }
    case 'onnx':
      return loadOnnxFile(spec.slice('onnx:'.length), spec);
    case 'null': {
      const trivial = parseTrivialSpec(spec);
      if (!trivial) throw new PolicySpecError(`"${spec}": expected null:open, null:closed or null:random:SEED`);
      return new TrivialPolicy(trivial);
    }
    default:
      if (spec.endsWith('.onnx')) return loadOnnxFile(spec);
      throw new PolicySpecError(`unknown policy "${spec}"; expected ${POLICY_SPEC_HELP}`);
  }
}
