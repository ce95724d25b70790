#!/usr/bin/python3
"""pool.py - the validation corpus's noise, from real runs.

Reads the run directories given (demo runs: `bench/demo-spread build
--runs 20 --keep DIR`) and writes, on stdout, the JSON that
tests/data/validate/noise.json holds: every repetition of the baseline
mode (rdm: nothing to provision, so its first write carries no cost) as
the runner measured it:

  stripe       the pair stripe, bytes
  fresh_us     each fresh stripe's time, microseconds (the first write's
               series: stripe 0 is fresh alone, stripe k + 1 is paired
               with the rewrite of stripe k)
  written_us   each rewritten stripe's time
  device       the guest device's counts over the fresh stripes and over
               the rewritten ones: [writes, write_ms] each
  rewrites     each rewrite pass: seconds, bytes, device [writes,
               write_ms], and its series as [t_us, MiB] points

Integers, to keep the file small; validate.py turns them back into a
runner's document. Runs whose runner did not pair the first write, and
failed items, are left out.

usage: tests/validate/pool.py RUN_DIR... > tests/data/validate/noise.json
"""
import json
import sys

MiB = 1048576


def dev(d):
    return [d["writes"], d["write_ms"]] if d else None


def rep_of(run, item):
    ps = item["runner"]["passes"]
    p0 = ps[0]
    pr = p0.get("paired")
    if not pr or p0["name"] != "first-write":
        return None
    fresh = [round(pt["bytes"] / (pt["mib_per_s"] * MiB) * 1e6)
             for pt in p0["series"]]
    written = [round(pr["stripe"] / (x * MiB) * 1e6)
               for x in pr["written_series"]]
    rws = []
    for p in ps[1:]:
        if p["name"] != "rewrite":
            continue
        rws.append({"seconds": p["seconds"], "bytes": p["bytes"],
                    "device": dev(p.get("device")),
                    "series": [[round(pt["t_s"] * 1e6),
                                round(pt["bytes"] / MiB)]
                               for pt in p["series"]]})
    return {"run": run, "rep": item["rep"], "stripe": pr["stripe"],
            "fresh_us": fresh, "written_us": written,
            "device": [dev(pr.get("device_fresh")),
                       dev(pr.get("device_written"))],
            "rewrites": rws}


def main():
    reps = []
    runs = []
    for path in sys.argv[1:]:
        with open(path.rstrip("/") + "/run.json") as f:
            d = json.load(f)
        runs.append(d["run"])
        for item in d["results"]:
            if item["status"] != "ok" or item["mode"] != "rdm":
                continue
            r = rep_of(d["run"], item)
            if r:
                reps.append(r)
    out = {"about": "the baseline's (rdm's) repetitions of %d demo runs "
                    "(tests/validate/pool.py)" % len(runs),
           "runs": runs, "reps": reps}
    json.dump(out, sys.stdout, separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
