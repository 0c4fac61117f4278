// Feature frames as named fields: `{ eef_x: 0.1, observed: { object_x: 0.2 } }` instead of an unnamed
// array, so a plot in Foxglove reads `/zetta/features.features.observed.object_x`. A dotted name is a
// path of nested objects; a non-finite value is null (JSON has no NaN).

export function featureFields(names: readonly string[], values: ArrayLike<number>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  names.forEach((name, i) => {
    const v = values[i];
    const parts = name.split('.');
    let node = root;
    for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = v !== undefined && Number.isFinite(v) ? v : null;
  });
  return root;
}

/** The values back in `names` order (NaN for a missing or null field). */
export function featureValues(names: readonly string[], fields: Record<string, unknown>): Float64Array {
  return Float64Array.from(names, (name) => {
    let node: unknown = fields;
    for (const p of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[p];
    return typeof node === 'number' ? node : Number.NaN;
  });
}

/** The JSON Schema of the fields, so viewers list every feature by name. */
export function featureFieldsSchema(names: readonly string[]): object {
  const root: { type: 'object'; properties: Record<string, unknown> } = { type: 'object', properties: {} };
  for (const name of names) {
    const parts = name.split('.');
    let node = root;
    for (const p of parts.slice(0, -1)) node = (node.properties[p] ??= { type: 'object', properties: {} }) as typeof root;
    node.properties[parts.at(-1)!] = { type: ['number', 'null'] };
  }
  return root;
}
