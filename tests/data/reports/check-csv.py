#!/usr/bin/env python3
"""check-csv.py - a report CSV read back with Python's csv module: every
row as wide as the header, no sentinel numbers (-1 for "never"), the run
columns filled, every column documented in DOC; two files
concatenated (header once) are checked the same way.

usage: check-csv.py DOC FILE [FILE...]
"""
import csv
import sys

doc = open(sys.argv[1], encoding="utf-8").read()
bad = []
rows_all = 0
for path in sys.argv[2:]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    for c in header:
        if "`%s`" % c not in doc:
            bad.append("%s: column %s not documented" % (path, c))
    for i, r in enumerate(body, 2):
        if len(r) != len(header):
            bad.append("%s:%d: %d fields, header has %d" %
                       (path, i, len(r), len(header)))
            continue
        row = dict(zip(header, r))
        for k, v in row.items():
            if v.strip() == "-1":
                bad.append("%s:%d: %s is -1 (a sentinel)" % (path, i, k))
        for k in ("run_id", "started_at", "backend"):
            if k in row and not row[k]:
                bad.append("%s:%d: %s empty" % (path, i, k))
    rows_all += len(body)
if not rows_all:
    bad.append("no rows")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
