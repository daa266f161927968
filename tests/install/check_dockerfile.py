#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lints the repository's Dockerfile and turns one stage into a shell script, for machines
without a container engine (tests/install/test_container.sh).

  check_dockerfile.py --dockerfile F --context DIR                  lint; exit 1 on a finding
  check_dockerfile.py --dockerfile F --context DIR --stage S --emit-script OUT --root R
        [--from-root NAME=DIR ...]

Lint: every stage has a name; the first is `debian:bookworm-slim AS gsys`; COPY --from names an
earlier stage; every COPY source exists in the context; a file RUN names under a COPY
destination was copied there and exists; apt-get runs update and install in one RUN, with
--no-install-recommends, and removes /var/lib/apt/lists; ENTRYPOINT and CMD use the JSON form.

The script reproduces stage S under root R: COPY copies from the context (or from the root of
another stage, --from-root), RUN runs with the image's own folders (those outside the Debian
base layout, e.g. /src, /build, /opt) moved under R, ENV is exported. apt-get steps are not run
(no network, no root): their packages are printed as `# apt: PKG ...` lines for the caller to
check as installed.
"""
import argparse
import json
import os
import re
import shlex
import sys

# Top-level folders of the base image that stay where they are; anything else a step names
# (/src, /build, /opt, ...) is the image's own and is moved under the scratch root.
SYSTEM_DIRS = {"bin", "boot", "dev", "etc", "home", "lib", "lib64", "proc", "root", "run",
               "sbin", "sys", "tmp", "usr", "var"}


def instructions(text):
    """(line number, KEYWORD, arguments) for each instruction, continuations joined."""
    out, buf, start = [], "", 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip()
        if not buf and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if buf and line.lstrip().startswith("#"):
            continue  # a comment inside a continued RUN
        if not buf:
            start = n
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        keyword, _, args = buf.strip().partition(" ")
        out.append((start, keyword.upper(), args.strip()))
        buf = ""
    return out


def stages(insts):
    """[(name, base, [(line, keyword, args)...])]."""
    result = []
    for line, kw, args in insts:
        if kw == "FROM":
            m = re.match(r"^(\S+)(?:\s+AS\s+(\S+))?$", args, re.IGNORECASE)
            base, name = (m.group(1), m.group(2)) if m else (args, None)
            result.append([name, base, [], line])
        elif result:
            result[-1][2].append((line, kw, args))
    return result


def copy_args(args):
    """(--from value or None, [sources], destination)."""
    words = shlex.split(args)
    frm = None
    while words and words[0].startswith("--"):
        flag = words.pop(0)
        if flag.startswith("--from="):
            frm = flag.split("=", 1)[1]
    return frm, words[:-1], words[-1] if words else ""


def apt_packages(cmd):
    pkgs = []
    for part in re.split(r"&&|;", cmd):
        words = shlex.split(part)
        if len(words) >= 2 and words[0] == "apt-get" and "install" in words:
            pkgs += [w for w in words[words.index("install") + 1:] if not w.startswith("-")]
    return pkgs


def lint(path, context):
    problems = []
    insts = instructions(open(path).read())
    st = stages(insts)
    if not st:
        return ["no FROM"]
    if st[0][1] != "debian:bookworm-slim" or st[0][0] != "gsys":
        problems.append("line %d: the first stage must be `FROM debian:bookworm-slim AS gsys`"
                        % st[0][3])
    names = []
    for name, base, body, fline in st:
        if not name:
            problems.append("line %d: FROM %s has no `AS name`" % (fline, base))
        elif name in names:
            problems.append("line %d: stage name %s used twice" % (fline, name))
        copied = []  # destinations in this stage, with the context paths copied there
        for line, kw, args in body:
            if kw == "COPY" or kw == "ADD":
                if kw == "ADD":
                    problems.append("line %d: ADD (use COPY)" % line)
                frm, srcs, dest = copy_args(args)
                if not dest.startswith("/"):
                    problems.append("line %d: COPY destination %s is not absolute" % (line, dest))
                if frm is not None:
                    if frm not in names:
                        problems.append("line %d: COPY --from=%s names no earlier stage"
                                        % (line, frm))
                    continue
                for s in srcs:
                    if not os.path.exists(os.path.join(context, s)):
                        problems.append("line %d: COPY source %s is not in the context" % (line, s))
                    target = dest + os.path.basename(s) if dest.endswith("/") else dest
                    copied.append((target.rstrip("/"), s))
            elif kw == "RUN":
                if "apt-get install" in args:
                    if "apt-get update" not in args:
                        problems.append("line %d: apt-get install without update in the same RUN"
                                        % line)
                    if "--no-install-recommends" not in args:
                        problems.append("line %d: apt-get install without --no-install-recommends"
                                        % line)
                    if "rm -rf /var/lib/apt/lists" not in args:
                        problems.append("line %d: apt lists not removed" % line)
                for word in shlex.split(args.replace("&&", " ")):
                    for target, src in copied:
                        if word.startswith(target + "/"):
                            rel = os.path.join(src, word[len(target) + 1:])
                            if not os.path.exists(os.path.join(context, rel)):
                                problems.append("line %d: RUN uses %s, not in the context (%s)"
                                                % (line, word, rel))
            elif kw in ("ENTRYPOINT", "CMD"):
                try:
                    ok = isinstance(json.loads(args), list)
                except ValueError:
                    ok = False
                if not ok:
                    problems.append("line %d: %s is not in JSON (exec) form" % (line, kw))
        names.append(name)
    return problems


def moved(word, root):
    """`word` with every absolute path of the image's own folders put under `root`."""
    def fix(m):
        path = m.group(0)
        first = path.lstrip("/").split("/", 1)[0]
        return path if first in SYSTEM_DIRS or not first else root + path
    return re.sub(r"(?<![\w.$])/[\w.+-]+(?:/[\w.+*-]*)*", fix, word)


