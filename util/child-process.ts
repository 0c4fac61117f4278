// Child processes we start: wait for the line that says they are ready, and stop them again.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { timerDelay } from './timer-delay.js';

/**
 * Resolves with the first complete stdout line for which `parse` returns a value; rejects (and
 * kills the child) if it exits, fails to start, or stays silent past timeoutMs. Only its own
 * listeners are removed afterwards: a caller's 'exit' listener must survive whatever the child
 * prints next.
 */
export function awaitReadyLine<T>(
  child: ChildProcess,
  parse: (line: string) => T | undefined,
  timeoutMs: number,
  describeFailure: (why: string) => Error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const done = () => {
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('error', onError);
      lines.off('line', onLine);
      lines.close();
      child.stdout!.resume(); // later output is not read, but must not fill the pipe and block the child
    };
    const fail = (why: string) => {
      done();
      child.kill('SIGKILL');
      reject(describeFailure(why));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`exited early (code ${code}, signal ${signal})`);
    const onError = (err: Error) => fail(`could not start: ${err.message}`);
    const onLine = (line: string) => {
      const ready = parse(line);
      if (ready === undefined) return;
      done();
      resolve(ready);
    };
    const timer = setTimeout(() => fail(`was not ready within ${timeoutMs} ms`), timerDelay(timeoutMs));
    child.once('exit', onExit);
    child.once('error', onError);
    lines.on('line', onLine);
  });
}

/** SIGTERM, then SIGKILL if the child is still there after graceMs; resolves once it has exited. */
export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), timerDelay(graceMs));
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
