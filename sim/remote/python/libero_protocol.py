"""LIBERO's evaluation protocol as openpi's LIBERO client runs it, and the env wire's layouts for it:
suites and their max steps, wait steps, initial states, the policy's image and state encoding, and
the features the critic gets. Shared by the real backend (libero_backend.py) and the stand-in.
"""
from __future__ import annotations

import logging
from typing import Any

import numpy as np

log = logging.getLogger("zetta_env.libero")

# openpi's LIBERO client (examples/libero/main.py): steps after the wait steps, per suite.
MAX_STEPS = {"libero_spatial": 220, "libero_object": 280, "libero_goal": 300, "libero_10": 520, "libero_90": 400}
STANDARD_SUITES = list(MAX_STEPS)
WAIT_STEPS = 10
INIT_STATES = 50
DUMMY_ACTION = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0]
RENDER_SIZE = 256
IMAGE_SIZE = 224
CONTROL_HZ = 20

CAMERAS = {"observation/image": "agentview", "observation/wrist_image": "robot0_eye_in_hand"}  # wire key -> robosuite camera
OBSERVATION = {
    "observation/image": {"dtype": "|u1", "shape": [IMAGE_SIZE, IMAGE_SIZE, 3]},
    "observation/wrist_image": {"dtype": "|u1", "shape": [IMAGE_SIZE, IMAGE_SIZE, 3]},
    "observation/state": {"dtype": "<f4", "shape": [8]},
}
STATE_ONLY_OBSERVATION = {"observation/state": OBSERVATION["observation/state"]}


def _feature(name: str, unit: str, kind: str, provenance: str, meaning: str) -> dict[str, str]:
    return {"name": name, "unit": unit, "kind": kind, "provenance": provenance, "meaning": meaning}


FEATURES = [
    _feature("observed.gripper_width", "m", "number", "observed", "finger opening, the sum of the two finger joints"),
    _feature("privileged.object_x", "m", "number", "privileged", "object of interest (first in the BDDL), x"),
    _feature("privileged.object_y", "m", "number", "privileged", "object of interest, y"),
    _feature("privileged.object_z", "m", "number", "privileged", "object of interest, z"),
    _feature("privileged.object_lift", "m", "number", "privileged", "object of interest above its height at reset"),
    _feature("privileged.eef_object_dist", "m", "number", "privileged", "end effector to the object of interest"),
    _feature("privileged.target_x", "m", "number", "privileged", "the second object of interest (the first one's target, e.g. the plate), x"),
    _feature("privileged.target_y", "m", "number", "privileged", "the second object of interest, y"),
    _feature("privileged.target_z", "m", "number", "privileged", "the second object of interest, z"),
    _feature("privileged.object_target_dist", "m", "number", "privileged", "object of interest to the second one (its target), in the plane"),
    _feature("privileged.gripper_object_contact", "bool", "boolean", "privileged", "the gripper touches the object of interest"),
    _feature("privileged.goal_progress", "1", "number", "privileged", "fraction of the BDDL goal predicates that hold"),
    _feature("privileged.goal_satisfied", "bool", "boolean", "privileged", "every BDDL goal predicate holds"),
]

# The stand-in's tasks: LIBERO's own names (kinematics are the stand-in's, the same for all).
BUILTIN_SUITES = {
    "libero_spatial": [f"pick_up_the_black_bowl_{where}_and_place_it_on_the_plate" for where in (
        "between_the_plate_and_the_ramekin", "next_to_the_ramekin", "from_table_center", "on_the_cookie_box",
        "in_the_top_drawer_of_the_wooden_cabinet", "on_the_ramekin", "next_to_the_cookie_box", "on_the_stove",
        "next_to_the_plate", "on_the_wooden_cabinet")],
    "libero_object": [f"pick_up_the_{item}_and_place_it_in_the_basket" for item in (
        "alphabet_soup", "cream_cheese", "salad_dressing", "bbq_sauce", "ketchup", "tomato_sauce", "butter", "milk",
        "chocolate_pudding", "orange_juice")],
    "libero_goal": ["open_the_middle_drawer_of_the_cabinet", "put_the_bowl_on_the_stove", "put_the_wine_bottle_on_top_of_the_cabinet",
                    "open_the_top_drawer_and_put_the_bowl_inside", "put_the_bowl_on_top_of_the_cabinet", "push_the_plate_to_the_front_of_the_stove",
                    "put_the_cream_cheese_in_the_bowl", "turn_on_the_stove", "put_the_bowl_on_the_plate", "put_the_wine_bottle_on_the_rack"],
}


