"""Imports run one way: every import in table/ goes to a lower floor of the house (docs/architecture.md).

Each module belongs to one part (a package, or a few base modules); each
part sits on a floor. A module may import its own part and the parts of
lower floors only, so the parts form a graph with no loop; parts on one
floor (the games among them) never import each other.
"""
import ast
from pathlib import Path

import table

ROOT = Path(table.__file__).parent
GAMES = tuple(f"table.games.{p.name}" for p in sorted((ROOT / "games").iterdir())
              if (p / "__init__.py").exists() and p.name != "kit")
FLOORS = (   # from the ground up: (name, its parts)
    ("foundations", ("table", "table.assets", "table.events", "table.vitals", "table.layout", "table.storage",
                     "table.games", "table.games.contract", "table.games.kit")),
    ("adapters", ("table.hardware",)),
    ("toolkits", ("table.screen", "table.bots", "table.appliance")),
    ("games", GAMES),
    ("registry", ("table.registry",)),
    ("session", ("table.session",)),
    ("pipeline", ("table.pipeline",)),
    ("apps", ("table.sim", "table.enrol", "table.doctor", "table.run", "table.bench", "table.cafe")),
    ("cli", ("table.cli", "table.__main__")),
)


def part(module: str) -> str:
    """The part a module belongs to: the longest name listed in FLOORS that is it or holds it."""
    names = [name for _, names in FLOORS for name in names if module == name or module.startswith(name + ".")]
    assert names, f"{module} is on no floor: add its part to FLOORS and docs/architecture.md"
    return max(names, key=len)


def floor(name: str) -> int:
    """The floor of a part (0: the foundations)."""
    return next(level for level, (_, names) in enumerate(FLOORS) if name in names)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> set[str]:
    """Every table module `path` imports, anywhere in it (in functions too): `from X import m` counts as X.m when
    X.m is a module of its own."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found |= {f"{node.module}.{alias.name}" if _is_module(f"{node.module}.{alias.name}") else node.module
                      for alias in node.names}
    return {name for name in found if name == "table" or name.startswith("table.")}


def _is_module(name: str) -> bool:
    path = ROOT.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def imports_by_part() -> dict[tuple[str, str], list[str]]:
    """(importing part, imported part) -> the modules making that import, for every import between two parts."""
    found: dict[tuple[str, str], list[str]] = {}
    for path in sorted(ROOT.rglob("*.py")):
        source = module_name(path)
        for target in imported(path):
            edge = part(source), part(target)
            if edge[0] != edge[1]:
                found.setdefault(edge, []).append(source)
    return found


def test_no_import_goes_up():
    upward = [f"{a} ({FLOORS[floor(a)][0]}) imports {b} ({FLOORS[floor(b)][0]}) in {', '.join(sorted(set(modules)))}"
              for (a, b), modules in imports_by_part().items() if floor(b) > floor(a)]
    assert upward == []


def test_the_parts_form_no_loop():
    """Parts of one floor may import each other, one way only: taking away, again and again, the parts that import
    no part left takes every part away."""
    edges = set(imports_by_part())
    left = {name for _, names in FLOORS for name in names}
    while True:
        grounded = {a for a in left if not any(edge[0] == a and edge[1] in left for edge in edges)}
        if not grounded:
            break
        left -= grounded
    assert sorted(left) == [], "these parts import each other in a loop"


def test_a_game_names_no_other_game():
    assert len(GAMES) >= 8
    assert [edge for edge in imports_by_part() if edge[0] in GAMES and edge[1] in GAMES] == []


def test_the_part_and_floor_of_a_module():
    assert part("table.games.kit.codec") == "table.games.kit"
    assert part("table.games.feira_torio.page") == "table.games.feira_torio"
    assert part("table.hardware.rfid.mfrc522") == "table.hardware"
    assert floor("table.games.feira_torio") > floor("table.screen") > floor("table.hardware") > floor("table.layout")
    assert floor("table.cli") == len(FLOORS) - 1
