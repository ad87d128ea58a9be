"""Pure 2-D inverse kinematics on numpy arrays: no pygame, no state, no printing.

Screen coordinates (pixels, y down), radians, relative joint angles: see
docs/design.md in the repository. Every function validates its inputs and raises ``ValueError``
naming the argument; none mutates its arguments. Numbers are real numbers (``int``, ``float``,
numpy reals, ``Decimal``, ``Fraction``; never ``bool``, complex or strings), and coordinates,
with every point a chain can reach, lie within +-1e300 px, so every answer is finite.
:func:`solve_ccd`, :func:`solve_fabrik` and :func:`solve_dls` stop early once the error stops
improving and say why they stopped in :attr:`IKSolution.status`; :func:`ccd_steps` and
:func:`fabrik_steps` run CCD and FABRIK one joint or half-pass at a time, for watching a solve.

>>> from ikplayground.solvers import solve_two_bone
>>> sol = solve_two_bone((0, 0), (150, 0), 100, 100)
>>> bool(sol.reached)
True
"""

from ._validate import FULL_CIRCLE, clamp_angle
from .batch_api import follow_snake_batch, solve_ccd_batch, solve_dls_batch, solve_fabrik_batch
from .ccd import solve_ccd
from .ccd_stepwise import CCDStep, ccd_steps
from .dls import solve_dls
from .fabrik import solve_fabrik
from .fabrik_stepwise import FabrikStep, fabrik_steps
from .kinematics import forward_kinematics
from .results import IKSolution, TwoBoneSolution
from .snake import follow_snake
from .two_bone import solve_two_bone

__all__ = [
    "forward_kinematics",
    "solve_two_bone",
    "solve_ccd",
    "solve_fabrik",
    "solve_dls",
    "follow_snake",
    "solve_ccd_batch",
    "solve_fabrik_batch",
    "solve_dls_batch",
    "follow_snake_batch",
    "ccd_steps",
    "fabrik_steps",
    "CCDStep",
    "FabrikStep",
    "clamp_angle",
    "FULL_CIRCLE",
    "TwoBoneSolution",
    "IKSolution",
]
