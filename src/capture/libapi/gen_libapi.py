#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Generates the cuBLAS/cuDNN interception tables of libgsys-inject.so from the public headers.

The C preprocessor expands each wrapper group's headers (the same include the group's .cc file
makes, in C++ mode so C++-only declarations such as cublasHgemm are seen); every top-level,
non-typedef, non-inline declaration of a function named cublas*/cudnn* becomes one entry.
Variadic functions are left out (no type-correct forwarding wrapper exists for them).

Outputs (in --out-dir):
  libapi_names.inc         {"name", library} rows sorted by name; the row index is the function
                           id the wrappers and the raw records use.
  libapi_<group>.inc       GSYS_LIBAPI_WRAP(id, name, return type, (parameters)) for the group's functions; the group's .cc
                           includes its headers first, so a name the headers do not declare (or
                           declare differently) fails the build.
  libapi_summary.txt       counts per group (read by tests and the report in docs/).
With --exports LIB... it also prints, per library, how many exported functions (ELF dynamic
symbol table, `nm -D`) have a wrapper and lists those without one.
"""
import argparse
import os
import re
import subprocess
import sys

# Wrapper groups: (group, headers, library id in format/libapi_records.h, name prefix).
# cublas.h declares the legacy API and (through cublas_api.h) the _v2 API; cublasXt.h cannot
# share a translation unit with cublas.h, so the Xt functions get their own group.
GROUPS = [
    ("cublas", ["cublas.h"], "kCublas", ("cublas",)),
    ("cublas_xt", ["cublasXt.h"], "kCublas", ("cublasXt",)),
    ("cublaslt", ["cublasLt.h"], "kCublas", ("cublasLt",)),
    ("cudnn", ["cudnn.h"], "kCudnn", ("cudnn",)),
]

NAME_RE = re.compile(r"\b((?:cublas|cudnn)\w*)\s*\(")


def preprocess(cxx, include_dir, headers):
    src = "".join("#include <%s>\n" % h for h in headers)
    r = subprocess.run([cxx, "-E", "-P", "-x", "c++", "-std=c++17", "-I", include_dir, "-"],
                       input=src, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("gen_libapi: cannot preprocess %s: %s" % (headers, r.stderr[-2000:]))
    return r.stdout


def top_level_statements(text):
    """Statements outside any braces except extern "C" blocks, split at ';'."""
    out, buf, depth, extern_depths = [], [], 0, []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            stmt = "".join(buf).strip()
            if stmt.endswith('extern "C"') or stmt == 'extern "C"' or stmt.startswith("namespace"):
                extern_depths.append(depth)  # a linkage block: its contents are top level
            else:
                depth += 1
            buf = []
        elif ch == "}":
            if extern_depths and extern_depths[-1] == depth:
                extern_depths.pop()
            else:
                depth -= 1
            buf = []
        elif ch == ";":
            if depth == 0:
                out.append(" ".join("".join(buf).split()))
            buf = []
        else:
            buf.append(ch)
        i += 1
    return out


def strip_attributes(text):
    """Removes __attribute__((...)) and __declspec(...) groups (balanced parentheses)."""
    out = text
    for kw in ("__attribute__", "__declspec"):
        while kw in out:
            i = out.index(kw)
            j = out.index("(", i)
            depth = 0
            for k in range(j, len(out)):
                depth += {"(": 1, ")": -1}.get(out[k], 0)
                if depth == 0:
                    break
            out = out[:i] + out[k + 1:]
    return out


def declared_functions(statements, prefixes):
    """{name: (return type, parenthesized parameter list)} of the declared functions."""
    names = {}
    for s in statements:
        if s.startswith("typedef") or re.search(r"\b(static|inline|using)\b", s):
            continue
        m = NAME_RE.search(s)
        if not m or not m.group(1).startswith(prefixes):
            continue
        if "..." in s[m.end():]:
            continue  # variadic
        # The name must be the declarator, not a parameter type: nothing but the return type,
        # attributes and qualifiers before it.
        head = s[:m.start()]
        if "(" in head.replace("__attribute__((", "").replace("__declspec(", ""):
            continue
        ret = strip_attributes(head).replace('extern "C"', "").replace("extern", "")
        ret = " ".join(ret.split())
        depth, k = 0, m.end() - 1
        for k in range(m.end() - 1, len(s)):
            depth += {"(": 1, ")": -1}.get(s[k], 0)
            if depth == 0:
                break
        names[m.group(1)] = (ret, s[m.end() - 1:k + 1])
    return names


def exported_functions(path):
    r = subprocess.run(["nm", "-D", "--defined-only", path], capture_output=True, text=True)
    names = set()
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "i"):
            names.add(parts[2].split("@")[0])
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include-dir", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--cxx", default="c++")
    ap.add_argument("--exports", nargs="*", default=[], help="shared libraries to compare with")
    args = ap.parse_args()

    per_group = {}
    owner = {}
    for group, headers, lib, prefixes in GROUPS:
        if not all(os.path.exists(os.path.join(args.include_dir, h)) for h in headers):
            per_group[group] = set()
            continue
        text = preprocess(args.cxx, args.include_dir, headers)
        names = declared_functions(top_level_statements(text), prefixes)
        # A name belongs to the first group that declares it (cublas_api.h is seen by two).
        names = {n: sig for n, sig in names.items() if n not in owner}
        for n in names:
            owner[n] = (group, lib)
        per_group[group] = names

    ordered = sorted(owner)
    ids = {n: i for i, n in enumerate(ordered)}
    os.makedirs(args.out_dir, exist_ok=True)

    def write(name, text):
        path = os.path.join(args.out_dir, name)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            with open(path, "w") as f:
                f.write(text)

    hdr = "// Generated by src/capture/libapi/gen_libapi.py from %s. Do not edit.\n" % args.include_dir
    write("libapi_names.inc", hdr + "".join('{"%s", LibApiLibrary::%s},\n' % (n, owner[n][1])
                                            for n in ordered))
    for group, _, _, _ in GROUPS:
        # The explicit type picks the C entry point where C++ overloads share the name.
        body = "".join("GSYS_LIBAPI_WRAP(%d, %s, %s, %s)\n" % (ids[n], n, *per_group[group][n])
                       for n in sorted(per_group[group]))
        write("libapi_%s.inc" % group, hdr + body)
    summary = "".join("%s %d\n" % (g, len(per_group[g])) for g, _, _, _ in GROUPS)
    summary += "total %d\n" % len(ordered)
    write("libapi_summary.txt", summary)

    status = 0
    for lib in args.exports:
        exported = {n for n in exported_functions(lib) if n.startswith(("cublas", "cudnn"))}
        covered = exported & set(owner)
        missing = sorted(exported - set(owner))
        print("%s: %d exported cublas*/cudnn* functions, %d wrapped, %d without a public "
              "prototype%s" % (os.path.basename(lib), len(exported), len(covered), len(missing),
                              (": " + " ".join(missing)) if missing else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
