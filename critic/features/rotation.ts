// Angle between two orientations given as axis-angle vectors (the robot state's convention).
// Subtracting axis-angle vectors is wrong near ±π (the vector flips sign for the same rotation), so
// go through unit quaternions: angle = 2·acos(|q1·q2|). Scalar code, no allocation.

/** sin(θ/2)/θ, the factor turning an axis-angle vector into a quaternion's vector part. */
function halfSinc(theta: number): number {
  return theta < 1e-8 ? 0.5 - (theta * theta) / 48 : Math.sin(theta / 2) / theta;
}

export function relativeRotationAngle(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const ta = Math.hypot(ax, ay, az);
  const tb = Math.hypot(bx, by, bz);
  const ka = halfSinc(ta);
  const kb = halfSinc(tb);
  const dot = Math.cos(ta / 2) * Math.cos(tb / 2) + ka * kb * (ax * bx + ay * by + az * bz);
  return 2 * Math.acos(Math.min(1, Math.abs(dot)));
}
