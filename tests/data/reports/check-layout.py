#!/usr/bin/env python3
"""check-layout.py - read layout-check.js's line from a dumped DOM and say
what is wrong with the page, one line each; exit 1 when anything is.

usage: check-layout.py DOM_FILE MIN_CHARTS [print | first HEIGHT]

first HEIGHT: the first screen of a window HEIGHT px tall (issue 53) holds
the answer and the penalty chart, at most 7 findings are shown unfolded,
and every chart has a text alternative.
"""
import html
import json
import re
import sys

dom = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r"PBCHECK (.*?) PBEND", dom, re.S)
if not m:
    print("no PBCHECK line: the check script did not run")
    sys.exit(1)
r = json.loads(html.unescape(m.group(1)))
bad = []
if len(sys.argv) > 3 and sys.argv[3] == "print" and not r.get("printRules"):
    bad.append("laid out for print, but the page has no print rules")
if r["overflow"] > 0:
    bad.append("horizontal overflow of %d px at %d px" %
               (r["overflow"], r["width"]))
    bad += ["  wider than the window: " + w for w in r.get("wide", [])]
if r["charts"] < int(sys.argv[2]):
    bad.append("%d charts, expected at least %s" % (r["charts"], sys.argv[2]))
if len(sys.argv) > 4 and sys.argv[3] == "first":
    h = int(sys.argv[4])
    for what, key in (("the answer", "answerBottom"),
                      ("the penalty chart", "penaltyBottom")):
        if r.get(key) is None:
            bad.append("%s: not on the page" % what)
        elif r[key] > h:
            bad.append("%s ends at %d px, below the first %d" %
                       (what, r[key], h))
    if r["findingsShown"] > 7:
        bad.append("%d findings shown unfolded, more than 7" %
                   r["findingsShown"])
    bad += ["no text alternative: " + c for c in r["noAlt"]]
    print("first screen: answer to %s px, penalty chart to %s px, "
          "%d findings shown, %d folded" %
          (r.get("answerBottom"), r.get("penaltyBottom"),
           r["findingsShown"], r["findingsFolded"]))
bad += ["no axis ticks: " + c for c in r["noTicks"]]
bad += ["no legend: " + c for c in r["noLegend"]]
bad += ["overlap: " + o for o in r["overlaps"]]
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
