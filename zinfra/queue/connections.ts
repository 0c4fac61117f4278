// Connections to the queue's Redis, through ioredis: BullMQ opens (and closes) its own from the
// options given here, duplicating where it blocks; a plain command channel serves the few keys Zetta
// keeps beside BullMQ's (recordings streamed back, the protocol version, live workers). Both ride out
// a Redis restart: ioredis reconnects and replays the commands that waited.
import type { ConnectionOptions } from 'bullmq';
import { Redis } from 'ioredis';

export interface RedisAddress {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  /** Redis ACL user (`redis://USER:PASS@…`); none: the default user. */
  readonly username?: string | undefined;
  /** Never printed: formatRedisUrl masks it, and errors name the address without it. */
  readonly password?: string | undefined;
  /** `rediss://`: TLS, the server's certificate checked against Node's CAs (NODE_EXTRA_CA_CERTS adds one). */
  readonly tls?: boolean | undefined;
}

/** The options every client of ours is opened with: where, which database, who, and over TLS or not. */
function clientOptions(address: RedisAddress) {
  return {
    host: address.host,
    port: address.port,
    db: address.db,
    ...(address.username ? { username: address.username } : {}),
    ...(address.password ? { password: address.password } : {}),
    ...(address.tls ? { tls: { servername: address.host } } : {}),
  };
}

/** What BullMQ takes as `connection`: it makes its own clients from these (blocking ones need no retry limit). */
export function bullConnection(address: RedisAddress): ConnectionOptions {
  return { ...clientOptions(address), maxRetriesPerRequest: null };
}

/** Reconnect delays while Redis is away: a restart that replays its append-only file takes seconds. */
const retryStrategy = (times: number) => Math.min(2000, 50 * 2 ** times);

export class RedisCommands {
  private readonly client: Redis;

  constructor(address: RedisAddress) {
    this.client = new Redis({ ...clientOptions(address), retryStrategy, maxRetriesPerRequest: null });
    // reported through the commands that fail; a drop while Redis restarts is not an error of ours
    this.client.on('error', () => undefined);
  }

  send(command: string, args: readonly (string | number)[] = []): Promise<unknown> {
    return this.client.call(command, ...args);
  }

  /** Stores bytes as they are (no text encoding), expiring after `ttlS` seconds. */
  async setBytes(key: string, bytes: Buffer, ttlS: number): Promise<void> {
    await this.client.set(key, bytes, 'EX', ttlS);
  }

  /** The bytes at `key`, or null when there are none. */
  getBytes(key: string): Promise<Buffer | null> {
    return this.client.getBuffer(key);
  }

  close(): void {
    this.client.disconnect();
  }
}

/**
 * Connects once, PINGs and disconnects, never retrying: a missing server is an answer, not
 * something to wait for.
 */
export async function pingOnce(address: RedisAddress, timeoutMs: number): Promise<unknown> {
  const client = new Redis({
    ...clientOptions(address),
    lazyConnect: true,
    connectTimeout: timeoutMs,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return await client.ping();
  } finally {
    client.disconnect();
  }
}
