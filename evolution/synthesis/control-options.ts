// Control options as candidates: changes to how the critic runs the policy's chunks rather than a
// rule. The diagnosis measures the actuation lag (diagnosis/actuation-lag.ts); this turns on the
// bundle's answer to it, `align_chunks_to_lag` (critic/README.md, "Answering an actuation lag"):
// every chunk starts where its planned motion has caught up with the motion in flight. Only the
// manifest changes; the rules and programs stay the parent's, so shadow replay has nothing to watch
// and the rollouts judge it.
import type { BundleManifest } from '../../critic/index.js';

/** The manifest settings a control-option candidate changes. */
export type ManifestChange = Pick<BundleManifest, 'align_chunks_to_lag'>;

/** Chunks aligned to the measured lag, or why the parent cannot take it. */
export function alignChunksChange(parent: BundleManifest, lagSteps: number | null): { manifest: ManifestChange } | { unbuildable: string } {
  if (lagSteps === null || lagSteps < 2) return { unbuildable: 'no actuation lag was measured: commands move the hand by the next step' };
  if (parent.align_chunks_to_lag !== undefined) return { unbuildable: 'the parent already aligns its chunks to the lag' };
  // the two answers exclude each other (critic/bundles/bundle.ts); the parent's wait stays its choice
  if (parent.wait_out_lag !== undefined) return { unbuildable: 'the parent answers the lag by waiting it out' };
  return { manifest: { align_chunks_to_lag: true } };
}
