// Contact settings shared by everything that is grasped or grasps. These are the values that held a
// 4 cm cube with ≤ 0.2 mm slip in transport (FACTS.md): condim 4 so a grasp
// resists twisting, and a stiff, slightly soft-edged pad contact.

export const TIMESTEP = 0.002;
export const IMPRATIO = 10;

export const GRASP_FRICTION = [1, 0.005, 0.0001] as const;
export const GRASP_CONDIM = 4;
export const PAD_SOLREF = [0.01, 1] as const;
export const PAD_SOLIMP = [0.9, 0.95, 0.001] as const;

/** Movables carry priority 1 so their (possibly perturbed) friction decides every contact they make. */
export function objectContact(friction: number): Record<string, number | readonly number[]> {
  return {
    condim: GRASP_CONDIM,
    friction: [friction, GRASP_FRICTION[1], GRASP_FRICTION[2]],
    solref: PAD_SOLREF,
    solimp: PAD_SOLIMP,
    priority: 1,
  };
}
