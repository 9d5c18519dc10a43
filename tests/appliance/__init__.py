"""The table as an appliance: systemd's notify protocol, the staff's fallback message, the units, the installer."""
