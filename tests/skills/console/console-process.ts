// `zetta console` as a user starts it, for the tests that need the real process (a browser, a kill).
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../../zinfra/package-root.js';

/** Starts the console on a free port; resolves with the process and the address it prints on stdout. */
export function startConsole(db: string, runs: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [packagePath('bin', 'zetta.js'), 'console', '--db', db, '--runs', runs, '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('http://'));
      if (line) resolve({ child, url: line.trim() });
    });
    child.on('exit', (code) => reject(new Error(`zetta console exited with ${code}`)));
  });
}
