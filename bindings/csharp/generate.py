#!/usr/bin/env python3
"""Generates the low-level C# layer of the Argus bindings from include/argus.h (cbindgen output).

    python3 bindings/csharp/generate.py          rewrite the generated files
    python3 bindings/csharp/generate.py --check  exit 1 if a committed file differs from a fresh run

Writes (all committed, never edited by hand; paths from the repository root):
  unity/Runtime/Bindings/Generated/Types.g.cs          constants, enums and blittable struct mirrors
  unity/Runtime/Bindings/Generated/NativeMethods.g.cs  one [DllImport] per argus_ function, callback delegates
  bindings/csharp/tests/Generated/Layout.g.c           prints every struct's sizeof and every field's offsetof
  bindings/csharp/tests/Generated/Layout.g.cs          the same list on the C# side, for the drift test
The bindings' sources live once, in unity/Runtime/Bindings: the engine-agnostic library
(bindings/csharp/build.sh, the .nupkg) and the Unity package compile the same files. A new generated
file there needs its .meta: run python3 unity/Tools~/metas.py.

Naming: the `Argus` prefix is dropped from types (ArgusAgentDef -> AgentDef), fields and enum
members become PascalCase (view_radius -> ViewRadius, ARGUS_RESULT_INVALID_ID -> InvalidId),
#define constants keep their C name without ARGUS_ in the static class Constants. Every pointer
crosses as an unsafe pointer (or IntPtr for opaque and void pointers) so no call needs
marshalling work: the hand-written layer pins arrays with `fixed`.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
HEADER = os.environ.get("ARGUS_HEADER") or os.path.join(ROOT, "include", "argus.h")  # override: trying a new ABI

PRIMITIVES = {
    "uint8_t": ("byte", 1), "int8_t": ("sbyte", 1), "uint16_t": ("ushort", 2), "int16_t": ("short", 2),
    "uint32_t": ("uint", 4), "int32_t": ("int", 4), "uint64_t": ("ulong", 8), "int64_t": ("long", 8),
    "float": ("float", 4), "double": ("double", 8), "size_t": ("UIntPtr", 8), "char": ("byte", 1),
    "bool": ("byte", 1), "void": ("void", 0),
}
KEYWORDS = set("""abstract as base bool break byte case catch char checked class const continue decimal default
delegate do double else enum event explicit extern false finally fixed float for foreach goto if implicit in int
interface internal is lock long namespace new null object operator out override params private protected public
readonly ref return sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof
uint ulong unchecked unsafe ushort using virtual void volatile while""".split())


def pascal(name):
    return "".join(part[:1].upper() + part[1:].lower() for part in name.split("_") if part)


# C types whose plain C# name would collide, in a Unity script with `using UnityEngine; using Argus;
# using Argus.Perception;`, with UnityEngine.Ray / Plane or the Unity package's Percept /
# AwarenessStage (tests/unity/NamesTests.cs): they get a distinct C# name.
RENAMED_TYPES = {
    "ArgusRay": "EngineRay",
    "ArgusPlane": "MapPlane",
    "ArgusPercept": "PerceptEvent",
    "ArgusAwarenessStage": "AwarenessMeterStage",
}


def cs_type_name(c_name):
    if c_name in RENAMED_TYPES:
        return RENAMED_TYPES[c_name]
    return c_name[len("Argus"):] if c_name.startswith("Argus") and len(c_name) > 5 else c_name


def ident(name):
    return "@" + name if name in KEYWORDS else name


# ---- header reading ------------------------------------------------------------------------


DOC = re.compile(r"@@DOC(\d+)@@")


def strip_comments(text, docs):
    """Removes comments; each doc comment (/** */) becomes a marker @@DOCn@@ (n indexes docs)."""

    def keep(m):
        body = m.group(0)
        if not body.startswith("/**"):
            return " "
        lines = [re.sub(r"^\s*\*? ?", "", line) for line in body[3:-2].split("\n")]
        docs.append("\n".join(lines).strip())
        return " @@DOC%d@@ " % (len(docs) - 1)

    text = re.sub(r"/\*.*?\*/", keep, text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def take_doc(text, docs):
    """(the doc of the last marker at the start of text or "", text without leading markers)."""
    doc = ""
    text = text.strip()
    while True:
        m = DOC.match(text)
        if not m:
            return doc, text
        doc = docs[int(m.group(1))]
        text = text[m.end():].strip()


def preprocess(text):
    """Keeps the lines a C99 compiler sees (no __cplusplus, no C23) and collects #defines."""
    out, defines, stack = [], [], []
    for line in text.split("\n"):
        s = line.strip()
        if s.startswith("#"):
            words = s[1:].split()
            directive = words[0] if words else ""
            if directive == "ifndef":
                stack.append(words[1] != "__cplusplus")
            elif directive == "ifdef":
                stack.append(False)
            elif directive == "if":
                stack.append(False)  # every #if in a cbindgen header tests C++ or C23
            elif directive == "else":
                stack[-1] = not stack[-1]
            elif directive == "endif":
                stack.pop()
            elif directive == "define" and all(stack) and len(words) >= 3:
                doc = ""
                while out and (not out[-1].strip() or DOC.fullmatch(out[-1].strip())):
                    marker = out.pop().strip()
                    if marker and not doc:
                        doc = marker
                defines.append((words[1], " ".join(words[2:]), doc))
            continue
        if all(stack):
            out.append(line)
    return "\n".join(out), defines


