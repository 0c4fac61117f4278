// The floor under the ZeroMQ transport: a bare ROUTER in its own process that answers every message
// with the same pre-encoded result, with no decoding, validation, scheduling or inference. What the
// `zmq` row spends above this row is Zetta's own work; what this row spends is libzmq, the kernel
// and the machine. Given an ONNX file as its argument, it also runs that model once per message on a
// fixed observation before it answers: the floor plus the policy's own cost (a model that sat idle
// between requests runs from cold caches), so what the `zmq` row spends above that row is Zetta's
// code alone: decoding, validation, scheduling, encoding.
import { Router } from 'zeromq';
import { OnnxPolicy } from '../zinfra/policy/onnx/onnx-policy.js';
import { encodeMessage } from '../protocol/messages.js';
import { f32 } from '../protocol/ndarray.js';
import { liberoObservation } from './libero-observation.js';

/** A reply the size of a real (10, 7) result. */
function cannedResult(): Buffer {
  return encodeMessage({
    type: 'result',
    id: 1,
    actions: f32([10, 7], new Float32Array(70).fill(0.25)),
    policy_timing: { infer_ms: 0.1 },
    server_timing: { queue_ms: 0, total_ms: 0.2, batch_size: 1 },
  });
}

if (process.send) {
  const socket = new Router({ linger: 0, sendHighWaterMark: 0 });
  await socket.bind('tcp://127.0.0.1:0');
  const reply = cannedResult();
  const modelPath = process.argv[2];
  const policy = modelPath ? await OnnxPolicy.load(modelPath) : undefined;
  const batch = policy ? [liberoObservation()] : [];
  process.send({ endpoint: socket.lastEndpoint });
  process.on('disconnect', () => socket.close());
  try {
    for await (const [identity] of socket) {
      if (policy) await policy.infer(batch);
      await socket.send([identity!, reply]);
    }
  } catch {
    // closed on disconnect
  }
}
