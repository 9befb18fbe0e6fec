"""engine/ is layers whose imports flow one way, and no module reaches into another's private parts.

errors → library → program → runtime → language → agents → tools (the command, tournaments, bridges to other
frameworks, the web table). A module may import from its own layer or the layers before it, never after it
(imports inside functions count too), and the modules of one layer import each other without a cycle.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"  # (the sources: the installed package may be compiled)
LAYERS = ["errors", "library", "program", "runtime", "language", "agents", "tools"]
LAYER_OF_TOP = {"errors": "errors", "library": "library", "program": "program", "runtime": "runtime",
                "language": "language", "agents": "agents", "bots": "agents", "tools": "tools", "bridges": "tools",
                "web": "tools"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ENGINE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["naipes", *parts])


def layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS)  # the package's __init__: the public API, above everything
    return LAYERS.index(LAYER_OF_TOP[parts[1]])


def for_annotations_only(tree: ast.AST) -> set[int]:
    """The ids of the statements under `if TYPE_CHECKING:`: names imported there serve annotations and run
    nothing (a lower layer may name a higher one's types in its signatures, never call it)."""
    return {id(statement) for node in ast.walk(tree) if isinstance(node, ast.If)
            and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING" for statement in node.body}


def imports(path: Path) -> list[tuple[str, int]]:
    """The naipes modules a file imports (module, line), wherever the import stands (but for annotations)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rsplit(".", 1)[0]
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = for_annotations_only(tree)
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("naipes"):
                names = [f"{target}.{a.name}" for a in node.names]
                found += [(n if (ENGINE / Path(*n.split(".")[1:])).with_suffix(".py").exists() or
                           (ENGINE / Path(*n.split(".")[1:])).is_dir() else target, node.lineno) for n in names]
        elif isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names if a.name.startswith("naipes")]
    return found


SOURCES = sorted(ENGINE.rglob("*.py"))


def test_the_layers_cover_every_module():
    assert {module_name(p).split(".")[1] for p in SOURCES if module_name(p) != "naipes"} <= set(LAYER_OF_TOP)


@pytest.mark.slow
def test_no_module_imports_from_a_later_layer():
    upward = [f"{module_name(p)}:{line} imports {target}" for p in SOURCES for target, line in imports(p)
              if layer(target) > layer(module_name(p))]
    assert not upward, "\n".join(upward)


@pytest.mark.slow
def test_no_import_cycle():
    graph = {module_name(p): {t for t, _ in imports(p) if t != module_name(p)} for p in SOURCES}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycles.append(" → ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state and nxt in graph:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "\n".join(cycles)


# documented stdlib API: os._exit (a worker's hard stop), sys._getframe, ast.AST._fields (a node's children)
STDLIB_PRIVATE = {"_exit", "_getframe", "_fields"}


def own_private_names(tree: ast.Module) -> set[str]:
    """The private names a module defines itself: its functions, classes, and attributes it assigns."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
            names.add(node.value)  # __slots__ entries
    return {n for n in names if n.startswith("_")}


@pytest.mark.slow
def test_no_module_reaches_into_another_modules_private_attributes():
    reaching = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = own_private_names(tree) | STDLIB_PRIVATE
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__") \
                    and node.attr not in allowed and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                reaching.append(f"{module_name(path)}:{node.lineno} .{node.attr}")
    assert not reaching, "\n".join(reaching)


def test_the_private_attribute_check_finds_a_reach(tmp_path):
    module = ast.parse("def f(decision):\n    return decision._game\n")
    assert "_game" not in own_private_names(module)
