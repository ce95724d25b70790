#!/usr/bin/python3
"""validate.py - the report's figures against answers known beforehand.

Runs are made whose truth is known by construction, and provbench's own
report reads them (`provbench report --json`, as a user's run). The noise
is real: tests/data/validate/noise.json holds the baseline's (rdm's)
repetitions of real demo runs (tests/validate/pool.py), each stripe
pair's fresh and rewritten time, each rewrite pass's series and the
guest device's counts, so drift, spikes and the pairing's own
rewrite-after-write bias are as measured. Every mode of a made run is
drawn from that pool: rdm, the baseline, as it is; eager as it is, with
2 s of provisioning; thin with a first-write cost of a size and a shape
added to its fresh stripes:

  uniform   every fresh stripe slower by the same share
  conc5     the whole cost on 5% of the stripes (thin's allocation on a
            minority of stripes)
  conc25    on 25%
  ramp      on the first quarter of the disk, falling to nothing: a cost
            that settles after so many bytes
  step      on the first write and on rewrite 1 as well (5 passes): the
            warm-up across passes ends at rewrite 2
  first     all of it on stripe 0, the one fresh stripe no pair holds: a
            new file's first extents (issue 52's host run: 0.1-0.3 s of
            a 1 s pass)
  head      on the first 4 stripes (a host run here, 2026-12-05: two
            60 ms stalls at stripes 2 and 3 of thin's and lazy's 0.65 s)
  end       on the last stripe: a journal's flush at the pass's end
  burst     a stall every 16 stripes, the cost split among them

A cost of size c makes the whole first-write pass (every fresh stripe)
take 1 + c times as long: c is the penalty's truth (the report's penalty
is the extra time a first write takes, less the baseline's own; what the
user waits for is the whole pass). What is scored, per shape, size and
repetition count:

  penalty      bias (mean estimate less the truth, in points), how often
               the 95% interval holds the truth, how often it is called
               beyond noise (with c = 0: a false claim)
  first/base   thin's first-write rate over rdm's (medians): bias and
               coverage against the pool's own ratio with the cost
  rewrite/base thin's rewrites over rdm's: truth 1
  device       the guest device's time per request, first write over
               rewrites (at-the-device): the cost lands in the device's
               time as in the runner's; truth from the whole pool
  break-even   eager's 2 s of provisioning against thin: the bytes of new
               blocks that repay it, relative error when both are told
  within pass  ramp: where the first write settles, how often told, and
               its error in stripes when told
  across       step: how often the warm-up across passes is found to end
               at rewrite 2
  gate         nights drawn alike, every mode (report -c OLD NEW
               --max-regression 10): how many alarm, per 100; nights whose
               thin first write fell 10, 20, 30%: how many are caught; and
               the gate's three verdicts on thin's first write (fell,
               held, cannot tell yet: issue 54)
  precision    runs that stop when told (issue 54): rdm and thin drawn
               to 10 repetitions, read back after each round from 3 as
               the harness does, thin stopped once its interval (at the
               look level) is wholly above or under 5%; the interval it
               stopped on against the truth (coverage, beyond noise at
               0), how often told above 5%, and the repetitions it took
  re-warm      thin's whole life (issue 40): a first cycle at 25% on 5%
               of its stripes, a reclaim, then the first write again at
               c2 (0, 10, 25, 50%), from another repetition of the same
               run; rdm reclaimed and written again at no cost. Bias and
               coverage of the re-warm against c2, how often it is said
               to have paid again, and of its time against the first
               write's (truth (1 + c2) / 1.25 - 1)

One command prints the table (docs/validation.md records it, the date and
the command); --check applies issue 36's thresholds and exits 1 when one
is missed (make check runs a fixed-seed subset, --quick).

  tests/validate/validate.py [--build build] [--replicates 200] [--seed 1]
      [--reps 2,3,5,10] [--sizes 0,0.02,0.05,0.1,0.25,0.5]
      [--shapes uniform,conc5,conc25,ramp,step,first,head,end,burst]
      [--gate|--no-gate]
      [--rewarm-sizes 0,0.1,0.25,0.5] [--no-rewarm] [--no-adaptive]
      [--check] [--quick] [--legacy]

--legacy writes run.json as provbench did before 2026-12-04 (without the
runner's pairs' seconds): the report must read it the same way.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
POOL = os.path.join(ROOT, "tests", "data", "validate", "noise.json")
MiB = 1048576.0
EAGER_PROV_S = 2.0
THIN_PROV_S = 0.02
STEP_AT = 2  # the step shape's rewrites settle at this pass
HEAD_STRIPES = 4  # the head shape: a new file's first extents
BURST_EVERY = 16  # the burst shape: a stall every so many stripes


# ---- the pool ----

def load_pool():
    """the pool's repetitions, times in seconds"""
    with open(POOL) as f:
        raw = json.load(f)["reps"]
    pool = []
    for r in raw:
        rws = [{"seconds": w["seconds"], "bytes": w["bytes"],
                "device": w["device"],
                "series": [(t / 1e6, b * MiB) for t, b in w["series"]]}
               for w in r["rewrites"]]
        pool.append({"run": r["run"], "stripe": r["stripe"],
                     "fresh_s": [x / 1e6 for x in r["fresh_us"]],
                     "written_s": [x / 1e6 for x in r["written_us"]],
                     "device": r["device"], "rewrites": rws})
    return pool


