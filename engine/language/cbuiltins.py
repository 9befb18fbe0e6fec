"""Python's own functions called by their own names in a C module, so that Cython compiles them as its own.

The generated module calls the language's built-ins through names it is given (``B_len``, ``B_any``,
``B_append``), some of which are Python's own functions. Cython knows such a function only by its name: called
through another, each call is a module lookup and a call through Python's protocol, where ``len(x)`` would be
``PyObject_Length`` and a C integer, ``any(...)`` of a generator expression a loop in the function, and a
list's append CPython's own. :func:`builtin_names` writes those names as Cython's (checked by identity: a name
given anything else keeps its own), padded with spaces to the given name's width (``len  (x)``), so that every
line and column stays where it was for the other rewrites and the tracebacks.
"""
from __future__ import annotations

import ast
import builtins
from typing import Any

# Python's built-ins whose calls Cython compiles as its own (a C call, a C integer, an inlined loop)
OPTIMISED = ("len", "any", "all", "abs", "list", "set", "tuple", "int", "bool")
# given name -> (what it must be given, what the C module calls instead; no wider than the given name)
C_NAMES: dict[str, tuple[Any, str]] = {
    **{f"B_{name}": (getattr(builtins, name), name) for name in OPTIMISED},
    "B_append": (list.append, "C_append"),  # (called, never passed as a value: codegen's Append)
}
# Cython reads this block, put at the end of the module: what C_NAMES call that Python does not define
C_BLOCK = '''
cdef inline object C_append(object items, object item):
    if type(items) is list:
        (<list>items).append(item)
        return None
    return list.append(items, item)
'''


def builtin_names(source: str, tree: ast.Module, namespace: dict[str, Any]) -> str:
    """`source` (parsed: `tree`) with each name of `C_NAMES` that `namespace` gives as its function written as
    the C module's name for it, in place (the same lines and columns), and `C_BLOCK` after it."""
    given = {name: c_name for name, (function, c_name) in C_NAMES.items() if namespace.get(name) is function}
    lines = [line.encode() for line in source.split("\n")]  # (the tree's columns count UTF-8 bytes)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in given:
            line, start, stop = node.lineno - 1, node.col_offset, node.col_offset + len(node.id)
            if lines[line][start:stop] == node.id.encode():  # (else written some other way: left as it is)
                lines[line] = lines[line][:start] + given[node.id].ljust(len(node.id)).encode() + lines[line][stop:]
    return "\n".join(line.decode() for line in lines) + C_BLOCK
