#!/usr/bin/env python3
"""make-history.py - 30 nightly results directories from one run.json.

The nights are the golden run with known changes, so the trend's marks can
be checked: night 12 failed outright (no item measured), night 20 the
server was upgraded (a new build), from night 25 on thin's first write is
30% slower (a regression), every other night within 3% of the golden run
(whose one failed item is left out of the good nights).

usage: make-history.py GOLDEN_RUN_JSON OUT_ROOT [NIGHTS]
"""
import copy
import json
import os
import sys


def main():
    src, root = sys.argv[1], sys.argv[2]
    nights = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    base = json.load(open(src))
    os.makedirs(root, exist_ok=True)
    for n in range(1, nights + 1):
        d = copy.deepcopy(base)
        day = "2026-10-%02d" % n if n <= 31 else "2027-%02d-%02d" % (
            (n - 32) // 28 + 1, (n - 32) % 28 + 1)
        run = "%sT023000Z-%s" % (day.replace("-", ""), d["profile"]["name"])
        d["run"] = run
        d["started_at"] = day + "T02:30:00Z"
        d["updated_at"] = day + "T02:41:00Z"
        d["finished"] = True
        d["interrupted"] = False
        env = d.setdefault("environment", {})
        env.setdefault("server", {})["build"] = "22617221" if n >= 20 \
            else "21560480"
        # a deterministic wobble of at most 3%
        wob = 1 + ((n * 37) % 7 - 3) / 100.0
        # the golden run's own failed item stays out of the good nights
        d["results"] = [it for it in d["results"]
                        if n == 12 or it["status"] == "ok"]
        for it in d["results"]:
            if n == 12:
                it["status"] = "failed"
                it["step"] = "create"
                it["error"] = "create %s disk: InsufficientStorageSpace" \
                    % it["mode"]
                it["runner"] = None
                continue
            r = it.get("runner")
            if not r:
                continue
            for p in r["passes"]:
                f = wob
                if n >= 25 and it["mode"] == "thin" and \
                        p["name"] == "first-write":
                    f *= 0.7
                p["mib_per_s"] = round(p["mib_per_s"] * f, 3)
        out = os.path.join(root, run)
        os.makedirs(out, exist_ok=True)
        json.dump(d, open(os.path.join(out, "run.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
