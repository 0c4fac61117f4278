// The campaign's state machine. Its state lives on disk (state.json, replaced atomically on every
// change): the phase, the generation and candidate being worked on, and a ledger of every artifact
// written so far with its sha256. A campaign killed at any moment restarts from the top and every
// step whose artifact is in the ledger is read back (hash-checked) instead of recomputed, so it
// continues exactly where it was; a step killed between writing its artifact and recording it is
// simply recomputed, which gives the same bytes because every step is deterministic. A state.json
// that is not one (damaged, hand-edited) is refused naming the file and what is wrong with it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeJsonAtomic } from '../../util/atomic-write.js';
import { parseArtifactText } from './artifact-format.js';
import type { ArtifactStore, StoredArtifact } from './artifacts.js';

export const PHASES = [
  'preregistered',
  'dev-rollouts',
  'clustering',
  'diagnosis',
  'synthesis',
  'shadow-replay',
  'gating',
  'heldout',
  'promotion',
  'report',
  'done',
] as const;
export type Phase = (typeof PHASES)[number];

/** Allowed transitions. A generation may end after gating (nothing passed) or after promotion. */
const NEXT: Readonly<Record<Phase, readonly Phase[]>> = {
  preregistered: ['dev-rollouts', 'report'],
  'dev-rollouts': ['clustering'],
  clustering: ['diagnosis', 'dev-rollouts', 'report'],
  diagnosis: ['synthesis', 'dev-rollouts', 'report'],
  synthesis: ['shadow-replay'],
  'shadow-replay': ['gating'],
  // back to synthesis is the next candidate of the same generation; after the last, the held-out test
  gating: ['synthesis', 'heldout', 'dev-rollouts', 'report'],
  heldout: ['promotion', 'dev-rollouts', 'report'],
  promotion: ['dev-rollouts', 'report'],
  report: ['done'],
  done: [],
};

export interface CampaignStateData {
  readonly version: 1;
  phase: Phase;
  generation: number;
  candidate: number | null;
  /** Artifact path (relative to the root) → sha256 of its canonical content. */
  ledger: Record<string, string>;
}

/** state.json as CampaignState writes it. */
const StateSchema = z.strictObject({
  version: z.literal(1),
  phase: z.enum(PHASES),
  generation: z.number().int().min(0),
  candidate: z.number().int().min(0).nullable(),
  ledger: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 in hex')),
});

export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
}

export const STATE_FILE = 'state.json';

export class CampaignState {
  private constructor(
    private readonly store: ArtifactStore,
    private data: CampaignStateData,
    private readonly onEnter: (phase: Phase, generation: number, candidate: number | null) => void,
  ) {}

  /** `onEnter` hears every real transition (not replays): progress lines, and where a kill landed. */
  static open(
    store: ArtifactStore,
    onEnter: (phase: Phase, generation: number, candidate: number | null) => void = () => {},
  ): CampaignState {
    const path = join(store.root, STATE_FILE);
    // ArtifactFormatError: `<root>/state.json is not a campaign state: phase: Invalid option: …`
    const data: CampaignStateData = existsSync(path)
      ? parseArtifactText(readFileSync(path, 'utf8'), StateSchema, path, 'a campaign state')
      : { version: 1 as const, phase: 'preregistered' as Phase, generation: 0, candidate: null, ledger: {} };
    return new CampaignState(store, data, onEnter);
  }

  get phase(): Phase {
    return this.data.phase;
  }

  get generation(): number {
    return this.data.generation;
  }

  get ledger(): Readonly<Record<string, string>> {
    return this.data.ledger;
  }

  /**
   * Moves to a phase. A resumed run replays the steps it already did from the top: entering a
   * position at or behind the recorded one is a replay, not a transition, and changes nothing.
   */
  enter(phase: Phase, generation: number, candidate: number | null = null): void {
    const target = position(phase, generation, candidate);
    const here = position(this.data.phase, this.data.generation, this.data.candidate);
    if (compare(target, here) <= 0) return;
    if (!NEXT[this.data.phase].includes(phase)) {
      throw new IllegalTransitionError(`campaign cannot go from ${this.data.phase} (generation ${this.data.generation}) to ${phase}`);
    }
    Object.assign(this.data, { phase, generation, candidate });
    this.save();
    this.onEnter(phase, generation, candidate);
  }

  /** The step's artifact: read back when the ledger has it, otherwise computed, written and recorded. */
  async step<T>(path: string, compute: () => T | Promise<T>): Promise<StoredArtifact<T>> {
    const known = this.data.ledger[path];
    if (known !== undefined) return this.store.get<T>(path, known);
    const stored = this.store.put(path, await compute());
    this.data.ledger[path] = stored.sha256;
    this.save();
    return stored;
  }

  /** Records a file written by other means (a bundle's text file, the HTML report). */
  note(path: string, sha: string): void {
    this.data.ledger[path] = sha;
    this.save();
  }

  private save(): void {
    writeJsonAtomic(join(this.store.root, STATE_FILE), this.data);
  }
}

/**
 * Where a phase lies in the campaign's order: generation, candidate (−1 before synthesis), phase. The
 * held-out test and the promotion come after every candidate of their generation, whichever they name.
 */
function position(phase: Phase, generation: number, candidate: number | null): number[] {
  const idx = PHASES.indexOf(phase);
  if (phase === 'report' || phase === 'done') return [Infinity, 0, idx];
  if (phase === 'heldout' || phase === 'promotion') return [generation, Infinity, idx];
  return [generation, candidate ?? -1, idx];
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return 0;
}