def split_declarations(text):
    decls, depth, current = [], 0, []
    for ch in text:
        current.append(ch)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == ";" and depth == 0:
            decls.append(" ".join("".join(current).split()))
            current = []
    return decls


class Header:
    def __init__(self, path):
        self.doc_texts = []
        with open(path, encoding="utf-8") as f:
            text, self.defines = preprocess(strip_comments(f.read(), self.doc_texts))
        self.docs = {}  # ("struct" | "field" | "fn" | ..., names...) -> doc text
        for name, _, marker in self.defines:
            if marker:
                self.docs[("define", name)] = self.doc_texts[int(DOC.fullmatch(marker).group(1))]
        self.enums = {}  # c name -> [(member, value)]
        self.aliases = {}  # typedef name -> primitive c type
        self.opaque = set()
        self.structs = {}  # c name -> [(c type, field, array length or None)]
        self.callbacks = {}  # c name -> (return c type, [(c type, name)])
        self.functions = []  # (name, return c type, [(c type, name)])
        for decl in split_declarations(text):
            self._read(decl)

    def _read(self, decl):
        doc, decl = take_doc(decl, self.doc_texts)
        m = re.match(r"enum (\w+) \{(.*)\};$", decl)
        if m:
            members = []
            for text in m.group(2).split(","):
                member_doc, text = take_doc(text, self.doc_texts)
                if text:
                    name, value = (x.strip() for x in text.split("="))
                    members.append((name, value))
                    self.docs[("member", m.group(1), name)] = member_doc
            self.enums[m.group(1)] = members
            self.docs[("enum", m.group(1))] = doc
            return
        m = re.match(r"typedef struct (\w+) (\w+);$", decl)
        if m:
            self.opaque.add(m.group(2))
            return
        m = re.match(r"typedef struct (\w+) \{(.*)\} (\w+);$", decl)
        if m:
            fields = []
            for text in m.group(2).split(";"):
                field_doc, text = take_doc(text, self.doc_texts)
                if text:
                    fields.append(self._field(text))
                    self.docs[("field", m.group(3), fields[-1][1])] = field_doc
            self.structs[m.group(3)] = fields
            self.docs[("struct", m.group(3))] = doc
            return
        m = re.match(r"typedef (.+?) \(\*(\w+)\)\((.*)\);$", decl)
        if m:
            self.callbacks[m.group(2)] = (m.group(1), self._params(m.group(3)))
            self.docs[("callback", m.group(2))] = doc
            return
        m = re.match(r"typedef enum (\w+) (\w+);$", decl)
        if m:
            return
        m = re.match(r"typedef (\w+) (\w+);$", decl)
        if m:
            self.aliases[m.group(2)] = m.group(1)
            return
        m = re.match(r"(.+?)\b(argus_\w+)\((.*)\);$", decl)
        if m:
            self.functions.append((m.group(2), m.group(1).strip(), self._params(m.group(3))))
            self.docs[("fn", m.group(2))] = doc
            return
        raise SystemExit("generate.py: cannot read this declaration of argus.h: " + decl)

    @staticmethod
    def _field(text):
        m = re.match(r"\s*(.+?)\s*\b(\w+)\s*(?:\[(\w+)\])?\s*$", text)
        return (m.group(1), m.group(2), m.group(3))

    @staticmethod
    def _params(text):
        text = text.strip()
        if text in ("", "void"):
            return []
        params = []
        for p in text.split(","):
            m = re.match(r"\s*(.+?)\s*\b(\w+)\s*$", p)
            params.append((m.group(1), m.group(2)))
        return params

    def doc(self, *key):
        return self.docs.get(key, "")

    def define_value(self, name):
        for k, v, _ in self.defines:
            if k == name:
                return v
        raise KeyError(name)


