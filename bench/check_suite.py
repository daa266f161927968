#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Keeps bench/ a suite rather than a notebook: fails, one line per problem, when
- a script in bench/ (*.sh, *.py) is not named in bench/README.md, or a script path the README
  names does not exist;
- bench/device_session.sh's PHASE_LIST and the README's phase table differ, or a row names
  another script than the one the dispatcher runs;
- a bench/results/ path cited in RESULTS.md, the README, docs/ or tests/ does not exist, or an
  entry of bench/results/ is cited nowhere in RESULTS.md (raw logs are kept only when cited);
- a phase named by a `device_session.sh OUT PHASE` command in RESULTS.md's current-figures
  table does not exist.
  python3 bench/check_suite.py [--root REPO]"""
import argparse
import os
import re
import sys

SCRIPT_PATH = re.compile(r"\b((?:bench|tests|tools)/[\w./-]+\.(?:sh|py|c|cc|cu))\b")
RESULTS_PATH = re.compile(r"bench/results/[\w./-]*[\w/]")
CTEST_PHASES = {"gpu", "identity", "reliab", "stacks-mpi", "gpu-details"}


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def bench_scripts(root):
    for dirpath, dirs, files in os.walk(os.path.join(root, "bench")):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", "results")]
        for name in files:
            if name.endswith((".sh", ".py")):
                yield os.path.relpath(os.path.join(dirpath, name), root)


def phase_list(root):
    m = re.search(r"PHASE_LIST=\(([^)]*)\)", read(os.path.join(root, "bench/device_session.sh")))
    return m.group(1).split() if m else []


def phase_rows(readme):
    """{phase: script} from the table under '## Device phases'."""
    section = readme.split("## Device phases", 1)[-1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `([\w-]+)` \| `([^`]+)` \|", line)
        if m:
            rows[m.group(1)] = m.group(2)
    return rows


def check(root):
    problems = []
    readme = read(os.path.join(root, "bench/README.md"))
    results = read(os.path.join(root, "bench/RESULTS.md"))
    named = set(SCRIPT_PATH.findall(readme))
    for script in sorted(bench_scripts(root)):
        if script not in named:
            problems.append(f"{script} is not named in bench/README.md")
    for script in sorted(named):
        if not os.path.exists(os.path.join(root, script)):
            problems.append(f"bench/README.md names {script}, which does not exist")

    phases, rows = phase_list(root), phase_rows(readme)
    if not phases:
        problems.append("bench/device_session.sh has no PHASE_LIST=(...)")
    for phase in phases:
        want = ("bench/device/ctest_phase.sh" if phase in CTEST_PHASES
                else f"bench/device/{phase.replace('-', '_')}.sh")
        if phase not in rows:
            problems.append(f"phase {phase} is not in bench/README.md's phase table")
        elif rows[phase] != want:
            problems.append(f"bench/README.md: phase {phase} runs {want}, not {rows[phase]}")
    for phase in sorted(set(rows) - set(phases)):
        problems.append(f"bench/README.md lists phase {phase}, which device_session.sh lacks")

    cited_in_results = set()
    for dirpath, dirs, files in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirs[:] = [d for d in dirs if not d.startswith((".", "build")) and
                   not (rel == "." and d in ("third_party", "node_modules")) and
                   not (rel == "bench" and d == "results")]
        if not (rel == "bench" or rel.startswith(("docs", "tests"))):
            continue
        for name in files:
            if not name.endswith((".md", ".py", ".sh", ".txt")):
                continue
            if rel == "bench" and not name.endswith(".md"):  # its scripts and their tests
                continue
            path = os.path.join(dirpath, name)
            for cited in RESULTS_PATH.findall(read(path)):
                if not os.path.exists(os.path.join(root, cited)):
                    problems.append(f"{os.path.relpath(path, root)} cites {cited}, "
                                    "which does not exist")
                elif path.endswith("bench/RESULTS.md"):
                    cited_in_results.add(cited.split("/")[2])
    results_dir = os.path.join(root, "bench/results")
    for entry in sorted(os.listdir(results_dir) if os.path.isdir(results_dir) else []):
        if entry not in cited_in_results:
            problems.append(f"bench/results/{entry} is cited nowhere in bench/RESULTS.md")

    current = re.split(r"^# History", results, maxsplit=1, flags=re.M)[0]
    for m in re.finditer(r"device_session\.sh OUT((?: [a-z][\w-]*)+)", current):
        for phase in m.group(1).split():
            if phase not in phases:
                problems.append(f"bench/RESULTS.md's current figures name phase {phase}, "
                                "which device_session.sh lacks")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.dirname(here))
    problems = check(ap.parse_args().root)
    for p in problems:
        print(f"check_suite: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
