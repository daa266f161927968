#!/usr/bin/env python3
"""docs/architecture.md against the code (issue 21 item 7), for what can be checked:

- the module table lists exactly the folders of src/, and each row's "may use" column names
  exactly the modules tools/check_layering.sh lets that module include (besides itself);
- the import-pipeline section names exactly the import domain folders of src/report/import/
  (those with a CMakeLists.txt) and each one's module is registered in import_modules.cc.

Prints one line per mismatch and exits 1; silent and 0 when the document is current.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def doc_modules(doc):
    """module -> set of modules named in its "may use" cell."""
    section = doc.split("## Modules and allowed dependencies", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `(\w+)` \| ([^|]*) \|", line)
        if m:
            uses = set(re.findall(r"\b([a-z]+)\b", m.group(2).split(";")[0]))
            rows[m.group(1)] = uses
    return rows


def layering_rules():
    text = (ROOT / "tools/check_layering.sh").read_text()
    rules = {}
    for module, prefixes in re.findall(r'\[(\w+)\]="([^"]*)"', text):
        rules[module] = {p.rstrip("/") for p in prefixes.split()} - {module}
    return rules


def main():
    doc = (ROOT / "docs/architecture.md").read_text()
    problems = []
    folders = {p.name for p in (ROOT / "src").iterdir() if p.is_dir()}
    rows = doc_modules(doc)
    rules = layering_rules()
    for name in sorted(folders - set(rows)):
        problems.append(f"src/{name}/ has no row in the module table")
    for name in sorted(set(rows) - folders):
        problems.append(f"module table row `{name}` has no src/{name}/")
    for name in sorted(set(rows) & set(rules)):
        named = rows[name] & folders  # words that are modules (not "SQLite", "zlib", ...)
        if named != rules[name]:
            problems.append(f"`{name}` may use {sorted(rules[name])} (check_layering.sh), the "
                            f"table says {sorted(named)}")
    pipeline = doc.split("## The import pipeline and its domain modules", 1)
    import_dir = ROOT / "src/report/import"
    domains = {p.parent.name for p in import_dir.glob("*/CMakeLists.txt")}
    if len(pipeline) < 2:
        problems.append("no section '## The import pipeline and its domain modules'")
    else:
        section = pipeline[1].split("\n## ", 1)[0]
        # The bullet that lists the domains: "- Each domain is one folder ..." up to the next one.
        section = section.split("- Each domain is one folder", 1)[-1].split("\n- ", 1)[0]
        listed = set(re.findall(r"`(\w+)/` \(", section))
        for d in sorted(domains - listed):
            problems.append(f"import domain report/import/{d}/ is not in the import section")
        for d in sorted(listed - domains):
            problems.append(f"the import section names {d}/, which is not an import domain")
    registry = (import_dir / "import_modules.cc").read_text()
    for d in sorted(domains):
        if f'"report/import/{d}/' not in registry:
            problems.append(f"report/import/{d}/ is not included by import_modules.cc")
    for p in problems:
        print(f"architecture.md: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
