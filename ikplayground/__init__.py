"""ikplayground: an interactive playground for 2-D inverse kinematics.

The solvers (``ikplayground.solvers``) and the scene model (``ikplayground.scene``)
import without pygame; only ``ikplayground.app`` opens a window.
"""

__version__ = "0.1.0"
