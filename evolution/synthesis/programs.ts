// The recovery program a template rule starts: the world's restore for the stage the failures
// stalled in (World.restores), under the candidate's id. A world that offers no restores gets no
// template candidates; the search (evolution/search/) still pairs its conditions with the critic's
// world-neutral actions.
import type { RecoveryFileInput } from '../../critic/index.js';
import type { WorldRestores } from '../../sim/world.js';

export type ProgramInput = RecoveryFileInput['programs'][number];

/** The world's restore for the stage whose milestone `milestone` is missing, as program `id`; null without restores. */
export function programFor(milestone: string, id: string, restores: WorldRestores | undefined): ProgramInput | null {
  if (!restores) return null;
  return { ...restores.forStage(milestone).program, id } as ProgramInput;
}
