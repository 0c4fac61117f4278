// The workspace an episode moved through, from its recorded positions (metres, z up): where the
// table is, the box the camera frames, and the colour of each object, shared by the WebGL scene
// and the 2-D fallback so both show the same thing.
import type { EpisodeStep, Vec3 } from '../../../contract';

export interface Workspace {
  readonly min: Vec3;
  readonly max: Vec3;
  readonly centre: Vec3;
  /** The largest side of the box, at least 0.3 m so a still episode is not zoomed to nothing. */
  readonly size: number;
  /** Height of the table top: just under the lowest object. */
  readonly tableZ: number;
  readonly objectNames: readonly string[];
}

export const OBJECT_SIZE = 0.04;
const PALETTE = ['#e53e3e', '#3182ce', '#38a169', '#d69e2e', '#805ad5', '#dd6b20', '#319795', '#d53f8c'];

export function objectColor(index: number): string {
  return PALETTE[index % PALETTE.length]!;
}

function usable(p: Vec3 | undefined): p is Vec3 {
  return Array.isArray(p) && p.length >= 3 && p.every((v) => typeof v === 'number' && Number.isFinite(v));
}

export function workspace(steps: readonly EpisodeStep[], names: readonly string[]): Workspace {
  const objectNames = names.length > 0 ? names : Object.keys(steps[0]?.objects ?? {});
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  let lowestObject = Infinity;
  const add = (p: Vec3) => p.forEach((v, i) => ((lo[i] = Math.min(lo[i]!, v)), (hi[i] = Math.max(hi[i]!, v))));
  for (const s of steps) {
    if (usable(s.gripper)) add(s.gripper);
    for (const name of objectNames) {
      const p = s.objects[name];
      if (!usable(p)) continue;
      add(p);
      lowestObject = Math.min(lowestObject, p[2]);
    }
  }
  if (!Number.isFinite(lo[0]))
    return { min: [-0.3, -0.3, 0], max: [0.3, 0.3, 0.3], centre: [0, 0, 0.1], size: 0.6, tableZ: 0, objectNames };
  const tableZ = Number.isFinite(lowestObject) ? lowestObject - OBJECT_SIZE / 2 : lo[2]! - 0.05;
  const min: Vec3 = [lo[0]!, lo[1]!, Math.min(lo[2]!, tableZ)];
  const max: Vec3 = [hi[0]!, hi[1]!, hi[2]!];
  const size = Math.max(0.3, max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return { min, max, centre: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2], size, tableZ, objectNames };
}

/** A step's position of a thing, or null when it was not recorded as three finite numbers. */
export function position(p: Vec3 | undefined): Vec3 | null {
  return usable(p) ? p : null;
}
