"""How the settings that are not kept put a value on a chain: the ``get`` and ``put`` of their table entries.

Each ``put(scene, chain, value)`` takes a value that :meth:`.settings.Setting.checked`
has already checked and clamped, sets it where the step and the renderer read
it (the chain's arrays or attributes) and lays the chain out again where its
pose depends on it; it returns None (the chain stays; the bone counts, whose
edits build a new chain, are the table's own lambdas). Degrees in, radians
stored where the chain keeps radians.
"""

from __future__ import annotations

import math

from ikplayground.scene.core.ik_options import pole_beside
from ikplayground.scene.step import target_paths as tm


def set_rate_on(scene, chain, on):
    chain.rate_limit = chain.rate_deg if on else None


def set_rate(scene, chain, degrees):
    chain.rate_deg = degrees  # the limit too, while it is on


def set_mirror(scene, chain, on):
    chain.mirror = on


def set_joint_limit(scene, chain, degrees):
    chain.set_joint_limit(degrees)
    scene.lay_out(chain)


def set_bend_range(scene, chain, degrees):
    r = math.radians(degrees)
    chain.fields["bend_limits"][:] = (-r, r)
    scene.lay_out(chain)


def set_bone_length(scene, chain, length):
    chain.fields["lengths"][:] = length
    scene.lay_out(chain)


def set_pole_on(scene, chain, on):
    pole = chain.fields["pole"]
    if on and chain.pole is None:
        pole[:] = scene.clamp(pole_beside(chain.fields))
    elif not on:
        pole[:] = math.nan


def field_setting(name, kind=float):
    """``get`` and ``put`` of a setting kept as it is in the chain's one-number field ``name``."""

    def put(scene, chain, value):
        chain.fields[name][0] = value

    return {"get": lambda c: kind(c.fields[name][0]), "put": put}


def set_motion(scene, chain, path):
    tm.start(chain.fields, path)  # from where the target is now


def set_motion_speed(scene, chain, speed):
    tm.set_speed(chain.fields, speed)


def set_iterations(scene, chain, n):
    chain.iterations = n


def set_tolerance(scene, chain, px):
    chain.tolerance = px


def set_max_speed(scene, chain, speed):
    chain.fields["max_speed"][0] = speed


def set_turn_rate(scene, chain, degrees):
    chain.fields["turn_rate"][0] = math.radians(degrees)
