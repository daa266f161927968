#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the report_reader_fuzzer seed corpus: tiny SQLite files in the nsys export schema
variants the reader handles (2020.x without metadata, EXPORT_META_DATA, META_DATA_EXPORT with
a schema version, a newer major, a gsys report header) plus non-reports. Small on purpose (512-
byte pages, a few rows): the fuzzer mutates them. Regenerate: python3 make_report_seeds.py"""
import os
import sqlite3

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "report_reader_fuzzer")

NVTX = ("CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,"
        " rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,"
        " endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER,"
        " int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER,"
        " floatValue REAL, jsonTextId INTEGER, jsonText TEXT)")
ROWS = ["INSERT INTO StringIds VALUES (1, 'outer'), (2, 'cudaLaunchKernel')",
        "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, textId, domainId) VALUES"
        " (10, 90, 59, NULL, 281479271677953, 1, 0), (20, 30, 59, 'inner', 281479271677953,"
        " NULL, 0), (40, NULL, 34, 'mark', 281479271677953, NULL, 0)"]


def make(name, statements):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 512")
    for s in statements:
        db.execute(s)
    db.commit()
    db.execute("VACUUM")
    db.close()


def main():
    os.makedirs(OUT, exist_ok=True)
    strings = "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)"
    session = ("CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INT, utcTime TEXT,"
               " localTime TEXT)")
    make("nsys2020_no_meta.sqlite", [strings, NVTX] + ROWS)
    make("nsys2021_export_meta_data.sqlite", [
        strings, NVTX, session,
        "CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT)",
        "INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_SCHEMA_VERSION', '2.7.1')",
        "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1600000000000000000, 'x', 'y')"] + ROWS)
    make("nsys2024_meta_data_export.sqlite", [
        strings, NVTX, session,
        "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)",
        "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.11.1'),"
        " ('EXPORT_SCHEMA_VERSION_MAJOR', '3')",
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, deviceId INT,"
        " streamId INT, globalPid INT, correlationId INT, shortName INT, demangledName INT)",
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (50, 60, 0, 7, 281479271677952, 1, 2, 2)",
        "CREATE TABLE OSRT_API (start INT, end INT, eventClass INT, globalTid INT,"
        " correlationId INT, nameId INT, returnValue INT, nestingLevel INT, callchainId INT)",
        "INSERT INTO OSRT_API VALUES (5, 8, 27, 281479271677953, 0, 1, 0, 0, NULL)"] + ROWS)
    make("nsys_newer_major.sqlite", [
        strings, NVTX, "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT)",
        "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '9.0.0')"])
    make("gsys_meta_only.sqlite", [
        strings, NVTX, "CREATE TABLE GSYS_META (name TEXT, value TEXT)",
        "INSERT INTO GSYS_META VALUES ('gsys_schema_version', '1'), ('tool_version', '0.1.0')",
        "PRAGMA user_version = 1"] + ROWS)
    make("not_a_report.sqlite", ["CREATE TABLE t (a)", "INSERT INTO t VALUES (1)"])
    with open(os.path.join(OUT, "text.txt"), "w") as f:
        f.write("not sqlite at all\n")


if __name__ == "__main__":
    main()
