#!/usr/bin/python3
"""one_number.py - one run, one penalty per mode on every surface (issue 52).

Renders a results directory through every surface provbench has and checks
that each shows the same penalty for each mode, to the precision it
prints: the answer and the terminal table, report --json, summary.csv,
report.html (its table and caption), the exports (OpenMetrics, InfluxDB
lines, JUnit), a comparison and the trend; with --progress, the run's own
progress lines, each repetition's figure against the one this script
works out from run.json by the definition (docs/reports.md, "The
penalty"), written here a second time on purpose. With --whole, each
mode's penalty must lie within 5 points of its repetitions' median
whole-pass time ratio less the baseline's, or its interval hold it.

usage: one_number.py PROVBENCH RESULTS_DIR SCRATCH [--progress LOG]
                     [--whole]

Exits 1 naming every disagreement; prints what it compared.
"""
import csv
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

bad = []


def fail(msg):
    bad.append(msg)
    print("one_number: DISAGREES: " + msg)


def pct(v):
    """as C's %.0f of round(v * 100): half away from zero"""
    x = abs(v) * 100
    return int(math.floor(x + 0.5)) * (1 if v >= 0 else -1)


def run(argv, ok=(0,)):
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode not in ok:
        sys.exit("one_number: %s: exit %d: %s" % (" ".join(argv),
                                                   p.returncode, p.stderr))
    return p.stdout


def rep_ratio(item):
    """a repetition's first write over its rewrites, in time per byte:
    the whole pass against the rewritten stripes (paired), else the
    rewrite passes' median rate over the first write's"""
    ps = item["runner"]["passes"]
    fw = ps[0]
    pr = fw.get("paired")
    if pr:
        return (fw["seconds"] / fw["bytes"]) / (pr["written_seconds"] /
                                                pr["written_bytes"])
    rw = [p["mib_per_s"] for p in ps[1:] if p["name"] == "rewrite"]
    return statistics.median(rw) / fw["mib_per_s"]


