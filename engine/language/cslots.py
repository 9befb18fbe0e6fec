"""Attribute reads of a C module made direct where the value's class keeps the attribute in a slot.

The generated module reads card, player and record attributes behind the engine's prefix (``c.a_suit``).
Compiled by Cython as they are, each read is Python's generic lookup: the type's attribute cache, the
descriptor, then the slot. Python's own interpreter specialises such a read at each place it is made
(``LOAD_ATTR_SLOT``: the type's version tag and the slot's offset, remembered). :func:`slot_reads` gives a
C module the same: each read becomes ``B_slot(value, 'a_suit', SITE)``, a C function that remembers, per
place, the version tag of the last type it met and where that type keeps the attribute, and reads it there
while the tag matches. Anything else (another type, a type changed since, an attribute that is not an object
slot, a slot not set) takes Python's own ``getattr``, so every read gives what Python gives, errors included.

A type's version tag is what CPython's caches rest on: it is unique to a type as it stands, and reset when
the type changes, so a remembered tag never matches a type the offset is not for.

The rewrite is textual, at the tree's positions, and adds no line: the C module's lines stay the Python
module's, which the located errors of its tracebacks rest on.
"""
from __future__ import annotations

import ast

from ..program import ATTRIBUTE_PREFIX

# Cython reads this block as C, put in the module's C file; B_slot is declared to Cython as a function.
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
    """
    object B_slot "naipes_slot" (object, object, int)
'''


def slot_reads(source: str, tree: ast.Module) -> str:
    """`source` (parsed: `tree`) with every read of a prefixed attribute made through B_slot, and the C block
    that defines it at the end; Cython source (.pyx), its lines those of `source`."""
    lines = [line.encode() for line in source.split("\n")]  # (the tree's columns count UTF-8 bytes)
    edits: list[tuple[int, int, int, bytes]] = []  # (line, start column, end column, text)
    sites = 0
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)
                and node.attr.startswith(ATTRIBUTE_PREFIX)) or node.end_lineno is None or node.end_col_offset is None:
            continue
        end, column = node.end_lineno - 1, node.end_col_offset
        dotted = f".{node.attr}".encode()
        if lines[end][column - len(dotted):column] != dotted:
            continue  # (written some other way: left to Python's lookup)
        edits.append((node.lineno - 1, node.col_offset, node.col_offset, b"B_slot("))
        edits.append((end, column - len(dotted), column, f", '{node.attr}', {sites})".encode()))
        sites += 1
    for line, start, stop, text in sorted(edits, key=lambda e: (e[0], e[1]), reverse=True):
        lines[line] = lines[line][:start] + text + lines[line][stop:]
    return "\n".join(line.decode() for line in lines) + C_BLOCK % {"sites": max(sites, 1)}
