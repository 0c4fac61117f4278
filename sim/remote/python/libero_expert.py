"""A scripted expert for LIBERO's libero_spatial suite ("pick up the black bowl ... and place it on
the plate"), driven by privileged simulator poses: the bowl's and the plate's positions.

Its inputs are what a state-based policy given privileged poses would see: the 8-D state (eef
position, eef axis-angle, two finger joints) and the features `privileged.object_{x,y,z}` (the
bowl, LIBERO's first object of interest) and `privileged.target_{x,y,z}` (the plate, the second).
Its output is LIBERO's 7-D OSC_POSE delta action: position deltas in [-1, 1] (robosuite scales them
by 0.05 m), rotation deltas 0 but a turn about the vertical where a layout needs the fingers along
another axis (the gripper otherwise keeps its reset orientation, pointing down, fingers opening along
the world y axis), gripper -1 open / +1 close (0, hold, only to keep the fingers half open).

The bowl (akita_black_bowl, scaled 0.7) is wider (about 0.107 m across its rim) than the Panda's
fingers open (0.078 m), so it is grasped at its rim: the gripper centred on the rim wall at
RIM_RADIUS from the bowl's centre, one finger inside the bowl and one outside. The numbers below were
measured in the real scene (the bowl's collision geoms, the finger pads at reset).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

# Bowl geometry, relative to its body position (measured: the wall's geoms 0.042..0.054 m from the
# centre, slanting outwards, 0.015..0.052 m above the body origin; the floor's up to 0.0165 m). The
# finger pads reach from 0.005 m below the grip site to 0.012 m above it: at GRASP_DZ they cover
# 0.030..0.047 m of the wall and the inner finger stays clear of the floor.
RIM_RADIUS = 0.047
GRASP_DZ = 0.035          # eef (grip site) above the bowl's origin when closing: pads on the wall, above the floor
HOVER_DZ = 0.10           # above the grasp height while lining up, clear of the rim and neighbours
CARRY_CLEARANCE = 0.12    # the bowl's origin above the higher of bowl / plate while carrying
PLACE_DZ = 0.025          # the bowl's origin above the plate's when the gripper opens
POS_SCALE = 0.05          # robosuite's OSC_POSE output_max for position: metres per unit action
LIFTED_DZ = 0.03          # the bowl counts as lifted this far above where it started
CLOSE_MAX_STEPS = 20      # the fingers need about 10 steps to close on the rim
ROT_SCALE = 0.5           # robosuite's OSC_POSE output_max for rotation: radians per unit action
# robosuite's Panda gripper command: each -1 / +1 action moves it 0.25 towards open (-1) / closed (+1),
# 0 holds it; the fingers follow in a few steps. Measured: 4 closing steps from open hold the fingers
# at about 0.041 m apart (fully open 0.078), which keeps the outer finger about 2 cm nearer the rim
# while the gripper goes down around it, and still leaves 2 cm either side of the rim wall.
GRIP_SPEED = 0.25
GRIP_OPEN, GRIP_PRESHAPE, GRIP_CLOSED = -1.0, 0.0, 1.0
GAIN = 1.0                # action = GAIN * error / POS_SCALE, clipped: proportional, saturating far away

INPUT_FEATURES = ("privileged.object_x", "privileged.object_y", "privileged.object_z",
                  "privileged.target_x", "privileged.target_y", "privileged.target_z")

# The side of the rim with room for the outer finger, per libero_spatial layout (a phrase of the
# instruction -> the grasp angle). Tried in the real scenes: the default -y side lands the outer finger
# on the ramekin next to the ramekin, and against the wooden cabinet near it (table centre, next to the
# cookie box, on top of the cabinet, whose far side is also out of the arm's reach). In the open top
# drawer (inner walls about 0.10 / 0.08 m from the bowl's centre along the drawer's axes, its x axis at
# a world yaw of 2.71 rad) both y sides meet the drawer's front wall or the cabinet's front edge: the
# fingers turn to the drawer's x axis and grasp the rim on the side away from the robot (the other
# side wall is nearer the bowl).
GRASP_ANGLES = {
    "next to the ramekin": np.pi / 2,
    "from table center": np.pi / 2,
    "next to the cookie box": np.pi / 2,
    "on the wooden cabinet": np.pi / 2,
    "top drawer": 2.71 - np.pi,
}
DEFAULT_GRASP_ANGLE = -np.pi / 2


def grasp_angle_for(instruction: str) -> float:
    text = instruction.lower().replace("_", " ")
    return next((a for phrase, a in GRASP_ANGLES.items() if phrase in text), DEFAULT_GRASP_ANGLE)


PHASES = ("approach", "descend", "close", "lift", "carry", "lower", "release", "retreat")


@dataclass
class Poses:
    """The expert's inputs at one step."""

    eef: np.ndarray        # (3,) end-effector position
    gripper: np.ndarray    # (2,) finger joints
    bowl: np.ndarray       # (3,) object of interest
    plate: np.ndarray      # (3,) its target

    @property
    def width(self) -> float:
        return float(abs(self.gripper[0]) + abs(self.gripper[1]))

    @staticmethod
    def from_inputs(state: np.ndarray, features: dict[str, float]) -> Poses:
        vals = np.array([float(features[name]) for name in INPUT_FEATURES], dtype=np.float64)
        state = np.asarray(state, dtype=np.float64)
        return Poses(eef=state[:3], gripper=state[6:8], bowl=vals[:3], plate=vals[3:])


