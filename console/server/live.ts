// GET /api/live: server-sent events. Every poll (1 s) each campaign under runs whose state.json was
// replaced since the last poll sends a `campaign` event with its phase, generation and candidate
// (all of them once on connect); a comment every 15 s keeps proxies from closing a quiet stream.
// Each connection polls for itself and stops when its client goes or when the token it got in with
// is revoked (checked at every poll, as every other request checks it); the list of campaign roots is
// shared and refreshed every few seconds, since walking the folder is the expensive part. Each
// event's data is the API contract's LiveEvent.
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../skills/store/open.js';
import type { LiveEvent } from '../contract/index.js';
import { principalOf } from './auth.js';
import { findCampaignRoots, readCampaign, stateStamp } from './campaigns.js';
import { tokenStillStored } from './tokens.js';

export interface LiveOptions {
  /** How often state.json files are checked (default 1000 ms). */
  readonly pollMs?: number;
  /** How often a heartbeat comment is sent (default 15000 ms). */
  readonly heartbeatMs?: number;
  /** How long a walk's list of campaign roots is reused (default 5000 ms). */
  readonly rootsMs?: number;
}

export function liveRoutes(app: FastifyInstance, db: Db, runs: string, o: LiveOptions = {}): void {
  const pollMs = o.pollMs ?? 1000;
  const heartbeatMs = o.heartbeatMs ?? 15_000;
  const roots = cachedRoots(runs, o.rootsMs ?? 5000);
  const open = new Set<() => void>();
  // a closing server ends every stream and stops its timers (server.ts then cuts the connections)
  app.addHook('preClose', async () => {
    for (const stop of [...open]) stop();
  });

  app.get('/api/live', { config: { access: 'viewer' } }, (request, reply) => {
    const stream = new PassThrough();
    const seen = new Map<string, string>();
    const { token } = principalOf(request);
    const tick = () => {
      if (!tokenStillStored(db, token)) return stop();
      // a client that stops reading is not buffered for: its changes wait (unseen) until it drains
      if (stream.writableNeedDrain) return;
      for (const root of roots()) {
        const stamp = stateStamp(root);
        if (stamp === null || seen.get(root) === stamp) continue;
        seen.set(root, stamp);
        const c = readCampaign(runs, root);
        if (c) stream.write(campaignEvent({ id: c.id, dir: c.dir, phase: c.phase, generation: c.generation, candidate: c.candidate }));
      }
    };
    const poll = setInterval(safely(tick, request.log), pollMs);
    const beat = setInterval(() => stream.writableNeedDrain || stream.write(': heartbeat\n\n'), heartbeatMs);
    const stop = () => {
      clearInterval(poll);
      clearInterval(beat);
      open.delete(stop);
      stream.end();
    };
    open.add(stop);
    // the response's close, not the request's: a GET's request stream ends as soon as it is read
    reply.raw.on('close', stop);
    stream.write(': connected\n\n');
    safely(tick, request.log)();
    return reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-cache, no-transform')
      .header('x-accel-buffering', 'no')
      .header('connection', 'close') // a stream's connection is never reused: Node closes it when the stream ends
      .send(stream);
  });
}

function campaignEvent(data: LiveEvent): string {
  return `event: campaign\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The campaign roots, walked again only when the last walk is older than `ttlMs`. */
function cachedRoots(runs: string, ttlMs: number): () => string[] {
  let at = -Infinity;
  let list: string[] = [];
  return () => {
    if (Date.now() - at >= ttlMs) {
      list = findCampaignRoots(runs);
      at = Date.now();
    }
    return list;
  };
}

/** A poll that fails (a folder vanishing mid-walk) is logged and skipped; the next one tries again. */
function safely(f: () => void, log: { warn: (o: object, m: string) => void }): () => void {
  return () => {
    try {
      f();
    } catch (err) {
      log.warn({ err }, 'live: a poll of the runs folder failed');
    }
  };
}