# ---- type mapping ----------------------------------------------------------------------------


class Mapper:
    def __init__(self, header):
        self.h = header

    def base(self, c):
        """C# type for a C type without pointers (const and struct keywords removed)."""
        c = c.replace("const ", "").replace("struct ", "").replace("enum ", "").strip()
        if c in self.h.enums:
            return cs_type_name(c)
        if c in self.h.aliases:
            return self.base(self.h.aliases[c])
        if c in PRIMITIVES:
            return PRIMITIVES[c][0]
        if c in self.h.structs:
            return mirror_name(c)
        if c in self.h.callbacks:
            return cs_type_name(c)
        if c in self.h.opaque:
            return None  # only behind a pointer
        raise SystemExit("generate.py: unknown C type " + c)

    def value(self, c, in_struct=False, param=False):
        stars = c.count("*")
        bare = c.replace("*", "").strip()
        core = bare.replace("const ", "").replace("struct ", "").strip()
        if param and stars == 1 and core in self.h.opaque:
            return cs_type_name(core) + "Handle"  # a SafeHandle: the runtime keeps it alive during the call
        if stars == 0:
            if core in self.h.callbacks and in_struct:
                return "IntPtr"  # delegates are not blittable fields; the hand-written layer converts
            return self.base(bare)
        if core in self.h.opaque or core == "void":
            return "IntPtr" + "*" * (stars - 1)
        return self.base(bare) + "*" * stars


# ---- writers -----------------------------------------------------------------------------------

BANNER = "// Generated by bindings/csharp/generate.py from include/argus.h; do not edit.\n"


def xml_doc(text, indent, params=()):
    """The header's doc comment as a C# XML <summary> (empty text → no lines), its `names` in C#
    spelling (params: the documented function's parameter names, which keep their C spelling)."""
    if not text:
        return []
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # snake_case field names anywhere (in prose and inside `expressions`) in their C# spelling first
    text = re.sub(r"(?<!\w)[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b",
                  lambda m: pascal(m.group(0)) if m.group(0) in FIELD_NAMES and m.group(0) not in params else m.group(0),
                  text)
    text = re.sub(r"`([^`]+)`", lambda m: cs_name_in_doc(m.group(1), params), text)
    text = re.sub(r"<c>(\w+)</c> is ([01])\b",
                  lambda m: "<c>%s</c> is %s" % (m.group(1), "true" if m.group(2) == "1" else "false")
                  if m.group(1) in FLAG_NAMES else m.group(0), text)
    lines = text.split("\n")
    pad = " " * indent
    return [pad + "/// <summary>"] + [(pad + "/// " + line).rstrip() for line in lines] + [pad + "/// </summary>"]


def cs_name_in_doc(token, params):
    """A `C name` of the header's docs as the C# user writes it: ArgusAgentDef -> AgentDef,
    has_move_target -> HasMoveTarget, ARGUS_RESULT_INVALID_ID -> Result.InvalidId, ARGUS_DRAW_ALL ->
    Constants.DRAW_ALL; argus_ functions and the documented function's parameters keep their names."""
    h = HEADER_OBJ
    if token in h.structs:
        return "<c>%s</c>" % mirror_name(token)
    if token in h.enums or token in h.callbacks:
        return "<c>%s</c>" % cs_type_name(token)
    if token.startswith("ARGUS_"):
        for c_name, members in h.enums.items():
            prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", c_name).upper() + "_"
            if token in (mm for mm, _ in members):
                return "<c>%s.%s</c>" % (cs_type_name(c_name), pascal(token[len(prefix):]))
        if any(token == d for d, _, _ in h.defines):
            return "<c>Constants.%s</c>" % token[len("ARGUS_"):]
        return "<c>%s</c>" % token
    if re.fullmatch(r"[A-Z][A-Z0-9_]*", token) and ("member", "ArgusResult", "ARGUS_RESULT_" + token) in h.docs:
        return "<c>Result.%s</c>" % pascal(token)
    parts = token.split(".")
    if all(re.fullmatch(r"[a-z][a-z0-9_]*", part) for part in parts) and parts[0] not in params:
        if all(part in FIELD_NAMES for part in parts):
            return "<c>%s</c>" % ".".join(pascal(part) for part in parts)
    return "<c>%s</c>" % token


