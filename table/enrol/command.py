"""`cardtable enrol`: the enrolment station, or a CSV export or import of the tag registry."""
from __future__ import annotations

import sys
from argparse import Namespace
from table.enrol.enrolment import Enrolment
from table.enrol.station import BlankTags, Station
from table.events import EventBus
from table.hardware.build import HUBS_WAIT_S, Builder, choose
from table.layout import load_layout
from table.run import say_missing
from table.storage.registry import TagRegistry


def enrol_command(args: Namespace) -> int:
    """`cardtable enrol`: the station on the centre pads of the layout `args.layout` when its hardware is here
    (else, saying what is missing, a simulated station), or the registry's CSV export or import."""
    layout = load_layout(args.layout)
    hardware, missing = choose(layout, args.hardware)
    if not (args.export or args.import_):
        say_missing(layout, missing, hardware is None, "a simulated station")
    return run_enrol(args, hardware, layout.centre)


def run_enrol(args: Namespace, hardware: Builder | None = None, pads: tuple[str, ...] = ()) -> int:
    """Run `cardtable enrol`; the station's readers are `pads` of `hardware` (None: one simulated pad with
    blank tags), whose seat buttons "next" skip a card.

    `args`: registry (path), deck, staff, player, retag, lang, frames, fullscreen,
    export and import_ (CSV paths or None).
    """
    if args.export and not args.registry.exists():
        print(f"cardtable enrol: there is no registry at {args.registry}", file=sys.stderr)
        return 2
    args.registry.parent.mkdir(parents=True, exist_ok=True)
    registry = TagRegistry(args.registry)
    try:
        if args.export:
            print(f"exported {registry.export_csv(args.export)} tags from {args.registry} to {args.export}")
            return 0
        if args.import_:
            report = registry.import_csv(args.import_)
            print(report, file=sys.stderr if report.errors else sys.stdout)
            return 1 if report.errors else 0
        try:
            enrolment = Enrolment(registry, args.deck, args.staff, args.player)
            if args.retag:
                enrolment.retag(args.retag)
        except ValueError as error:
            print(f"cardtable enrol: {error}", file=sys.stderr)
            return 2
        return _station(args, enrolment, hardware, pads)
    finally:
        registry.close()


def _station(args: Namespace, enrolment: Enrolment, hardware: Builder | None, pads: tuple[str, ...]) -> int:
    from table.enrol.window import EnrolWindow
    from table.screen.display import Display, run_display
    from table.screen.outputs import find_output
    output = find_output()   # none: NoDisplay, before the station's hardware opens
    bus, blanks, built = EventBus(), None, None
    if hardware is None:
        blanks = BlankTags(enrolment.registry)
        readers = [blanks.reader]
    else:
        built = hardware(bus)
        built.wait_for_hubs(HUBS_WAIT_S)
        readers = [built.readers[pad] for pad in pads]
    try:
        window = EnrolWindow(Station(enrolment, readers, bus=bus), args.lang, blanks)
        run_display(window, Display(output, window.canvas.get_size(), window.screen.title(enrolment), args.fullscreen),
                    args.frames, each_frame=window.station.step)
    finally:
        if built is not None:
            built.close()
    print(f"{enrolment.done} / {len(enrolment.targets)} tagged")
    return 0
