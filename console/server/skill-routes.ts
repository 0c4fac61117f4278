// The skill library over HTTP: list, one skill in full (its audit trail, bundle files and change as
// readable lines), and the lifecycle moves. A move is SkillStore.transition: one IMMEDIATE
// transaction with its audit row, the caller's token name as the actor. Of 50 requests racing to
// approve one pending skill, the first commits and the rest find it active, which the lifecycle
// forbids: 409. Unknown ids are told apart first (404), so a SkillInputError from the move is a
// forbidden move only when the lifecycle says so for the state the skill is in now. Answers are the
// API contract's types (skill-views.ts maps the store's records into them).
import type { FastifyInstance } from 'fastify';
import { SkillInputError } from '../../skills/errors.js';
import { nextState, type SkillAction } from '../../skills/lifecycle.js';
import type { SkillRecord, SkillStore } from '../../skills/store/skill-store.js';
import type { ReasonBody, SkillDetail, SkillFile, SkillMoveAnswer, SkillsAnswer } from '../contract/index.js';
import { badRequest, conflict, notFound } from './api-error.js';
import { principalOf } from './auth.js';
import { baseBundleEntries } from './campaign-detail.js';
import { changesText } from './changes-text.js';
import { auditRow, reachRow, skillRecord, skillRow } from './skill-views.js';

const ACTIONS: readonly SkillAction[] = ['approve', 'reject', 'retire'];
const MAX_REASON = 2000;

export function skillRoutes(app: FastifyInstance, store: SkillStore, runs: string): void {
  app.get('/api/skills', { config: { access: 'viewer' } }, async (): Promise<SkillsAnswer> => ({ skills: store.list().map(skillRow) }));

  app.get<{ Params: { id: string } }>('/api/skills/:id', { config: { access: 'viewer' } }, async (request): Promise<SkillDetail> => {
    const skill = existing(store, request.params.id);
    return {
      skill: skillRecord(skill),
      audit: store.auditLog(skill.id).map(auditRow),
      files: files(store, skill),
      changes_text: changesText(
        skill.content.changes,
        needsBase(skill) ? baseBundleEntries(runs, skill.content.evidence.campaign_id, skill.content.changes.base.sha256) : null,
      ),
      reach: [...store.reach(skill.id).values()].map(reachRow),
    };
  });

  for (const action of ACTIONS) {
    app.post<{ Params: { id: string }; Body: unknown }>(
      `/api/skills/:id/${action}`,
      { config: { access: 'approver' } },
      async (request): Promise<SkillMoveAnswer> => {
        const reason = reasonOf(request.body);
        const id = existing(store, request.params.id).id;
        const who = { actor: principalOf(request).name, reason };
        try {
          const moved = store.transition(id, action, who);
          return { from: moved.from, skill: skillRecord(moved.skill) };
        } catch (err) {
          if (err instanceof SkillInputError && forbiddenNow(store, id, action)) throw conflict(err.message);
          throw err;
        }
      },
    );
  }
}

/** The skill with exactly this id; anything else (unknown, a prefix, junk) is a 404. */
function existing(store: SkillStore, id: string): SkillRecord {
  if (!/^[0-9a-f]{12}$/.test(id) || !store.db.prepare('SELECT 1 FROM skills WHERE id = ?').get(id)) throw notFound(`no skill "${id}"`);
  return store.get(id);
}

/** Whether the lifecycle forbids `action` for the state the skill is in now (after a failed move). */
function forbiddenNow(store: SkillStore, id: string, action: SkillAction): boolean {
  try {
    nextState(id, store.get(id).state, action);
    return false;
  } catch (err) {
    return err instanceof SkillInputError;
  }
}

/** The body's reason (a ReasonBody), checked: the body is whatever the client sent. */
function reasonOf(body: unknown): string {
  const reason = (body as Partial<Record<keyof ReasonBody, unknown>> | null | undefined)?.reason;
  if (typeof reason !== 'string' || reason.trim() === '')
    throw badRequest('the body must be {"reason": "<why>"}, a non-empty string (it goes into the audit log)');
  if (reason.length > MAX_REASON) throw badRequest(`the reason is ${reason.length} characters; at most ${MAX_REASON}`);
  return reason.trim();
}

/** Bundle file name, hash and size, from the store's blobs (their hashes are checked by verifyStore). */
function files(store: SkillStore, skill: SkillRecord): SkillFile[] {
  const size = store.db.prepare('SELECT length(bytes) AS n FROM blobs WHERE sha256 = ?');
  return Object.entries(skill.content.files).map(([name, sha]) => ({
    name,
    sha256: sha,
    bytes: (size.get(sha) as { n: number } | undefined)?.n ?? null,
  }));
}

function needsBase(skill: SkillRecord): boolean {
  const c = skill.content.changes;
  return c.rules.replaced.length + c.programs.replaced.length > 0;
}
