"""The units as systemd reads them: `systemd-analyze verify` finds nothing wrong, and each one's exposure
(`systemd-analyze security --offline=yes`) stays at or under 2.5: the table's, its fallback's, the café's link's
and hall's. .ci/run installs systemd where it is missing."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

UNITS = ("cardtable.service", "cardtable-fallback.service", "cardtable-link.service", "cardtable-hall.service")
EXPOSURE = re.compile(r"Overall exposure level for (\S+): (\d+\.\d+)")

pytestmark = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")


@pytest.fixture
def units(installer, tmp_path) -> list[Path]:
    """The units as the installer fills them in, the table run from this virtual environment and checkout."""
    assert (Path(sys.prefix) / "bin" / "cardtable").exists()
    paths = [tmp_path / name for name in UNITS]
    for path in paths:
        path.write_text(installer.unit_text(path.name, venv=Path(sys.prefix), app=REPO))
    return paths


def analyze(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(["systemd-analyze", *map(str, args)], capture_output=True, text=True, timeout=120,
                          check=False)


def test_systemd_finds_nothing_wrong_in_the_units(units):
    result = analyze("verify", *units)
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if "cardtable" in line]
    assert (result.returncode, complaints) == (0, [])


def test_a_unit_systemd_would_complain_about_is_caught(units):
    """The check above can fail: a misspelt setting and a program that is not there."""
    text = units[0].read_text()
    units[0].write_text(text.replace("WatchdogSec=", "WachdogSec=").replace(f"{sys.prefix}/bin/", "/nonexistent/"))
    result = analyze("verify", *units)
    assert result.returncode != 0
    assert "WachdogSec" in result.stderr


@pytest.mark.parametrize("name", UNITS)
def test_the_exposure_is_at_most_2_5(units, tmp_path, name):
    result = analyze("security", "--offline=yes", tmp_path / name)
    found = EXPOSURE.search(result.stdout)
    assert found, result.stdout + result.stderr
    assert found[1] == name
    assert float(found[2]) <= 2.5, result.stdout


def test_the_table_is_a_notify_service_with_a_watchdog_restarts_and_a_fallback():
    """The settings issue 10 asks for."""
    settings = settings_of((REPO / "systemd" / UNITS[0]).read_text())
    for section, key, value in [
        ("Unit", "OnFailure", "cardtable-fallback.service"), ("Unit", "StartLimitBurst", "5"),
        ("Service", "Type", "notify"), ("Service", "NotifyAccess", "main"), ("Service", "WatchdogSec", "10"),
        ("Service", "Restart", "on-failure"), ("Service", "User", "cardtable"),
        ("Service", "SupplementaryGroups", "spi gpio dialout video render input"),
        ("Service", "ProtectSystem", "strict"), ("Service", "StateDirectory", "cardtable"),
        ("Service", "RestrictAddressFamilies", "AF_UNIX"), ("Service", "IPAddressDeny", "any"),
        ("Service", "PrivateNetwork", "yes"), ("Service", "ReadOnlyPaths", "-/dev/shm -/run/lock"),
    ]:
        assert value in settings[section].get(key, []), (section, key)
    assert {"char-spi rw", "char-gpiochip rw", "char-ttyACM rw", "char-drm rw"} <= set(
        settings["Service"]["DeviceAllow"])


def test_the_link_reaches_only_the_hall_reads_the_tables_state_and_writes_only_its_own():
    """The plan's link unit (docs/cafe-plan.md): network, folders, restarts; the hall's address comes in the
    installer's drop-in."""
    settings = settings_of((REPO / "systemd" / "cardtable-link.service").read_text())
    for section, key, value in [
        ("Unit", "After", "network-online.target"), ("Unit", "Wants", "network-online.target"),
        ("Service", "Restart", "on-failure"), ("Service", "User", "cardtable"),
        ("Service", "RestrictAddressFamilies", "AF_UNIX AF_INET AF_INET6"), ("Service", "IPAddressDeny", "any"),
        ("Service", "ReadOnlyPaths", "%S/cardtable"), ("Service", "StateDirectory", "cardtable-link"),
        ("Service", "ProtectSystem", "strict"), ("Service", "EnvironmentFile", "/etc/default/cardtable-link"),
        ("Service", "LoadCredential", "password:/etc/cardtable-link/password"),
    ]:
        assert value in settings[section].get(key, []), (section, key)
    assert "IPAddressAllow" not in settings["Service"]


def test_the_hall_is_its_own_user_and_writes_only_hall_sqlites_directory():
    settings = settings_of((REPO / "systemd" / "cardtable-hall.service").read_text())
    for key, value in [("DynamicUser", "yes"), ("StateDirectory", "cardtable-hall"), ("Restart", "on-failure"),
                       ("ProtectSystem", "strict"), ("IPAddressDeny", "any"),
                       ("LoadCredential", "password:/etc/mosquitto/cardtable/credentials/hall")]:
        assert value in settings["Service"].get(key, []), key
    assert "mosquitto.service" in settings["Unit"]["After"][0].split()


def settings_of(text: str) -> dict[str, dict[str, list[str]]]:
    """A unit file's settings: section -> key -> every value given."""
    sections: dict[str, dict[str, list[str]]] = {}
    section = ""
    for line in text.splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        elif "=" in line and not line.startswith("#"):
            key, _, value = line.partition("=")
            sections.setdefault(section, {}).setdefault(key, []).append(value)
    return sections
