"""The table as an appliance: systemd's notify protocol (`notify`), the staff's message when it stops
(`fallback`) and the table's checks of itself (`checks`). The units and the installer are in systemd/
(docs/appliance.md)."""
