// A tiny XML tree for MJCF. The scene is built as data, validated as data (mjcf/validate.ts), and
// only then serialized, so a mistake is found with a name attached rather than by MuJoCo's parser.

export type AttrValue = string | number | boolean | readonly number[];

export interface XmlNode {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, AttrValue>>;
  readonly children: readonly XmlNode[];
}

export function el(tag: string, attrs: Record<string, AttrValue | undefined> = {}, children: readonly XmlNode[] = []): XmlNode {
  const clean: Record<string, AttrValue> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) clean[k] = v;
  return { tag, attrs: clean, children };
}

/** Numbers are printed with full precision: the XML text is part of the reset digest. */
export function formatAttr(value: AttrValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return formatNumber(value);
  return value.map(formatNumber).join(' ');
}

function formatNumber(n: number): string {
  return Object.is(n, -0) ? '0' : String(n);
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function serialize(node: XmlNode, indent = ''): string {
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeAttr(formatAttr(v))}"`)
    .join('');
  if (node.children.length === 0) return `${indent}<${node.tag}${attrs}/>`;
  const inner = node.children.map((c) => serialize(c, `${indent}  `)).join('\n');
  return `${indent}<${node.tag}${attrs}>\n${inner}\n${indent}</${node.tag}>`;
}
