"""The Zetta policy protocol (protocol/PROTOCOL.md) served from Python, next to a GPU policy.

Needs numpy, pyzmq and msgpack only; a policy framework (openpi, LeRobot) is imported by its loader
when it is selected.
"""
