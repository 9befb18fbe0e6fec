"""Attribute reads and memory calls of a C module made direct, each place remembering what it found.

The generated module reads card, player and record attributes behind the engine's prefix (``c.a_suit``) and
calls the working memory's methods (``M.move(...)``). Compiled by Cython as they are, each read is Python's
generic lookup (the type's attribute cache, the descriptor, then the slot) and each call looks its method up
the same way first. Python's own interpreter specialises both at each place they are made (``LOAD_ATTR_SLOT``,
``LOAD_METHOD``: the type's version tag and what it found, remembered). :func:`site_caches` gives a C module
the same:

* each read becomes ``B_slot(value, 'a_suit', SITE)``, a C function that remembers, per place, the version tag
  of the last type it met and where that type keeps the attribute, and reads it there while the tag matches;
* each call of the memory becomes ``C_callN(M, 'move', SITE, ...)`` (N positional arguments), which remembers
  the type's function for the name (a method of the type, the instance without a dict of its own) and calls it
  with the memory first, as ``LOAD_METHOD`` does.

Anything else (another type, a type changed since, an attribute that is not an object slot, a slot not set, a
name that is not a plain method) takes Python's own ``getattr`` or method call, so every read and call gives
what Python gives, errors included.

A type's version tag is what CPython's caches rest on: it is unique to a type as it stands, and reset when
the type changes, so a remembered tag never matches a type the offset or function is not for.

The rewrite is textual, at the tree's positions, and adds no line: the C module's lines stay the Python
module's, which the located errors of its tracebacks rest on.
"""
from __future__ import annotations

import ast

from ..program import ATTRIBUTE_PREFIX

MEMORY = "M"  # the generated functions' name for the working memory (their first parameter)
MOST_ARGUMENTS = 4  # calls with more (or with keywords, or unpacked) stay Python's
# Cython reads this block as C, put in the module's C file; B_slot and C_call0..4 are declared to it as functions.
C_BLOCK = '''
cdef extern from *:
    """
    #if PY_VERSION_HEX < 0x030C0000
    #include <structmember.h>
    #define Py_T_OBJECT_EX T_OBJECT_EX
    #endif
    typedef struct { unsigned int version; Py_ssize_t offset; } naipes_site;
    static naipes_site naipes_sites[%(sites)d];

    static PyObject *naipes_slot_missed(PyObject *o, PyObject *name, int site) {
        PyTypeObject *type = Py_TYPE(o);
        PyObject *found = _PyType_Lookup(type, name);  /* borrowed; assigns the type a version tag */
        if (type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG && type->tp_version_tag != 0) {
            naipes_sites[site].version = type->tp_version_tag;
            naipes_sites[site].offset = -1;  /* not a slot: Python's getattr while the type stands */
            if (found != NULL && Py_IS_TYPE(found, &PyMemberDescr_Type)
                    && type->tp_getattro == PyObject_GenericGetAttr) {
                PyMemberDef *member = ((PyMemberDescrObject *)found)->d_member;
                if (member->type == Py_T_OBJECT_EX && member->offset > 0)
                    naipes_sites[site].offset = member->offset;
            }
        }
        return PyObject_GetAttr(o, name);
    }

    static inline PyObject *naipes_slot(PyObject *o, PyObject *name, int site) {
        naipes_site *known = &naipes_sites[site];
        if (Py_TYPE(o)->tp_version_tag == known->version && known->version != 0) {
            if (known->offset > 0) {
                PyObject *value = *(PyObject **)((char *)o + known->offset);
                if (value != NULL) {
                    Py_INCREF(value);
                    return value;
                }
            }
            return PyObject_GetAttr(o, name);
        }
        return naipes_slot_missed(o, name, site);
    }

    typedef struct { unsigned int version; PyObject *method; } naipes_call_site;
    static naipes_call_site naipes_call_sites[%(calls)d];

    /* o's function for `name`, to call with o first (borrowed: the type holds it while its version tag stands),
       remembered at `site`; NULL where Python's own method call is to be made */
    static PyObject *naipes_method(PyObject *o, PyObject *name, int site) {
        PyTypeObject *type = Py_TYPE(o);
        naipes_call_site *known = &naipes_call_sites[site];
        if (type->tp_version_tag == known->version && known->version != 0)
            return known->method;
        PyObject *found = _PyType_Lookup(type, name);  /* borrowed; assigns the type a version tag */
        if (!(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || type->tp_version_tag == 0)
            return NULL;
        known->version = type->tp_version_tag;
        known->method = found != NULL && (Py_TYPE(found)->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR)
            && type->tp_getattro == PyObject_GenericGetAttr && type->tp_dictoffset == 0 ? found : NULL;
        return known->method;
    }

    /* o.name(*args[1:]), args[0] being o */
    static PyObject *naipes_call(PyObject *o, PyObject *name, int site, PyObject **args, size_t count) {
        PyObject *method = naipes_method(o, name, site);
        if (method == NULL)
            return PyObject_VectorcallMethod(name, args, count, NULL);
        Py_INCREF(method);  /* (the call may change the type) */
        PyObject *result = PyObject_Vectorcall(method, args, count, NULL);
        Py_DECREF(method);
        return result;
    }
    static PyObject *naipes_call0(PyObject *o, PyObject *name, int site) {
        PyObject *args[1] = {o};
        return naipes_call(o, name, site, args, 1);
    }
    static PyObject *naipes_call1(PyObject *o, PyObject *name, int site, PyObject *a) {
        PyObject *args[2] = {o, a};
        return naipes_call(o, name, site, args, 2);
    }
    static PyObject *naipes_call2(PyObject *o, PyObject *name, int site, PyObject *a, PyObject *b) {
        PyObject *args[3] = {o, a, b};
        return naipes_call(o, name, site, args, 3);
    }
    static PyObject *naipes_call3(PyObject *o, PyObject *name, int site, PyObject *a, PyObject *b, PyObject *c) {
        PyObject *args[4] = {o, a, b, c};
        return naipes_call(o, name, site, args, 4);
    }
    static PyObject *naipes_call4(PyObject *o, PyObject *name, int site, PyObject *a, PyObject *b, PyObject *c,
                                  PyObject *d) {
        PyObject *args[5] = {o, a, b, c, d};
        return naipes_call(o, name, site, args, 5);
    }
    """
    object B_slot "naipes_slot" (object, object, int)
    object C_call0 "naipes_call0" (object, object, int)
    object C_call1 "naipes_call1" (object, object, int, object)
    object C_call2 "naipes_call2" (object, object, int, object, object)
    object C_call3 "naipes_call3" (object, object, int, object, object, object)
    object C_call4 "naipes_call4" (object, object, int, object, object, object, object)
'''


