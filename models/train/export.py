"""ONNX export in the layout zinfra/policy/onnx/onnx-policy.ts loads: inputs named after the observation
keys they read, a dynamic batch axis, output `actions` [batch, H, 7], and metadata_props."""
import hashlib

import onnx
import torch

from data import INPUT_KEYS
from model import ExportedPolicy

OPSET = 17
POLICY_ID = "embedded-bc"


def export_onnx(policy, tasks, path, version_prefix="bc-v1"):
    """Writes the model and returns its model_version (a prefix of the graph's own SHA-256, so the
    version changes exactly when the weights or the graph do)."""
    policy.eval()
    wrapper = ExportedPolicy(policy).eval()
    dummy = (torch.zeros(1, 8), torch.zeros(1, 42), torch.zeros(1, tasks), torch.zeros(1, 1))
    torch.onnx.export(
        wrapper, dummy, path, input_names=list(INPUT_KEYS), output_names=["actions"],
        dynamic_axes={**{k: {0: "batch"} for k in INPUT_KEYS}, "actions": {0: "batch"}},
        opset_version=OPSET, do_constant_folding=True)
    model = onnx.load(path)
    digest = hashlib.sha256(model.SerializeToString()).hexdigest()
    version = f"{version_prefix}-{digest[:12]}"
    props = {"policy_id": POLICY_ID, "horizon": str(policy.horizon), "action_dim": "7", "model_version": version}
    for key, value in props.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, path)
    return version