# ---- a cost of a size and a shape ----

def shape_weights(shape, n, rng):
    """How a cost is spread over a pass's n fresh stripes (sums to 1);
    None: in proportion to each stripe's own time."""
    if shape in ("uniform", "step"):
        return None
    if shape in ("conc5", "conc25"):
        k = max(1, round(n * (0.05 if shape == "conc5" else 0.25)))
        hit = set(rng.sample(range(n), k))
        return [1.0 / k if i in hit else 0.0 for i in range(n)]
    if shape == "ramp":
        m = max(1, n // 4)
        w = [float(m - i) if i < m else 0.0 for i in range(n)]
        s = sum(w)
        return [x / s for x in w]
    if shape in ("first", "head", "end"):
        hit = {"first": [0], "head": range(HEAD_STRIPES),
               "end": [n - 1]}[shape]
        return [1.0 / len(hit) if i in hit else 0.0 for i in range(n)]
    if shape == "burst":
        hit = [i for i in range(n) if (i + 1) % BURST_EVERY == 0]
        return [1.0 / len(hit) if i in hit else 0.0 for i in range(n)]
    raise ValueError(shape)


def with_cost(rep, c, shape, rng):
    """The repetition's fresh stripes with a first-write cost of c: the
    whole first-write pass (every fresh stripe, stripe 0 too, which no
    pair holds) takes 1 + c times as long."""
    fresh = list(rep["fresh_s"])
    if c <= 0:
        return fresh
    n = len(fresh)
    total = sum(fresh)
    w = shape_weights(shape, n, rng)
    for i in range(n):
        fresh[i] += total * c * (fresh[i] / total if w is None else w[i])
    return fresh


def ramp_truth_stripes(rep, c):
    """Under the ramp, the first fresh stripe from which every stripe's
    noise-free cost is within 10% of the rate: cost share <= 1/0.9 - 1
    (the stripes before it, counted from stripe 0)."""
    n = len(rep["fresh_s"])
    m = max(1, n // 4)
    s = m * (m + 1) / 2.0
    for i in range(n):
        share = c * n * (m - i) / s if i < m else 0.0
        if share <= 1 / 0.9 - 1:
            return i
    return n


# ---- a runner's document, a run ----

def quantile(v, q):
    s = sorted(v)
    at = q * (len(s) - 1)
    i = int(at)
    return s[i] if i + 1 >= len(s) else s[i] + (at - i) * (s[i + 1] - s[i])


def device(d, scale=1.0):
    return {"name": "vda", "reads": 0, "read_bytes": 0, "read_ms": 0,
            "writes": d[0], "write_bytes": d[0] * 524288,
            "write_ms": round(d[1] * scale), "busy_ms": 0,
            "queue_ms": round(d[1] * scale), "in_flight_end": 0}


def rewrite_pass(rw, index, scale):
    s = rw["seconds"] * scale
    pts, prev = [], 0.0
    for ts, b in rw["series"]:
        ts *= scale
        pts.append({"t_s": ts, "bytes": b,
                    "mib_per_s": b / MiB / max(ts - prev, 1e-9)})
        prev = ts
    p = {"name": "rewrite", "index": index, "pattern": "seq",
         "bs": 1048576, "qd": 4, "batch": 1, "direct": True,
         "complete": True, "bytes": rw["bytes"],
         "ios": rw["bytes"] // 1048576, "seconds": s,
         "mib_per_s": rw["bytes"] / MiB / s,
         "iops": rw["bytes"] / MiB / s, "series": pts}
    if rw["device"]:
        p["device"] = device(rw["device"], scale)
    return p


def runner_doc(rep, fresh, scale, legacy, rewrites=None, rw_scale=None):
    """A runner's document for one repetition: the first write in stripe
    pairs (fresh as given, rewritten from the pool), then the rewrite
    passes (the rep's own unless given, each times rw_scale[i]); every
    time times scale (a night that fell)."""
    stripe = rep["stripe"]
    base_fresh = sum(rep["fresh_s"])
    fresh = [f * scale for f in fresh]
    written = [w * scale for w in rep["written_s"]]
    n = len(written)
    t = 0.0
    series = []
    for f in fresh:
        t += f
        series.append({"t_s": t, "bytes": stripe,
                       "mib_per_s": stripe / MiB / f})
    total = sum(fresh)
    nbytes = stripe * len(fresh)
    pens = sorted(1 - written[k] / fresh[k + 1] for k in range(n))
    paired = {"stripe": stripe, "pairs": n,
              "penalty": quantile(pens, 0.5),
              "penalty_p25": quantile(pens, 0.25),
              "penalty_p75": quantile(pens, 0.75),
              "written_bytes": stripe * n,
              "written_seconds": sum(written),
              "written_mib_per_s": stripe * n / MiB / sum(written),
              "wall_seconds": total + sum(written),
              "written_series": [stripe / MiB / w for w in written]}
    if not legacy:
        paired["pairs_fresh_seconds"] = sum(fresh[1:n + 1])
        paired["pairs_written_seconds"] = sum(written)
    passes = [{"name": "first-write", "index": 0, "pattern": "seq",
               "bs": 1048576, "qd": 4, "batch": 1, "direct": True,
               "complete": True, "bytes": nbytes, "ios": nbytes // 1048576,
               "seconds": total, "mib_per_s": nbytes / MiB / total,
               "iops": nbytes / MiB / total, "series": series,
               "paired": paired}]
    if rep["device"][0] and rep["device"][1]:
        # the cost lands in the device's time as in the runner's; the
        # pass's own counts hold both sides, as the runner reads them
        fr, wr = rep["device"]
        paired["device_fresh"] = device(fr, total / base_fresh)
        paired["device_written"] = device(wr, scale)
        passes[0]["device"] = device(
            [fr[0] + wr[0], fr[1] * total / base_fresh + wr[1] * scale])
    rws = rewrites if rewrites is not None else rep["rewrites"]
    for i, rw in enumerate(rws):
        k = rw_scale[i] if rw_scale else 1.0
        passes.append(rewrite_pass(rw, i + 1, scale * k))
    return {"tool": "provbench-runner", "version": "validate",
            "engine": "io_uring", "passes": passes, "interrupted": False}


def cycle_doc(rep1, fresh1, rep2, fresh2, legacy):
    """Thin's whole life: a repetition's first write and rewrites, a
    reclaim that gave its region back, then another repetition of the
    same run's passes as the first write again and its rewrites."""
    doc = runner_doc(rep1, fresh1, 1.0, legacy)
    again = runner_doc(rep2, fresh2, 1.0, legacy)["passes"]
    n = len(doc["passes"])
    nbytes = doc["passes"][0]["bytes"]
    doc["passes"].append({
        "name": "reclaim", "index": n, "complete": True, "bytes": 0,
        "seconds": 0.05, "reclaim": {"method": "punch-hole", "done": True,
                                     "seconds": 0.05},
        "extents": {"before": {"written_bytes": nbytes,
                               "unwritten_bytes": 0},
                    "after": {"written_bytes": 0, "unwritten_bytes": 0}}})
    for i, p in enumerate(again):
        p["index"] = n + 1 + i
        doc["passes"].append(p)
    return doc


PROV = {"rdm": 0.0, "eager": EAGER_PROV_S, "lazy": THIN_PROV_S,
        "thin": THIN_PROV_S}


def write_run(path, name, targets, stamp, npasses=3, passes=None,
              extra=None):
    """targets: [(target name, [(mode, runner doc), ...]), ...]; extra:
    members over the file's own (the precision form's resolved and
    stops)"""
    os.makedirs(path, exist_ok=True)
    results = []
    reps = {}
    modes = []
    for ti, (tname, items) in enumerate(targets):
        for mode, doc in items:
            if mode not in modes:
                modes.append(mode)
            reps[(ti, mode)] = reps.get((ti, mode), 0) + 1
            results.append({
                "target": ti, "wave": len(results) + 1,
                "rep": reps[(ti, mode)], "mode": mode, "point": 0,
                "workload": "", "status": "ok",
                "disk": {"id": "v", "file": "v", "uuid": "v",
                         "provision_s": PROV[mode],
                         "provision_source": "server task",
                         "provision_wall_s": PROV[mode],
                         "readback": {"mode": mode}},
                "timing": {"total_s": 1.0, "provision_s": PROV[mode],
                           "runner_s": 1.0, "destroy_s": 0.0,
                           "wave_wait_s": 0.0, "started_unix_ns": 0},
                "runner": doc})
    env = {"backend": "qemu", "accelerator": "tcg", "host": "validate"}
    passes = passes or ["first-write"] + ["rewrite"] * (npasses - 1)
    run = {"format": 2, "tool": "provbench", "version": "validate",
           "commit": "validate", "started_at": stamp,
           "profile_path": name + ".json",
           "profile": {"name": name, "backend": "qemu", "disk_size": "1G",
                       "modes": modes, "repetitions": 1,
                       "workload": {"bs": "1M", "qd": 4, "pattern": "seq",
                                    "direct": True, "passes": passes,
                                    "pair_stripe": "16M"}},
           "run": stamp.replace("-", "").replace(":", "") + "-" + name,
           "plan": {"order": "fixed", "seed": 1, "items": len(results)},
           "points": [{"index": 0, "description": ""}],
           "targets": [{"index": i, "name": t[0], "key": "validate:" + t[0],
                        "environment": env}
                       for i, t in enumerate(targets)],
           "environment": env}
    # in provbench's order: what ran ("resolved") before the results,
    # which a reader streams through once (the precision form's cells
    # were read as fixed counts, their intervals at 95%, while it came
    # after them, until 2026-12-06)
    extra = dict(extra or {})
    if "resolved" in extra:
        run["resolved"] = extra.pop("resolved")
    run.update({"results": results, "updated_at": stamp,
                "interrupted": False, "finished": True})
    run.update(extra)
    # dumps, not dump: json.dump streams through the pure-Python
    # encoder, json.dumps uses the C one (these files run to 11 MB; the
    # whole check spent 24 of its 28 CPU-s in json.dump)
    with open(os.path.join(path, "run.json"), "w") as f:
        f.write(json.dumps(run))


def report(build, path, compare=None):
    argv = [os.path.join(build, "provbench"), "report", "--json", "-q",
            "-o", os.path.join(path, "out")]
    if compare:
        argv += ["-c", compare, "--max-regression", "10"]
    p = subprocess.run(argv + [path], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit("validate: report %s: exit %d: %s" % (path, p.returncode,
                                                      p.stderr))
    return json.loads(p.stdout)


def draw(pool, n, rng):
    """n repetitions of the pool, without one twice where it can"""
    return rng.sample(pool, n) if n <= len(pool) else \
        [rng.choice(pool) for _ in range(n)]


# ---- the truths over the whole pool ----

def rate(rep, fresh):
    return rep["stripe"] * len(fresh) / MiB / sum(fresh)


def truths(pool, c, shape, rng):
    """what each ratio is over the whole pool, with the cost"""
    costed = [with_cost(r, c, shape, rng) for r in pool]
    f_base = statistics.median(rate(r, r["fresh_s"]) for r in pool)
    f_thin = statistics.median(rate(r, f) for r, f in zip(pool, costed))
    dev_first = statistics.median(
        r["device"][0][1] * sum(f) / sum(r["fresh_s"]) / r["device"][0][0]
        for r, f in zip(pool, costed) if r["device"][0])
    dev_later = statistics.median(
        statistics.median(w["device"][1] / w["device"][0]
                          for w in r["rewrites"])
        for r in pool if r["rewrites"][0]["device"])
    per_b_thin = 1 / (f_thin * MiB)
    per_b_eager = 1 / (f_base * MiB)
    be = (EAGER_PROV_S - THIN_PROV_S) / (per_b_thin - per_b_eager) \
        if per_b_thin > per_b_eager else None
    return {"first_base": f_thin / f_base, "device": dev_first / dev_later,
            "breakeven": be}


# ---- one cell: a shape, a size, a repetition count ----

def one_target(pool, c, shape, n, rng, legacy, tname):
    items = [("rdm", runner_doc(r, r["fresh_s"], 1.0, legacy))
             for r in draw(pool, n, rng)]
    items += [("eager", runner_doc(r, r["fresh_s"], 1.0, legacy))
              for r in draw(pool, n, rng)]
    if shape == "step":
        # five passes: the first write and rewrite 1 carry the cost
        for r in draw(pool, n, rng):
            # two more rewrites from a repetition of the same run: the
            # host's level between runs is not a warm-up
            same = [x for x in pool if x["run"] == r["run"] and x is not r]
            rws = r["rewrites"] + rng.choice(same or [r])["rewrites"]
            items.append(("thin", runner_doc(
                r, with_cost(r, c, shape, rng), 1.0, legacy, rws,
                [1 + c] + [1.0] * (len(rws) - 1))))
        return (tname, items)
    items += [("thin", runner_doc(r, with_cost(r, c, shape, rng), 1.0,
                                  legacy)) for r in draw(pool, n, rng)]
    return (tname, items)


def held(iv, truth):
    return iv["lo"] is not None and iv["lo"] <= truth <= iv["hi"]


def score_cell(a, pool, rng, tmp, shape, c, n):
    t = truths(pool, c, shape, rng)
    acc = {k: [] for k in ("pen", "pen_cov", "beyond", "above", "fb",
                           "fb_cov",
                           "rb", "rb_cov", "dev", "dev_cov", "be",
                           "ramp_told", "ramp_err", "step")}
    done, per_file = 0, 40
    while done < a.replicates:
        k = min(per_file, a.replicates - done)
        targets = [one_target(pool, c, shape, n, rng, a.legacy, "r%d" % i)
                   for i in range(k)]
        path = os.path.join(tmp, "cell")
        shutil.rmtree(path, ignore_errors=True)
        write_run(path, "validate", targets, "2026-12-04T00:00:00Z",
                  5 if shape == "step" else 3)
        doc = report(a.build, path)
        g = {(x["target"], x["mode"]): x for x in doc["groups"]}
        fnd = {}
        for f in doc["findings"]:
            fnd.setdefault((f["rule"], f.get("target"), f.get("mode")), f)
        for i in range(k):
            tn = "r%d" % i
            m = g[(tn, "thin")]
            pen = m["warmup_penalty_frac"]
            acc["pen"].append(pen["value"] - c)
            if pen["lo"] is not None:
                acc["pen_cov"].append(held(pen, c))
            sig = fnd.get(("penalty", tn, "thin"), {}).get("significance")
            acc["beyond"].append(sig == "beyond noise")
            acc["above"].append(pen["lo"] is not None and
                                pen["lo"] > ADAPT_T)
            fb = m["first_vs_baseline"]
            acc["fb"].append(fb["value"] - t["first_base"])
            if fb["lo"] is not None:
                acc["fb_cov"].append(held(fb, t["first_base"]))
            # under the step, rewrite 1 pays too: the rewrites' truth
            # is not the baseline's, nor the device's later writes'
            rb = m["rewrite_vs_baseline"]
            if shape != "step":
                acc["rb"].append(rb["value"] - 1)
            if rb["lo"] is not None and shape != "step":
                acc["rb_cov"].append(held(rb, 1.0))
            dv = fnd.get(("at-the-device", tn, "thin"))
            if dv and dv["x"] is not None and shape != "step":
                acc["dev"].append(dv["x"] - t["device"])
                if dv["lo"] is not None:
                    acc["dev_cov"].append(dv["lo"] <= t["device"] <=
                                          dv["hi"])
            # told: the finding says it beyond noise (with fewer
            # repetitions, or first writes within noise, it says why not)
            be = fnd.get(("breakeven", tn, "eager"), {})
            if t["breakeven"] and be.get("significance") == \
                    "beyond noise" and isinstance(be.get("x"), float):
                acc["be"].append(be["x"] / t["breakeven"] - 1)
            if shape == "ramp" and c > 0:
                st = m["steady_state"]
                told = st["median_bytes"] is not None
                acc["ramp_told"].append(told)
                if told:
                    truth = statistics.median(
                        ramp_truth_stripes(r, c) for r in pool)
                    acc["ramp_err"].append(
                        st["median_bytes"] / pool[0]["stripe"] - truth)
            if shape == "step":
                acc["step"].append(
                    m["warmup_across_passes"]["steady_from_pass"] ==
                    (STEP_AT if c >= 0.25 else 1))
        done += k
    return summarize(shape, c, n, acc, t)


def mean(v):
    return sum(v) / len(v) if v else None


def summarize(shape, c, n, acc, t):
    row = {"shape": shape, "size": c, "reps": n,
           "bias": mean(acc["pen"]), "coverage": mean(acc["pen_cov"]),
           "beyond": mean(acc["beyond"]), "above": mean(acc["above"]),
           "fb_bias": mean(acc["fb"]), "fb_coverage": mean(acc["fb_cov"]),
           "rb_bias": mean(acc["rb"]), "rb_coverage": mean(acc["rb_cov"]),
           "dev_bias": mean(acc["dev"]), "dev_truth": t["device"],
           "dev_coverage": mean(acc["dev_cov"]),
           "be_err": statistics.median(acc["be"]) if acc["be"] else None,
           "be_told": len(acc["be"]),
           "ramp_told": mean(acc["ramp_told"]),
           "ramp_err": statistics.median(acc["ramp_err"])
           if acc["ramp_err"] else None,
           "step_found": mean(acc["step"]),
           "replicates": len(acc["pen"])}
    print(line(row), flush=True)
    return row


def pct(v, digits=1):
    return "   -  " if v is None else "%5.*f" % (digits, 100 * v)


def line(r):
    s = "%-7s %3.0f%% %2d reps | penalty bias %s pts cov %s%% beyond %s%%" \
        % (r["shape"], 100 * r["size"], r["reps"],
           "  -  " if r["bias"] is None else "%+5.1f" % (100 * r["bias"]),
           pct(r["coverage"]), pct(r["beyond"]))
    s += " | first/base %s cov %s%% | rewrite/base cov %s%%" % (
        "  -   " if r["fb_bias"] is None else "%+.3f" % r["fb_bias"],
        pct(r["fb_coverage"]), pct(r["rb_coverage"]))
    s += " | device %s cov %s%%" % (
        "  -   " if r["dev_bias"] is None else "%+.3f" % r["dev_bias"],
        pct(r["dev_coverage"]))
    if r["be_told"]:
        s += " | break-even err %+.0f%% (%d told)" % (100 * r["be_err"],
                                                     r["be_told"])
    if r["ramp_told"] is not None:
        s += " | settles told %s%%%s" % (
            pct(r["ramp_told"]), "" if r["ramp_err"] is None else
            ", err %+.1f stripes" % r["ramp_err"])
    if r["step_found"] is not None:
        s += " | across: found %s%%" % pct(r["step_found"])
    return s


# ---- the re-warm: the first write after a reclaim ----

REWARM_FIRST = 0.25  # the first cycle's cost, uniform


def same_run(pool, r, rng):
    """another repetition of r's run: the second cycle runs on the same
    host, its level not a cost"""
    same = [x for x in pool if x["run"] == r["run"] and x is not r]
    return rng.choice(same or [r])


def rewarm_target(pool, c2, n, rng, legacy, tname):
    """rdm reclaimed and written again at no cost (its region given back
    costs it nothing); thin's first cycle at REWARM_FIRST, its second at
    c2, each shaped as conc5 (allocation on a few stripes)"""
    items = []
    for r in draw(pool, n, rng):
        r2 = same_run(pool, r, rng)
        items.append(("rdm", cycle_doc(r, r["fresh_s"], r2, r2["fresh_s"],
                                       legacy)))
    for r in draw(pool, n, rng):
        r2 = same_run(pool, r, rng)
        items.append(("thin", cycle_doc(
            r, with_cost(r, REWARM_FIRST, "conc5", rng), r2,
            with_cost(r2, c2, "conc5", rng), legacy)))
    return (tname, items)


def rewarm_cells(a, pool, rng, tmp):
    """the re-warm's bias and coverage against c2, its verdict (paid
    again: beyond noise), and against the first write: truth
    (1 + c2) / (1 + REWARM_FIRST) - 1"""
    rows = []
    for c2 in a.rewarm_sizes:
        for n in a.reps:
            if n < 3:
                continue
            acc = {"b": [], "cov": [], "yes": [], "vb": [], "vcov": []}
            truth_v = (1 + c2) / (1 + REWARM_FIRST) - 1
            done = 0
            while done < a.replicates:
                k = min(40, a.replicates - done)
                path = os.path.join(tmp, "rewarm")
                shutil.rmtree(path, ignore_errors=True)
                write_run(path, "validate",
                          [rewarm_target(pool, c2, n, rng, a.legacy,
                                         "r%d" % i) for i in range(k)],
                          "2026-12-04T00:00:00Z",
                          passes=["first-write", "rewrite", "rewrite",
                                  "reclaim", "first-write", "rewrite",
                                  "rewrite"])
                doc = report(a.build, path)
                fnd = {}
                for f in doc["findings"]:
                    fnd.setdefault((f["rule"], f.get("target"),
                                    f.get("mode")), f)
                for x in doc["groups"]:
                    if x["mode"] != "thin":
                        continue
                    rw = x["rewarm"]
                    pen, vs = rw["penalty_frac"], rw["vs_first_frac"]
                    acc["b"].append(pen["value"] - c2)
                    acc["cov"].append(held(pen, c2))
                    acc["vb"].append(vs["value"] - truth_v)
                    acc["vcov"].append(held(vs, truth_v))
                    sig = fnd.get(("rewarm", x["target"], "thin"),
                                  {}).get("significance")
                    acc["yes"].append(sig == "beyond noise" and
                                      pen["value"] > 0)
                done += k
            row = {"size": c2, "reps": n, "bias": mean(acc["b"]),
                   "coverage": mean(acc["cov"]),
                   "beyond": mean(acc["yes"]),
                   "vs_bias": mean(acc["vb"]),
                   "vs_coverage": mean(acc["vcov"]), "replicates": done}
            rows.append(row)
            print("rewarm %3.0f%% %2d reps | again bias %+5.1f pts cov "
                  "%s%% paid again %s%% | vs first (truth %+.0f%%) bias "
                  "%+5.1f pts cov %s%%"
                  % (100 * c2, n, 100 * row["bias"], pct(row["coverage"]),
                     pct(row["beyond"]), 100 * truth_v,
                     100 * row["vs_bias"], pct(row["vs_coverage"])),
                  flush=True)
    return rows


# ---- the precision form: repetitions that stop when told ----

ADAPT_MIN, ADAPT_MAX, ADAPT_T = 3, 10, 0.05


def look_alpha(build, tmp):
    """the level each look's interval is taken at, as the harness
    records it: a null-backend run of the design, in milliseconds"""
    prof = os.path.join(tmp, "la.json")
    with open(prof, "w") as f:
        json.dump({"name": "la", "backend": "null", "disk_size": "1M",
                   "modes": ["thin"], "repetitions": ADAPT_MAX,
                   "min_repetitions": ADAPT_MIN,
                   "threshold_pct": 100 * ADAPT_T}, f)
    out = os.path.join(tmp, "la")
    env = dict(os.environ, PROVBENCH_STATE_DIR=os.path.join(tmp, "las"))
    p = subprocess.run([os.path.join(build, "provbench"), "run", "-q", "-y",
                        "-o", out, prof], capture_output=True, text=True,
                       env=env)
    if p.returncode:
        sys.exit("validate: look level: %s" % p.stderr)
    with open(os.path.join(out, "latest", "run.json")) as f:
        return json.load(f)["resolved"]["adaptive"]["look_alpha"]


def adaptive_doc(targets, stops, look, la):
    """the run as it stood after round look: each target's rdm and thin
    to its stop or the look; the design and the stops so far"""
    out = []
    for t, (tname, items) in enumerate(targets):
        upto = stops[t][0] if stops[t] else look
        out.append((tname, [x for x in items if x[2] <= upto]))
    st = []
    for t, s in enumerate(stops):
        if s:
            st += [{"target": t, "point": 0, "mode": "thin",
                    "after": s[0], "rule": s[1]},
                   {"target": t, "point": 0, "mode": "rdm",
                    "after": s[0], "rule": "baseline"}]
    extra = {"resolved": {"modes": ["rdm", "thin"], "baseline": "rdm",
                          "units": "MiB", "repetitions": ADAPT_MAX,
                          "description": "",
                          "adaptive": {"min_repetitions": ADAPT_MIN,
                                       "precision_pct": 0,
                                       "threshold_pct": 100 * ADAPT_T,
                                       "look_alpha": la}},
             "stops": st}
    return [(n, [(m, d) for m, d, _ in items]) for n, items in out], extra


def adaptive_cell(a, pool, rng, tmp, shape, c, la, replicates):
    """runs of the precision form (above or under 5%, 3 to 10): each
    target's rdm and thin drawn to the most beforehand, read back after
    each round as the harness does and stopped by the report's own rule
    (report --json's stop_rule: rp_group_look, not a copy of it); then
    the interval it stopped on against the truth"""
    acc = {"cov": [], "beyond": [], "above": [], "reps": [], "bias": [],
           "futile": []}
    done = 0
    while done < replicates:
        k = min(40, replicates - done)
        targets = []
        for i in range(k):
            items = [("rdm", runner_doc(r, r["fresh_s"], 1.0, a.legacy),
                      j + 1)
                     for j, r in enumerate(draw(pool, ADAPT_MAX, rng))]
            items += [("thin", runner_doc(r, with_cost(r, c, shape, rng),
                                          1.0, a.legacy), j + 1)
                      for j, r in enumerate(draw(pool, ADAPT_MAX, rng))]
            targets.append(("r%d" % i, items))
        stops = [None] * k
        path = os.path.join(tmp, "adaptive")
        for look in range(ADAPT_MIN, ADAPT_MAX + 1):
            shutil.rmtree(path, ignore_errors=True)
            tg, extra = adaptive_doc(targets, stops, look, la)
            write_run(path, "validate", tg, "2026-12-06T00:00:00Z",
                      extra=extra)
            g = {(x["target"], x["mode"]): x
                 for x in report(a.build, path)["groups"]}
            for i in range(k):
                if stops[i]:
                    continue
                rule = g[("r%d" % i, "thin")]["stop_rule"]
                if rule is None:
                    sys.exit("validate: the report read a precision-form "
                             "run as a fixed count (its intervals at 95%, "
                             "not the look level)")
                if rule != "open":
                    stops[i] = (look, rule)
        shutil.rmtree(path, ignore_errors=True)
        tg, extra = adaptive_doc(targets, stops, ADAPT_MAX, la)
        write_run(path, "validate", tg, "2026-12-06T00:00:00Z", extra=extra)
        g = {(x["target"], x["mode"]): x
             for x in report(a.build, path)["groups"]}
        for i in range(k):
            pen = g[("r%d" % i, "thin")]["warmup_penalty_frac"]
            acc["cov"].append(held(pen, c))
            acc["bias"].append(pen["value"] - c)
            acc["beyond"].append(pen["lo"] is not None and pen["lo"] > 0)
            acc["above"].append(stops[i][1] == "above")
            acc["reps"].append(stops[i][0])
            acc["futile"].append(stops[i][1] == "futile")
        done += k
    row = {"shape": shape, "size": c, "coverage": mean(acc["cov"]),
           "bias": mean(acc["bias"]), "beyond": mean(acc["beyond"]),
           "above": mean(acc["above"]),
           "median_reps": statistics.median(acc["reps"]),
           "mean_reps": mean(acc["reps"]), "futile": mean(acc["futile"]),
           "replicates": done}
    print("adaptive %-7s %3.0f%% | cov %s%% bias %+5.1f pts beyond %s%% "
          "above 5%% %s%% futile %s%% | reps median %g mean %.1f (bytes "
          "%.0f%% of a fixed %d)"
          % (shape, 100 * c, pct(row["coverage"]), 100 * row["bias"],
             pct(row["beyond"]), pct(row["above"]), pct(row["futile"]),
             row["median_reps"], row["mean_reps"],
             100 * row["mean_reps"] / ADAPT_MAX, ADAPT_MAX), flush=True)
    return row


def fixed_above(pen_rows, shape, c):
    """the fixed counts' share told above 5% (their interval's low end
    past it), per count, from the cells' own reports"""
    return {r["reps"]: r["above"] for r in pen_rows
            if r["shape"] == shape and r["size"] == c and
            r.get("above") is not None}


# ---- the gate ----

def night(pool, n, rng, legacy, fall, k):
    """k targets of a night: every mode from the pool, thin's first
    write with a 25% cost on 5% of its stripes, its rate fallen by fall"""
    targets = []
    for t in range(k):
        items = []
        for mode in ("rdm", "eager", "lazy"):
            items += [(mode, runner_doc(r, r["fresh_s"], 1.0, legacy))
                      for r in draw(pool, n, rng)]
        items += [("thin", runner_doc(
            r, [x / (1 - fall) for x in with_cost(r, 0.25, "conc5", rng)],
            1.0, legacy)) for r in draw(pool, n, rng)]
        targets.append(("n%d" % t, items))
    return targets


def gate_cells(a, pool, rng, tmp):
    rows = []
    for n in a.reps:
        for fall in a.falls:
            alarms, caught, done = 0, 0, 0
            verdict = {"fell": 0, "held": 0, "cannot tell yet": 0}
            while done < a.replicates:
                k = min(40, a.replicates - done)
                runs = []
                for i, f in enumerate((0.0, fall)):
                    path = os.path.join(tmp, "night%d" % i)
                    shutil.rmtree(path, ignore_errors=True)
                    write_run(path, "validate", night(pool, n, rng,
                                                      a.legacy, f, k),
                              "2026-12-0%dT00:00:00Z" % (4 + i))
                    runs.append(path)
                doc = report(a.build, runs[1], compare=runs[0])
                bad, gates = {}, {}
                for f in doc["findings"]:
                    if f["rule"] != "change":
                        continue
                    if f.get("regressed"):
                        bad.setdefault(f.get("target"), set()).add(f["mode"])
                    if f["mode"] == "thin" and f["metric"] == \
                            "first-write":
                        gates[f.get("target")] = f.get("gate")
                for t in range(k):
                    hit = bad.get("n%d" % t, set())
                    alarms += fall == 0 and bool(hit)
                    caught += fall > 0 and "thin" in hit
                    # the gate's verdict on thin's first write
                    verdict[gates.get("n%d" % t, "cannot tell yet")] += 1
                done += k
            rows.append({"reps": n, "fall": fall,
                         "rate": (alarms if fall == 0 else caught) / done,
                         "nights": done,
                         "verdicts": {v: x / done
                                      for v, x in verdict.items()}})
            print("gate %2d reps, %s: %5.1f%% of %d nights; thin's first "
                  "write fell "
                  "%s%%, held %s%%, cannot tell yet %s%%"
                  % (n, "null (false alarms)" if fall == 0 else
                     "fall of %.0f%% caught" % (100 * fall),
                     100 * rows[-1]["rate"], done,
                     pct(rows[-1]["verdicts"]["fell"]),
                     pct(rows[-1]["verdicts"]["held"]),
                     pct(rows[-1]["verdicts"]["cannot tell yet"])),
                  flush=True)
    return rows


# ---- issue 36's thresholds ----

def check(pen, gate, rewarm=(), adaptive=()):
    """every miss said"""
    bad = []
    for r in adaptive:
        if r["coverage"] < 0.93:
            bad.append("precision form, %s %.0f%%: the interval it stopped "
                       "on covers %.1f%%" % (r["shape"], 100 * r["size"],
                                             100 * r["coverage"]))
        if r["size"] == 0 and r["beyond"] > 0.05:
            bad.append("precision form, %s at 0: called beyond noise in "
                       "%.1f%%" % (r["shape"], 100 * r["beyond"]))
    for r in rewarm:
        if r["reps"] != 5:
            continue
        for what, b, cov in (("re-warm", r["bias"], r["coverage"]),
                             ("re-warm against the first", r["vs_bias"],
                              r["vs_coverage"])):
            if abs(b) > 0.02:
                bad.append("%s at %.0f%%, 5 reps: bias %+.1f points"
                           % (what, 100 * r["size"], 100 * b))
            if cov < 0.93:
                bad.append("%s at %.0f%%, 5 reps: interval covers %.1f%%"
                           % (what, 100 * r["size"], 100 * cov))
    for r in pen:
        if r["reps"] < 3:
            continue
        if abs(r["bias"]) > 0.02:
            bad.append("%s %.0f%% at %d reps: penalty bias %+.1f points"
                       % (r["shape"], 100 * r["size"], r["reps"],
                          100 * r["bias"]))
        if r["coverage"] < 0.93:
            bad.append("%s %.0f%% at %d reps: interval covers %.1f%%"
                       % (r["shape"], 100 * r["size"], r["reps"],
                          100 * r["coverage"]))
    for r in gate:
        if r["fall"] == 0 and r["rate"] > 0.02:
            bad.append("gate at %d reps: %.1f false alarms in 100 null "
                       "nights" % (r["reps"], 100 * r["rate"]))
        if r["fall"] == 0.3 and r["reps"] == 5 and r["rate"] < 0.95:
            bad.append("gate at 5 reps: %.0f%% of 30%% falls caught"
                       % (100 * r["rate"]))
    for b in bad:
        print("validate: MISSED: " + b)
    return not bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--replicates", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", default="2,3,5,10")
    ap.add_argument("--sizes", default="0,0.02,0.05,0.1,0.25,0.5")
    ap.add_argument("--shapes", default="uniform,conc5,conc25,ramp,step,"
                    "first,head,end,burst")
    ap.add_argument("--rewarm-sizes", default="0,0.1,0.25,0.5",
                    help="the second first write's costs (after a "
                         "reclaim); the first's is 25%%")
    ap.add_argument("--no-rewarm", action="store_true")
    ap.add_argument("--no-adaptive", action="store_true",
                    help="leave out the precision form's cells (issue 54)")
    ap.add_argument("--gate", action="store_true", help="the gate only")
    ap.add_argument("--no-gate", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--quick", action="store_true",
                    help="make check's subset: 5 repetitions, sizes 0 and "
                         "25%%, uniform, conc5 and first, 150 replicates; "
                         "the "
                         "re-warm at 0 and 25%%, the gate's null nights "
                         "and 30%% falls, 100 each")
    ap.add_argument("--legacy", action="store_true")
    a = ap.parse_args()
    a.falls = (0.0, 0.1, 0.2, 0.3)
    if a.quick:
        a.reps, a.sizes, a.shapes = "5", "0,0.25", "uniform,conc5,first"
        a.rewarm_sizes = "0,0.25"
        a.replicates = 150
    a.reps = [int(x) for x in a.reps.split(",")]
    a.sizes = [float(x) for x in a.sizes.split(",")]
    a.shapes = a.shapes.split(",")
    a.rewarm_sizes = [float(x) for x in a.rewarm_sizes.split(",")]
    rng = random.Random(a.seed)
    pool = load_pool()
    tmp = tempfile.mkdtemp(prefix="pb-validate-")
    try:
        pen = [] if a.gate else [
            score_cell(a, pool, rng, tmp, shape, c, n)
            for shape in a.shapes for c in a.sizes for n in a.reps]
        if a.quick:
            a.replicates, a.falls = 100, (0.0, 0.3)
        rewarm = [] if a.gate or a.no_rewarm else \
            rewarm_cells(a, pool, rng, tmp)
        adaptive = []
        if not (a.gate or a.no_adaptive):
            la = look_alpha(a.build, tmp)
            cells = [(shape, c) for shape in a.shapes for c in a.sizes]
            nrep = a.replicates
            if a.quick:
                # make check's: a zero cost on real noise (a false claim,
                # the interval it stopped on), 60 runs; the sizes are the
                # unit tests' (seq:seq_stopping_covers) and the full table's
                cells, nrep = [("uniform", 0.0)], 60
            adaptive = [adaptive_cell(a, pool, rng, tmp, shape, c, la,
                                      nrep) for shape, c in cells]
            for r in adaptive:
                fx = fixed_above(pen, r["shape"], r["size"])
                if fx:
                    print("adaptive %-7s %3.0f%% | above 5%%: %s%% adaptive"
                          ", fixed %s" % (r["shape"], 100 * r["size"],
                                          pct(r["above"]),
                                          ", ".join("%d: %s%%" % (
                                              n, pct(v)) for n, v in
                                              sorted(fx.items()))),
                          flush=True)
        gate = [] if a.no_gate else gate_cells(a, pool, rng, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if a.check and not check(pen, gate, rewarm, adaptive):
        sys.exit(1)


if __name__ == "__main__":
    main()
