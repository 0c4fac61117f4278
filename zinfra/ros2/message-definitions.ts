// ROS 2 message definitions for the recorder: the standard ones from @foxglove/rosmsg-msgs-common
// (Jazzy's, which Humble's match for every type used here), plus control_msgs/GripperCommand, which
// that package does not carry. Gives each type's `ros2msg` schema text (the root definition, then
// every dependency after a `MSG:` separator, as rosbag2 writes it) and a CDR writer.
import type { MessageDefinition } from '@foxglove/message-definition';
import { parse, stringify } from '@foxglove/rosmsg';
import { ros2jazzy } from '@foxglove/rosmsg-msgs-common';
import { MessageWriter } from '@foxglove/rosmsg2-serialization';

const EXTRA: Record<string, MessageDefinition> = {
  'control_msgs/GripperCommand': {
    name: 'control_msgs/GripperCommand',
    definitions: [
      { name: 'position', type: 'float64', isComplex: false, isArray: false },
      { name: 'max_effort', type: 'float64', isComplex: false, isArray: false },
    ],
  },
};

const COMMON = ros2jazzy as unknown as Record<string, MessageDefinition>;

export interface RosMessageCodec {
  /** `pkg/msg/Type`, the schema name rosbag2 writes. */
  readonly schemaName: string;
  readonly schemaText: string;
  readonly writer: MessageWriter;
}

const CODECS = new Map<string, RosMessageCodec>();

/** `pkg/Type` (or `pkg/msg/Type`) → its schema and CDR writer; throws naming an unknown type. */
export function codecFor(type: string): RosMessageCodec {
  const key = type.replace('/msg/', '/');
  let codec = CODECS.get(key);
  if (!codec) {
    const schemaText = stringify(closure(key));
    const [pkg, name] = key.split('/');
    codec = { schemaName: `${pkg}/msg/${name}`, schemaText, writer: new MessageWriter(parse(schemaText, { ros2: true })) };
    CODECS.set(key, codec);
  }
  return codec;
}

/** Whether the recorder can encode this type. */
export function knowsMessageType(type: string): boolean {
  const key = type.replace('/msg/', '/');
  return key in EXTRA || key in COMMON;
}

function closure(root: string): MessageDefinition[] {
  const out: MessageDefinition[] = [];
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const d = EXTRA[name] ?? COMMON[name];
    if (!d) throw new Error(`no message definition for ${name}`);
    out.push(d);
    for (const f of d.definitions) if (f.isComplex) visit(f.type);
  };
  visit(root);
  return out;
}