def constant_literal(value, header):
    value = value.strip()
    if re.fullmatch(r"-?\d+", value):
        n = int(value)
        if n < 0:
            return "int", str(n)
        return ("uint", str(n)) if n <= 0xFFFFFFFF else ("ulong", str(n) + "UL")
    if re.fullmatch(r"0x[0-9A-Fa-f]+[uU]?", value):
        return "uint", value.rstrip("uU")
    if re.fullmatch(r"-?\d+(\.\d*)?([eE][-+]?\d+)?[fF]", value):
        return "float", value.rstrip("fF") + "f"
    if re.fullmatch(r"-?\d+(\.\d*)?([eE][-+]?\d+)?", value):
        return "double", value  # a C floating literal without a suffix is a double
    if value.startswith('"'):
        return "string", value
    # <stdint.h>'s limits, as cbindgen writes `u32::MAX` and its kin.
    limits = {"UINT32_MAX": ("uint", "uint.MaxValue"), "UINT64_MAX": ("ulong", "ulong.MaxValue"),
              "UINT16_MAX": ("ushort", "ushort.MaxValue"), "INT32_MAX": ("int", "int.MaxValue")}
    return limits.get(value)


def write_types(h, m):
    out = [BANNER, "// ReSharper disable InconsistentNaming", "using System;", "using System.Runtime.InteropServices;", "",
           "namespace Argus", "{"]
    out += ["    /// <summary>The #define constants of argus.h (ARGUS_ prefix removed).</summary>",
            "    public static class Constants", "    {"]
    for name, value, _ in h.defines:
        if name == "ARGUS_H":
            continue
        lit = constant_literal(value, h)
        if lit is None:
            raise SystemExit("generate.py: cannot translate #define %s %s" % (name, value))
        short = name[len("ARGUS_"):] if name.startswith("ARGUS_") else name
        out += xml_doc(h.doc("define", name), 8)
        out.append("        public const %s %s = %s;" % (lit[0], short, lit[1]))
    out += ["    }", ""]
    for c_name, members in h.enums.items():
        underlying = h.aliases.get(c_name, "uint32_t")
        prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", c_name).upper() + "_"
        out += xml_doc(h.doc("enum", c_name), 4)
        out.append("    public enum %s : %s" % (cs_type_name(c_name), PRIMITIVES.get(underlying, ("uint",))[0]))
        out.append("    {")
        for member, value in members:
            short = member[len(prefix):] if member.startswith(prefix) else member
            out += xml_doc(h.doc("member", c_name, member), 8)
            out.append("        %s = %s," % (pascal(short), value))
        out += ["    }", ""]
    for c_name, fields in h.structs.items():
        name = mirror_name(c_name)
        out += xml_doc(h.doc("struct", c_name), 4)
        out.append("    [StructLayout(LayoutKind.Sequential)]")
        out.append("    public unsafe partial struct %s" % name)
        out.append("    {")
        for c_type, field, length, expr in cs_fields(fields):
            ty = m.value(c_type, in_struct=True)
            fname = field_name(field, name)
            doc = xml_doc(h.doc("field", c_name, expr.split("[")[0]), 8)
            if length is None and is_flag(c_name, expr, c_type):
                doc = [flag_doc(line) for line in doc]
                flag = "(%s)(value ? 1 : 0)" % ty
                out.append("        %s %s;" % (ty, backing_name(c_name, expr, fname)))
                out += doc
                out.append("        public bool %s { get { return %s != 0; } set { %s = %s; } }"
                           % (fname, backing_name(c_name, expr, fname), backing_name(c_name, expr, fname), flag))
            elif length is None and expr in HIDDEN_FIELDS:
                out += doc
                out.append("        internal %s %s;" % (ty, fname))
            elif length is None:
                out += doc
                out.append("        public %s %s;" % (ty, fname))
            elif ty in ("byte", "sbyte", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"):
                out += doc
                out.append("        public fixed %s %s[%s];" % (ty, fname, length))
            else:
                raise AssertionError("arrays of structs are expanded in cs_fields")
        out += struct_extras(h, m, c_name, fields)
        out += ["    }", ""]
        if array_item(h, m, c_name):
            out += write_view(h, m, c_name)
    out.append("}")
    return "\n".join(out) + "\n"


def struct_extras(h, m, c_name, fields):
    """Members a C# user needs on a mirror: Default() from argus_default_*, and on an
    `{ const T *items; uint32_t count; }` array a bounds-checked indexer, CopyTo and foreach."""
    out = []
    defaults = [f for f, ret, params in h.functions if f.startswith("argus_default_") and not params
                and ret.replace("struct ", "").strip() == c_name]
    if len(defaults) > 1:
        raise SystemExit("generate.py: two argus_default_ functions return " + c_name)
    for f in defaults:
        out += ["",
                "        /// <summary>The library's defaults (" + f + "); never start from a zeroed struct.</summary>",
                "        public static %s Default()" % mirror_name(c_name),
                "        {",
                "            Library.EnsureLoaded();",
                "            return NativeMethods.%s();" % f,
                "        }"]
    shape = [(t.replace(" ", ""), n) for t, n, length in fields if length is None]
    if len(shape) == 2 and shape[0][1] == "items" and shape[0][0].endswith("*") and shape[1] == ("uint32_t", "count"):
        item = m.value(fields[0][0], in_struct=True).rstrip("*")
        out += ["",
                "        /// <summary>Item i (bounds-checked copy). Valid until the world's next step or Dispose.</summary>",
                "        public %s this[int i]" % item,
                "        {",
                "            get",
                "            {",
                "                if ((uint)i >= Count) throw new IndexOutOfRangeException();",
                "                return Items[i];",
                "            }",
                "        }",
                "",
                "        /// <summary>Number of items.</summary>",
                "        public int Length { get { return (int)Count; } }",
                "",
                "        /// <summary>Copies the items into dest (at least Length long); returns Length.</summary>",
                "        public int CopyTo(%s[] dest)" % item,
                "        {",
                "            if (dest == null) throw new ArgumentNullException(\"dest\");",
                "            if (dest.Length < Count) throw new ArgumentException(\"dest is too short\", \"dest\");",
                "            for (int i = 0; i < Count; i++) dest[i] = Items[i];",
                "            return (int)Count;",
                "        }",
                "",
                "        /// <summary>foreach over the items (a struct enumerator: no allocation). No expiry check:",
                "        /// the object model hands out the checked <see cref=\"%s\"/> instead.</summary>" % view_name(c_name),
                "        public Enumerator GetEnumerator() { return new Enumerator(Items, (int)Count); }",
                "",
                "        /// <summary>The enumerator of a foreach over the items.</summary>",
                "        public struct Enumerator",
                "        {",
                "            readonly %s* _items;" % item,
                "            readonly int _count;",
                "            int _i;",
                "",
                "            internal Enumerator(%s* items, int count)" % item,
                "            {",
                "                _items = items;",
                "                _count = count;",
                "                _i = -1;",
                "            }",
                "",
                "            /// <summary>Advances to the next item.</summary>",
                "            public bool MoveNext() { return ++_i < _count; }",
                "",
                "            /// <summary>The current item (a copy).</summary>",
                "            public %s Current { get { return _items[_i]; } }" % item,
                "        }"]
    return out


def is_array_shape(h, c_name):
    """True for an `{ const T *items; uint32_t count; }` struct (an array the world owns)."""
    fields = h.structs.get(c_name)
    if not fields:
        return False
    shape = [(t.replace(" ", ""), n) for t, n, length in fields if length is None]
    return len(shape) == 2 and shape[0][1] == "items" and shape[0][0].endswith("*") and shape[1] == ("uint32_t", "count")


def array_item(h, m, c_name):
    """The C# item type of an array-shaped struct, or None for other shapes."""
    if is_array_shape(h, c_name):
        return m.value(h.structs[c_name][0][0], in_struct=True).rstrip("*")
    return None


def mirror_name(c_name):
    """The C# name of a struct's blittable mirror: the C name without Argus, except for the arrays the
    world owns, whose mirrors are NativePerceptArray, ...: the plain name is the checked view users get."""
    if is_array_shape(HEADER_OBJ, c_name):
        return "Native" + cs_type_name(c_name)
    return cs_type_name(c_name)


def view_name(c_name):
    return cs_type_name(c_name)


def write_view(h, m, c_name):
    """The object model's checked view of an array the world owns: a struct (no allocation) that
    remembers the world's epoch of its kind and throws once that moved on (InvalidOperationException)
    or the world was disposed (ObjectDisposedException), instead of reading reused or freed memory."""
    item, mirror, view = array_item(h, m, c_name), mirror_name(c_name), view_name(c_name)
    return ["    /// <summary>A <see cref=\"%s\"/> the world handed out, checked on every read: once the call" % mirror,
            "    /// that ends its life ran (the next step, Load, ...: see the property that returned it) reading it",
            "    /// throws <see cref=\"InvalidOperationException\"/>, after the world's Dispose",
            "    /// <see cref=\"ObjectDisposedException\"/>. A struct: no allocation; foreach allocates nothing.</summary>",
            "    public unsafe struct %s" % view,
            "    {",
            "        readonly %s* _items;" % item,
            "        readonly int _count;",
            "        readonly ViewEpoch _epoch;",
            "        readonly int _stamp;",
            "",
            "        internal %s(%s array, ViewEpoch epoch)" % (view, mirror),
            "        {",
            "            _items = array.Items;",
            "            _count = (int)array.Count;",
            "            _epoch = epoch;",
            "            _stamp = epoch.Value;",
            "        }",
            "",
            "        /// <summary>False once the view expired (or for a default view).</summary>",
            "        public bool IsValid { get { return _epoch != null && _epoch.Value == _stamp; } }",
            "",
            "        /// <summary>Number of items (0 for a default view).</summary>",
            "        public int Length",
            "        {",
            "            get",
            "            {",
            "                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();",
            "                return _count;",
            "            }",
            "        }",
            "",
            "        /// <summary>Item i (bounds-checked copy).</summary>",
            "        public %s this[int i]" % item,
            "        {",
            "            get",
            "            {",
            "                // The hot path: one bounds check, one epoch compare (a default view has no items,",
            "                // so it never reaches the compare).",
            "                if ((uint)i >= (uint)_count) OutOfRange();",
            "                if (_epoch.Value != _stamp) _epoch.Throw();",
            "                return _items[i];",
            "            }",
            "        }",
            "",
            "        void OutOfRange()",
            "        {",
            "            if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw(); // an expired view says so first",
            "            throw new IndexOutOfRangeException();",
            "        }",
            "",
            "        /// <summary>Copies the items into dest (at least Length long); returns Length.</summary>",
            "        public int CopyTo(%s[] dest)" % item,
            "        {",
            "            if (dest == null) throw new ArgumentNullException(\"dest\");",
            "            if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();",
            "            if (dest.Length < _count) throw new ArgumentException(\"dest is shorter than the view\", \"dest\");",
            "            for (int i = 0; i < _count; i++) dest[i] = _items[i];",
            "            return _count;",
            "        }",
            "",
            "        /// <summary>The raw items (valid only while the view is: no check).</summary>",
            "        public %s* Pointer" % item,
            "        {",
            "            get",
            "            {",
            "                if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();",
            "                return _items;",
            "            }",
            "        }",
            "",
            "        /// <summary>foreach over the items (a struct enumerator: no allocation), checked on every item.</summary>",
            "        public Enumerator GetEnumerator()",
            "        {",
            "            if (_epoch != null && _epoch.Value != _stamp) _epoch.Throw();",
            "            return new Enumerator(_items, _count, _epoch, _stamp);",
            "        }",
            "",
            "        /// <summary>The enumerator of a foreach over the view.</summary>",
            "        public struct Enumerator",
            "        {",
            "            readonly %s* _items;" % item,
            "            readonly int _count;",
            "            readonly ViewEpoch _epoch;",
            "            readonly int _stamp;",
            "            int _i;",
            "",
            "            internal Enumerator(%s* items, int count, ViewEpoch epoch, int stamp)" % item,
            "            {",
            "                _items = items;",
            "                _count = count;",
            "                _epoch = epoch;",
            "                _stamp = stamp;",
            "                _i = -1;",
            "            }",
            "",
            "            /// <summary>Advances to the next item; throws once the view expired.</summary>",
            "            public bool MoveNext()",
            "            {",
            "                if (++_i >= _count) return false;",
            "                if (_epoch.Value != _stamp) _epoch.Throw();",
            "                return true;",
            "            }",
            "",
            "            /// <summary>The current item (a copy).</summary>",
            "            public %s Current { get { return _items[_i]; } }" % item,
            "        }",
            "    }",
            ""]


def array_length(h, length):
    return int(length) if length.isdigit() else int(h.define_value(length))


def cs_fields(fields):
    """(C type, C# field name, fixed length, C offsetof expression) as C# declares the fields of a
    struct: an array of structs becomes one field per element (C# has no fixed buffer of structs)."""
    result = []
    for c_type, field, length in fields:
        bare = c_type.replace("const ", "").replace("struct ", "").strip()
        if length is not None and bare not in PRIMITIVES and "*" not in c_type:
            for i in range(array_length(HEADER_OBJ, length)):
                result.append((c_type, pascal(field) + str(i), None, "%s[%d]" % (field, i)))
        else:
            result.append((c_type, pascal(field), length, field))
    return result


def field_name(name, struct_name):
    return name + "_" if name == struct_name else name


# Fields the object model shows as bool properties over their C byte/uint: every uint8_t field of the
# header is a 0/1 flag, and these wider ones are too.
FLAG_FIELDS = {("ArgusRayHit", "hit")}
# Fields filled by the library that a C# user never touches (internal: the Argus assembly only).
HIDDEN_FIELDS = {"internal_cookie"}


def flag_doc(line):
    """A flag's doc in bool words: "Non-zero: x (default 1)" -> "True: x (default true)"."""
    for c, cs in (("Non-zero", "True"), ("Zero when", "False when"), ("(default 1)", "(default true)"),
                  ("(default 0)", "(default false)")):
        line = line.replace(c, cs)
    return line


def is_flag(c_name, expr, c_type):
    return c_type.strip() == "uint8_t" or (c_name, expr) in FLAG_FIELDS


def backing_name(c_name, expr, fname):
    return "_" + fname[:1].lower() + fname[1:]


def layout_field_name(c_name, fields, expr, fname):
    """The C# field the drift test reads the offset of: a flag's private backing field."""
    c_type = [t for t, f, _ in fields if f == expr.split("[")[0]][0]
    return backing_name(c_name, expr, fname) if is_flag(c_name, expr, c_type) else fname


def write_native_methods(h, m):
    out = [BANNER, "// ReSharper disable InconsistentNaming", "using System;", "using System.Runtime.InteropServices;",
           "using System.Security;", "", "namespace Argus", "{"]
    for c_name, (ret, params) in h.callbacks.items():
        args = ", ".join("%s %s" % (m.value(t), ident(n)) for t, n in params)
        out += xml_doc(h.doc("callback", c_name), 4, [n for _, n in params])
        out.append("    [UnmanagedFunctionPointer(CallingConvention.Cdecl)]")
        out.append("    public unsafe delegate %s %s(%s);" % (m.value(ret), cs_type_name(c_name), args))
        out.append("")
    out += ["    /// <summary>Every argus_ function of argus.h, one to one. Prefer <see cref=\"World\"/>.</summary>",
            "    [SuppressUnmanagedCodeSecurity]",
            "    public static unsafe partial class NativeMethods",
            "    {",
            "        /// <summary>The native library's name: argus.dll, libargus.so (Linux, Android), libargus.dylib.",
            "        /// In an iOS or WebGL player (not the Editor) the static libargus.a is linked into the player",
            "        /// and its functions are imported from \"__Internal\". Outside Unity no UNITY_ symbol is",
            "        /// defined: always \"argus\". The Unity package's Runtime asmdef (includePlatforms) and its",
            "        /// plugins (Tools~/metas.py) list the same platforms.</summary>",
            "#if (UNITY_IOS || UNITY_WEBGL) && !UNITY_EDITOR",
            "        public const string Library = \"__Internal\";",
            "#else",
            "        public const string Library = \"argus\";",
            "#endif",
            ""]
    for name, ret, params in h.functions:
        args = ", ".join("%s %s" % (m.value(t, param=True), ident(n)) for t, n in params)
        out += xml_doc(h.doc("fn", name), 8, [n for _, n in params])
        out.append("        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]")
        out.append("        public static extern %s %s(%s);" % (m.value(ret), name, args))
        out.append("")
    out[-1:] = ["    }", "}"]
    return "\n".join(out) + "\n"


def write_layout_c(h):
    out = ["/* Generated by bindings/csharp/generate.py from include/argus.h; do not edit. */",
           "/* Prints the C compiler's layout of every Argus struct, one line per fact. */",
           "#include <stddef.h>", "#include <stdio.h>", "#include \"argus.h\"", "", "int main(void) {"]
    for c_name, fields in h.structs.items():
        out.append('    printf("size %s %%zu\\n", sizeof(%s));' % (c_name, c_name))
        for _, field, _, expr in cs_fields(fields):
            out.append('    printf("offset %s %s %%zu\\n", offsetof(%s, %s));' % (c_name, expr, c_name, expr))
    out += ["    return 0;", "}"]
    return "\n".join(out) + "\n"


def write_layout_cs(h):
    out = [BANNER, "using System;", "", "namespace Argus.Tests", "{",
           "    /// <summary>(C struct, C field, C# type, C# field): what the drift test compares.</summary>",
           "    public static class LayoutTable", "    {",
           "        public static readonly object[][] Structs =", "        {"]
    for c_name, fields in h.structs.items():
        name = mirror_name(c_name)
        out.append('            new object[] { "%s", typeof(%s) },' % (c_name, name))
    out += ["        };", "", "        public static readonly string[][] Fields =", "        {"]
    for c_name, fields in h.structs.items():
        name = mirror_name(c_name)
        for _, field, _, expr in cs_fields(fields):
            out.append('            new[] { "%s", "%s", "%s" },'
                       % (c_name, expr, layout_field_name(c_name, fields, expr, field_name(field, name))))
    out += ["        };", "", "        public static readonly string[][] Functions =", "        {"]
    for name, ret, params in h.functions:
        out.append('            new[] { "%s", "%d" },' % (name, len(params)))
    out += ["        };", "    }", "}"]
    return "\n".join(out) + "\n"


HEADER_OBJ = None
FIELD_NAMES = set()
FLAG_NAMES = set()


def main():
    global HEADER_OBJ
    check = "--check" in sys.argv[1:]
    HEADER_OBJ = h = Header(HEADER)
    FIELD_NAMES.update(f for fields in h.structs.values() for _, f, _ in fields)
    FLAG_NAMES.update(pascal(f) for c, fields in h.structs.items() for t, f, n in fields if n is None and is_flag(c, f, t))
    m = Mapper(h)
    files = {
        "unity/Runtime/Bindings/Generated/Types.g.cs": write_types(h, m),
        "unity/Runtime/Bindings/Generated/NativeMethods.g.cs": write_native_methods(h, m),
        "bindings/csharp/tests/Generated/Layout.g.c": write_layout_c(h),
        "bindings/csharp/tests/Generated/Layout.g.cs": write_layout_cs(h),
    }
    stale = []
    out_dir = os.environ.get("ARGUS_GENERATE_OUT") or ROOT  # override: generate elsewhere to compare (a root)
    for rel, text in files.items():
        path = os.path.join(out_dir, rel)
        try:
            with open(path, encoding="utf-8") as f:
                old = f.read()
        except FileNotFoundError:
            old = None
        if old != text:
            stale.append(rel)
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
    if check and stale:
        print("stale generated bindings (run python3 bindings/csharp/generate.py): " + ", ".join(stale))
        return 1
    print(("checked " if check else "wrote ") + str(len(files)) + " files; " +
          "%d functions, %d structs, %d enums, %d constants" % (len(h.functions), len(h.structs), len(h.enums),
                                                               len(h.defines)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
