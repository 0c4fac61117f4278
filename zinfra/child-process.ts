// Stopping a child process we started: ask politely, then insist.
import type { ChildProcess } from 'node:child_process';

/** SIGTERM, then SIGKILL if the child is still there after graceMs; resolves once it has exited. */
export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
