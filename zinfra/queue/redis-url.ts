// `--queue redis://[USER:PASS@]HOST:PORT[/DB]` (or `rediss://` for TLS): read the URL, and make sure a
// Redis answers there before any BullMQ object exists (BullMQ itself would retry a missing server
// forever, which looks like a hang). The password is never printed: every line names the address masked.
import { pingOnce, type RedisAddress } from './connections.js';
import { QueueSetupError } from './errors.js';

const DEFAULT_PORT = 6379;
/** How long the check at start waits for a TCP connection and a PONG. */
const CHECK_TIMEOUT_MS = 3000;

/** The password when the URL gives none (a password in the environment stays out of `ps` and shell history). */
export const PASSWORD_ENV = 'ZETTA_REDIS_PASSWORD';

/** `redis://[USER[:PASS]@]HOST[:PORT][/DB]` or `rediss://…` (TLS); the password may come from ZETTA_REDIS_PASSWORD. */
export function parseRedisUrl(text: string, env: NodeJS.ProcessEnv = process.env): RedisAddress {
  const shown = maskPassword(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new QueueSetupError(`--queue must be redis://HOST:PORT or rediss://HOST:PORT, got "${shown}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new QueueSetupError(`--queue must be redis://HOST:PORT or rediss://HOST:PORT (TLS), got "${shown}"`);
  if (!url.hostname) throw new QueueSetupError(`--queue has no host: "${shown}"`);
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : Number(dbText);
  if (!Number.isInteger(db) || db < 0) throw new QueueSetupError(`--queue: the database must be a number, got "${dbText}" in "${shown}"`);
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const fromEnv = env[PASSWORD_ENV];
  const password = url.password ? decodeURIComponent(url.password) : fromEnv ? fromEnv : undefined;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(url.protocol === 'rediss:' ? { tls: true } : {}),
  };
}

/** The address as it may be printed: the user shown, the password never (`***` where there is one). */
export function formatRedisUrl(a: RedisAddress): string {
  const who = a.username || a.password ? `${a.username ? encodeURIComponent(a.username) : ''}${a.password ? ':***' : ''}@` : '';
  return `${a.tls ? 'rediss' : 'redis'}://${who}${a.host}:${a.port}${a.db ? `/${a.db}` : ''}`;
}

/** A URL as the user typed it, its password (if any) replaced by `***`: for errors about a URL that did not parse. */
export function maskPassword(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/** A server that is not there, or not Redis, is one line. */
export async function checkRedis(address: RedisAddress, timeoutMs = CHECK_TIMEOUT_MS): Promise<void> {
  const where = formatRedisUrl(address);
  let pong: unknown;
  try {
    pong = await pingOnce(address, timeoutMs);
  } catch (err) {
    const e = err as { message?: string; code?: string };
    // ioredis's messages name the server's answer (NOAUTH, WRONGPASS), never the password; masked all the same
    const why = (e.message || e.code || 'no answer').split(address.password || '\0').join('***');
    throw new QueueSetupError(`cannot reach Redis at ${where}: ${why}`);
  }
  if (pong !== 'PONG') throw new QueueSetupError(`${where} answered PING with ${JSON.stringify(pong)}: not a Redis server`);
}
