// The approval controls: only for an approver, and only the transitions the lifecycle allows
// (pending → active | rejected, active → retired). The server stays the judge: a forbidden move
// (409), a missing reason (400) or a stale CSRF token (403) comes back and is shown as it is.
import { useState } from 'preact/hooks';
import { apiPost, errorMessage } from '../api/http';
import type { ReasonBody, Session, SkillMoveAnswer, SkillState } from '../../../contract';
import { ErrorMessage, Notice } from '../components/messages';

type Action = 'approve' | 'reject' | 'retire';

const ACTIONS_BY_STATE: Readonly<Record<SkillState, readonly Action[]>> = {
  pending: ['approve', 'reject'],
  active: ['retire'],
  rejected: [],
  retired: [],
};

const LABEL: Readonly<Record<Action, string>> = { approve: 'Approve', reject: 'Reject', retire: 'Retire' };
const DONE: Readonly<Record<Action, string>> = { approve: 'Approved', reject: 'Rejected', retire: 'Retired' };

export function SkillActions({
  skillId,
  state,
  session,
  onChanged,
}: {
  skillId: string;
  state: SkillState;
  session: Session;
  /** Reload the skill (its state and audit log) after any attempt. */
  onChanged: () => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (session.role !== 'approver') {
    return state === 'pending' || state === 'active' ? (
      <p class="muted small" data-testid="viewer-note">
        Signed in as a viewer: only an approver can change this skill.
      </p>
    ) : null;
  }
  const actions = ACTIONS_BY_STATE[state];

  const act = async (action: Action) => {
    setBusy(action);
    setError(null);
    setNotice(null);
    try {
      const body: ReasonBody = { reason };
      const answer = await apiPost<SkillMoveAnswer>(`/api/skills/${encodeURIComponent(skillId)}/${action}`, body);
      setNotice(`${DONE[action]}: ${answer.from} → ${answer.skill.state}`);
      setReason('');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      // the skill may have moved either way (another operator, the CLI): show what is true now
      await onChanged();
      setBusy(null);
    }
  };

  return (
    <section class="card actions" aria-label="approval">
      {actions.length > 0 ? (
        <>
          <label for="reason">Reason (recorded in the audit log)</label>
          <textarea id="reason" data-testid="reason" rows={2} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          <div class="buttons">
            {actions.map((a) => (
              <button
                key={a}
                type="button"
                class={a === 'approve' ? 'primary' : 'danger'}
                data-testid={a}
                disabled={busy !== null}
                onClick={() => act(a)}
              >
                {busy === a ? `${LABEL[a]}…` : LABEL[a]}
              </button>
            ))}
          </div>
        </>
      ) : (
        <p class="muted">A {state} skill has no further transitions.</p>
      )}
      <ErrorMessage message={error} />
      {notice ? <Notice>{notice}</Notice> : null}
    </section>
  );
}
