// Child processes for the store's multi-process tests: small .mjs scripts under tests/fixtures/
// that import the built dist/ (so `npm test` builds first, as the CLI tests need too).
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../util/package-root.js';

export function fixture(name: string, args: readonly string[]): ChildProcess {
  return spawn(process.execPath, [packagePath('tests', 'fixtures', name), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs a fixture to its end: exit code, stdout and stderr. */
export function runFixture(name: string, args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = fixture(name, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
