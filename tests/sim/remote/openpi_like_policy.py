"""A `module:` backend for Zetta's Python policy shim that checks each observation the way π0.5's
LIBERO policy reads it (openpi's keys, dtypes and shapes, a prompt) and answers a (10, 7) chunk that
does nothing but keep the gripper open. Stands in for `openpi:pi05_libero:...` in tests."""
import numpy as np

EXPECTED = {"observation/image": ((224, 224, 3), np.uint8), "observation/wrist_image": ((224, 224, 3), np.uint8), "observation/state": ((8,), np.float32)}


class OpenpiLike:
    metadata = {"action_horizon": 10, "action_dim": 7, "policy_id": "openpi-like", "observation_keys": [*EXPECTED, "prompt"]}

    def validate(self, obs):
        for key, (shape, dtype) in EXPECTED.items():
            if obs[key].shape != shape or obs[key].dtype != dtype:
                raise ValueError(f"{key}: {obs[key].dtype} {obs[key].shape}, expected {np.dtype(dtype)} {shape}")
        if not isinstance(obs["prompt"], str) or not obs["prompt"]:
            raise ValueError("prompt must be a non-empty string")

    def infer(self, batch):
        chunk = np.zeros((10, 7), dtype=np.float32)
        chunk[:, 6] = -1.0
        return [chunk for _ in batch]


def factory():
    return OpenpiLike()
