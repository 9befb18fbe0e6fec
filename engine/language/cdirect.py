"""A C module's calls of the memory, made straight to the compiled runtime's C functions where it can.

mypyc compiles each method of the runtime into a C function, ``CPyDef_memory___Memory___set_var``, that takes
its arguments as they are, and a wrapper that Python's calls go through: it parses the arguments, checks each
against the type its parameter declares, converts a ``bool`` or an ``int`` to C, and calls the function. A call
of the memory from a C module (:mod:`naipes.language.cslots`: ``C_callN``) goes through Python's method call and
that wrapper, about as long as many of the methods' own work.

For each method in :data:`DIRECT` a C module gets a C function that makes the wrapper's checks itself and
calls the compiled function: found by its name (``dlsym``) in the library that holds the compiled ``Memory``,
and called only for a memory of exactly that class. Anything else takes the method call as before, so every
call gives what Python gives, errors included:

* the runtime not compiled (``Memory`` a Python class: its library is Python's, which has no such name);
* a name not found;
* an argument its parameter's check refuses (a text where a ``str`` is declared, ``True`` or ``False`` for a
  ``bool``; an ``int`` only from -2**30 to 2**30, which every call the compiler writes is);
* a call with more or fewer arguments than the method takes positionally.

The C function takes no check of its own: a parameter of kind ``object`` is one the wrapper does not check
either, the declared types being ``Any`` or the engine's Python classes (``PlayerBase``, ``Zone``), which mypyc
does not check. ``tests/test_cmodules.py`` holds this list to the runtime's source: each method's parameters,
their declared types and defaults, its result, and the class it is found in.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..runtime.memory import Memory

REQUIRED = object()  # a parameter without a default

# What a C module checks for an argument of each kind, and what it passes (x: the argument).
CHECKS = {"object": "", "str": "PyUnicode_Check({x})", "str?": "({x} == Py_None || PyUnicode_Check({x}))",
          "tuple": "PyTuple_Check({x})", "tuple?": "({x} == Py_None || PyTuple_Check({x}))",
          "bool": "({x} == Py_True || {x} == Py_False)", "int": "naipes_small({x}, &{t})"}
PASSED = {"bool": "(char)({x} == Py_True)", "int": "{t}"}  # (else the object itself)
C_TYPES = {"bool": "char", "int": "size_t"}  # (else PyObject *; mypyc's `int` is a tagged size_t: the value * 2)
RESULTS = {"none": "char", "bool": "char", "object": "PyObject *"}  # what the C function returns (2: an error)


@dataclass(frozen=True)
class Direct:
    """A method's compiled C function: its name after ``CPyDef_``, its result (none, bool or object) and its
    parameters after `self`: (name, kind, default)."""

    symbol: str
    result: str
    params: tuple[tuple[str, str, object], ...]

    def takes(self, count: int) -> bool:
        """Whether a call with `count` positional arguments can be made to it (the rest defaults)."""
        required = sum(default is REQUIRED for _, _, default in self.params)
        return required <= count <= len(self.params)


def _direct(owner: str, method: str, result: str, *params: tuple[str, str] | tuple[str, str, object]) -> Direct:
    """`owner`'s `method` (the compiled name of its class, ``memory___Memory``), its params without a default
    given as (name, kind)."""
    return Direct(f"{owner}___{method}", result, tuple((*p, REQUIRED) if len(p) == 2 else p for p in params))


MEMORY, BUDGET = "memory___Memory", "limits___Budget"  # (the budget's methods: the memory's, not overridden)
# The methods generated code calls at every move, turn and loop.
DIRECT: dict[str, Direct] = {
    "charge": _direct(BUDGET, "charge", "object", ("items", "object"), ("each", "int", 1)),
    "spend": _direct(BUDGET, "spend", "none", ("count", "int")),
    "charge_sized": _direct(BUDGET, "charge_sized", "object", ("value", "object")),
    "weighed": _direct(BUDGET, "weighed", "object", ("value", "object")),
    "hashed": _direct(BUDGET, "hashed", "object", ("value", "object")),
    "compared": _direct(BUDGET, "compared", "object", ("items", "object"), ("each", "int", 0),
                        ("sorting", "bool", False)),
    "contains": _direct(BUDGET, "contains", "bool", ("member", "object"), ("items", "object")),
    "set_var": _direct(MEMORY, "set_var", "none", ("name", "str"), ("value", "object")),
    "set_attr": _direct(MEMORY, "set_attr", "none", ("obj", "object"), ("name", "str"), ("value", "object")),
    "grow_var": _direct(MEMORY, "grow_var", "none", ("name", "str"), ("added", "object")),
    "grow_attr": _direct(MEMORY, "grow_attr", "none", ("obj", "object"), ("name", "str"), ("added", "object")),
    "move": _direct(MEMORY, "move", "none", ("cards", "object"), ("dest", "object"), ("source", "object", None),
                    ("bottom", "bool", False)),
    "pass_turn": _direct(MEMORY, "pass_turn", "none", ("player", "object"), ("move", "str"), ("phase", "str?"),
                         ("ends", "bool", False)),
    "ask": _direct(MEMORY, "ask", "none", ("player", "object"), ("moves", "tuple")),
    "in_phase": _direct(MEMORY, "in_phase", "bool", ("phase", "str"), ("later", "tuple?", None)),
    "entering_step": _direct(MEMORY, "entering_step", "none", ("phase", "str"), ("step", "str")),
    "entered": _direct(MEMORY, "entered", "none", ("phase", "str")),
    "goto": _direct(MEMORY, "goto", "none", ("phase", "str")),
    "start_turns": _direct(MEMORY, "start_turns", "none", ("phase", "str")),
    "refresh": _direct(MEMORY, "refresh", "none", ("rule", "str")),
}

C_LINK = r'''
    #ifndef _WIN32
    #include <dlfcn.h>
    #endif
    static int naipes_linked = 0;
    static PyTypeObject *naipes_memory = NULL;  /* the compiled memory class (NULL: every call as a method call) */
    static void *naipes_functions[%(count)d];
    static const char *naipes_symbols[%(count)d] = {%(symbols)s};

    /* The compiled functions, from the library that holds the class `Memory` of %(module)s (its deallocator is
       the library's own code); none where that class is Python's. */
    static void naipes_link(void) {
        naipes_linked = 1;
    #ifndef _WIN32
        PyObject *module = PyImport_ImportModule("%(module)s");
        PyObject *type = module == NULL ? NULL : PyObject_GetAttrString(module, "Memory");
        Py_XDECREF(module);
        Dl_info found;
        void *library = NULL;
        if (type != NULL && PyType_Check(type) && dladdr((void *)((PyTypeObject *)type)->tp_dealloc, &found)
                && found.dli_fname != NULL)
            library = dlopen(found.dli_fname, RTLD_NOW | RTLD_NOLOAD);  /* (loaded already: no code runs) */
        if (library != NULL) {
            for (int i = 0; i < %(count)d; i++)
                naipes_functions[i] = dlsym(library, naipes_symbols[i]);
            naipes_memory = (PyTypeObject *)type;  /* (kept: the module holds it for as long as the process) */
        } else
            Py_XDECREF(type);
        PyErr_Clear();
    #endif
    }

    /* an int that the compiled functions take as it is (tagged: the value times two) */
    static inline int naipes_small(PyObject *x, size_t *tagged) {
        if (!PyLong_CheckExact(x))
            return 0;
        int overflow;
        long long value = PyLong_AsLongLongAndOverflow(x, &overflow);
        if (overflow || value <= -(1LL << 30) || value >= (1LL << 30))
            return 0;
        *tagged = (size_t)value << 1;
        return 1;
    }

    static inline int naipes_direct(PyObject *o, int function) {
        if (!naipes_linked)
            naipes_link();
        return Py_TYPE(o) == naipes_memory && naipes_functions[function] != NULL;
    }

    /* how many of the compiled functions the calls with the memory `o` go to (0: every call a method call) */
    static int naipes_direct_linked(PyObject *o) {
        int count = 0;
        for (int i = 0; i < %(count)d; i++)
            count += naipes_direct(o, i);
        return count;
    }
'''
# After the module's own lines: what a test or a user asks to know whether the calls are made straight.
DIAGNOSTIC = """
def __naipes_direct__(M):
    return C_direct_linked(M)
