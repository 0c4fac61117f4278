"""The perturbation the real LIBERO backend applies itself: a LIBERO-Pro-style position swap. After the
initial state is set and before the wait steps, the object of interest (the BDDL's first; libero_spatial's
black bowl) trades its whole pose with another object of the same category in the scene (libero_spatial's
other black bowl). Two identical objects trading places leave a scene as physically valid as the saved
one (each stands where an identical object stood at rest); the instruction and the goal still name the
first one, so "the bowl next to the ramekin" is now elsewhere.

Anything else a perturbation map asks for (a shift, object changes, distractors, sensor noise) is refused
with UNSUPPORTED_PERTURBATION, as is a swap in a scene with no second object of that category.
"""
from __future__ import annotations

from typing import Any

from zetta_env_wire import EnvError

SUPPORTED = "position.swap"


def _asked(perturbation: dict[str, Any] | None) -> list[str]:
    """The map's settings that ask for something, as dotted names (`position.swap`, `position.shift_m`)."""
    out: list[str] = []
    for key, value in (perturbation or {}).items():
        if key == "name" or value in (None, {}, [], 0, False):
            continue
        if isinstance(value, dict):
            out.extend(f"{key}.{k}" for k, v in value.items() if v not in (None, {}, [], 0, False))
        else:
            out.append(key)
    return sorted(out)


def wants_swap(perturbation: dict[str, Any] | None) -> bool:
    """True for a swap; False for none; refuses anything this backend cannot apply."""
    asked = _asked(perturbation)
    unsupported = [a for a in asked if a != SUPPORTED]
    if unsupported:
        raise EnvError("UNSUPPORTED_PERTURBATION", f"the LIBERO backend applies only {SUPPORTED} (the object of interest trades places "
                       f"with an identical object); this map sets {', '.join(unsupported)}. Other perturbed LIBERO is LIBERO-Pro's "
                       "suites, served when its fork of the libero package is installed")
    return SUPPORTED in asked


def swap_partner(inner: Any) -> tuple[str, str]:
    """The object of interest and the other object of its category, or refuse."""
    interest = [n for n in (getattr(inner, "obj_of_interest", []) or []) if n in inner.objects_dict]
    if not interest:
        raise EnvError("UNSUPPORTED_PERTURBATION", "position swap: the task's object of interest is not a movable object")
    first = interest[0]
    category = inner.objects_dict[first].category_name
    same = [n for n, o in inner.objects_dict.items() if n != first and o.category_name == category]
    if not same:
        raise EnvError("UNSUPPORTED_PERTURBATION", f"position swap: no other {category} in this scene to trade places with")
    return first, same[0]


def swap_positions(inner: Any) -> tuple[str, str]:
    """Trades the two objects' free-joint poses (position and orientation) and zeroes their velocities."""
    a, b = swap_partner(inner)
    sim = inner.sim
    ja, jb = inner.objects_dict[a].joints[0], inner.objects_dict[b].joints[0]
    qa, qb = sim.data.get_joint_qpos(ja).copy(), sim.data.get_joint_qpos(jb).copy()
    sim.data.set_joint_qpos(ja, qb)
    sim.data.set_joint_qpos(jb, qa)
    sim.data.set_joint_qvel(ja, 0 * sim.data.get_joint_qvel(ja))
    sim.data.set_joint_qvel(jb, 0 * sim.data.get_joint_qvel(jb))
    sim.forward()
    return a, b
