// How many checks of unknown tokens one client address may have running or failed per window. An
// attempt is reserved before the work it asks for and given back when its token turns out right,
// so parallel guesses cannot all be evaluated before the first failure is counted (the first `max`
// are checked, the rest refused with 429 at once), while a right token never uses up the budget.
// Counts live in memory, one fixed window per address; windows that ended are dropped as new ones
// open, so the map holds only addresses seen within the last window.
import type { FastifyRequest } from 'fastify';
import { rateLimited } from './api-error.js';

export interface AttemptBudgetOptions {
  readonly max: number;
  readonly windowMs: number;
}

/** One reserved attempt: `refund` gives it back (the token was right). */
export interface Attempt {
  refund(): void;
}

interface Window {
  used: number;
  readonly endsAt: number;
}

export class AttemptBudget {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly o: AttemptBudgetOptions) {}

  /** Reserves one attempt for the request's address; throws 429 when the window's attempts are used up. */
  reserve(request: FastifyRequest): Attempt {
    const key = clientAddress(request);
    const now = Date.now();
    const window = this.windowFor(key, now);
    if (window.used >= this.o.max) {
      const retryS = Math.ceil((window.endsAt - now) / 1000);
      throw rateLimited(`too many failed token checks from this address; try again in ${retryS} s`, retryS);
    }
    window.used++;
    let refunded = false;
    return {
      refund: () => {
        if (refunded || this.windows.get(key) !== window) return;
        refunded = true;
        window.used--;
      },
    };
  }

  private windowFor(key: string, now: number): Window {
    const current = this.windows.get(key);
    if (current && current.endsAt > now) return current;
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    const fresh = { used: 0, endsAt: now + this.o.windowMs };
    this.windows.set(key, fresh);
    return fresh;
  }
}

/** The client's address, an IPv4-mapped IPv6 address as plain IPv4. */
function clientAddress(request: FastifyRequest): string {
  const ip = request.ip;
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}
