// Starts the Python policy server shim (zinfra/python/zetta_policy_server.py) as a child process and
// waits for its `ready <endpoint>` line. Used by `zetta bench transport`, the tests, and anyone who
// wants a Python-hosted policy next to a Node process.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { awaitReadyLine, stopChild } from '../../../util/child-process.js';
import { packagePath } from '../../../util/package-root.js';

/** Debian's interpreter sees python3-zmq/msgpack/numpy; a pyenv `python3` on the PATH may not. */
export const DEFAULT_PYTHON = process.env.ZETTA_PYTHON ?? '/usr/bin/python3';

export const SHIM_SCRIPT = packagePath('zinfra', 'python', 'zetta_policy_server.py');

export interface PythonServerOptions {
  /** Loader spec, e.g. `npz-mlp:/tmp/m.npz` or `module:/path/backend.py:make`. */
  readonly policy: string;
  readonly bind: string;
  readonly python?: string;
  readonly extraArgs?: readonly string[];
  readonly readyTimeoutMs?: number;
}

export interface PythonServer {
  readonly endpoint: string;
  readonly process: ChildProcess;
  /** SIGTERM, then SIGKILL if it lingers. */
  stop(): Promise<void>;
}

export async function startPythonPolicyServer(options: PythonServerOptions): Promise<PythonServer> {
  const python = options.python ?? DEFAULT_PYTHON;
  const child = spawn(python, [SHIM_SCRIPT, '--policy', options.policy, '--bind', options.bind, ...(options.extraArgs ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const readyTimeoutMs = options.readyTimeoutMs ?? 15_000;
  const endpoint = await awaitReadyLine(
    child,
    (line) => /^ready (\S+)$/.exec(line)?.[1],
    readyTimeoutMs,
    (why) => new Error(`python policy server (${python}) ${why}${stderr ? `:\n${stderr}` : ''}`),
  );
  return {
    endpoint,
    process: child,
    stop: async () => {
      await stopChild(child);
      removeIpcFile(endpoint); // a shim that was killed never removed its socket file
    },
  };
}

/** Removes the socket file of an `ipc://PATH` endpoint, if it is still there. */
function removeIpcFile(endpoint: string): void {
  if (endpoint.startsWith('ipc://')) rmSync(endpoint.slice('ipc://'.length), { force: true });
}
