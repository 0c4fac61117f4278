// The tokens this console has already verified with scrypt, remembered in memory by their SHA-256
// (never the token itself), so that a token in use is checked again without scrypt and without
// spending its address's attempt budget (token-check.ts). A fast hash is enough here: a token is 32
// random bytes, so its digest cannot be reversed or guessed. Each use re-reads the token's row, so a
// revoked or re-made token stops working at once. Only tokens that matched a row are remembered,
// so the map holds at most about one entry per stored token.
import { createHash } from 'node:crypto';
import type { Db } from '../../skills/store/open.js';
import { tokenStillStored, type MatchedToken } from './tokens.js';

export class KnownTokens {
  private readonly byDigest = new Map<string, MatchedToken>();

  constructor(private readonly db: Db) {}

  /** The row of a token verified before and still stored as it was, or null. */
  owner(token: string): MatchedToken | null {
    const key = digest(token);
    const matched = this.byDigest.get(key);
    if (!matched) return null;
    if (!tokenStillStored(this.db, matched)) {
      this.byDigest.delete(key);
      return null;
    }
    return matched;
  }

  remember(token: string, matched: MatchedToken): void {
    this.byDigest.set(digest(token), matched);
  }
}

function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
