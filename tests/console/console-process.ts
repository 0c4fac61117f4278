// `zetta console` as a user starts it, for the tests that need the real process (a browser, a kill),
// and the browser they drive: Debian's Chromium through playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { packagePath } from '../../util/package-root.js';

export interface ConsoleProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** What the process wrote to stderr so far (why it stopped, when it stopped by itself). */
  readonly stderr: () => string;
}

/** Starts the console on a free port; resolves once it prints its address on stdout. */
export function startConsole(db: string, runs: string): Promise<ConsoleProcess> {
  const child = spawn(process.execPath, [packagePath('bin', 'zetta.js'), 'console', '--db', db, '--runs', runs, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('http://'));
      if (line) resolve({ child, url: line.trim(), stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`zetta console exited with ${code}: ${err}`)));
  });
}

/** SIGKILL, resolved once the process is gone (at once if it already is). */
export function killConsole(p: ConsoleProcess): Promise<void> {
  const { child } = p;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

const CHROMIUM = process.env.ZETTA_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium with software WebGL (the 3-D replay draws without a GPU). */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium (or set ZETTA_CHROMIUM)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'] });
}
