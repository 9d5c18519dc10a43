"""The café tests' broker: Debian's real Mosquitto, set up by the project's own files (tests/cafe/broker.py)."""
import pytest

from tests.cafe.broker import TABLES, RunningBroker, needs


@pytest.fixture
def broker(tmp_path):
    lacks = needs()
    if lacks:
        pytest.fail("the café tests need " + ", ".join(lacks))
    running = RunningBroker(tmp_path / "broker", TABLES)
    running.start()
    yield running
    running.close()