"""


def direct_name(method: str, count: int) -> str | None:
    """The C module's function for a call of the memory's `method` with `count` positional arguments, or None
    (not one of DIRECT's, or not with that many)."""
    direct = DIRECT.get(method)
    return f"C_direct_{method}_{count}" if direct is not None and direct.takes(count) else None


def c_functions(used: list[tuple[str, int]]) -> tuple[str, str]:
    """(C, Cython declarations) of the functions for the calls `used` (method, positional arguments), in that
    order."""
    if not used:
        return "", ""
    symbols = sorted({DIRECT[method].symbol for method, _ in used})
    parts = [C_LINK % {"count": len(symbols), "symbols": ", ".join(f'"CPyDef_{s}"' for s in symbols),
                       "module": Memory.__module__}]
    declarations = ['    int C_direct_linked "naipes_direct_linked" (object)\n']
    for method, count in used:
        c, declaration = _function(method, count, symbols.index(DIRECT[method].symbol))
        parts.append(c)
        declarations.append(declaration)
    return "".join(parts), "".join(declarations)


def _function(method: str, count: int, index: int) -> tuple[str, str]:
    """The C function for calls of `method` with `count` arguments, the compiled one's `index`, and its Cython
    declaration."""
    direct = DIRECT[method]
    name = f"naipes_direct_{method}_{count}"
    args = [f"a{i}" for i in range(count)]
    checks, passed, c_types = [], ["o"], ["PyObject *"]
    tags = 0
    for i, (_, kind, default) in enumerate(direct.params):
        c_types.append(C_TYPES.get(kind, "PyObject *"))
        if i >= count:  # a default: the value itself, as the compiled function takes it
            passed.append(_default(kind, default))
            continue
        tag = f"t{tags}"
        tags += kind == "int"
        if CHECKS[kind]:
            checks.append(CHECKS[kind].format(x=args[i], t=tag))
        passed.append(PASSED.get(kind, "{x}").format(x=args[i], t=tag))
    parameters = "".join(f", PyObject *{a}" for a in args)
    tagged = f"        size_t {', '.join(f't{i} = 0' for i in range(tags))};\n" if tags else ""
    test = " && ".join([f"naipes_direct(o, {index})", *checks])
    call = f"(({RESULTS[direct.result]} (*)({', '.join(c_types)}))naipes_functions[{index}])({', '.join(passed)})"
    result = {"object": f"            return {call};\n",
              "none": f"            return {call} == 2 ? NULL : (Py_INCREF(Py_None), Py_None);\n",
              "bool": f"            char r = {call};\n            return r == 2 ? NULL : PyBool_FromLong(r);\n"}
    c = (f"\n    static PyObject *{name}(PyObject *o, PyObject *name, int site{parameters}) {{\n{tagged}"
         f"        if ({test}) {{\n{result[direct.result]}        }}\n"
         f"        return naipes_call{count}(o, name, site{''.join(f', {a}' for a in args)});\n    }}\n")
    declaration = f"    object C_direct_{method}_{count} \"{name}\" (object, object, int{', object' * count})\n"
    return c, declaration


def _default(kind: str, default: object) -> str:
    """A parameter's default as the compiled function takes it."""
    if kind == "int":
        assert isinstance(default, int)
        return f"((size_t){default} << 1)"
    if kind == "bool":
        return "1" if default else "0"
    assert default is None  # (the only default of an object's kinds the list has)
    return "Py_None"
