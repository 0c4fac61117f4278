// How a task is described: the scene it needs, what the instruction asks for as goal predicates,
// and the stages a competent agent goes through (which give the milestones and drive the expert).
import type { Colour } from '../scene/objects.js';
import type { FixtureKind, Shape } from '../scene/spec.js';

export type SuiteName = 'spatial' | 'object' | 'goal' | 'long';

/** LIBERO's per-suite episode limits (openpi client): spatial 220, object 280, goal 300, 10 → 520. */
export const SUITE_MAX_STEPS: Record<SuiteName, number> = { spatial: 220, object: 280, goal: 300, long: 520 };

export type Predicate =
  | { readonly op: 'On'; readonly object: string; readonly target: string }
  | { readonly op: 'In'; readonly object: string; readonly target: string }
  | { readonly op: 'Open'; readonly target: string }
  | { readonly op: 'Closed'; readonly target: string }
  | { readonly op: 'Pressed'; readonly target: string }
  | { readonly op: 'Up'; readonly object: string };

export type Stage =
  /** Pick `object` and put it On/In `target`; `offset` shifts the drop point (two things in one bowl). */
  | {
      readonly kind: 'place';
      readonly object: string;
      readonly target: string;
      readonly relation: 'On' | 'In';
      readonly offset?: readonly [number, number];
    }
  | { readonly kind: 'lift'; readonly object: string }
  | { readonly kind: 'open'; readonly cabinet: string }
  | { readonly kind: 'close'; readonly cabinet: string }
  | { readonly kind: 'press'; readonly button: string };

export interface MovableTemplate {
  readonly name: string;
  readonly shape: Shape;
  readonly size: 'small' | 'medium';
  readonly colour: Colour;
}

export interface FixtureTemplate {
  readonly kind: FixtureKind;
  readonly name: string;
}

/** A named spot on the table; items are placed at anchors plus a seeded jitter. */
export type Anchor = readonly [number, number];

export interface TaskDef {
  readonly id: string;
  readonly suite: SuiteName;
  readonly instruction: string;
  readonly movables: readonly MovableTemplate[];
  readonly fixtures: readonly FixtureTemplate[];
  /** One anchor per movable then per fixture, in declaration order. */
  readonly anchors: readonly Anchor[];
  /** Movables whose anchors are shuffled among themselves per seed (LIBERO-Object style). */
  readonly shuffleMovables?: boolean;
  readonly goal: readonly Predicate[];
  readonly stages: readonly Stage[];
}
