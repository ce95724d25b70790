#!/usr/bin/env python3
"""make-variants.py - the report's golden results directories, made from
known numbers so the page's and the files' figures can be checked.

  matrix/       two workload points (bs=64K, bs=1M) x thin, lazy, eager,
                rdm x 3 repetitions; the plan shuffled; thin and lazy warm
                up over the first 40% of the disk, eager and rdm are flat
  failed-mode/  one point; lazy failed in every repetition (the guest
                watchdog, step "run"), rdm skipped (no root for a loop
                device), thin and eager measured
  targets/      vSphere, two targets: datastore nfs01 (thin's first write
                at half the rate it has on local) and local; 3 reps
  shard-a/, shard-b/
                one profile run from two controllers, each on its own VM
                (vm-1 and vm-2): what `report -o DIR shard-a shard-b`
                merges; shard-other/ the same with another disk_size,
                which a merge refuses
  at-once/      vSphere, concurrency 3: targets a and b on datastore ds-1,
                c on ds-2, thin and eager, 2 repetitions, each wave one
                mode on all three, their passes started 0.5 s apart on
                the guests' clocks; expected-fleet.json holds each wave's
                aggregate as this script integrates it (bytes of every
                series interval inside the overlapping window, pro rata),
                for the report's to be checked against

usage: make-variants.py OUT_ROOT
"""
import json
import os
import random
import sys

DISK = 1 << 30
RATES = {  # first-write steady, rewrite (MiB/s), warm fraction
    "thin": (60.0, 150.0, 0.4),
    "lazy": (80.0, 152.0, 0.4),
    "eager": (148.0, 151.0, 0.0),
    "rdm": (150.0, 153.0, 0.0),
}


def series(first, rewrite, warm, rnd):
    pts, t = [], 0.0
    n = 64
    for i in range(n):
        frac = i / n
        rate = first if frac < warm else rewrite
        rate *= 1 + rnd.uniform(-0.02, 0.02)
        b = DISK // n
        t += b / (rate * 1048576)
        pts.append({"t_s": round(t, 4), "bytes": b,
                    "mib_per_s": round(rate, 2)})
    return pts


def passes(mode, bs, rnd, slow=1.0):
    first, rewrite, warm = RATES[mode]
    first /= slow
    if bs == "1M":
        first, rewrite = first * 1.3, rewrite * 1.3
    out = []
    s = series(first, rewrite, warm, rnd)
    total_t = s[-1]["t_s"]
    out.append({"name": "first-write", "index": 0, "pattern": "seq",
                "bs": 65536 if bs == "64K" else 1048576, "qd": 4,
                "direct": True, "complete": True, "bytes": DISK,
                "seconds": total_t,
                "mib_per_s": round(DISK / 1048576 / total_t, 3),
                "iops": 1000, "qd_achieved": 3.9,
                "lat_us": {"p50": 900.0, "p99": 4000.0, "p999": 6000.0},
                "interval_ms": 10, "series": s})
    for k in (1, 2):
        r = rewrite * (1 + rnd.uniform(-0.02, 0.02))
        out.append({"name": "rewrite", "index": k, "pattern": "seq",
                    "bs": out[0]["bs"], "qd": 4, "direct": True,
                    "complete": True, "bytes": DISK,
                    "seconds": DISK / 1048576 / r, "mib_per_s": round(r, 3),
                    "iops": 1000, "qd_achieved": 3.9,
                    "lat_us": {"p50": 800.0, "p99": 3000.0,
                               "p999": 5000.0},
                    "interval_ms": 10,
                    "series": series(r, r, 0.0, rnd)})
    return out


