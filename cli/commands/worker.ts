// `zetta worker`: takes episode jobs from a Redis queue and runs them (zinfra/queue/episode-worker.ts)
// until it is stopped; SIGTERM or SIGINT finishes the episodes in hand first.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError, type Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { concurrency, lockMs, queue, withQueueErrors } from '../flags/queue.js';
import { readFlags } from '../flags/read.js';
import { loaded, text } from '../flags/flag.js';
import { resolveWorld, type WorldRef } from '../../sim/worlds.js';

const FLAGS = {
  queue: queue.with({ help: 'the queue to take episode jobs from' }).required('--queue redis://HOST:PORT is required'),
  concurrency,
  lockMs,
  world: loaded('world', {
    metavar: 'NAME|FILE',
    help: "this machine's module for jobs of a world with the same name (built-in worlds\nneed nothing); a job naming any other world is refused",
    parse: (t): WorldRef => resolveWorld(t),
  }),
  policy: loaded('policy', {
    metavar: 'SPEC[,SPEC…]',
    help: 'the policies jobs may ask for, exactly as the coordinator names them; a job\nasking for any other is refused before anything runs',
    parse: (t): string[] => {
      const specs = t.split(',').filter((s) => s !== '');
      if (specs.length === 0) throw new UsageError('--policy needs at least one policy spec');
      return specs;
    },
  }).default(['embedded'], 'embedded'),
  queueKeyFile: text('queue-key-file', {
    metavar: 'FILE',
    help: "the file holding the key jobs are signed with (else ZETTA_QUEUE_KEY_FILE or\nZETTA_QUEUE_KEY): the same secret as the coordinator's",
  }),
  recordingsDir: loaded('recordings-dir', {
    metavar: 'DIR',
    help: "the folder jobs with --recordings shared may write under (this machine's mount\nof the shared folder); without it such jobs are refused",
    parse: (t): string => {
      const dir = resolve(t);
      if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`--recordings-dir: no folder at ${dir}`);
      return dir;
    },
  }),
};

const HELP = `usage: zetta worker --queue redis://HOST:PORT [--concurrency N] [--lock-ms MS] [--world NAME|FILE]
                   [--policy SPEC[,SPEC…]] [--recordings-dir DIR] [--queue-key-file FILE]

Takes episode jobs that \`zetta eval\`, \`zetta evolve\` or \`zetta run\` put on the queue (with the same
--queue) and runs each with the same control loop and critic as a local run; returns the outcome and
the recording. Start as many as you like, on any machine that reaches Redis. A worker that dies
mid-episode loses nothing: its job goes back to the queue once its lock lapses and another worker
runs it (counted as an infra retry). Runs until SIGTERM or SIGINT.

A worker runs only what its own command line gives it: built-in worlds and the one --world names,
the policies --policy names, critic bundles sent with the job (checked by sha256), and shared
recordings under --recordings-dir. A job asking for anything else fails at once, with nothing run.
Jobs and results are signed with a key the coordinator and the workers share (ZETTA_QUEUE_KEY, or a
file): a job without a valid signature is refused unread.

${flagHelp(FLAGS)}`;

export const workerCommand: Command = withQueueErrors({
  name: 'worker',
  summary: 'take episode jobs from a Redis queue (BullMQ) and run them',
  help: HELP,
  async run(argv) {
    const f = readFlags(argv, FLAGS);
    if (f === 'help') return printHelp(HELP);
    const { startEpisodeWorker } = await import('../../zinfra/queue/episode-worker.js');
    const { parseRedisUrl } = await import('../../zinfra/queue/redis-url.js');
    const { loadQueueKey } = await import('../../zinfra/queue/queue-key.js');
    const address = parseRedisUrl(f.queue);
    const worker = await startEpisodeWorker({
      address,
      key: loadQueueKey(f.queueKeyFile),
      concurrency: f.concurrency,
      lockMs: f.lockMs,
      world: f.world,
      policies: f.policy,
      recordingsDir: f.recordingsDir,
      log: (line) => process.stderr.write(`worker: ${line}\n`),
    });
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    });
    process.stderr.write('worker: stopping after the episodes in hand\n');
    await worker.close();
    return 0;
  },
});
