// How the run's reports and terminal name a campaign of the evolution stage: by its task, or by its
// first task and the others it covers (`--tasks-per-campaign`).
import type { CampaignRun } from './evolution-stage.js';

/** `task`, or `task and N more (a, b)`; a campaign in a report from before campaigns spanned tasks has one. */
export function campaignTasks(c: Pick<CampaignRun, 'task' | 'tasks'>): string {
  const more = (c.tasks?.length ?? 1) - 1;
  return more > 0 ? `${c.task} and ${more} more (${c.tasks!.slice(1).join(', ')})` : c.task;
}
