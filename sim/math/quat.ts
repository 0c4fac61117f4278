// Quaternion helpers (w, x, y, z — MuJoCo's order). Written here because mujoco-js's mju_* helpers
// cannot write into JavaScript arrays. Functions write into `out` so the step path allocates nothing.

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];

/** out = a ⊗ b. `out` may alias neither input. */
export function quatMul(out: Float64Array | number[], a: ArrayLike<number>, b: ArrayLike<number>): void {
  const aw = a[0],
    ax = a[1],
    ay = a[2],
    az = a[3];
  const bw = b[0],
    bx = b[1],
    by = b[2],
    bz = b[3];
  out[0] = aw * bw - ax * bx - ay * by - az * bz;
  out[1] = aw * bx + ax * bw + ay * bz - az * by;
  out[2] = aw * by - ax * bz + ay * bw + az * bx;
  out[3] = aw * bz + ax * by - ay * bx + az * bw;
}

/** Rotation vector (axis × angle, radians) to a unit quaternion. */
export function quatFromRotvec(out: Float64Array | number[], rx: number, ry: number, rz: number): void {
  const angle = Math.hypot(rx, ry, rz);
  if (angle < 1e-12) {
    out[0] = 1;
    out[1] = rx / 2;
    out[2] = ry / 2;
    out[3] = rz / 2;
    normalizeQuat(out);
    return;
  }
  const s = Math.sin(angle / 2) / angle;
  out[0] = Math.cos(angle / 2);
  out[1] = rx * s;
  out[2] = ry * s;
  out[3] = rz * s;
}

/** Unit quaternion to a rotation vector (the axis-angle LIBERO's state carries), angle in [0, π]. */
export function rotvecFromQuat(out: Float64Array | Float32Array | number[], q: ArrayLike<number>, offset = 0, qOffset = 0): void {
  // q and −q are the same rotation; pick w ≥ 0 so the angle lies in [0, π].
  const sign = q[qOffset] < 0 ? -1 : 1;
  const w = sign * q[qOffset],
    x = sign * q[qOffset + 1],
    y = sign * q[qOffset + 2],
    z = sign * q[qOffset + 3];
  const sinHalf = Math.hypot(x, y, z);
  const angle = 2 * Math.atan2(sinHalf, w);
  const k = sinHalf < 1e-12 ? 2 : angle / sinHalf;
  out[offset] = x * k;
  out[offset + 1] = y * k;
  out[offset + 2] = z * k;
}

export function normalizeQuat(q: Float64Array | number[]): void {
  const n = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  q[0] /= n;
  q[1] /= n;
  q[2] /= n;
  q[3] /= n;
}

/** Heading about world z of a body whose quaternion is q. */
export function yawOf(q: ArrayLike<number>): number {
  const [w, x, y, z] = [q[0], q[1], q[2], q[3]];
  return Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z));
}

/** Quaternion of a pure rotation about world z. */
export function quatFromYaw(yaw: number): Quat {
  return [Math.cos(yaw / 2), 0, 0, Math.sin(yaw / 2)];
}

/** Angle wrapped into (-π, π]. */
export function wrapAngle(a: number): number {
  const t = a % (2 * Math.PI);
  if (t > Math.PI) return t - 2 * Math.PI;
  if (t <= -Math.PI) return t + 2 * Math.PI;
  return t;
}