@dataclass
class BowlExpert:
    """A phase machine: each phase is an eef target and a gripper command, left when the target is
    reached (or the motion stalls, or the fingers settle)."""

    grasp_angle: float = DEFAULT_GRASP_ANGLE  # where on the rim, seen from the bowl's centre (world yaw)
    phase: str = "approach"
    steps_in_phase: int = 0
    carry_z: float = 0.0
    bowl_start_z: float | None = None     # the bowl's height when the episode began (a failed lift leaves it there)
    grip_command: float = GRIP_OPEN       # robosuite's gripper command, as this expert's own actions have moved it
    last_width: float = 0.0               # finger opening at the previous step (the close phase waits for it to settle)
    last_eef: np.ndarray = field(default_factory=lambda: np.zeros(3))
    retries: int = 0

    def reset(self, instruction: str = "") -> None:
        """A new episode; the instruction (the policy's prompt) picks the layout's free side of the rim."""
        self.grasp_angle = grasp_angle_for(instruction)
        self.phase, self.steps_in_phase = "approach", 0
        self.carry_z = 0.0
        self.bowl_start_z = None
        self.grip_command = GRIP_OPEN  # the protocol's wait steps leave the fingers open
        self.last_width = 0.0
        self.last_eef = np.zeros(3)
        self.retries = 0

    def act(self, state: np.ndarray, features: dict[str, float]) -> np.ndarray:
        p = Poses.from_inputs(state, features)
        if self.bowl_start_z is None:
            self.bowl_start_z = float(p.bowl[2])
        target, grip, done = self._plan(p)
        if done:
            self._advance(p)
            target, grip, _ = self._plan(p)
        self.steps_in_phase += 1
        self.last_width, self.last_eef = p.width, p.eef.copy()
        action = np.zeros(7, dtype=np.float32)
        action[:3] = np.clip(GAIN * (target - p.eef) / POS_SCALE, -1.0, 1.0)
        action[5] = np.clip(_yaw_error(state, self.grasp_angle) / ROT_SCALE, -1.0, 1.0)
        action[6] = self._grip_action(grip)
        return action

    def _grip_action(self, level: float) -> float:
        """-1 / +1 move robosuite's gripper command a step towards open / closed; 0 holds it (used only
        to hold the fingers half open). Saturated at either end, the command stays -1 or +1."""
        if level >= GRIP_CLOSED or level <= GRIP_OPEN or abs(level - self.grip_command) > 1e-6:
            step = 1.0 if level > self.grip_command or level >= GRIP_CLOSED else -1.0
            self.grip_command = float(np.clip(self.grip_command + step * GRIP_SPEED, GRIP_OPEN, GRIP_CLOSED))
            return step
        return 0.0

    def _advance(self, p: Poses) -> None:
        i = PHASES.index(self.phase)
        self.phase = PHASES[min(i + 1, len(PHASES) - 1)]
        # The bowl stayed behind (missed or slipped while lifting): line up again.
        if self.phase == "carry" and p.bowl[2] - (self.bowl_start_z or 0.0) < LIFTED_DZ:
            self.phase = "approach"
            self.retries += 1
        self.steps_in_phase = 0

    def _grasp_point(self, p: Poses) -> np.ndarray:
        u = np.array([np.cos(self.grasp_angle), np.sin(self.grasp_angle), 0.0])
        return p.bowl + RIM_RADIUS * u + np.array([0.0, 0.0, GRASP_DZ])

    def _stalled(self, p: Poses) -> bool:
        return self.steps_in_phase >= 8 and _near(p.eef, self.last_eef, 0.0005)

    def _plan(self, p: Poses) -> tuple[np.ndarray, float, bool]:
        """(eef target, gripper level, phase finished) for the current phase."""
        grasp = self._grasp_point(p)
        n = self.steps_in_phase
        if self.phase == "approach":
            target = grasp + np.array([0.0, 0.0, HOVER_DZ])
            return target, GRIP_PRESHAPE, _near(p.eef[:2], target[:2], 0.005) and _near(p.eef[2:], target[2:], 0.03)
        if self.phase == "descend":
            return grasp, GRIP_PRESHAPE, _near(p.eef, grasp, 0.006) or self._stalled(p)
        if self.phase == "close":  # until the fingers stop (on the wall, or shut on nothing)
            return grasp, GRIP_CLOSED, n >= CLOSE_MAX_STEPS or (n >= 6 and abs(p.width - self.last_width) < 0.0003)
        if self.phase == "lift":
            if n == 0:
                self.carry_z = max(p.bowl[2], p.plate[2]) + CARRY_CLEARANCE + (p.eef[2] - p.bowl[2])
            target = np.array([p.eef[0], p.eef[1], self.carry_z])
            return target, GRIP_CLOSED, p.eef[2] > self.carry_z - 0.02
        held = p.eef - p.bowl  # where the bowl hangs now (it may have swung since the grasp)
        above_plate = np.array([p.plate[0] + held[0], p.plate[1] + held[1], self.carry_z])
        if self.phase == "carry":
            return above_plate, GRIP_CLOSED, _near(p.bowl[:2], p.plate[:2], 0.008)
        if self.phase == "lower":
            target = np.array([above_plate[0], above_plate[1], p.plate[2] + PLACE_DZ + held[2]])
            return target, GRIP_CLOSED, p.bowl[2] < p.plate[2] + PLACE_DZ + 0.005 or self._stalled(p)
        if self.phase == "release":
            return p.eef.copy(), GRIP_OPEN, self.grip_command <= GRIP_OPEN and n >= 4
        return np.array([p.eef[0], p.eef[1], self.carry_z]), GRIP_OPEN, False


def _yaw_error(state: np.ndarray, angle: float) -> float:
    """How far (about world z) the fingers' opening axis is from `angle`, folded into [-pi/2, pi/2]
    (the two fingers are alike). The axis is the end effector's y axis (measured at reset: along world y)."""
    rotvec = np.asarray(state[3:6], dtype=np.float64)
    theta = float(np.linalg.norm(rotvec))
    if theta < 1e-9:
        axis_y = np.array([0.0, 1.0, 0.0])
    else:
        k = rotvec / theta
        kx = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
        axis_y = (np.eye(3) + np.sin(theta) * kx + (1 - np.cos(theta)) * kx @ kx)[:, 1]
    err = angle - float(np.arctan2(axis_y[1], axis_y[0]))
    return float((err + np.pi / 2) % np.pi - np.pi / 2)


def _near(a: np.ndarray, b: np.ndarray, tol: float) -> bool:
    return bool(np.linalg.norm(np.asarray(a) - np.asarray(b)) < tol)
