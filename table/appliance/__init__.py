"""The table as an appliance: systemd's notify protocol (`notify`), the staff's message when it stops
(`fallback`), the table's checks of itself (`checks`), its failures counted over a boot (`failures`), its stacks
for the journal (`stacks`) and the power requests (`power`). The units and the installer are in systemd/
(docs/appliance.md)."""
from __future__ import annotations

from collections.abc import Mapping


def as_the_service(environ: Mapping[str, str]) -> bool:
    """Whether this process is the table's own service: cardtable.service sets $CARDTABLE_APPLIANCE=1 and systemd
    gives it $INVOCATION_ID (any other unit has only the latter)."""
    return environ.get("CARDTABLE_APPLIANCE") == "1" and "INVOCATION_ID" in environ
