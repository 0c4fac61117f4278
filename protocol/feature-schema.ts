// The feature schema: what a world tells the critic it can measure. It crosses the world boundary
// (an embedded simulator, a remote env over ZeroMQ, a ROS 2 robot), so it lives with the protocol.
//
// Provenance is the point: an `observed` feature is one a real robot or its perception would have;
// a `privileged` one is simulator ground truth, which only a bundle that declares it may read and
// only a run that authorizes it may feed.

export type FeatureKind = 'number' | 'boolean';
export type FeatureProvenance = 'observed' | 'privileged';

export interface WorldFeature {
  /** The name rules and programs use, e.g. `observed.object_x`. */
  readonly name: string;
  readonly unit: string;
  readonly kind: FeatureKind;
  /** One line: what the number means. */
  readonly meaning: string;
  readonly provenance: FeatureProvenance;
  /** The name the world's feature frames carry it under, when it differs from `name`. */
  readonly key?: string;
}

export interface FeatureSchema {
  /** The world's name, for error messages (`… the world "tabletop" has no feature …`). */
  readonly world: string;
  readonly features: readonly WorldFeature[];
}

/** One step's world features as a world hands them over: values in the order of `names`. */
export interface FeatureValues {
  readonly names: readonly string[];
  readonly values: ArrayLike<number>;
}

/** The key a world's frames carry a feature under. */
export function featureKey(f: WorldFeature): string {
  return f.key ?? f.name;
}
