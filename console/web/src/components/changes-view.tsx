// A skill's change against its campaign's base bundle (skills/changes.ts): rules and recovery
// programs added, replaced or removed, each written out in words, with the raw entry on demand, and
// the control options it sets (a lag answer is a mechanism too).
import type { BundleEntry, EntryChanges, SkillChanges } from '../../../contract';
import { shortSha } from './format';
import { programLines, ruleLines } from './rule-text';

export function ChangesView({ changes }: { changes: SkillChanges }) {
  const options = Object.entries(changes.options ?? {});
  const empty = count(changes.rules) + count(changes.programs) + options.length === 0;
  return (
    <div class="changes">
      <p class="muted">
        Against the bundle <code>{changes.base.name}</code> ({shortSha(changes.base.sha256)}).
      </p>
      {empty ? <p>No behavioural change.</p> : null}
      <EntryList title="Rules" changes={changes.rules} describe={ruleLines} />
      <EntryList title="Recovery programs" changes={changes.programs} describe={programLines} />
      {options.length > 0 ? (
        <section>
          <h4>Control options</h4>
          <ul class="diff">
            {options.map(([key, value]) => (
              <li key={`o:${key}`} class={value === null ? 'diff-removed' : 'diff-replaced'}>
                <span class={`badge ${value === null ? 'removed' : 'replaced'}`}>{value === null ? 'off' : 'set'}</span> <code>{key}</code>
                {value === null ? null : <code> = {JSON.stringify(value)}</code>}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function count(c: EntryChanges): number {
  return c.added.length + c.replaced.length + c.removed.length;
}

function EntryList({ title, changes, describe }: { title: string; changes: EntryChanges; describe: (e: BundleEntry) => string[] }) {
  if (count(changes) === 0) return null;
  return (
    <section>
      <h4>{title}</h4>
      <ul class="diff">
        {changes.added.map((e) => (
          <Entry key={`a:${e.id}`} kind="added" entry={e} lines={describe(e)} />
        ))}
        {changes.replaced.map((e) => (
          <Entry key={`r:${e.id}`} kind="replaced" entry={e} lines={describe(e)} />
        ))}
        {changes.removed.map((id) => (
          <li key={`x:${id}`} class="diff-removed">
            <span class="badge removed">removed</span> <code>{id}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Entry({ kind, entry, lines }: { kind: 'added' | 'replaced'; entry: BundleEntry; lines: string[] }) {
  return (
    <li class={`diff-${kind}`}>
      <span class={`badge ${kind}`}>{kind}</span> <code>{entry.id}</code>
      <ul class="plain">
        {lines.map((l, i) => (
          <li key={i}>{l}</li>
        ))}
      </ul>
      <details>
        <summary>JSON</summary>
        <pre>{JSON.stringify(entry, null, 2)}</pre>
      </details>
    </li>
  );
}
