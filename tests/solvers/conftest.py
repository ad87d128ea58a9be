"""Local set-up for the solver tests.

The shared strategies and reference implementations live in ``solver_cases.py``
next to this file; the tests import it by package (``from .solver_cases import ...``).
"""
