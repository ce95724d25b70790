#!/usr/bin/python3
"""make-findings.py - the run.json files the findings' unit tests read
(tests/unit/test_report.c), shaped as provbench writes them (format 2):

  demo-like.json   5 reps, rdm and eager flat, lazy and thin slower on
                   first write, eager 2.6 s to provision on 1 GiB disks
  one-rep.json     the same experiment with one repetition
  applied-as.json  a vSphere run on an NFS datastore without VAAI: eager
                   and lazy read back as thin
  recreate-mb.json the demo's figures from first-write, recreate,
                   recreate passes, in a profile with "units": "MB"
  mixed-later.json the demo's figures from first-write, rewrite,
                   recreate passes: the recreates are not pooled
  host-baseline.json  host_baseline: the demo's figures in the guest
                   (target 0), 1.25 times each on its host twin (target 1)
  regressed.json   demo-like.json a night later, thin's first writes 40%
                   slower in every repetition, the rest as they were
  device.json      the demo's figures with the device's counts: each
                   first write's 1024 requests took 2048 ms there on thin
                   and lazy (2 ms each), 1024 ms elsewhere (1 ms), every
                   rewrite's 1024 ms; the device wrote the runner's bytes.
                   The host's device under it: 1 ms a request everywhere,
                   1.25 times the bytes in thin's first write, and qemu's
                   CPU 2048 ms for thin's first write's 1024 writes (2 ms
                   each), 1024 ms otherwise
  arms.json        a settings A/B: the demo's figures on arm A (target
                   0), first writes 0.9 times as fast on arm B (target 1),
                   rewrites the same

Rates are fixed per repetition (no randomness), so each figure can be
worked out by hand from this file.

usage: tests/data/runjson/make-findings.py   (writes beside itself)
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ("first-write", "rewrite", "rewrite")


def passes(first, rw1, rw2, names=NAMES):
    out = []
    for i, (name, mib) in enumerate(zip(names, (first, rw1, rw2))):
        out.append({"name": name, "index": i, "pattern": "seq",
                    "bs": 1048576, "qd": 4, "direct": True,
                    "complete": True, "bytes": 1073741824, "ios": 1024,
                    "seconds": 1024.0 / mib, "sync_seconds": 0.0,
                    "mib_per_s": mib, "iops": mib,
                    "lat_us": {"p50": 400.0, "p90": 600.0, "p99": 900.0,
                               "p999": 1500.0, "max": 3000.0,
                               "min": 90.0},
                    "qd_achieved": 3.9})
        if name == "recreate":
            out[-1]["recreate"] = {"delete_seconds": 0.04}
    return out


def wl(names):
    """the point's description, its passes as it ran (a reader resolves
    an old file's workload from its profile and these)"""
    return "bs=1M qd=4 pattern=seq passes=" + ",".join(names)


def item(rep, mode, applied, prov, first, rw1, rw2, names=NAMES):
    return {"rep": rep, "mode": mode, "point": 0, "workload": wl(names),
            "status": "ok",
            "disk": {"id": "pb-%d-%s" % (rep, mode), "file": "f",
                     "uuid": "u", "provision_s": prov,
                     "provision_source": "server task",
                     "provision_wall_s": prov,
                     "readback": {"mode": applied}},
            "timing": {"total_s": 40.0},
            "runner": {"tool": "provbench-runner", "version": "0.1.0",
                       "target": {"path": "/dev/sdb", "kind": "block",
                                  "size_bytes": 1073741824,
                                  "device_bytes": 1073741824},
                       "passes": passes(first, rw1, rw2, names),
                       "interrupted": False}}


def doc(name, env, results, modes, reps, names=NAMES, units=None):
    d = {"format": 2, "tool": "provbench", "version": "0.1.0",
         "started_at": "2026-12-03T08:00:00Z",
         "profile": {"name": name, "backend": env["backend"],
                     "modes": modes, "disk_size": "1G",
                     "repetitions": reps,
                     "workload": {"bs": "1M", "qd": 4, "pattern": "seq",
                                  "passes": list(names)}},
         "run": "20261203T080000Z-" + name,
         "plan": {"order": "fixed", "seed": 1, "items": len(results)},
         "points": [{"index": 0, "description": wl(names)}],
         "environment": env, "updated_at": "2026-12-03T08:30:00Z",
         "interrupted": False, "finished": True, "results": results}
    if units:
        d["profile"]["units"] = units
    return d


# per mode: (provisioning s, first-write and two rewrites per rep)
DEMO = {
    "rdm": (0.0, [(200, 200, 202), (198, 200, 199), (202, 201, 200),
                  (199, 198, 200), (201, 202, 201)]),
    "eager": (2.6, [(196, 198, 197), (199, 197, 198), (197, 199, 198),
                    (195, 196, 197), (198, 197, 199)]),
    "lazy": (0.1, [(152, 196, 197), (150, 198, 196), (154, 197, 198),
                   (149, 195, 197), (151, 196, 198)]),
    "thin": (0.05, [(148, 195, 196), (150, 197, 195), (146, 196, 197),
                    (151, 194, 196), (147, 196, 195)]),
}
MODES = ["rdm", "eager", "lazy", "thin"]


