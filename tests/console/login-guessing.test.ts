// Guessing tokens against the console: many well-formed wrong tokens sent at once from one address
// are each counted before any is hashed (the budget's worth are checked, the rest refused with 429);
// guesses from many addresses at once hash only a bounded few, the rest answered 503; and a guesser
// on the operator's address cannot lock the operator out of a token the console already verified,
// which still stops working once its row is gone from the store.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../console/server/index.js';
import { makeWorld, server, type World } from './fixture.js';

const BUDGET = 5;

let w: World;
let app: FastifyInstance;

beforeAll(async () => {
  w = await makeWorld();
  app = await server(w, { loginAttempts: { max: BUDGET, windowMs: 60_000 } });
}, 60_000);

afterAll(async () => {
  await app?.close();
});

/** A token of the right shape that is no one's. */
const guess = () => `zc_${randomBytes(32).toString('base64url')}`;

const login = (token: string, remoteAddress: string) =>
  app.inject({ method: 'POST', url: '/api/login', payload: { token }, remoteAddress });

const tally = (codes: readonly number[]) => {
  const out: Record<number, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
};

describe('guessing tokens', () => {
  it('counts 100 parallel guesses from one address before hashing: the budget is checked, the rest refused', async () => {
    const answers = await Promise.all(Array.from({ length: 100 }, () => login(guess(), '10.20.0.1')));
    expect(tally(answers.map((a) => a.statusCode))).toEqual({ 401: BUDGET, 429: 100 - BUDGET });
  });

  it('hashes a bounded few of many addresses’ parallel guesses and answers the others 503 at once', async () => {
    const vic = await login(w.tokens.vic, '10.30.0.1');
    expect(vic.statusCode).toBe(200);
    const flood = Array.from({ length: 60 }, (_, i) => login(guess(), `10.40.0.${i + 1}`));
    // a token in use logs in during the flood, without waiting behind it
    const during = login(w.tokens.vic, '10.30.0.1');
    const codes = (await Promise.all(flood)).map((a) => a.statusCode);
    expect((await during).statusCode).toBe(200);
    const counts = tally(codes);
    expect(Object.keys(counts).sort()).toEqual(['401', '503']);
    expect(counts[503]).toBeGreaterThan(0);
  });

  it('keeps letting in a verified token on an address whose budget guessing used up; a new one waits', async () => {
    const address = '10.50.0.1';
    expect((await login(w.tokens.ada, address)).statusCode).toBe(200);
    for (let i = 0; i < BUDGET; i++) expect((await login(guess(), address)).statusCode).toBe(401);
    expect((await login(guess(), address)).statusCode).toBe(429);
    expect((await login(w.tokens.ada, address)).statusCode).toBe(200);
    const bearer = await app.inject({
      method: 'GET',
      url: '/api/skills',
      headers: { authorization: `Bearer ${w.tokens.ada}` },
      remoteAddress: address,
    });
    expect(bearer.statusCode).toBe(200);
    // a right token never verified here spends the address's budget like a guess would
    expect((await login(createToken(w.db, 'newcomer', 'viewer'), address)).statusCode).toBe(429);
  });

  it('stops letting in a remembered token once its row is gone from the store', async () => {
    const token = createToken(w.db, 'leaving', 'viewer');
    expect((await login(token, '10.60.0.1')).statusCode).toBe(200);
    const db = new Database(w.db);
    db.prepare('DELETE FROM console_tokens WHERE name = ?').run('leaving');
    db.close();
    expect((await login(token, '10.60.0.1')).statusCode).toBe(401);
  });
});
