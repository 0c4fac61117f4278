// Promotion into the library: a finished campaign's promoted bundle becomes a pending skill. Used by
// `zetta skills add` and at the end of `zetta evolve --promote-to`.
import { skillFromCampaign } from './from-campaign.js';
import { SkillStore, type Actor, type SkillRecord } from './store/skill-store.js';

export async function promoteCampaign(root: string, dbPath: string, who: Actor): Promise<{ skill: SkillRecord; created: boolean }> {
  const { content, files } = await skillFromCampaign(root);
  // the default reason names the campaign, so the audit row says where the skill came from
  const why = who.reason === '' ? `promoted by campaign ${content.evidence.campaign_id}` : who.reason;
  return SkillStore.using(dbPath, (store) => {
    const { id, created } = store.add(content, files, { actor: who.actor, reason: why });
    return { skill: store.get(id), created };
  });
}
