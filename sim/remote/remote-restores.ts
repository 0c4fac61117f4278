// The restore programs a remote world declares in its spec (`restores`), as the World port's
// WorldRestores: the server knows its robot's heights and objects, so it, not Zetta, says how to
// put the hand back where its policy can act. Remote tasks name no milestones, so a stage is served
// by the first restore that names its kind, else by the first one declared.
import type { RestoreAction, WorldRestores } from '../world.js';
import type { WireEnvSpec } from './env-wire.js';

export function remoteRestores(wire: WireEnvSpec): WorldRestores | undefined {
  const declared = wire.restores ?? [];
  if (declared.length === 0) return undefined;
  const actions: RestoreAction[] = declared.map((r) => Object.freeze({ id: r.id, summary: r.summary, program: r.program }));
  return {
    actions,
    forStage(milestone) {
      const kind = milestone.slice(milestone.lastIndexOf('.') + 1);
      const i = declared.findIndex((r) => r.stages.includes(kind) || r.stages.includes(milestone));
      return actions[Math.max(i, 0)]!;
    },
  };
}
