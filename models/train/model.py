"""The embedded base policy: one multi-task residual MLP over the four policy inputs.

- Normalization statistics are buffers, so the exported ONNX graph takes raw observations.
- Object positions are also given relative to the hand (objects − eef). (Dropping the absolute
  object positions, keeping only relative ones, was tried and generalized worse.) A small
  attention over
  the object slots, queried by the task and the robot state, points the trunk at the object that
  matters now: "move to the thing" is the whole job, and a plain MLP has to discover which slot is
  the thing from 50 layouts per task.
- Several candidate chunks (modes) with a mode classifier, trained winner-takes-all: where the
  observation cannot tell two situations apart (above the button, before or after pressing it) a
  single regression head averages "go down" and "go away" into standing still; picking one mode
  commits to one of them. The episode step is an input too, the only memory a reactive policy has.
- Motion (6 dims per step) is regressed; the gripper is a per-step open/close decision (logit),
  emitted as exactly −1 or +1 like the expert's labels: the expert never half-closes the gripper."""
import torch
from torch import nn

STATE_DIM, OBJECT_SLOTS, POSE_DIM, ACTION_DIM = 8, 6, 7, 7
MOTION_DIM = ACTION_DIM - 1


def relative_positions(state, objects):
    """(B, slots·3): each object slot's position minus the end-effector position."""
    pos = objects.reshape(-1, OBJECT_SLOTS, POSE_DIM)[:, :, :3]
    return (pos - state[:, None, :3]).reshape(-1, OBJECT_SLOTS * 3)


class Normalizer(nn.Module):
    """(x − mean) / std with statistics frozen from the training data (std floored: padded
    object slots are constant zero)."""

    def __init__(self, dim):
        super().__init__()
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("std", torch.ones(dim))

    def fit(self, x, floor=1e-3):
        self.mean.copy_(x.mean(0))
        self.std.copy_(x.std(0).clamp_min(floor))

    def forward(self, x):
        return (x - self.mean) / self.std


class SlotPointer(nn.Module):
    """Multi-head attention over the object slots; the query comes from task, robot state and step."""

    def __init__(self, tasks, absolute, heads=4, key_dim=16, value_dim=16):
        super().__init__()
        self.heads, self.key_dim = heads, key_dim
        slot_in = POSE_DIM + 3 + OBJECT_SLOTS if absolute else 4 + 3 + OBJECT_SLOTS  # pose or orientation, relative position, slot id
        self.register_buffer("slot_ids", torch.eye(OBJECT_SLOTS))
        self.query = nn.Sequential(nn.Linear(tasks + STATE_DIM + 1, 64), nn.GELU(), nn.Linear(64, heads * key_dim))
        self.key = nn.Linear(slot_in, heads * key_dim)
        self.value = nn.Linear(slot_in, heads * value_dim)
        self.out_dim = heads * (value_dim + 3)

    def forward(self, state_n, objects_n, relative_n, task, step_n):
        b = state_n.shape[0]
        rel = relative_n.reshape(b, OBJECT_SLOTS, 3)
        slots = torch.cat([objects_n.reshape(b, OBJECT_SLOTS, -1), rel, self.slot_ids.expand(b, -1, -1)], dim=2)
        q = self.query(torch.cat([task, state_n, step_n], dim=1)).reshape(b, self.heads, 1, self.key_dim)
        k = self.key(slots).reshape(b, OBJECT_SLOTS, self.heads, self.key_dim).transpose(1, 2)
        v = self.value(slots).reshape(b, OBJECT_SLOTS, self.heads, -1).transpose(1, 2)
        w = torch.softmax((q * k).sum(-1) / self.key_dim ** 0.5, dim=-1)  # (B, heads, slots)
        pointed_rel = torch.einsum("bhs,bsc->bhc", w, rel)
        pointed_val = torch.einsum("bhs,bhsc->bhc", w, v)
        return torch.cat([pointed_rel, pointed_val], dim=2).reshape(b, -1)


class ResidualBlock(nn.Module):
    def __init__(self, width, dropout):
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(width), nn.Linear(width, width), nn.GELU(), nn.Dropout(dropout), nn.Linear(width, width))

    def forward(self, x):
        return x + self.net(x)