def site_caches(source: str, tree: ast.Module) -> str:
    """`source` (parsed: `tree`) with every read of a prefixed attribute made through B_slot and every call of the
    memory with positional arguments through C_callN, and the C block that defines them at the end; Cython source
    (.pyx), its lines those of `source`."""
    lines = [line.encode() for line in source.split("\n")]  # (the tree's columns count UTF-8 bytes)
    edits: list[tuple[int, int, int, bytes]] = []  # (line, start column, end column, text)
    slots = calls = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) \
                and node.attr.startswith(ATTRIBUTE_PREFIX) and node.end_lineno is not None \
                and node.end_col_offset is not None:
            end, column = node.end_lineno - 1, node.end_col_offset
            dotted = f".{node.attr}".encode()
            if lines[end][column - len(dotted):column] != dotted:
                continue  # (written some other way: left to Python's lookup)
            edits.append((node.lineno - 1, node.col_offset, node.col_offset, b"B_slot("))
            edits.append((end, column - len(dotted), column, f", '{node.attr}', {slots})".encode()))
            slots += 1
        elif isinstance(node, ast.Call):
            edit = _memory_call(node, lines, calls)
            if edit is not None:
                edits.append(edit)
                calls += 1
    for line, start, stop, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        lines[line] = lines[line][:start] + text + lines[line][stop:]
    return "\n".join(line.decode() for line in lines) + C_BLOCK % {"sites": max(slots, 1), "calls": max(calls, 1)}


def _memory_call(call: ast.Call, lines: list[bytes], site: int) -> tuple[int, int, int, bytes] | None:
    """The edit that makes `call` a call through C_callN at `site`, if it calls a method of the memory with a few
    positional arguments and is written as such (``M.move(``); else None."""
    method = call.func
    if not (isinstance(method, ast.Attribute) and isinstance(method.value, ast.Name) and method.value.id == MEMORY
            and not call.keywords and len(call.args) <= MOST_ARGUMENTS
            and not any(isinstance(a, ast.Starred) for a in call.args)
            and method.end_col_offset is not None and method.lineno == method.end_lineno):
        return None
    line, start, stop = method.lineno - 1, method.col_offset, method.end_col_offset + 1
    if lines[line][start:stop] != f"{MEMORY}.{method.attr}(".encode():
        return None  # (written some other way: left to Python's call)
    count = len(call.args)
    return line, start, stop, f"C_call{count}({MEMORY}, '{method.attr}', {site}{', ' if count else ''}".encode()
