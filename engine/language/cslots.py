"""Attribute reads, memory calls and variable reads of a C module made direct, each remembering what it found.

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
  with the memory first, as ``LOAD_METHOD`` does;
* each read of a game variable by its name becomes ``C_var(V, 'trick', NAME)``, which remembers, per name, the
  dict it last read, that dict's version tag and the value, and gives the value again while the tag stands
  (CPython gives a dict a new tag at every change): a rule's test, a move's legality and the functions they
  call read the same few variables many times between two changes;
* each read of an item by a constant index (``V['trick'][0]``) becomes ``C_item(value, 0)``, which reads a tuple's
  or a list's item in place, a zone's too: a zone is a subclass of list, and CPython's subclass of list finds its
  ``[]`` as a method to call (list's ``__getitem__`` is a method of its own, beside the slot), so Python's
  ``zone[0]`` is a method lookup and a call;
* each test of a local's bits against a constant mask (``if (v___stale & 48):``, the agenda's evaluation of
  its stale rules) becomes ``C_bits(v___stale, 48, 48)``, which reads an int's low 64 bits and makes no int.

Anything else (another type, a type changed since, an attribute that is not an object slot, a slot not set, a
name that is not a plain method, an index out of range, a subclass of list with a ``[]`` of its own) takes
Python's own ``getattr``, method call or ``[]``, so every read and call gives what Python gives, errors included.

A type's version tag is what CPython's caches rest on: it is unique to a type as it stands, and reset when
the type changes, so a remembered tag never matches a type the offset or function is not for.

The rewrite is textual, at the tree's positions, and adds no line: the C module's lines stay the Python
module's, which the located errors of its tracebacks rest on.
"""
from __future__ import annotations

import ast

from ..program import ATTRIBUTE_PREFIX
from .cdirect import DIAGNOSTIC, c_functions, direct_name

