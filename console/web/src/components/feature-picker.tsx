// Choosing which features the timelines plot: a filter box over every feature of the episode's
// schema, grouped by prefix (robot., command., derived., observed., …), the chosen ones first.
import { useState } from 'preact/hooks';

export function FeaturePicker({
  names,
  selected,
  onChange,
}: {
  names: readonly string[];
  selected: readonly string[];
  onChange: (next: string[]) => void;
}) {
  const [filter, setFilter] = useState('');
  const shown = names.filter((n) => n.toLowerCase().includes(filter.trim().toLowerCase()));
  const groups = new Map<string, string[]>();
  for (const n of shown) {
    const prefix = n.includes('.') ? n.slice(0, n.indexOf('.')) : 'other';
    groups.set(prefix, [...(groups.get(prefix) ?? []), n]);
  }
  const toggle = (name: string, on: boolean) => {
    // keep the schema's order, so the plots do not reshuffle as features come and go
    const next = new Set(selected);
    if (on) next.add(name);
    else next.delete(name);
    onChange(names.filter((n) => next.has(n)));
  };
  return (
    <div class="feature-picker" data-testid="feature-picker">
      <p class="small">
        Plotting{' '}
        {selected.length
          ? selected.map((s) => (
              <code key={s} class="chip">
                {s}
              </code>
            ))
          : 'no feature'}
        {selected.length ? (
          <button type="button" class="link" onClick={() => onChange([])}>
            clear
          </button>
        ) : null}
      </p>
      <input
        type="search"
        placeholder="filter features"
        aria-label="filter features"
        value={filter}
        onInput={(e) => setFilter(e.currentTarget.value)}
      />
      <div class="feature-list">
        {[...groups].map(([prefix, list]) => (
          <fieldset key={prefix}>
            <legend>{prefix}</legend>
            {list.map((n) => (
              <label key={n} class="check">
                <input type="checkbox" value={n} checked={selected.includes(n)} onChange={(e) => toggle(n, e.currentTarget.checked)} />
                {n.slice(prefix === 'other' ? 0 : prefix.length + 1)}
              </label>
            ))}
          </fieldset>
        ))}
      </div>
    </div>
  );
}
