# SPDX-License-Identifier: Apache-2.0
"""report_db.connect(path): a sqlite3 connection to a report in which every table of the
canonical schema (src/report/schema.sql) can be queried. A gsys report, like an nsys export, has
no empty tables (src/report/import/empty_tables.h): a table the report lacks is presented as an
empty temporary table with the schema's columns, as gsys's ReportReader presents it, so a test's
`SELECT count(*) FROM OSRT_API` reads 0 instead of failing."""
import os
import re
import sqlite3

_SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                       "src", "report", "schema.sql")
_TABLE = re.compile(r"CREATE TABLE (\w+) \((.*?)\n\);", re.S)
_COLUMN = re.compile(r"^\s*(\w+)\s+[A-Z]", re.M)


def _tables():
    with open(_SCHEMA, encoding="utf-8") as f:
        text = f.read()
    out = {}
    for name, body in _TABLE.findall(text):
        body = "\n".join(line.split("--", 1)[0] for line in body.splitlines())
        cols = [c for c in _COLUMN.findall(body) if c.upper() not in ("PRIMARY", "UNIQUE", "FOREIGN")]
        if cols:
            out[name] = cols
    return out


def connect(path, **kwargs):
    db = sqlite3.connect(path, **kwargs)
    present = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    for name, cols in _tables().items():
        if name not in present:
            db.execute("CREATE TEMP TABLE %s (%s)" % (name, ", ".join(cols)))
    return db
