// The `zetta` command as a user runs it (bin/zetta.js over the built dist/), for the CLI tests:
// exit code, stdout and stderr, whether it succeeded or not.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { packagePath } from '../../util/package-root.js';

const run = promisify(execFile);

export interface ZettaResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runZetta(args: readonly string[], timeout = 60_000): Promise<ZettaResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [packagePath('bin', 'zetta.js'), ...args], {
      timeout,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
