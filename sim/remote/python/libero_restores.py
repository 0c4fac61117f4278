"""The restore programs the LIBERO server offers evolution (the spec's `restores`), in the critic's
recoveries format. They restore; the policy completes: each puts the hand back where the policy can
act (open, clear of what it touched, above the object of interest as the policy observes it) and
hands back. None grasps, carries or releases: a program that did would solve tasks for a policy that
does nothing, and the critic-alone arm would show it.

They read only the state policy's observed features (libero_state_obs.OBSERVED_FEATURES), so the
server declares them with --state-policy only. Heights are LIBERO's: the hand rises by steps, not to
a fixed z, because a bowl may stand on the table (z 0.90 m) or on a cabinet (1.13 m).
"""
from __future__ import annotations

from typing import Any

OBJECT = {"x": "observed.object_x", "y": "observed.object_y", "z": "observed.object_z"}
OPEN_WIDTH = 0.07  # LIBERO's Panda fingers open to 0.079 m in all
REENTRY = {"stable_steps": 2, "max_speed": 0.2, "max_width_rate": 0.0005}


def _above_object(rid: str, height: float, hand_back: dict[str, Any], where: str) -> dict[str, Any]:
    summary = f"open, rise, re-centre {height * 100:.0f} cm above the object of interest as observed, hand back{where}"
    return {
        "id": rid,
        "summary": summary,
        "stages": ["reached", "grasped", "lifted"],
        "program": {
            "budget": 80,
            "reentry": REENTRY,
            "description": summary,
            "steps": [
                {"tool": "open_gripper", "budget": 8, "fallback": "skip",
                 "until": {"op": "ge", "feature": "derived.gripper_width", "value": OPEN_WIDTH}},
                {"tool": "lift", "params": {"speed": 0.6, "gripper": "open"}, "budget": 4, "fallback": "skip"},
                {"tool": "move_above", "params": {"point": OBJECT, "height": height, "speed": 0.7, "xy_tol": 0.01, "gripper": "open", "gain": 0.3},
                 "budget": 40, "until": hand_back},
            ],
        },
    }


CENTRED = {"op": "lt", "feature": "observed.object_eef_dist_xy", "value": 0.015}
CENTRED_AND_LOW = {"op": "and", "args": [CENTRED, {"op": "lt", "feature": "observed.object_eef_dist", "value": 0.08}]}

RESTORES = [
    _above_object("restore_above_object", 0.10, CENTRED, ""),
    _above_object("restore_low_above_object", 0.06, CENTRED_AND_LOW, " once within 8 cm of it"),
]