def emit(path, context, stage, root, from_roots):
    st = {s[0]: s for s in stages(instructions(open(path).read()))}
    if stage not in st:
        raise SystemExit("check_dockerfile: no stage %s" % stage)
    lines = ["#!/usr/bin/env bash", "# Stage %s of %s, under %s (check_dockerfile.py)."
             % (stage, path, root), "set -euo pipefail", "mkdir -p %s" % shlex.quote(root)]
    for line, kw, args in st[stage][2]:
        if kw == "COPY":
            frm, srcs, dest = copy_args(args)
            base = from_roots[frm] if frm is not None else context
            for s in srcs:
                src = os.path.join(base, s.lstrip("/")) if frm is not None else os.path.join(base, s)
                target = root + dest
                if dest.endswith("/"):
                    lines.append("mkdir -p %s" % shlex.quote(target))
                else:
                    lines.append("mkdir -p %s" % shlex.quote(os.path.dirname(target)))
                lines.append("cp -a %s %s" % (shlex.quote(src.rstrip("/")), shlex.quote(target)))
        elif kw == "RUN":
            if "apt-get" in args:
                lines.append("# apt: " + " ".join(apt_packages(args)))
                continue
            lines.append("echo %s" % shlex.quote("== RUN (line %d) %s" % (line, args)))
            lines.append("( cd %s && %s )" % (shlex.quote(root), moved(args, root)))
        elif kw == "ENV":
            name, _, value = args.partition("=")
            lines.append("export %s=%s" % (name, moved(value, root)))
        elif kw in ("ENTRYPOINT", "CMD"):
            lines.append("# %s: %s" % (kw.lower(), " ".join(json.loads(args))))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dockerfile", required=True)
    ap.add_argument("--context", required=True)
    ap.add_argument("--stage")
    ap.add_argument("--emit-script")
    ap.add_argument("--root")
    ap.add_argument("--from-root", action="append", default=[])
    a = ap.parse_args()
    problems = lint(a.dockerfile, a.context)
    for p in problems:
        print("check_dockerfile: %s: %s" % (a.dockerfile, p))
    if problems:
        return 1
    if a.stage:
        from_roots = dict(x.split("=", 1) for x in a.from_root)
        with open(a.emit_script, "w") as f:
            f.write(emit(a.dockerfile, a.context, a.stage, a.root, from_roots))
    else:
        print("check_dockerfile: %s: ok" % a.dockerfile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