def item(rep, mode, point, desc, rnd, status="ok", error=None, step=None,
         target=None, slow=1.0):
    prov = {"thin": 0.2, "lazy": 0.3, "eager": 9.5, "rdm": 0.4}[mode]
    it = {"rep": rep, "mode": mode, "point": point, "workload": desc,
          "status": status,
          "disk": {"id": "v-%d" % rep, "file": "/var/tmp/d.qcow2",
                   "uuid": "", "provision_s": prov,
                   "provision_source": "qemu-img wall",
                   "provision_wall_s": prov,
                   "readback": {"mode": mode}},
          "timing": {"total_s": 30.0, "provision_s": prov,
                     "runner_s": 25.0, "destroy_s": 0.1},
          "runner": None}
    if target is not None:
        it = dict({"target": target}, **it)
    if error:
        it["error"] = error
        it["step"] = step
    if status == "ok":
        bs = "1M" if "1M" in desc else "64K"
        it["runner"] = {"tool": "provbench-runner", "version": "0.2.0",
                        "engine": "io_uring",
                        "passes": passes(mode, bs, rnd, slow),
                        "verify": None, "interrupted": False}
    return it


def doc(name, points, results):
    return {"format": 2, "tool": "provbench", "version": "0.2.0",
            "commit": "0123456789ab",
            "started_at": "2026-11-30T02:30:00Z",
            "profile_path": "/etc/provbench/%s.json" % name,
            "profile": {"name": name, "backend": "qemu",
                        "modes": ["thin", "lazy", "eager", "rdm"],
                        "disk_size": "1G", "repetitions": 3},
            "run": "20261130T023000Z-%s" % name,
            "plan": {"order": "shuffle", "seed": 7, "items": len(results)},
            "points": [{"index": i, "description": d}
                       for i, d in enumerate(points)],
            "environment": {"backend": "qemu", "accelerator": "tcg",
                            "accelerator_note": "KVM guests hang here",
                            "qemu": "QEMU emulator version 7.2.15",
                            "host": "lab-01", "host_kernel": "6.1.0",
                            "host_cpu": "Intel(R) Xeon(R) CPU @ 2.20GHz",
                            "datastore": "/var/lib/provbench/disks",
                            "datastore_fs": "ext4", "disk_cache": "none",
                            "disk_aio": "io_uring",
                            "guest_memory_mib": 256, "guest_cpus": 1,
                            "guest_image": {"kernel": "6.1.0-28",
                                            "sha256": "ab" * 32}},
            "results": results,
            "updated_at": "2026-11-30T02:52:10Z", "interrupted": False,
            "finished": True}


def main():
    root = sys.argv[1]
    rnd = random.Random(42)
    pts = ["bs=64K", "bs=1M"]
    plan = [(rep, m, p) for rep in (1, 2, 3)
            for m in RATES for p in (0, 1)]
    random.Random(7).shuffle(plan)  # shuffled, as the harness does
    res = [item(rep, m, p, pts[p], rnd) for rep, m, p in plan]
    os.makedirs(os.path.join(root, "matrix"), exist_ok=True)
    json.dump(doc("matrix", pts, res),
              open(os.path.join(root, "matrix", "run.json"), "w"), indent=1)

    res = []
    for rep in (1, 2, 3):
        for m in ("rdm", "lazy", "eager", "thin"):
            if m == "lazy":
                res.append(item(rep, m, 0, "", rnd, "failed",
                                "watchdog: the guest runner gave no sign "
                                "of life for 120 s", "run"))
            elif m == "rdm":
                res.append(item(rep, m, 0, "", rnd, "skipped",
                                "rdm needs root for a loop device", "create"))
            else:
                res.append(item(rep, m, 0, "", rnd))
    os.makedirs(os.path.join(root, "failed-mode"), exist_ok=True)
    json.dump(doc("failed-mode", [""], res),
              open(os.path.join(root, "failed-mode", "run.json"), "w"),
              indent=1)

    # two datastores: thin's first write at half speed on nfs01
    names = [("nfs01", "vm-1", "nfs01"), ("local", "vm-1", "vmfs-local")]
    res = [item(rep, m, 0, "", rnd, target=t,
                slow=2.0 if (t == 0 and m == "thin") else 1.0)
           for rep in (1, 2, 3) for t in (0, 1)
           for m in ("thin", "eager")]
    write(root, "targets", vsphere(doc("targets", [""], res), names))

    # one profile from two controllers, and one that is not the same
    for shard, vm in (("shard-a", "vm-1"), ("shard-b", "vm-2")):
        res = [item(rep, m, 0, "", rnd, target=0)
               for rep in (1, 2, 3) for m in ("thin", "eager")]
        d = vsphere(doc("fleet", [""], res), [(vm, vm, "ds-1")])
        d["run"] = "20261130T023000Z-fleet-" + shard
        write(root, shard, d)
    d = vsphere(doc("fleet", [""], res), [("vm-3", "vm-3", "ds-1")])
    d["profile"]["disk_size"] = "2G"
    d["run"] = "20261130T023000Z-fleet-other"
    write(root, "shard-other", d)
    at_once(root, rnd)


