"""The table as an appliance: systemd's notify protocol (`notify`) and the staff's message when it stops
(`fallback`). The units and the installer are in systemd/ (docs/appliance.md)."""
