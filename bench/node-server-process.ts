// Starts `zetta serve-policy` in a child process, as a deployment runs it (its own heap and event
// loop), and reads the endpoints it prints once ready. The benchmarks use it so the server's
// garbage collection and scheduling never sit inside the client's measurements or vice versa.
import { spawn, type ChildProcess } from 'node:child_process';
import { awaitReadyLine, stopChild } from '../util/child-process.js';
import { packagePath } from '../util/package-root.js';

export interface NodeServerProcess {
  readonly endpoint: string;
  readonly openpiWsPort: number | undefined;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

export async function startNodePolicyServer(args: readonly string[], readyTimeoutMs = 20_000): Promise<NodeServerProcess> {
  // A policy server takes in hundreds of kilobytes per request; with V8's default small initial heap
  // it collects every few megabytes received, and those pauses land in the round-trip tail. A larger
  // initial heap is the usual server setting (see docs/results/performance.md).
  const child = spawn(process.execPath, ['--initial-heap-size=256', packagePath('bin', 'zetta.js'), 'serve-policy', ...args, '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const ready = await awaitReadyLine(
    child,
    readyObject,
    readyTimeoutMs,
    (why) => new Error(`zetta serve-policy ${why}${stderr ? `:\n${stderr}` : ''}`),
  );
  return {
    endpoint: ready.endpoint,
    openpiWsPort: ready.openpi_ws_port,
    process: child,
    stop: () => stopChild(child),
  };
}

interface ReadyObject {
  readonly endpoint: string;
  readonly openpi_ws_port?: number;
}

/** `serve-policy --json` prints one JSON object with its endpoints once it is listening. */
function readyObject(line: string): ReadyObject | undefined {
  try {
    const parsed = JSON.parse(line) as Partial<ReadyObject>;
    return typeof parsed.endpoint === 'string' ? (parsed as ReadyObject) : undefined;
  } catch {
    return undefined;
  }
}
