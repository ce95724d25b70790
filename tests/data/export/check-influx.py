#!/usr/bin/python3
"""check-influx.py - read InfluxDB line protocol as InfluxDB reads it
(https://docs.influxdata.com/influxdb/v2/reference/syntax/line-protocol/):
measurement[,tag=value...] field=value[,field=value...] [timestamp], with
commas, spaces and equals signs in tags escaped by a backslash, integer
fields ending in i, string fields quoted, a nanosecond timestamp.

usage: check-influx.py FILE [LINES] [NS_TIMESTAMP]
Exit 0 when every line parses (and, when given, there are LINES lines,
each at NS_TIMESTAMP); else one line on stderr naming the line.
"""
import re
import sys

KEY = r"(?:[^,= \\]|\\[,= \\])+"
TAGV = r"(?:[^,= \\]|\\[,= \\])+"
FIELDV = r'(?:-?[0-9.]+(?:[eE][-+]?[0-9]+)?|-?[0-9]+i|"(?:[^"\\]|\\.)*"|true|false)'
LINE = re.compile(r"^(%s)((?:,%s=%s)*) (%s=%s(?:,%s=%s)*)(?: (-?[0-9]+))?$"
                  % (KEY, KEY, TAGV, KEY, FIELDV, KEY, FIELDV))


def main():
    lines = open(sys.argv[1]).read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines, 1):
        m = LINE.match(line)
        if not m:
            sys.exit("check-influx: line %d does not parse: %s" % (n, line))
        if len(sys.argv) > 3 and m.group(4) != sys.argv[3]:
            sys.exit("check-influx: line %d: timestamp %s, not %s"
                     % (n, m.group(4), sys.argv[3]))
        for f in m.group(3).split(","):
            v = f.split("=", 1)[1]
            if v in ("nan", "inf", "-inf"):
                sys.exit("check-influx: line %d: field %s" % (n, f))
    if len(sys.argv) > 2 and len(lines) != int(sys.argv[2]):
        sys.exit("check-influx: %d lines, not %s" % (len(lines), sys.argv[2]))


main()
