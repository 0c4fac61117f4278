// For the tests on a real ROS 2 graph: whether one is here (a sourced ROS 2 and a loadable
// rclnodejs; the reason when not, for the skipped test's name), `zetta` commands as separate
// processes (bin/zetta.js over the built dist/, as a user runs them), waiting on what they say, and
// the episodes `zetta sim-robot` reports.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { packagePath } from '../../../util/package-root.js';
import { loadRclnodejs } from '../../../zinfra/ros2/rclnodejs-graph.js';

/** null when ROS 2 and rclnodejs are usable here, else why not (for the skipped test's name). */
export async function realGraphMissing(): Promise<string | null> {
  if (!process.env.ROS_DISTRO) return 'ROS_DISTRO is not set: no ROS 2 is sourced';
  try {
    await loadRclnodejs();
    return null;
  } catch (err) {
    return (err as Error).message.split(':')[0]!;
  }
}

/**
 * Puts this test file (its own process, and the commands it starts) on DDS domain `id`, so that test
 * files running at once, all using the simulated robot's topic names, do not hear each other.
 * Before any graph is opened.
 */
export function useDomain(id: number): void {
  process.env.ROS_DOMAIN_ID = String(id);
}

export interface ZettaProcess {
  readonly child: ChildProcess;
  readonly output: { stdout: string; stderr: string };
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` on stdout or stderr. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Sends the signal (if still running) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `zetta ARGS` as a child process, its output kept. */
export function startZetta(args: readonly string[]): ZettaProcess {
  const child = spawn(process.execPath, [packagePath('bin', 'zetta.js'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout!.on('data', (b: Buffer) => (output.stdout += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (output.stderr += b.toString()));
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      done = true;
      resolve(code);
    }),
  );
  const waitFor = async (pattern: RegExp, timeoutMs = 30_000) => {
    await until(
      () => pattern.test(output.stdout) || pattern.test(output.stderr) || done,
      timeoutMs,
      `zetta ${args[0]} to print ${pattern}`,
    );
    const m = output.stdout.match(pattern) ?? output.stderr.match(pattern);
    if (!m) throw new Error(`zetta ${args[0]} exited (code ${child.exitCode}) before printing ${pattern}:\n${output.stderr}`);
    return m;
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!done) child.kill(signal);
    return exited;
  };
  return { child, output, exited, waitFor, stop };
}

/** Polls `ok` every 10 ms; throws after `timeoutMs` saying what it waited for. */
export async function until(ok: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!ok()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A policy server (`zetta serve-policy`, the embedded ONNX policy) on `endpoint`, once it serves. */
export async function startPolicyServer(endpoint: string): Promise<ZettaProcess> {
  const server = startZetta(['serve-policy', '--onnx', packagePath('models', 'embedded-bc.onnx'), '--bind', endpoint]);
  await server.waitFor(/^serving .* on /m, 60_000);
  return server;
}

/**
 * For one describe block: a temporary folder and a policy server on an ipc endpoint in it, started
 * before the block's tests and stopped (the folder removed) after them.
 */
export function policyServerForSuite(prefix: string): { readonly dir: string; readonly endpoint: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const endpoint = `ipc://${join(dir, 'policy.sock')}`;
  let server: ZettaProcess | undefined;
  beforeAll(async () => {
    server = await startPolicyServer(endpoint);
  }, 90_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, endpoint };
}

export interface RobotEpisode {
  readonly seed: number;
  readonly success: boolean;
  readonly steps: number;
}

/** `zetta sim-robot --task TASK ARGS --json` to its end; its episodes, as it reports them. */
export async function simRobotEpisodes(task: string, args: readonly string[]): Promise<RobotEpisode[]> {
  const robot = startZetta(['sim-robot', '--task', task, ...args, '--json']);
  const code = await robot.exited;
  if (code !== 0) throw new Error(`zetta sim-robot exited with ${code}:\n${robot.output.stderr}`);
  const lines = robot.output.stdout.trim().split('\n');
  return (JSON.parse(lines.at(-1)!) as { episodes: RobotEpisode[] }).episodes;
}
