// Checking a token a client sent (a login, or a bearer request), and what guessing may cost.
//
// A token is 32 random bytes: no number of guesses finds one, so the limit here is not what keeps
// tokens secret. What guessing can do is spend the server's CPU (each check is one scrypt per stored
// token) and, with a lockout, keep the operator out. So:
//
// - A token this console has verified before (known-tokens.ts) is checked by its digest: no scrypt,
//   no budget. A guesser who shares the operator's address (every local process does, on
//   127.0.0.1) cannot lock the operator out of a token already in use, and a browser's session
//   never needs its token again anyway.
// - Any other token reserves one attempt of its address's budget *before* it is hashed, given back
//   when the token is right (attempt-budget.ts): 100 parallel guesses get `max` checks and 100 - max
//   refusals, not 100 checks. A right token this console has never verified is refused too while
//   its address's budget is spent: that is the price of bounding the work, and it lasts only until
//   the window ends (a minute by default), or until the token is used from another address.
// - Across all addresses, at most a few checks hash at once and a few more wait (bounded-work.ts);
//   the rest are answered 503 at once, so many addresses together cannot pile up CPU either.
//
// A token that is not even token-shaped costs nothing to refuse, but spends an attempt like any
// other unknown token: one rule for every token the console does not know.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../skills/store/open.js';
import type { AttemptBudget } from './attempt-budget.js';
import { BoundedWork, type WorkBound } from './bounded-work.js';
import { KnownTokens } from './known-tokens.js';
import { findTokenAsync, markTokenUsed, type MatchedToken } from './tokens.js';

/** The row of the token a request sent (its owner and stored hash), or null when it is no token of this store. */
export type TokenCheck = (request: FastifyRequest, token: string) => Promise<MatchedToken | null>;

/** Two scrypt hashes at once, eight waiting: a login never waits long behind a flood. */
export const DEFAULT_HASHING: WorkBound = { concurrency: 2, maxWaiting: 8 };

export function tokenCheck(db: Db, budget: AttemptBudget, hashing: WorkBound = DEFAULT_HASHING): TokenCheck {
  const known = new KnownTokens(db);
  const work = new BoundedWork(hashing, 'token checks');
  // every token a request got in with was used now (console token list shows when)
  const used = (matched: MatchedToken): MatchedToken => {
    markTokenUsed(db, matched);
    return matched;
  };
  return async (request, token) => {
    const remembered = known.owner(token);
    if (remembered) return used(remembered);
    const attempt = budget.reserve(request);
    let matched: MatchedToken | null;
    try {
      matched = await work.run(() => findTokenAsync(db, token));
    } catch (err) {
      attempt.refund(); // refused for load, not checked: it was no guess
      throw err;
    }
    if (!matched) return null;
    attempt.refund();
    known.remember(token, matched);
    return used(matched);
  };
}