def aggregate(passes):
    """Sum of every pass's bytes inside [latest start, earliest end] over
    that window, MiB/s: each series interval counted by the part of it
    inside the window. passes: (start_s, seconds, series)."""
    w0 = max(p[0] for p in passes)
    w1 = min(p[0] + p[1] for p in passes)
    total = 0.0
    for start, _, pts in passes:
        prev = 0.0
        for pt in pts:
            lo = max(w0 - start, prev)
            hi = min(w1 - start, pt["t_s"])
            if hi > lo:
                total += pt["bytes"] * (hi - lo) / (pt["t_s"] - prev)
            prev = pt["t_s"]
    return total / 1048576 / (w1 - w0), w1 - w0


def at_once(root, rnd):
    names = [("a", "vm-1", "ds-1"), ("b", "vm-2", "ds-1"),
             ("c", "vm-3", "ds-2")]
    base = 1796000000 * 10**9
    res, expect, wave = [], {}, 0
    for rep in (1, 2):
        for m in ("thin", "eager"):
            wave += 1
            t0 = base + wave * 100 * 10**9
            starts = {}
            for t in range(3):
                it = item(rep, m, 0, "", rnd, target=t,
                          slow=1.0 + 0.25 * t)
                it["wave"] = wave
                it["timing"]["started_unix_ns"] = t0
                it["timing"]["wave_wait_s"] = 0.1
                at = t0 + t * 500 * 10**6  # 0.5 s apart
                for p in it["runner"]["passes"]:
                    p["started_unix_ns"] = at
                    p["started_boot_ns"] = at - base
                    starts.setdefault(p["index"], []).append(
                        (at / 1e9, p["seconds"], p["series"]))
                    at += int(p["seconds"] * 1e9) + 10**8
                res.append(it)
            for k, ps in starts.items():
                expect["%s %d %d" % (m, k, rep)] = aggregate(ps)[0]
    d = vsphere(doc("at-once", [""], res), names)
    d["profile"]["concurrency"] = 3
    d["plan"]["concurrency"] = 3
    for t, (n, vm, ds) in zip(d["targets"], names):
        t["places"] = ["vsphere https://vc/sdk datastore " + ds,
                       "vsphere https://vc/sdk host host-1"]
    write(root, "at-once", d)
    # the median over the two repetitions of each mode x pass
    med = {}
    for key, v in expect.items():
        m, k, _ = key.split()
        med.setdefault("%s %s" % (m, k), []).append(v)
    json.dump({k: sum(v) / len(v) for k, v in med.items()},
              open(os.path.join(root, "at-once", "expected-fleet.json"), "w"),
              indent=1)


def vsphere(d, names):
    """A vSphere run's head: its targets, each with its own environment."""
    d["profile"]["backend"] = "vsphere"
    d["profile"]["modes"] = ["thin", "eager"]
    d["profile"]["targets"] = [{"name": n, "vm": vm, "datastore": ds}
                               for n, vm, ds in names]
    d["environment"] = {"backend": "vsphere", "vm": names[0][1],
                        "datastore": {"name": names[0][2]}}
    targets = [{"index": i, "name": n, "key": "vsphere vm " + vm,
                "environment": {"backend": "vsphere", "vm": vm,
                                "datastore": {"name": ds}}}
               for i, (n, vm, ds) in enumerate(names)]
    # before "results", as provbench writes it: readers stream the items
    out = {}
    for k, v in d.items():
        if k == "environment":
            out["targets"] = targets
        out[k] = v
    return out


def write(root, name, d):
    os.makedirs(os.path.join(root, name), exist_ok=True)
    json.dump(d, open(os.path.join(root, name, "run.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
