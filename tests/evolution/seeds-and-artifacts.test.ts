import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArtifactHashError, ArtifactStore, canonicalJson, sha256 } from '../../evolution/campaign/artifacts.js';
import { CampaignState, IllegalTransitionError } from '../../evolution/campaign/state-machine.js';
import {
  assertDisjoint,
  contiguousRuns,
  devSeedsFor,
  parseSeedList,
  SeedOverlapError,
  SeedSyntaxError,
} from '../../evolution/campaign/seeds.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'zetta-evo-'));

describe('seeds', () => {
  it('parses lists and ranges into sorted unique seeds', () => {
    expect(parseSeedList('1-5')).toEqual([1, 2, 3, 4, 5]);
    expect(parseSeedList('9, 3,4-6,4')).toEqual([3, 4, 5, 6, 9]);
    expect(() => parseSeedList('5-1')).toThrow(SeedSyntaxError);
    expect(() => parseSeedList('a')).toThrow(SeedSyntaxError);
    // 1e20 + 1 === 1e20: the range would never end
    expect(() => parseSeedList('100000000000000000000-100000000000000000001')).toThrow(/too large/);
  });

  it('rejects development seeds that overlap the held-out seeds, naming them', () => {
    expect(() => assertDisjoint([1, 2, 3], [3, 4])).toThrow(SeedOverlapError);
    expect(() => assertDisjoint([1, 2, 3], [3, 4])).toThrow(/overlap.*3/);
    expect(() => assertDisjoint(devSeedsFor(1, 50), parseSeedList('1-20'))).not.toThrow();
  });

  it('gives each generation its own contiguous block', () => {
    expect(devSeedsFor(2, 3, 100)).toEqual([103, 104, 105]);
    expect(contiguousRuns([7, 3, 4, 5, 9])).toEqual([
      { first: 3, count: 3 },
      { first: 7, count: 1 },
      { first: 9, count: 1 },
    ]);
  });
});

describe('artifacts', () => {
  it('hash the content, not the key order or formatting', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2], c: null } })).toBe('{"a":{"c":null,"d":[1,2]},"b":1}');
    expect(sha256(canonicalJson({ x: 1, y: 2 }))).toBe(sha256(canonicalJson({ y: 2, x: 1 })));
    expect(canonicalJson({ v: Float64Array.of(1.5, Number.NaN), u: undefined })).toBe('{"v":[1.5,null]}');
  });

  it('are written atomically, read back with their hash, and refused once modified', () => {
    const store = new ArtifactStore(tmp());
    const a = store.put('x/y.json', { z: 1, a: [1, 2] });
    const b = store.put('x/y.json', { a: [1, 2], z: 1 });
    expect(a.sha256).toBe(b.sha256);
    expect(store.get('x/y.json', a.sha256).value).toEqual({ a: [1, 2], z: 1 });
    writeFileSync(store.abs('x/y.json'), '{"a":[1,2],"z":2}\n');
    expect(() => store.get('x/y.json', a.sha256)).toThrow(ArtifactHashError);
  });
});

describe('campaign state machine', () => {
  it('computes a step once, records its hash, and reads it back after a restart', async () => {
    const root = tmp();
    let calls = 0;
    const s1 = CampaignState.open(new ArtifactStore(root));
    const first = await s1.step('a.json', () => ({ n: ++calls }));
    const s2 = CampaignState.open(new ArtifactStore(root));
    const again = await s2.step('a.json', () => ({ n: ++calls }));
    expect(calls).toBe(1);
    expect(again.sha256).toBe(first.sha256);
    expect(JSON.parse(readFileSync(join(root, 'state.json'), 'utf8')).ledger['a.json']).toBe(first.sha256);
  });

  it('allows only the protocol transitions, and replays earlier positions without moving', () => {
    const s = CampaignState.open(new ArtifactStore(tmp()));
    s.enter('dev-rollouts', 1);
    s.enter('clustering', 1);
    expect(() => s.enter('gating', 1, 0)).toThrow(IllegalTransitionError);
    s.enter('diagnosis', 1);
    s.enter('synthesis', 1, 0);
    s.enter('shadow-replay', 1, 0);
    s.enter('gating', 1, 0);
    s.enter('dev-rollouts', 1); // a resumed run passing through again: no change
    expect(s.phase).toBe('gating');
    s.enter('synthesis', 1, 1); // rejected → back to synthesis with the next candidate
    expect(s.phase).toBe('synthesis');
  });
});
