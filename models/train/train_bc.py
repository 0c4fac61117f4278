#!/usr/bin/python3
"""Behaviour cloning of the embedded base policy from `zetta demos` output, exported to ONNX.

Run with Debian's interpreter (python3-torch, python3-numpy, python3-onnx), from the repository root:
  /usr/bin/python3 models/train/train_bc.py --demos runs/demos --out models/embedded-bc.onnx
Everything random is seeded; the same demos and flags give the same weights on the same machine."""
import argparse
import json
import os
import platform
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from data import INPUT_KEYS, goal_slot_table, load_demos  # noqa: E402
from export import OPSET, export_onnx  # noqa: E402
from model import BCPolicy, MOTION_DIM, OBJECT_SLOTS  # noqa: E402


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--demos", required=True, help="folder written by `zetta demos` (holds demos.json)")
    p.add_argument("--out", default="models/embedded-bc.onnx")
    p.add_argument("--horizon", type=int, default=10)
    p.add_argument("--width", type=int, default=256)
    p.add_argument("--blocks", type=int, default=4)
    p.add_argument("--dropout", type=float, default=0.0)
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=1e-4)
    p.add_argument("--grip-weight", type=float, default=0.2, help="weight of the gripper BCE term")
    p.add_argument("--modes", type=int, default=3, help="candidate chunks (1 = plain regression)")
    p.add_argument("--wta-others", type=float, default=0.05, help="weight of the losing modes' error")
    p.add_argument("--mode-weight", type=float, default=0.05, help="weight of the mode classifier's loss")
    p.add_argument("--no-pointer", action="store_true", help="no attention over object slots")
    p.add_argument("--relative-only", action="store_true", help="object positions only relative to the hand")
    p.add_argument("--goal-slots", type=int, default=0,
                   help="1: the hand-relative positions of the slots the task's goal names are an extra input (table from demos.json)")
    p.add_argument("--shuffle-distractors", type=int, default=1,
                   help="1: each sample's distractor objects trade places at random (the expert ignores them)")
    p.add_argument("--shift", type=float, default=0.0,
                   help="metres: move hand and objects together by U(-s, s) in x and y (the expert acts on relative positions)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1, help="torch CPU threads; on a shared 2-core machine 2 threads ran 10x slower than 1 (OpenMP waits)")
    return p.parse_args(argv)


def shuffle_distractors(objects, mask, gen):
    """Per sample, a random permutation of the poses among its distractor slots (bits of `mask`);
    every other slot stays. In the 50 layouts per task the distractors stand in only some of their
    possible arrangements, and a network that keys on them does not generalize to new layouts."""
    b = objects.shape[0]
    slots = objects.reshape(b, OBJECT_SLOTS, -1)
    index = torch.arange(OBJECT_SLOTS).expand(b, -1)
    movable = ((mask[:, None] >> index) & 1).bool()
    # Distractors first (by index, then in random order), the other slots after them, in order:
    # pairing the two orders maps each distractor slot to a random distractor and the rest to themselves.
    by_index = torch.argsort(torch.where(movable, index, index + OBJECT_SLOTS), dim=1)
    at_random = torch.argsort(torch.where(movable, torch.rand(b, OBJECT_SLOTS, generator=gen), (index + OBJECT_SLOTS).float()), dim=1)
    source = torch.empty_like(index).scatter_(1, by_index, at_random)
    return torch.gather(slots, 1, source[:, :, None].expand(-1, -1, slots.shape[2])).reshape(b, -1)


def shift_scene(state, objects, metres, gen):
    """The hand and every present object moved by one random (dx, dy) per sample."""
    b = state.shape[0]
    delta = (torch.rand(b, 2, generator=gen) * 2 - 1) * metres
    state = state.clone()
    state[:, :2] += delta
    slots = objects.reshape(b, OBJECT_SLOTS, -1).clone()
    present = (slots != 0).any(dim=2, keepdim=True).float()
    slots[:, :, :2] += delta[:, None, :] * present
    return state, slots.reshape(b, -1)


def augment(batch, args, gen):
    state, objects, task, step, mask, target = batch
    if args.shuffle_distractors:
        objects = shuffle_distractors(objects, mask, gen)
    if args.shift > 0:
        state, objects = shift_scene(state, objects, args.shift, gen)
    return state, objects, task, step, target


def chunk_loss(model, batch, args):
    """Winner-takes-all over the candidate chunks: each sample trains the mode closest to its label
    (plus a little of the others, so no mode starves), and the classifier learns which mode won."""
    state, objects, task, step, target = batch
    motion, grip, mode = model(state, objects, task, step)
    motion_err = ((motion - target[:, None, :, :MOTION_DIM]) ** 2).mean(dim=(2, 3))  # (B, M)
    # Labels are −1/+1; BCE wants 0/1.
    closed = (target[:, None, :, MOTION_DIM] > 0).float().expand_as(grip)
    grip_err = nn.functional.binary_cross_entropy_with_logits(grip, closed, reduction="none").mean(dim=2)
    err = motion_err + args.grip_weight * grip_err
    winner = err.detach().argmin(dim=1)
    pick = lambda e: e.gather(1, winner[:, None])[:, 0].mean()  # noqa: E731
    others = (err.sum(dim=1) - err.gather(1, winner[:, None])[:, 0]).mean() / max(1, err.shape[1] - 1)
    mode_loss = nn.functional.cross_entropy(mode, winner) if err.shape[1] > 1 else torch.zeros(())
    loss = pick(err) + args.wta_others * others + args.mode_weight * mode_loss
    return loss, pick(motion_err), pick(grip_err)


def train(model, tensors, args, log):
    n = len(tensors[0])
    steps_per_epoch = (n + args.batch - 1) // args.batch
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    total = args.epochs * steps_per_epoch
    warmup = max(1, total // 50)
    # Linear warm-up, then cosine decay to zero.
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda k: min(1.0, (k + 1) / warmup) * 0.5 * (1 + np.cos(np.pi * min(k, total) / total)))
    gen = torch.Generator().manual_seed(args.seed)
    history = []
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(n, generator=gen)
        sums = np.zeros(3)
        for i in range(steps_per_epoch):
            idx = perm[i * args.batch:(i + 1) * args.batch]
            batch = augment([t[idx] for t in tensors], args, gen)
            loss, motion_loss, grip_loss = chunk_loss(model, batch, args)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            sums += [loss.item(), motion_loss.item(), grip_loss.item()]
        mean = sums / steps_per_epoch
        history.append({"epoch": epoch + 1, "loss": mean[0], "motion_mse": mean[1], "grip_bce": mean[2]})
        log(f"epoch {epoch + 1:3d}/{args.epochs}  loss {mean[0]:.5f}  motion mse {mean[1]:.5f}  grip bce {mean[2]:.4f}")
    return history


def main(argv):
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    started = time.time()
    data, labels, demo_summary = load_demos(args.demos, args.horizon)
    tasks = data["observation/task"].shape[1]
    print(f"{demo_summary['samples']} samples from {demo_summary['episodes']} episodes "
          f"({demo_summary['dropped_failed']} failed episodes dropped), {tasks} tasks", flush=True)
    tensors = [torch.from_numpy(data[k]) for k in INPUT_KEYS] + [torch.from_numpy(data["distractor_mask"]), torch.from_numpy(labels)]
    goal_slots = goal_slot_table(args.demos, tasks) if args.goal_slots else None
    model = BCPolicy(tasks, args.horizon, args.width, args.blocks, args.dropout, args.modes, not args.no_pointer, not args.relative_only, goal_slots)
    model.fit_normalizers(tensors[0], tensors[1], tensors[3])
    params = sum(p.numel() for p in model.parameters())
    print(f"{params} parameters", flush=True)
    history = train(model, tensors, args, lambda line: print(line, flush=True))
    version = export_onnx(model, tasks, args.out)
    seconds = time.time() - started
    record = {
        "model_version": version, "parameters": params, "opset": OPSET, "seconds": round(seconds, 1),
        "args": vars(args), "data": demo_summary, "final": history[-1], "history": history[::5] + [history[-1]],
        "torch": torch.__version__, "numpy": np.__version__, "python": platform.python_version(),
    }
    with open(os.path.splitext(args.out)[0] + ".train.json", "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes, {version}) in {seconds:.0f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
