// `zetta worker`: takes episode jobs from a Redis queue and runs them (zinfra/queue/episode-worker.ts)
// until it is stopped; SIGTERM or SIGINT finishes the episodes in hand first.
import type { Command } from '../command.js';
import { flagHelp, printHelp } from '../flags/help.js';
import { concurrency, lockMs, queue, withQueueErrors } from '../flags/queue.js';
import { readFlags } from '../flags/read.js';
import { loaded } from '../flags/flag.js';
import { resolveWorld, type WorldRef } from '../../sim/worlds.js';

const FLAGS = {
  queue: queue.with({ help: 'the queue to take episode jobs from' }).required('--queue redis://HOST:PORT is required'),
  concurrency,
  lockMs,
  world: loaded('world', {
    metavar: 'NAME|FILE',
    help: "this machine's module for jobs of a world with the same name (built-in worlds\nneed nothing); every other world is loaded as the job names it",
    parse: (t): WorldRef => resolveWorld(t),
  }),
};

const HELP = `usage: zetta worker --queue redis://HOST:PORT [--concurrency N] [--lock-ms MS] [--world NAME|FILE]

Takes episode jobs that \`zetta eval\`, \`zetta evolve\` or \`zetta run\` put on the queue (with the same
--queue) and runs each with the same control loop and critic as a local run; returns the outcome and
the recording. Start as many as you like, on any machine that reaches Redis. A worker that dies
mid-episode loses nothing: its job goes back to the queue once its lock lapses and another worker
runs it (counted as an infra retry). Runs until SIGTERM or SIGINT.

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
    const worker = await startEpisodeWorker({
      address: parseRedisUrl(f.queue),
      concurrency: f.concurrency,
      lockMs: f.lockMs,
      world: f.world,
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