class BCPolicy(nn.Module):
    def __init__(self, tasks, horizon=10, width=256, blocks=4, dropout=0.0, modes=1, pointer=True, absolute_objects=True, goal_slots=None):
        super().__init__()
        self.horizon, self.modes, self.absolute_objects = horizon, modes, absolute_objects
        # Optional (tasks, slots) table of the slots each task's goal names: their hand-relative
        # positions are an extra input, the non-goal slots zeroed, so the trunk is told directly
        # where the named object is instead of finding it from the one-hot and the layout.
        self.goal_slots = goal_slots is not None
        if self.goal_slots:
            self.register_buffer("goal_table", torch.as_tensor(goal_slots, dtype=torch.float32))
        self.norm_state = Normalizer(STATE_DIM)
        self.norm_objects = Normalizer(OBJECT_SLOTS * POSE_DIM)
        self.norm_relative = Normalizer(OBJECT_SLOTS * 3)
        self.norm_step = Normalizer(1)
        self.pointer = SlotPointer(tasks, absolute_objects) if pointer else None
        object_dim = OBJECT_SLOTS * (POSE_DIM if absolute_objects else 4)
        inputs = STATE_DIM + object_dim + OBJECT_SLOTS * 3 + tasks + 1 + (self.pointer.out_dim if pointer else 0)
        inputs += OBJECT_SLOTS * 3 if self.goal_slots else 0
        self.stem = nn.Linear(inputs, width)
        self.blocks = nn.Sequential(*[ResidualBlock(width, dropout) for _ in range(blocks)])
        self.head_norm = nn.LayerNorm(width)
        self.motion = nn.Linear(width, modes * horizon * MOTION_DIM)
        self.grip = nn.Linear(width, modes * horizon)
        self.mode = nn.Linear(width, modes)

    def fit_normalizers(self, state, objects, step):
        self.norm_state.fit(state)
        self.norm_step.fit(step)
        self.norm_objects.fit(objects)
        self.norm_relative.fit(relative_positions(state, objects))

    def forward(self, state, objects, task, step):
        """Training view: motion (B, M, H, 6), gripper logits (B, M, H) (> 0 means close) and mode
        logits (B, M), for M candidate chunks."""
        s, o = self.norm_state(state), self.norm_objects(objects)
        if not self.absolute_objects:
            o = o.reshape(-1, OBJECT_SLOTS, POSE_DIM)[:, :, 3:].reshape(-1, OBJECT_SLOTS * 4)
        r = self.norm_relative(relative_positions(state, objects))
        t = self.norm_step(step)
        parts = [s, o, r, task, t] + ([self.pointer(s, o, r, task, t)] if self.pointer is not None else [])
        if self.goal_slots:
            named = task @ self.goal_table  # (B, slots): 1 where the task names the slot's object
            parts.append((r.reshape(-1, OBJECT_SLOTS, 3) * named[:, :, None]).reshape(-1, OBJECT_SLOTS * 3))
        h = self.head_norm(self.blocks(self.stem(torch.cat(parts, dim=1))))
        m, hz = self.modes, self.horizon
        return self.motion(h).reshape(-1, m, hz, MOTION_DIM), self.grip(h).reshape(-1, m, hz), self.mode(h)


class ExportedPolicy(nn.Module):
    """Deployment view: the most likely mode's chunk, actions (B, H, 7), gripper exactly ±1."""

    def __init__(self, policy):
        super().__init__()
        self.policy = policy

    def forward(self, state, objects, task, step):
        motion, grip, mode = self.policy(state, objects, task, step)
        best = mode.argmax(dim=1)
        motion = torch.gather(motion, 1, best[:, None, None, None].expand(-1, 1, motion.shape[2], motion.shape[3]))[:, 0]
        grip = torch.gather(grip, 1, best[:, None, None].expand(-1, 1, grip.shape[2]))[:, 0]
        one = torch.ones_like(grip)
        gripper = torch.where(grip > 0, one, -one)
        return torch.cat([motion, gripper[:, :, None]], dim=2)
