// State changes come only from the console's own pages. A browser names the page that made a
// request in `Origin` on every POST, PUT, PATCH and DELETE; one that names another host than the one
// this request was sent to (its Host) is refused with 403, before any authentication. SameSite=Strict
// and the session's CSRF token already keep other sites' requests from acting with a session; this
// check does not depend on either. A request without Origin passes: scripts and CLI clients send
// none, and they hold a bearer token or a session's CSRF token anyway.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './api-error.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function installOriginCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin === undefined) return;
    if (!sameHost(origin, request.headers.host)) {
      const named = JSON.stringify(origin.slice(0, 200));
      throw forbidden(`a ${request.method} from origin ${named} is refused: state changes come only from this console's own pages`);
    }
  });
}

/**
 * Whether `origin` names the host and port of `host` (the Host header). Both go through URL, so
 * case and a written default port (`:80` for http) do not matter; `null` and junk never match.
 */
function sameHost(origin: string, host: FastifyRequest['headers']['host']): boolean {
  if (host === undefined) return false;
  try {
    const from = new URL(origin);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return false;
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
