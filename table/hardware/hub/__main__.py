"""python -m table.hardware.hub: list the seat hubs plugged in, or stop one's firmware so it can be deployed to."""
import argparse
from collections.abc import Callable, Iterable

from serial.tools.list_ports import comports

from table.hardware.hub.host import find_hubs, stop_firmware


def main(argv: list[str] | None = None, list_ports: Callable[[], Iterable] = comports) -> None:
    parser = argparse.ArgumentParser(prog="python -m table.hardware.hub", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("list", help="print the device and USB serial number of each hub")
    stop = commands.add_parser("stop", help="leave the firmware for the REPL (mpremote can then deploy)")
    stop.add_argument("device")
    args = parser.parse_args(argv)
    if args.command == "list":
        for port in find_hubs(list_ports=list_ports):
            print(port.device, port.serial_number)
    else:
        stop_firmware(args.device)


if __name__ == "__main__":
    main()
