// Every feature a bundle's files read. The files name features as plain strings (a rule's
// `feature`, a program's `until`, a tool parameter such as a point's `x`), so instead of knowing
// every place a name may sit, any string that is a feature of the bundle's own world counts: the
// bundle loaded against that world, so each name it reads is one of them.

export function featuresRead(files: readonly unknown[], worldFeatures: readonly string[]): string[] {
  const known = new Set(worldFeatures);
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (known.has(v)) found.add(v);
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk);
  };
  files.forEach(walk);
  return [...found].sort();
}