MEMORY = "M"  # the generated functions' name for the working memory (their first parameter)
VARIABLES = "V"  # ... and for the game's variables, a dict (their second)
MOST_ARGUMENTS = 4  # calls with more (or with keywords, or unpacked) stay Python's
Edit = tuple[int, int, int, bytes]  # (line, start column, end column, text)
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

    /* A game variable's read, V['trick'], remembered for its name: the dict and its version tag when it was read,
       and the value. CPython gives a dict a new tag, unique in the process, at each change (and a new dict a tag
       of its own), so while the tag stands the dict still holds that value (borrowed). Where Cython does not
       read the tags (Python 3.12 and later deprecate them), and for a name not there, Python's own lookup. */
    typedef struct { PyObject *dict; unsigned long long version; PyObject *value; } naipes_read;
    static naipes_read naipes_reads[%(names)d];

    static inline PyObject *naipes_var(PyObject *V, PyObject *name, int at) {
    #if CYTHON_USE_DICT_VERSIONS
        if (PyDict_CheckExact(V)) {
            naipes_read *known = &naipes_reads[at];
            unsigned long long version = ((PyDictObject *)V)->ma_version_tag;
            if (known->dict == V && known->version == version) {
                Py_INCREF(known->value);
                return known->value;
            }
            PyObject *value = PyDict_GetItemWithError(V, name);  /* borrowed */
            if (value != NULL) {
                known->dict = V;
                known->version = version;
                known->value = value;
                Py_INCREF(value);
                return value;
            }
        }
    #endif
        return PyObject_GetItem(V, name);
    }

    /* Whether `type`, a subclass of list, has list's own `[]` (as a zone has): remembered for the last such type
       by its version tag, which CPython resets when the type changes. */
    static unsigned int naipes_plain_list_version;
    static int naipes_plain_list(PyTypeObject *type) {
        static PyObject *getitem;
        if (type->tp_version_tag == naipes_plain_list_version && naipes_plain_list_version != 0)
            return 1;
        if (!PyType_IsSubtype(type, &PyList_Type))
            return 0;
        if (getitem == NULL && (getitem = PyUnicode_InternFromString("__getitem__")) == NULL) {
            PyErr_Clear();
            return 0;
        }
        PyObject *own = _PyType_Lookup(type, getitem);  /* borrowed; assigns the type a version tag */
        if (own == NULL || own != _PyType_Lookup(&PyList_Type, getitem)
                || !(type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || type->tp_version_tag == 0)
            return 0;
        naipes_plain_list_version = type->tp_version_tag;
        return 1;
    }

    /* o[i] for a constant i: a tuple's or a list's item read in place (a plain list subclass's too), as list's
       and tuple's `[]` read it; anything else, or an index out of range, Python's `[]`. */
    static PyObject *naipes_item(PyObject *o, Py_ssize_t i) {
        PyTypeObject *type = Py_TYPE(o);
        PyObject **items = NULL;
        Py_ssize_t size = 0;
        if (type == &PyTuple_Type) {
            items = ((PyTupleObject *)o)->ob_item;
            size = PyTuple_GET_SIZE(o);
        } else if (type == &PyList_Type || naipes_plain_list(type)) {
            items = ((PyListObject *)o)->ob_item;
            size = PyList_GET_SIZE(o);
        }
        Py_ssize_t at = i < 0 ? i + size : i;
        if (items != NULL && 0 <= at && at < size) {
            Py_INCREF(items[at]);
            return items[at];
        }
        PyObject *index = PyLong_FromSsize_t(i);
        if (index == NULL)
            return NULL;
        PyObject *item = PyObject_GetItem(o, index);
        Py_DECREF(index);
        return item;
    }

    /* `x & mask` as a test (mask a constant from 0 to 2**64 - 1): the low 64 bits of an int are all the mask
       reads, so no int is made for the result; anything else, Python's `&` and truth. */
    static inline int naipes_bits(PyObject *x, unsigned long long mask, PyObject *mask_object) {
        if (PyLong_CheckExact(x))
            return (PyLong_AsUnsignedLongLongMask(x) & mask) != 0;  /* (cannot fail for an int) */
        PyObject *both = PyNumber_And(x, mask_object);
        if (both == NULL)
            return -1;
        int truth = PyObject_IsTrue(both);
        Py_DECREF(both);
        return truth;
    }
%(direct)s    """
    bint C_bits "naipes_bits" (object, unsigned long long, object) except -1
    object C_var "naipes_var" (object, object, int)
    object C_item "naipes_item" (object, Py_ssize_t)
    object B_slot "naipes_slot" (object, object, int)
    object C_call0 "naipes_call0" (object, object, int)
    object C_call1 "naipes_call1" (object, object, int, object)
    object C_call2 "naipes_call2" (object, object, int, object, object)
    object C_call3 "naipes_call3" (object, object, int, object, object, object)
    object C_call4 "naipes_call4" (object, object, int, object, object, object, object)
%(declarations)s'''


def site_caches(source: str, tree: ast.Module) -> str:
    """`source` (parsed: `tree`) with every read of a prefixed attribute made through B_slot and every call of the
    memory with positional arguments through C_callN, and the C block that defines them at the end; Cython source
    (.pyx), its lines those of `source`."""
    lines = [line.encode() for line in source.split("\n")]  # (the tree's columns count UTF-8 bytes)
    edits: list[Edit] = []
    slots = calls = 0
    names: dict[str, int] = {}  # a game variable's name: its place among the remembered reads
    direct: dict[tuple[str, int], None] = {}  # the calls made straight to the compiled runtime (method, arguments)
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
            edit = _memory_call(node, lines, calls, direct)
            if edit is not None:
                edits.append(edit)
                calls += 1
        elif isinstance(node, ast.Subscript):
            edit = _variable_read(node, lines, names)
            if edit is not None:
                edits.append(edit)
            else:
                edits += _item_read(node, lines)
        elif isinstance(node, (ast.If, ast.IfExp, ast.While)):
            edit = _bit_test(node.test, lines)
            if edit is not None:
                edits.append(edit)
    # from the end back, so that each edit's columns still hold; at one place, what replaces text before what
    # is put in front of it (``B_slot(`` before ``V['dealer']``), and what is put in front of an inner node before
    # what is put in front of the node around it (``B_slot(C_item(``: ast.walk meets the outer node first)
    ordered = sorted(enumerate(edits), key=lambda e: (e[1][0], e[1][1], e[1][2] - e[1][1], e[0]), reverse=True)
    for _, (line, start, stop, text) in ordered:
        lines[line] = lines[line][:start] + text + lines[line][stop:]
    functions, declarations = c_functions(list(direct))
    return "\n".join(line.decode() for line in lines) + C_BLOCK % {
        "sites": max(slots, 1), "calls": max(calls, 1), "names": max(len(names), 1), "direct": functions,
        "declarations": declarations} + (DIAGNOSTIC if direct else "")


def _memory_call(call: ast.Call, lines: list[bytes], site: int, direct: dict[tuple[str, int], None]) -> Edit | None:
    """The edit that makes `call` a call through C_callN at `site`, if it calls a method of the memory with a few
    positional arguments and is written as such (``M.move(``), or through the function that calls the compiled
    runtime's own (cdirect; added to `direct`); else None."""
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
    function = direct_name(method.attr, count)
    if function is not None:
        direct[method.attr, count] = None
    return line, start, stop, \
        f"{function or f'C_call{count}'}({MEMORY}, '{method.attr}', {site}{', ' if count else ''}".encode()


def _variable_read(read: ast.Subscript, lines: list[bytes], names: dict[str, int]) -> Edit | None:
    """The edit that makes `read` a read through C_var, if it reads a game variable by its name and is written as
    such (``V['trick']``; the name is given its place in `names`); else None."""
    key = read.slice
    if not (isinstance(read.ctx, ast.Load) and isinstance(read.value, ast.Name) and read.value.id == VARIABLES
            and isinstance(key, ast.Constant) and type(key.value) is str and read.end_col_offset is not None
            and read.lineno == read.end_lineno):
        return None
    line, start, stop = read.lineno - 1, read.col_offset, read.end_col_offset
    if lines[line][start:stop] != f"{VARIABLES}[{key.value!r}]".encode():
        return None  # (written some other way: left to Python's lookup)
    at = names.setdefault(key.value, len(names))
    return line, start, stop, f"C_var({VARIABLES}, {key.value!r}, {at})".encode()


def _item_read(read: ast.Subscript, lines: list[bytes]) -> list[Edit]:
    """The edits that make `read` a read through C_item, if it reads an item by a constant index and is written as
    such (``V['trick'][0]``, ``v_pc[-1]``: ``[`` right after the value, the index and ``]`` on its line); else
    none."""
    value, index = read.value, _constant_index(read.slice)
    if not (isinstance(read.ctx, ast.Load) and index is not None and -(1 << 31) < index < 1 << 31
            and read.end_lineno is not None and value.end_lineno == read.end_lineno
            and value.end_col_offset is not None and read.end_col_offset is not None):
        return []
    line, after, end = read.end_lineno - 1, value.end_col_offset, read.end_col_offset
    if lines[line][after:end] != f"[{index}]".encode():
        return []  # (written some other way: left to Python's `[]`)
    return [(read.lineno - 1, read.col_offset, read.col_offset, b"C_item("),
            (line, after, end, f", {index})".encode())]


def _constant_index(key: ast.expr) -> int | None:
    """The int `key` writes (``0``, ``-1``), if it is one."""
    sign, written = (-1, key.operand) if isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.USub) else (1, key)
    return sign * written.value if isinstance(written, ast.Constant) and type(written.value) is int else None


def _bit_test(test: ast.expr, lines: list[bytes]) -> Edit | None:
    """The edit that makes `test` a test through C_bits, if it tests a local's bits against a constant mask and is
    written as such (``if (v___stale & 48):``, as the agenda's evaluation tests which rules are stale); else None."""
    if not (isinstance(test, ast.BinOp) and isinstance(test.op, ast.BitAnd) and isinstance(test.left, ast.Name)
            and isinstance(test.right, ast.Constant) and type(test.right.value) is int
            and 0 <= test.right.value < 1 << 64 and test.end_col_offset is not None
            and test.lineno == test.end_lineno):
        return None
    name, mask = test.left.id, test.right.value
    line, start, stop = test.lineno - 1, test.col_offset, test.end_col_offset
    if lines[line][start:stop] != f"{name} & {mask}".encode():
        return None  # (written some other way: left to Python's `&`)
    return line, start, stop, f"C_bits({name}, {mask}, {mask})".encode()
