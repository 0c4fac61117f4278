// The heading the policy last commanded in the horizontal plane: a unit (x, y) vector updated on
// steps the policy drives and frozen while a recovery drives (when the proposal is only the hold the
// critic substitutes). World-neutral restore actions move against and across it: back off the way
// the policy was pushing, or step aside of it (critic/recovery/tools.ts `step_aside`).

/** Below this the commanded xy translation (normalized units) has no direction. */
const MIN_XY = 1e-3;

export class PolicyHeading {
  x = Number.NaN;
  y = Number.NaN;

  reset(): void {
    this.x = this.y = Number.NaN;
  }

  /** The proposal `a` of a step; ignored while a recovery drives or when it asks for no xy motion. */
  update(a: ArrayLike<number>, inRecovery: boolean): void {
    if (inRecovery) return;
    const dx = a[0]!;
    const dy = a[1]!;
    const n = Math.hypot(dx, dy);
    if (!(n > MIN_XY)) return; // NaN too
    this.x = dx / n;
    this.y = dy / n;
  }
}
