#!/usr/bin/python3
"""check-fio.py - what fio-plot and pbench read of fio's
--output-format=json: "jobs", each with a "jobname", "job options"
(strings, as fio writes them: rw, bs, iodepth) and a "read" and a "write"
block with io_bytes, bw (KiB/s), bw_bytes, iops, runtime (ms) and
clat_ns.percentile ({"50.000000": ns, ...}); the direction the job did
carries its bytes, the other zeros.

usage: check-fio.py FILE JOBS
Exit 0 when there are JOBS jobs and each reads as fio-plot reads one.
"""
import json
import sys


def main():
    doc = json.load(open(sys.argv[1]))
    jobs = doc["jobs"]
    if len(jobs) != int(sys.argv[2]):
        sys.exit("check-fio: %d jobs, not %s" % (len(jobs), sys.argv[2]))
    for j in jobs:
        opts = j["job options"]
        for k in ("rw", "bs", "iodepth"):
            if not isinstance(opts[k], str):
                sys.exit("check-fio: %s: job option %s is not a string"
                         % (j["jobname"], k))
        did = "read" if "read" in opts["rw"] else "write"
        other = "write" if did == "read" else "read"
        d = j[did]
        if d["io_bytes"] <= 0 or d["bw"] <= 0 or d["iops"] <= 0:
            sys.exit("check-fio: %s: no %s figures" % (j["jobname"], did))
        if abs(d["bw"] - d["bw_bytes"] / 1024) > 1:
            sys.exit("check-fio: %s: bw is not bw_bytes in KiB/s"
                     % j["jobname"])
        if d["io_bytes"] != d["total_ios"] * int(opts["bs"]):
            sys.exit("check-fio: %s: total_ios x bs is not io_bytes"
                     % j["jobname"])
        pct = d["clat_ns"]["percentile"]
        if "50.000000" not in pct or "99.000000" not in pct:
            sys.exit("check-fio: %s: no clat percentiles" % j["jobname"])
        if j[other]["io_bytes"] != 0:
            sys.exit("check-fio: %s: %s has bytes" % (j["jobname"], other))
        if "series" not in j["provbench"]["unmapped"]:
            sys.exit("check-fio: %s: unmapped not said" % j["jobname"])


main()
