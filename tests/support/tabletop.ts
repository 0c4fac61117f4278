// The embedded tabletop as tests use it without the evaluator: its frame layout (for loading rules
// and bundles) and its policy encoding (for runEpisode).
import { layoutFor } from '../../critic/features/layout.js';
import { world } from '../../sim/tabletop/tabletop-world.js';

export const TABLETOP_WORLD = world;
export const TABLETOP_LAYOUT = layoutFor(world.features);

/** runEpisode's `toPolicyObservation` for the tabletop (a fresh encoder per call). */
export function tabletopIO() {
  const encoder = world.policyEncoder();
  return { toPolicyObservation: encoder.encode.bind(encoder) };
}
