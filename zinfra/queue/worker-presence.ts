// Workers announce themselves in Redis (a key with a short expiry, refreshed while they live, that
// says which protocol they speak). A coordinator refuses to start beside workers of another version,
// and says so when no worker at all is taking its jobs, rather than waiting in silence.
import type { RedisCommands } from './connections.js';
import { QueueSetupError } from './errors.js';
import { KEYS, PROTOCOL_VERSION } from './job-schema.js';
import { formatRedisUrl } from './redis-url.js';
import type { RedisAddress } from './connections.js';

interface Presence {
  readonly id: string;
  readonly protocol: number;
}

export async function liveWorkers(commands: RedisCommands): Promise<Presence[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = (await commands.send('SCAN', [cursor, 'MATCH', KEYS.workers, 'COUNT', '100'])) as [string, string[]];
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const found: Presence[] = [];
  for (const key of keys) {
    const text = await commands.send('GET', [key]);
    if (typeof text !== 'string') continue;
    const protocol = Number((JSON.parse(text) as { protocol?: unknown }).protocol);
    found.push({ id: key.slice(KEYS.worker('').length), protocol });
  }
  return found;
}

export async function refuseOtherWorkers(commands: RedisCommands, address: RedisAddress): Promise<void> {
  const other = (await liveWorkers(commands)).find((w) => w.protocol !== PROTOCOL_VERSION);
  if (other) {
    throw new QueueSetupError(
      `worker ${other.id} on ${formatRedisUrl(address)} speaks queue protocol ${other.protocol}, this coordinator ${PROTOCOL_VERSION}: run the same zetta version on the coordinator and the workers`,
    );
  }
}

/** How long the queue may have no live worker before the coordinator says so (and again as often). */
const NO_WORKER_WARN_MS = 30_000;

export function warnWithoutWorkers(commands: RedisCommands, address: RedisAddress, log: (line: string) => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    void liveWorkers(commands).then(
      (workers) => {
        if (workers.length === 0)
          log(
            `no worker is taking episode jobs from ${formatRedisUrl(address)}; start one with: zetta worker --queue ${formatRedisUrl(address)}`,
          );
      },
      () => undefined,
    );
  }, NO_WORKER_WARN_MS);
  timer.unref();
  return timer;
}
