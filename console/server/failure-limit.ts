// Failed logins (and failed bearer tokens) per client address, with @fastify/rate-limit's store:
// only failures count, so an operator who logs in often is never locked out, while guessing is cut
// off after `max` failures in a window. The check reads the counter without adding to it; a
// failure adds one. While the limit holds, even a correct token is refused (the point of a lockout).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { rateLimited } from './api-error.js';

export interface FailureLimiter {
  /** Throws 429 when this address has used up its failures for the window. */
  check(request: FastifyRequest): Promise<void>;
  /** Counts one failure for this address. */
  fail(request: FastifyRequest): Promise<void>;
}

export interface FailureLimitOptions {
  readonly max: number;
  readonly windowMs: number;
}

/** Needs @fastify/rate-limit registered on `app` (with `global: false`: no other route is limited). */
export function failureLimiter(app: FastifyInstance, o: FailureLimitOptions): FailureLimiter {
  // the plugin's default key is the client address (IPv4-mapped IPv6 folded to IPv4)
  const limit = app.createRateLimit({ max: o.max, timeWindow: o.windowMs });
  return {
    async check(request) {
      const r = await limit(request, { increment: false });
      if (!r.isAllowed && r.remaining <= 0) {
        throw rateLimited(`too many failed logins from this address; try again in ${r.ttlInSeconds} s`, r.ttlInSeconds);
      }
    },
    async fail(request) {
      await limit(request);
    },
  };
}
