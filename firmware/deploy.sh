#!/usr/bin/env bash
# Copy the seat hub firmware to a Raspberry Pi Pico that runs MicroPython, then restart it.
#
#   firmware/deploy.sh [DEVICE]      DEVICE: e.g. /dev/ttyACM0; default: the one hub plugged in
#
# Needs mpremote (pip install mpremote) and the table's Python package (for the
# hub's own "stop" message). Stop the table service first: it holds the port.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-python3}

device=${1:-}
if [ -z "$device" ]; then
    mapfile -t hubs < <("$py" -m table.hardware.hub list)
    if [ "${#hubs[@]}" -ne 1 ]; then
        echo "found ${#hubs[@]} hubs (${hubs[*]:-none}); name the device to deploy to" >&2
        exit 1
    fi
    device=${hubs[0]%% *}
fi

# A running firmware treats Ctrl-C as data: ask it to give the REPL back.
# (On a Pico without the firmware this is a line of noise at the REPL.)
"$py" -m table.hardware.hub stop "$device"
sleep 0.5

# main.py last, so that a deploy cut short never boots a main.py without its modules.
mpremote connect "$device" \
    cp table/hardware/hub/protocol.py :protocol.py + \
    cp table/hardware/rfid/mfrc522.py :mfrc522.py + \
    cp firmware/hub/hub.py :hub.py + \
    cp firmware/hub/main.py :main.py + \
    reset
echo "deployed to $device"
