// `--queue redis://HOST:PORT[/DB]`: read the URL, and make sure a Redis answers there before any
// BullMQ object exists (BullMQ itself would retry a missing server forever, which looks like a hang).
import { pingOnce, type RedisAddress } from './connections.js';
import { QueueSetupError } from './errors.js';

const DEFAULT_PORT = 6379;
/** How long the check at start waits for a TCP connection and a PONG. */
const CHECK_TIMEOUT_MS = 3000;

export function parseRedisUrl(text: string): RedisAddress {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueSetupError(`--queue must be redis://HOST:PORT, got "${text}"`);
  }
  if (url.protocol !== 'redis:') throw new QueueSetupError(`--queue must be redis://HOST:PORT (only redis:// is supported), got "${text}"`);
  if (!url.hostname) throw new QueueSetupError(`--queue has no host: "${text}"`);
  if (url.username || url.password)
    throw new QueueSetupError(`--queue: passwords in the URL are not supported; run Redis on a private network or loopback ("${text}")`);
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new QueueSetupError(`--queue: the database must be a number, got "${dbText}" in "${text}"`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port, db };
}

export function formatRedisUrl(a: RedisAddress): string {
  return `redis://${a.host}:${a.port}${a.db ? `/${a.db}` : ''}`;
}

/** A server that is not there, or not Redis, is one line. */
export async function checkRedis(address: RedisAddress, timeoutMs = CHECK_TIMEOUT_MS): Promise<void> {
  const where = formatRedisUrl(address);
  let pong: unknown;
  try {
    pong = await pingOnce(address, timeoutMs);
  } catch (err) {
    const e = err as { message?: string; code?: string };
    throw new QueueSetupError(`cannot reach Redis at ${where}: ${e.message || e.code || 'no answer'}`);
  }
  if (pong !== 'PONG') throw new QueueSetupError(`${where} answered PING with ${JSON.stringify(pong)}: not a Redis server`);
}
