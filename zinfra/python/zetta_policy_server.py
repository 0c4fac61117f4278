#!/usr/bin/env python3
"""Serve a policy over the Zetta policy protocol (see protocol/PROTOCOL.md).

    python3 zetta_policy_server.py --policy npz-mlp:model.npz --bind ipc:///tmp/zetta-policy.sock

Needs numpy, pyzmq and msgpack; openpi or LeRobot only when their loader is selected.
"""
import os
import sys

# Runs as a script from anywhere: the package sits beside this file.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from zetta_shim.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