def max_steps_for(suite: str) -> int:
    """openpi's value; a LIBERO-Pro suite (e.g. libero_spatial_swap) takes its base suite's."""
    for base in sorted(MAX_STEPS, key=len, reverse=True):
        if suite == base or suite.startswith(base + "_"):
            return MAX_STEPS[base]
    log.warning("no known max steps for suite %s; using 520 (libero_10's)", suite)
    return 520


def to_policy_image(img: np.ndarray) -> np.ndarray:
    """As openpi's LIBERO client: rotate 180 degrees, resize with padding to 224, uint8.

    robosuite's renders come bottom row first (OpenGL's order), so the raw image is upside down; the
    rotation makes it upright (and mirrors it left to right), which is how LIBERO's training images
    were converted for openpi."""
    img = np.ascontiguousarray(img[::-1, ::-1])
    try:
        from openpi_client import image_tools  # the client's own resize, when installed

        return image_tools.convert_to_uint8(image_tools.resize_with_pad(img, IMAGE_SIZE, IMAGE_SIZE))
    except ImportError:
        pass
    try:
        return _resize_with_pad_pil(img, IMAGE_SIZE)
    except ImportError:
        return _resize_with_pad(img, IMAGE_SIZE)


def _resize_with_pad_pil(img: np.ndarray, size: int) -> np.ndarray:
    """openpi_client.image_tools.resize_with_pad's arithmetic with PIL's bilinear filter: scale the
    longer side to `size` (sizes truncated to integers), paste centred on black."""
    from PIL import Image

    h, w = img.shape[:2]
    if (h, w) == (size, size):
        return img.astype(np.uint8, copy=False)
    ratio = max(w / size, h / size)
    nw, nh = int(w / ratio), int(h / ratio)
    canvas = Image.new("RGB", (size, size), 0)
    canvas.paste(Image.fromarray(img.astype(np.uint8, copy=False)).resize((nw, nh), resample=Image.BILINEAR),
                 (max(0, int((size - nw) / 2)), max(0, int((size - nh) / 2))))
    return np.asarray(canvas, dtype=np.uint8)


def _resize_with_pad(img: np.ndarray, size: int) -> np.ndarray:
    """Nearest-neighbour resize keeping the aspect ratio, zero padding (numpy only, when PIL is absent)."""
    h, w = img.shape[:2]
    scale = size / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    rows = np.minimum((np.arange(nh) / scale).astype(int), h - 1)
    cols = np.minimum((np.arange(nw) / scale).astype(int), w - 1)
    out = np.zeros((size, size, img.shape[2]), dtype=np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    out[top : top + nh, left : left + nw] = img[rows][:, cols]
    return out


def quat2axisangle(quat: np.ndarray) -> np.ndarray:
    """robosuite's (x, y, z, w) quaternion to axis-angle, as openpi's client computes it."""
    w = float(np.clip(quat[3], -1.0, 1.0))
    den = np.sqrt(1.0 - w * w)
    if np.isclose(den, 0.0):
        return np.zeros(3)
    return (quat[:3] * 2.0 * np.arccos(w)) / den


def protocol(backend: str, cameras: bool = True, skipped: dict[str, str] | None = None) -> dict[str, Any]:
    """The flat map every eval report repeats. `skipped`: suites the installed LIBERO names but cannot
    build, with the reason (absent when none)."""
    out: dict[str, Any] = {"name": "LIBERO, as openpi's LIBERO client runs it", "wait_steps": WAIT_STEPS, "init_states": INIT_STATES,
                           "init_state_of_seed": "seed mod 50", "backend": backend, "cameras": cameras}
    if cameras:
        out.update({"render_size": RENDER_SIZE, "image_size": IMAGE_SIZE, "image_orientation": "rotated 180 degrees from the raw render"})
    if backend == "libero":
        # env.seed is numpy's global seed; it draws the fixtures' placement (a cabinet, a stove: a few mm),
        # which LIBERO's initial states do not hold. Seeded with the episode seed before every reset.
        out["numpy_seed"] = "the episode seed, before each reset (it places the fixtures)"
    if skipped:
        out["skipped_suites"] = "; ".join(f"{name} ({why})" for name, why in skipped.items())
    return out


def spec_for(suites: dict[str, list[str]], instructions: dict[str, str], backend: str, cameras: bool = True,
             skipped: dict[str, str] | None = None, observation: dict[str, Any] | None = None) -> dict[str, Any]:
    """`observation`: a layout other than the camera / state-only one (the state policy's)."""
    return {
        "name": "libero" if backend == "libero" else "libero-builtin",
        "suites": suites,
        "action_dim": 7,
        "control_hz": CONTROL_HZ,
        "max_steps": {s: max_steps_for(s) for s in suites},
        "observation": observation or (OBSERVATION if cameras else STATE_ONLY_OBSERVATION),
        "features": FEATURES,
        "protocol": protocol(backend, cameras, skipped),
        "instructions": instructions,
    }