def main():
    a = sys.argv[1:]
    progress = whole = None
    if "--progress" in a:
        i = a.index("--progress")
        progress = a[i + 1]
        del a[i:i + 2]
    if "--whole" in a:
        a.remove("--whole")
        whole = True
    pb, res, tmp = a
    os.makedirs(tmp, exist_ok=True)
    with open(os.path.join(res, "run.json")) as f:
        rj = json.load(f)

    doc = json.loads(run([pb, "report", "--json", "-q", "-o",
                          os.path.join(tmp, "json"), res]))
    pen = {g["mode"]: g["warmup_penalty_frac"] for g in doc["groups"]}
    base = (doc.get("baseline") or {}).get("mode")
    print("one_number: report --json: " + ", ".join(
        "%s %s" % (m, "-" if p["value"] is None else "%.4f" % p["value"])
        for m, p in pen.items()))
    modes = [m for m, p in pen.items() if p["value"] is not None]

    # the answer and the terminal table
    text = run([pb, "report", "-o", os.path.join(tmp, "text"), res])
    answer, table, where = [], {}, None
    for line in text.splitlines():
        if line == "answer:":
            where = "answer"
            continue
        if where == "answer":
            if not line.startswith("  "):
                where = None
            else:
                answer.append(line.strip())
        w = line.split()
        if w and w[0] in pen and not line.startswith(" ") and len(w) > 3:
            table[w[0]] = line
    for m in modes:
        p = pct(pen[m]["value"])
        got = re.search(r"\s(-?\d+)%", table.get(m, ""))
        if not got or int(got.group(1)) != p:
            fail("terminal table, %s: %s, report --json %d%%"
                 % (m, got and got.group(0).strip(), p))
        for line in answer:
            if "first write takes" not in line:
                continue
            names = re.split(r",? and |, ", line.split(":")[0])
            if m not in names:
                continue
            nums = [int(x) for x in re.findall(r"(\d+)%", line)]
            ends = re.search(r"(\d+)-(\d+)%", line)
            if ends:
                nums = [int(ends.group(1)), int(ends.group(2))]
            if abs(p) not in nums:
                fail("answer, %s: \"%s\", report --json %d%%" % (m, line, p))

    # summary.csv
    with open(os.path.join(tmp, "text", "summary.csv")) as f:
        for row in csv.DictReader(f):
            m = row["mode"]
            if m in modes and abs(float(row["warmup_penalty_frac"]) -
                                  pen[m]["value"]) > 5e-5:
                fail("summary.csv, %s: %s" % (m, row["warmup_penalty_frac"]))

    # report.html: the table's cell and the caption's definition
    with open(os.path.join(tmp, "text", "report.html")) as f:
        html = f.read()
    if "&minus; first write" in html or "1 - first write" in html:
        fail("report.html: a caption defines the penalty as a rate's share")
    if "extra time a first write takes" not in html:
        fail("report.html: no caption says what the penalty is")
    summ = html[html.find("<h2>Summary</h2>"):]
    summ = summ[:summ.find("</table>")]
    for m in modes:
        row = re.search(r"<tr><td[^>]*>(?:<[^>]+>)*%s\b.*?</tr>" % m, summ)
        got = row and re.search(r">(-?\d+)%<", row.group(0))
        if not got or int(got.group(1)) != pct(pen[m]["value"]):
            fail("report.html table, %s: %s" % (m, got and got.group(1)))

    # the exports
    om = run([pb, "export", "-f", "openmetrics", res])
    for m in modes:
        got = re.search(r'provbench_first_write_penalty_ratio\{[^}]*mode="%s"'
                        r'[^}]*stat="estimate"\} (\S+)' % m, om)
        if not got or abs(float(got.group(1)) - pen[m]["value"]) > 5e-5:
            fail("openmetrics, %s: %s" % (m, got and got.group(1)))
    influx = run([pb, "export", "-f", "influx", res])
    for m in modes:
        got = re.search(r",mode=%s,\S* .*?penalty=([^,]+)," % m, influx)
        if not got or abs(float(got.group(1)) - pen[m]["value"]) > 5e-5:
            fail("influx, %s: %s" % (m, got and got.group(1)))
    junit = run([pb, "export", "-f", "junit", res], ok=(0, 1))
    for m in modes:
        p = pct(pen[m]["value"])
        said = re.findall(r"^(?:\s*<system-out>)?%s: first write (?:takes "
                          r"(\d+)%%|within noise of rewrite \(penalty "
                          r"(-?\d+)%%)" % m, junit, re.M)
        nums = [int(x or y) for x, y in said]
        if not nums or any(abs(n) != abs(p) for n in nums):
            fail("junit, %s: %s, report --json %d%%" % (m, nums, p))

    # a comparison with a copy of the run, and the trend over both
    other = os.path.join(tmp, "other")
    shutil.rmtree(other, ignore_errors=True)
    os.makedirs(other)
    rj2 = dict(rj, run=rj["run"] + "-again")
    with open(os.path.join(other, "run.json"), "w") as f:
        json.dump(rj2, f)
    cmp = run([pb, "report", "-q", "-o", os.path.join(tmp, "cmp"), "-c",
               res, other])
    cmp = run([pb, "report", "-o", os.path.join(tmp, "cmp"), "-c", res,
               other])
    for m in modes:
        p = pct(pen[m]["value"])
        got = re.search(r"%s first-write against rewrite: .*?\(penalty "
                        r"(-?\d+)%% -> (-?\d+)%%\)" % m, cmp)
        if not got or int(got.group(1)) != p or int(got.group(2)) != p:
            fail("compare, %s: %s" % (m, got and got.group(0)))
    run([pb, "trend", "-q", "-o", os.path.join(tmp, "trend"), res, other],
        ok=(0, 1))
    with open(os.path.join(tmp, "trend", "trend.csv")) as f:
        for row in csv.DictReader(f):
            m = row["mode"]
            if m in modes and abs(float(row["warmup_penalty_frac"]) -
                                  pen[m]["value"]) > 5e-5:
                fail("trend.csv, %s: %s" % (m, row["warmup_penalty_frac"]))

    # each repetition's own figure, as the progress line said it
    items = [r for r in rj["results"] if r["status"] == "ok"]
    if progress:
        with open(progress) as f:
            log = f.read()
        said = re.findall(r"repetition (\d+), (\w+) .*?\n(?:.*\n)*?.*"
                          r"provisioned in .*?; first write takes "
                          r"(?:(\d+)% (longer|less time)|no longer) than",
                          log)
        seen = {(int(r), m): (0 if not n else int(n) *
                              (1 if w == "longer" else -1))
                for r, m, n, w in said}
        for it in items:
            want = pct(rep_ratio(it) - 1)
            got = seen.get((it["rep"], it["mode"]))
            if got is None or got != want:
                fail("progress line, %s rep %d: %s, run.json %d%%"
                     % (it["mode"], it["rep"], got, want))
        print("one_number: %d progress lines compared" % len(items))

    # the answer against what the user waited for: each repetition's
    # whole first write, the median less the baseline's
    if whole:
        by = {}
        for it in items:
            by.setdefault(it["mode"], []).append(rep_ratio(it))
        b = statistics.median(by[base]) if base in by else 1.0
        for m in modes:
            truth = statistics.median(by[m]) / (b if m != base else 1.0) - 1
            p = pen[m]
            near = abs(p["value"] - truth) <= 0.05
            held = p["lo"] is not None and p["lo"] <= truth <= p["hi"]
            print("one_number: %s: penalty %+.1f%% [%s], its reps' whole "
                  "passes (median, less %s's) %+.1f%%: %s"
                  % (m, 100 * p["value"],
                     "-" if p["lo"] is None else "%+.1f to %+.1f%%"
                     % (100 * p["lo"], 100 * p["hi"]), base, 100 * truth,
                     "within 5 points" if near else
                     "held by the interval" if held else "APART"))
            if not near and not held:
                fail("whole pass, %s: %+.1f%% against %+.1f%%"
                     % (m, 100 * p["value"], 100 * truth))
    if bad:
        sys.exit(1)
    print("one_number: %d modes agree on every surface" % len(modes))


if __name__ == "__main__":
    main()
