// The end-effector pose from tf2 frames: the latest transform of each child frame off /tf, chained
// from the configured child frame up to the parent (the robot base). A small tf buffer, enough for a
// static chain of a few links; it composes the newest transforms and ignores their stamps.
import type { Quaternion, TFMessage, TransformStamped, Vector3 } from './messages.js';

const MAX_DEPTH = 32;

export class TfChain {
  private readonly latest = new Map<string, TransformStamped>();
  private readonly p = { x: 0, y: 0, z: 0 };
  private readonly q = { w: 1, x: 0, y: 0, z: 0 };

  constructor(
    private readonly parentFrame: string,
    private readonly childFrame: string,
  ) {}

  /** Takes in a /tf message; true when it carried a link of the chain. */
  absorb(msg: TFMessage): boolean {
    let touched = false;
    for (const t of msg.transforms) {
      this.latest.set(strip(t.child_frame_id), t);
      touched = true;
    }
    return touched;
  }

  /** parent ← child as position and quaternion (w, x, y, z) into `out`; false when a link is missing. */
  lookup(outPosition: Float64Array, outQuat: Float64Array): boolean {
    const p = this.p;
    const q = this.q;
    p.x = p.y = p.z = 0;
    q.w = 1;
    q.x = q.y = q.z = 0;
    let frame = strip(this.childFrame);
    const parent = strip(this.parentFrame);
    for (let depth = 0; frame !== parent; depth++) {
      const t = this.latest.get(frame);
      if (!t || depth > MAX_DEPTH) return false;
      // x_parent = R_t · x_frame + t  applied on the left of what is chained so far.
      premultiply(t.transform.translation, t.transform.rotation, p, q);
      frame = strip(t.header.frame_id);
    }
    outPosition[0] = p.x;
    outPosition[1] = p.y;
    outPosition[2] = p.z;
    outQuat[0] = q.w;
    outQuat[1] = q.x;
    outQuat[2] = q.y;
    outQuat[3] = q.z;
    return true;
  }
}

function strip(frame: string): string {
  return frame.startsWith('/') ? frame.slice(1) : frame;
}

/** (p, q) ← (t, r) ∘ (p, q): rotate p by r, add t; q ← r ⊗ q. */
function premultiply(t: Vector3, r: Quaternion, p: Vector3, q: Quaternion): void {
  const { w, x, y, z } = r;
  // p' = r p r* + t, with the expanded rotation formula.
  const ix = w * p.x + y * p.z - z * p.y;
  const iy = w * p.y + z * p.x - x * p.z;
  const iz = w * p.z + x * p.y - y * p.x;
  const iw = -x * p.x - y * p.y - z * p.z;
  const px = ix * w + iw * -x + iy * -z - iz * -y;
  const py = iy * w + iw * -y + iz * -x - ix * -z;
  const pz = iz * w + iw * -z + ix * -y - iy * -x;
  p.x = px + t.x;
  p.y = py + t.y;
  p.z = pz + t.z;
  const qw = w * q.w - x * q.x - y * q.y - z * q.z;
  const qx = w * q.x + x * q.w + y * q.z - z * q.y;
  const qy = w * q.y - x * q.z + y * q.w + z * q.x;
  const qz = w * q.z + x * q.y - y * q.x + z * q.w;
  q.w = qw;
  q.x = qx;
  q.y = qy;
  q.z = qz;
}
