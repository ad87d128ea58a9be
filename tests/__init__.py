"""The tests, a package: test files import the project and their helpers by package
(``from .conftest import ...``, ``tests.app.fuzz_events``); pytest puts the clone's folder on ``sys.path``."""
