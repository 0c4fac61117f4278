"""Demonstrations → training arrays: reads the npz files `zetta demos` wrote (format in
models/demos/README.md) and builds action-chunk labels, as pi0.5-LIBERO is trained: the label of step t
is the expert's actions t .. t+H-1 of the same episode, padded with the episode's last action."""
import hashlib
import json
import os

import numpy as np

FORMAT = "zetta-demos/1"
INPUT_KEYS = ("observation/state", "observation/objects", "observation/task", "observation/step")


def _sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def chunk_labels(actions, starts, lengths, horizon):
    """(N, H, D): for each step, the next `horizon` actions of its own episode."""
    n, d = actions.shape
    out = np.empty((n, horizon, d), dtype=np.float32)
    for s, l in zip(starts, lengths):
        ep = actions[s:s + l]
        # Index k + j, clamped to the episode's last step: the padding repeats the last action.
        idx = np.minimum(np.arange(l)[:, None] + np.arange(horizon)[None, :], l - 1)
        out[s:s + l] = ep[idx]
    return out


def _load_task(path, horizon):
    z = np.load(path)
    if str(z["format"]) != FORMAT:
        raise SystemExit(f"{path}: format {z['format']!s}, expected {FORMAT}")
    ok = z["episode_success"] == 1
    keep = np.zeros(len(z["episode"]), dtype=bool)
    for s, l, good in zip(z["episode_start"], z["episode_length"], ok):
        keep[s:s + l] = good
    chunks = chunk_labels(z["actions"], z["episode_start"], z["episode_length"], horizon)
    arrays = {k: z[k][keep] for k in INPUT_KEYS}
    return arrays, chunks[keep], int(ok.sum()), int((~ok).sum())


def load_demos(directory, horizon):
    """All tasks listed in <directory>/demos.json, concatenated; failed episodes are dropped."""
    with open(os.path.join(directory, "demos.json")) as f:
        manifest = json.load(f)
    inputs = {k: [] for k in INPUT_KEYS}
    labels = []
    distractors = []
    files = {}
    episodes = dropped = 0
    for task, entry in sorted(manifest["tasks"].items()):
        path = os.path.join(directory, entry["file"])
        arrays, chunks, kept, failed = _load_task(path, horizon)
        for k in INPUT_KEYS:
            inputs[k].append(arrays[k])
        labels.append(chunks)
        distractors.append(np.full(len(chunks), _distractor_mask(manifest, task), dtype=np.int64))
        files[entry["file"]] = _sha256(path)
        episodes += kept
        dropped += failed
    data = {k: np.concatenate(v) for k, v in inputs.items()}
    data["distractor_mask"] = np.concatenate(distractors)
    summary = {
        "episodes": episodes, "dropped_failed": dropped, "samples": int(sum(len(c) for c in labels)),
        "noise_std": manifest["noise_std"], "episodes_per_task": manifest["episodes_per_task"],
        "seeds": manifest["seeds"], "files": files,
    }
    return data, np.concatenate(labels), summary


def goal_slot_table(directory, tasks):
    """(tasks, slots) float32: row k marks the object slots that task k's goal or stages name (its
    target object and receptacle), in the one-hot order of `observation/task` (demos.json
    `policy_tasks`); tasks absent from the demonstrations get an all-zero row."""
    with open(os.path.join(directory, "demos.json")) as f:
        manifest = json.load(f)
    order = manifest["policy_tasks"]
    table = np.zeros((tasks, manifest["object_slots"]), dtype=np.float32)
    for task, slots in manifest.get("slots", {}).items():
        k = order.index(task)
        for i, name in enumerate(slots["names"]):
            if name in slots["goal_objects"]:
                table[k, i] = 1.0
    return table


def _distractor_mask(manifest, task):
    """Bit i set when object slot i holds a movable the task's goal never mentions: the expert's
    actions do not depend on where it stands, so training may move it (demos.json `slots`)."""
    slots = manifest.get("slots", {}).get(task)
    if slots is None:
        return 0
    mask = 0
    for i, name in enumerate(slots["names"][:slots["movables"]]):
        if name not in slots["goal_objects"]:
            mask |= 1 << i
    return mask