def write(name, d):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(d, f, indent=1)
        f.write("\n")


def main():
    qemu = {"backend": "qemu", "accelerator": "tcg"}
    res = [item(r + 1, m, m, DEMO[m][0], *DEMO[m][1][r])
           for r in range(5) for m in MODES]
    write("demo-like.json", doc("demo-like", qemu, res, MODES, 5))
    res = [item(1, m, m, DEMO[m][0], *DEMO[m][1][0]) for m in MODES]
    write("one-rep.json", doc("one-rep", qemu, res, MODES, 1))
    res = []
    for r in range(5):
        for m in MODES:
            f, w1, w2 = DEMO[m][1][r]
            res.append(item(r + 1, m, m, DEMO[m][0],
                            f * 0.6 if m == "thin" else f, w1, w2))
    d = doc("demo-like", qemu, res, MODES, 5)
    d["run"] = "20261204T080000Z-demo-like"
    d["started_at"] = "2026-12-04T08:00:00Z"
    write("regressed.json", d)
    nfs = {"backend": "vsphere",
           "datastore": {"name": "nfs01", "type": "NFS",
                         "vaai": "vStorageUnsupported"}}
    made = {"rdm": "rdm", "eager": "thin", "lazy": "thin", "thin": "thin"}
    res = [item(r + 1, m, made[m], DEMO[m][0],
                *(DEMO["thin"][1][r] if made[m] == "thin" and m != "thin"
                  else DEMO[m][1][r]))
           for r in range(3) for m in MODES]
    write("applied-as.json", doc("applied-as", nfs, res, MODES, 3))
    rc = ("first-write", "recreate", "recreate")
    res = [item(r + 1, m, m, DEMO[m][0], *DEMO[m][1][r], names=rc)
           for r in range(5) for m in MODES]
    write("recreate-mb.json",
          doc("recreate-mb", qemu, res, MODES, 5, rc, "MB"))
    mix = ("first-write", "rewrite", "recreate")
    res = [item(r + 1, m, m, DEMO[m][0], *DEMO[m][1][r], names=mix)
           for r in range(3) for m in MODES]
    write("mixed-later.json", doc("mixed-later", qemu, res, MODES, 3, mix))
    res = []
    for r in range(3):
        for m in MODES:
            host = item(r + 1, m, m, DEMO[m][0],
                        *[v * 1.25 for v in DEMO[m][1][r]])
            host["target"] = 1
            guest = item(r + 1, m, m, DEMO[m][0], *DEMO[m][1][r])
            guest["target"] = 0
            res += [host, guest]
    d = doc("host-baseline", qemu, res, MODES, 3)
    d["profile"]["host_baseline"] = True
    d["targets"] = [
        {"index": 0, "name": "guest", "key": "qemu:lab:/d", "places": [],
         "environment": dict(qemu)},
        {"index": 1, "name": "host", "key": "host:lab:/d", "places": [],
         "environment": {"backend": "host"}, "host_baseline_of": 0}]
    # the head before "results", as provbench writes it
    d["results"] = d.pop("results")
    write("host-baseline.json", d)
    res = []
    for r in range(3):
        for t in range(2):
            for m in MODES:
                f, w1, w2 = DEMO[m][1][r]
                it = item(r + 1, m, m, DEMO[m][0],
                          f * (0.9 if t else 1), w1, w2)
                it["target"] = t
                res.append(it)
    d = doc("arms", qemu, res, MODES, 3)
    d["targets"] = [
        {"index": t, "name": n, "key": "qemu:lab:/d", "places": [],
         "environment": dict(qemu)}
        for t, n in enumerate(("vm.dirty_ratio=20", "vm.dirty_ratio=5"))]
    d["results"] = d.pop("results")
    write("arms.json", d)
    res = []
    for r in range(3):
        for m in MODES:
            it = item(r + 1, m, m, DEMO[m][0], *DEMO[m][1][r])
            for p in it["runner"]["passes"]:
                slow = p["name"] == "first-write" and m in ("thin", "lazy")
                p["device"] = {"name": "vda", "reads": 0, "read_bytes": 0,
                               "read_ms": 0, "writes": 1024,
                               "write_bytes": p["bytes"],
                               "write_ms": 2048 if slow else 1024,
                               "busy_ms": 500, "queue_ms": 1024,
                               "in_flight_end": 0}
                qc = p["name"] == "first-write" and m == "thin"
                p["host_device"] = {
                    "name": "sda", "reads": 0, "read_bytes": 0,
                    "read_ms": 0, "writes": 1024,
                    "write_bytes": p["bytes"] * 5 // 4 if qc else p["bytes"],
                    "write_ms": 1024, "busy_ms": 500, "queue_ms": 1024,
                    "window_s": p["seconds"], "resolution_ms": 20,
                    "qemu_cpu_ms": 2048 if qc else 1024}
            res.append(it)
    write("device.json", doc("device", qemu, res, MODES, 3))


main()
