"""The package's layers, read from the source: no import cycle between modules nor between
packages, and no module importing one above its layer (engine < bots < the runners,
the session and the network client < the front ends: tui, web, server, commands, rl).

The engine is every module directly under ``rummy500/`` but ``cli.py`` and ``__main__.py``
(the command line, a front end). Imports inside functions count for the layers too: a
late import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import rummy500

PACKAGE = Path(rummy500.__file__).parent
FRONT_ENDS = ("tui", "web", "server", "commands", "rl")
LAYERS = {"engine": 0, "bots": 1, "runners": 2, "session": 2, "net": 2,
          **dict.fromkeys(FRONT_ENDS, 3),
          "cli": 3}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")
           if "migrations" not in path.parts}


def layer_of(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "engine"
    if parts[1] in ("cli", "__main__"):
        return "cli"
    return parts[1] if parts[1] in LAYERS else "engine"


def _resolve(importer: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The package's modules that ``node`` imports (a name imported from a package is the
    module of that name when there is one)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == "rummy500":
                yield alias.name
        return
    if node.level:
        is_package = MODULES[importer].name == "__init__.py"
        base = importer.split(".")
        base = base[: len(base) - node.level + (1 if is_package else 0)]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source.split(".")[0] != "rummy500":
        return
    for alias in node.names:
        submodule = f"{source}.{alias.name}"
        yield submodule if submodule in MODULES else source


def _module_level(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The imports run when the module is imported: at the top, in ``if``/``try``/``with``
    blocks (``if TYPE_CHECKING:`` too: a cycle all the same for a reader) and class bodies,
    not in functions."""
    for statement in body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            yield statement
        elif not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            for child in ast.iter_child_nodes(statement):
                if isinstance(child, ast.stmt):
                    yield from _module_level([child])
                elif isinstance(child, ast.ExceptHandler):
                    yield from _module_level(child.body)


def imports(module: str, *, module_level: bool) -> dict[str, int]:
    """The package's modules that ``module`` imports, each with the line of its first
    import."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    nodes = (_module_level(tree.body) if module_level else
             (n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)))
    found: dict[str, int] = {}
    for node in nodes:
        for target in _resolve(module, node):
            if target in MODULES and target != module:
                found.setdefault(target, node.lineno)
    return found


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` (its modules in order, the first again at the end)."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str] | None:
        path.append(node)
        on_path.add(node)
        for target in sorted(graph[node]):
            if target in on_path:
                return [*path[path.index(target):], target]
            if target not in done:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_the_modules_are_found() -> None:
    assert {"rummy500.deal", "rummy500.position", "rummy500.bots.expert",
            "rummy500.session.session", "rummy500.rl.openspiel"} <= MODULES.keys()
    assert layer_of("rummy500.deal") == "engine"
    assert layer_of("rummy500.bots.expert") == "bots"
    assert layer_of("rummy500.cli") == "cli"
    assert layer_of("rummy500.rl") == "rl"
    assert layer_of("rummy500.runners.tournament") == "runners"
    assert layer_of("rummy500.net.client") == "net"
    assert package_of("rummy500.server.hub") == "rummy500.server"
    assert package_of("rummy500.deal") == package_of("rummy500") == "rummy500"


def test_no_import_cycle() -> None:
    graph = {module: set(imports(module, module_level=True)) for module in MODULES}
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_one() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_imports_one_above_its_layer() -> None:
    broken = []
    for module in sorted(MODULES):
        mine = layer_of(module)
        for target, line in imports(module, module_level=False).items():
            theirs = layer_of(target)
            above = LAYERS[theirs] > LAYERS[mine]
            sideways = mine == "rl" and theirs != "rl" and LAYERS[theirs] == LAYERS[mine]
            between = mine != theirs and mine in ("runners", "session") and theirs in (
                "runners", "session")
            if above or sideways or between:
                broken.append(f"{module} ({mine}) imports {target} ({theirs}), line {line}")
    assert not broken, "\n".join(broken)


def package_of(module: str) -> str:
    """The package a module belongs to (the engine's modules: ``rummy500``)."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 2 or module in PACKAGES else parts[0]


PACKAGES = {name for name in MODULES if MODULES[name].name == "__init__.py"}


def test_no_import_cycle_between_packages() -> None:
    """Late imports (inside functions) count: ``server`` importing ``web`` and ``web``
    importing ``server`` is a loop however the imports are placed."""
    graph: dict[str, set[str]] = {package_of(module): set() for module in MODULES}
    for module in MODULES:
        mine = package_of(module)
        for target in imports(module, module_level=False):
            if package_of(target) != mine:
                graph[mine].add(package_of(target))
    cycle = find_cycle(graph)
    assert cycle is None, "packages import each other: " + " -> ".join(cycle or [])


def test_module_level_means_what_runs_on_import() -> None:
    source = (
        "import os\n"
        "if TYPE_CHECKING:\n    from .deal import Deal\n"
        "try:\n    import a\nexcept ImportError:\n    import b\n"
        "class C:\n    import c\n    def f(self):\n        import d\n"
        "def g():\n    import e\n"
    )
    found = [alias.name for node in _module_level(ast.parse(source).body)
             for alias in node.names]
    assert found == ["os", "Deal", "a", "b", "c"]
