// `zetta worker` processes for the cluster benchmark: started, ready (taking jobs), stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../util/package-root.js';

export interface WorkerProcesses {
  stop(): Promise<void>;
}

export async function startWorkers(url: string, count: number): Promise<WorkerProcesses> {
  const children: ChildProcess[] = [];
  for (let i = 0; i < count; i++) {
    children.push(
      spawn(process.execPath, [packagePath('bin', 'zetta.js'), 'worker', '--queue', url], { stdio: ['ignore', 'ignore', 'pipe'] }),
    );
  }
  await Promise.all(children.map(ready));
  return {
    async stop() {
      await Promise.all(
        children.map((c) => {
          if (c.exitCode !== null) return Promise.resolve();
          const exited = new Promise((r) => c.once('exit', r));
          c.kill('SIGTERM');
          return exited;
        }),
      );
    },
  };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onData = (d: Buffer) => {
      stderr += d;
      if (stderr.includes('taking episode jobs')) {
        child.stderr!.off('data', onData);
        child.stderr!.resume();
        resolve();
      }
    };
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`zetta worker exited ${code} before taking jobs: ${stderr.trim()}`)));
  });
}
