// `--queue redis://HOST:PORT` (or rediss://, with a user and password) and what goes with it: on eval, evolve and run the command becomes a
// coordinator whose episodes run on `zetta worker` processes; on `zetta worker` it names the queue to
// take jobs from. A queue that cannot be used (bad URL, no Redis there, workers of another version)
// is one line and exit code 2, never a hang.
import type { QueueCoordinator } from '../../zinfra/queue/queue-coordinator.js';
import { QueueSetupError } from '../../zinfra/queue/errors.js';
import type { RecordingMode } from '../../zinfra/queue/job-schema.js';
import { UsageError, type Command } from '../command.js';
import { int, loaded, text } from './flag.js';
import { MAX_WORKERS } from './table.js';

export const queue = text('queue', {
  metavar: 'redis://HOST:PORT',
  help: 'run the episodes as jobs on a Redis queue, taken by `zetta worker` processes\n(same seeds, same results as a local run; a restart with the same command resumes);\nredis://USER:PASS@HOST:PORT or rediss:// (TLS) too, the password also from\nZETTA_REDIS_PASSWORD; jobs are signed with the key in ZETTA_QUEUE_KEY (or ZETTA_QUEUE_KEY_FILE)',
});

export const recordings = loaded('recordings', {
  metavar: 'stream|shared',
  help: 'with --queue: recordings come back through Redis (stream), or workers write them\nwhere this command names them (shared: a directory every worker sees at the same path)',
  parse: (t): RecordingMode => {
    if (t !== 'stream' && t !== 'shared') throw new UsageError(`--recordings must be stream or shared, got "${t}"`);
    return t;
  },
}).default('stream');

export const concurrency = int('concurrency', {
  metavar: 'N',
  min: 1,
  max: MAX_WORKERS,
  help: 'episodes this worker runs at once, each on its own simulator',
}).default(1);

export const lockMs = int('lock-ms', {
  metavar: 'MS',
  min: 1000,
  // a day: far above any episode, far below what Node's timers hold (util/timer-delay.ts)
  max: 86_400_000,
  help: "a job's lock, renewed while its episode runs; a job whose worker died is\nretried on another after about this long",
}).default(30_000);

/** A coordinator on the queue the flag names (undefined without --queue); `scope` makes the job ids this run's own. */
export async function openQueueFlag(
  url: string | undefined,
  scope: string,
  mode: RecordingMode,
  log: (line: string) => void,
): Promise<QueueCoordinator | undefined> {
  if (url === undefined) return undefined;
  const { openQueueCoordinator } = await import('../../zinfra/queue/queue-coordinator.js');
  const { parseRedisUrl } = await import('../../zinfra/queue/redis-url.js');
  return openQueueCoordinator({ address: parseRedisUrl(url), scope, recordings: mode, log });
}

/** The command, with a queue that cannot be used told in one line (exit code 2). */
export function withQueueErrors(command: Command): Command {
  return {
    ...command,
    async run(argv) {
      try {
        return await command.run(argv);
      } catch (err) {
        if (!(err instanceof QueueSetupError)) throw err;
        process.stderr.write(`zetta ${command.name}: ${err.message}\n`);
        return 2;
      }
    },
  };
}
