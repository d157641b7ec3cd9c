#!/usr/bin/env python3
"""Rows and Markdown tables for the lab validation (scripts/lab/lab-matrix.sh,
lab-predict.sh, lab-array.sh; docs/lab.md).

  lab_table.py measured-header
  lab_table.py measured-row IOPS SCALE CACHE CLIENTS REP LOAD IO_SAMPLES END_TIME RUN
                            PG_BEFORE PG_AFTER CACHED_MIB
      one row of the measured TSV: tps and statement latencies (pgstorsim run
      results), the lab disk's reads and writes per second and per transaction in the
      measured window (cut out of IO_SAMPLES, "unix_time reads writes" lines, by
      END_TIME and the run's duration), and from the server's counters around the run
      (PG_BEFORE / PG_AFTER: "commits wal_sync wal_write checkpoints", warm-up
      included) commits per WAL flush and checkpoints; CACHED_MIB = the database's
      files in the page cache when the point started
  lab_table.py points MEASURED_TSV
      "iops scale cache clients seconds" once per point (lab-predict.sh's input)
  lab_table.py join MEASURED_TSV PREDICTIONS_DIR
      the measured rows with predict / simulate columns from
      PREDICTIONS_DIR/iIOPS-sSCALE-CACHE-cCLIENTS-{predict,simulate}.json
  lab_table.py summary MATRIX_TSV
      mean and worst |tps error| of predict and simulate (one line each)
  lab_table.py markdown MATRIX_TSV [ARRAY_TSV...]
      the tables of results/validation/lab.md: per point both repetitions, errors
      against their mean, mean and worst |error|
"""
import json
import math
import statistics
import sys

POINT = ["iops", "scale", "cache", "clients"]
MEASURED = POINT + [
    "rep", "seconds", "load", "tps", "update_ms", "end_ms", "txn_ms", "r_iops", "w_iops",
    "reads_txn", "writes_txn", "commits", "wal_syncs", "commits_per_flush", "checkpoints",
    "cached_mib_start"
]
PREDICTED = [
    "predict_tps", "predict_update_ms", "predict_end_ms", "simulate_tps",
    "simulate_update_ms", "simulate_end_ms", "simulate_commits_per_flush"
]


def load(path):
    with open(path) as f:
        return json.load(f)


def statement_ms(results, name):
    for s in results.get("statements", []):
        if s["name"] == name:
            return s["latency_ms"]["mean"]
    return float("nan")


def window_rates(samples_path, end_time, duration_s):
    """Reads/s and writes/s between end_time - duration_s and end_time."""
    samples = []
    with open(samples_path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3:
                samples.append((float(parts[0]), int(parts[1]), int(parts[2])))
    start = end_time - duration_s
    inside = [s for s in samples if start <= s[0] <= end_time]
    if len(inside) < 2:
        return float("nan"), float("nan")
    (t0, r0, w0), (t1, r1, w1) = inside[0], inside[-1]
    return (r1 - r0) / (t1 - t0), (w1 - w0) / (t1 - t0)


def counters(path):
    with open(path) as f:
        return [float(v) for v in f.read().split()]


def fmt(values):
    return "\t".join(v if isinstance(v, str) else "%.3f" % v for v in values)


def measured_row(args):
    point, rep, load_avg, samples, end_time, run, before, after, cached = (
        args[:4], args[4], args[5], args[6], args[7], args[8], args[9], args[10], args[11])
    run = load(run)
    summary = run["summary"]
    tps, duration = summary["tps"], summary["duration_s"]
    r_iops, w_iops = window_rates(samples, float(end_time), duration)
    commits, syncs, _, checkpoints = [a - b for a, b in zip(counters(after), counters(before))]
    latency = summary.get("latency_ms", {}).get("mean", float("nan"))
    print(fmt(point + [rep, "%d" % round(duration), load_avg, tps,
                       statement_ms(run, "UPDATE accounts"), statement_ms(run, "END"), latency,
                       r_iops, w_iops, r_iops / tps, w_iops / tps, "%d" % commits,
                       "%d" % syncs, commits / syncs if syncs else float("nan"),
                       "%d" % checkpoints, cached]))


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def point_key(r):
    return tuple(r[k] for k in POINT)


def grouped(rows):
    """Rows grouped by point, in first-seen order."""
    groups = {}
    for r in rows:
        groups.setdefault(point_key(r), []).append(r)
    return groups


def points(path):
    for key, reps in grouped(read_tsv(path)).items():
        print(" ".join(key), reps[0]["seconds"])


def join(measured_path, predictions):
    print("\t".join(MEASURED + PREDICTED))
    for r in read_tsv(measured_path):
        tag = "%s/i%s-s%s-%s-c%s" % ((predictions,) + point_key(r))
        pred, sim = load(tag + "-predict.json"), load(tag + "-simulate.json")
        values = [pred["summary"]["tps"], statement_ms(pred, "UPDATE accounts"),
                  statement_ms(pred, "END"), sim["summary"]["tps"],
                  statement_ms(sim, "UPDATE accounts"), statement_ms(sim, "END"),
                  sim.get("sections", {}).get("wal", {}).get("commits_per_flush", float("nan"))]
        print(fmt([r[k] for k in MEASURED] + values))


def err(predicted, measured):
    return 100.0 * (float(predicted) - float(measured)) / float(measured)


def mean_of(reps, key):
    return statistics.mean(float(r[key]) for r in reps)


def model_errors(groups, model):
    return [err(reps[0][model + "_tps"], mean_of(reps, "tps")) for reps in groups.values()]


def summary_line(name, errors):
    absolute = [abs(e) for e in errors]
    return "| %s | %.1f %% | %+.1f %% | %d of %d |" % (
        name, statistics.mean(absolute), max(errors, key=abs), sum(a <= 20 for a in absolute),
        len(absolute))


def summary(path):
    groups = grouped(read_tsv(path))
    for model in ("predict", "simulate"):
        e = model_errors(groups, model)
        print("lab: %s: mean |tps error| %.1f %%, worst %+.1f %% over %d points" % (
            model, statistics.mean(abs(x) for x in e), max(e, key=abs), len(e)))


def bound(reps):
    """Which side of the lab disk ran at >= 90 % of its cap (mean of the repetitions)."""
    cap = float(reps[0]["iops"])
    sides = [name for name, key in (("reads", "r_iops"), ("writes", "w_iops"))
             if mean_of(reps, key) >= 0.9 * cap]
    return " + ".join(sides) if sides else "neither"


def per_rep(reps, key, pattern="%.1f"):
    return " / ".join(pattern % float(r[key]) for r in reps)


def matrix_markdown(rows):
    groups = grouped(rows)
    print("| point (IOPS, scale, cache, clients) | measured tps (reps) | predict tps (err) "
          "| simulate tps (err) | UPDATE accounts ms: run (reps) / predict / simulate "
          "| END ms: run (reps) / predict / simulate | disk r/s, w/s | reads, writes per txn "
          "| commits per WAL flush: run (reps) / simulate | at the cap | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for key, reps in groups.items():
        tps, first = mean_of(reps, "tps"), reps[0]
        print("| %s, s%s, %s, %s | %s | %.1f (%+.0f %%) | %.1f (%+.0f %%) | %s / %.1f / %.1f "
              "| %s / %.1f / %.1f | %.0f, %.0f | %.2f, %.2f | %s / %.2f | %s | %s |" % (
                  key + (per_rep(reps, "tps"), float(first["predict_tps"]),
                         err(first["predict_tps"], tps), float(first["simulate_tps"]),
                         err(first["simulate_tps"], tps), per_rep(reps, "update_ms"),
                         float(first["predict_update_ms"]), float(first["simulate_update_ms"]),
                         per_rep(reps, "end_ms"), float(first["predict_end_ms"]),
                         float(first["simulate_end_ms"]), mean_of(reps, "r_iops"),
                         mean_of(reps, "w_iops"), mean_of(reps, "reads_txn"),
                         mean_of(reps, "writes_txn"), per_rep(reps, "commits_per_flush", "%.2f"),
                         float(first.get("simulate_commits_per_flush", "nan")), bound(reps), per_rep(reps, "load", "%.1f"))))
    print()
    print("| model | mean abs. tps error | worst | points within 20 % |")
    print("|---|---|---|---|")
    capped = {k: reps for k, reps in groups.items() if bound(reps) != "neither"}
    for model in ("predict", "simulate"):
        print(summary_line(model, model_errors(groups, model)))
    if capped and len(capped) < len(groups):
        for model in ("predict", "simulate"):
            print(summary_line(model + ", points at the cap", model_errors(capped, model)))
    spread = [100.0 * (max(float(r["tps"]) for r in reps) / min(float(r["tps"]) for r in reps) - 1)
              for reps in groups.values() if len(reps) > 1]
    if spread:
        print()
        print("Repetitions: largest / smallest tps of a point differ by %.1f %% on average, "
              "%.1f %% at most." % (statistics.mean(spread), max(spread)))


def array_markdown(rows):
    print("| array | stripe | replayed tps (runs) | median | second half | member reads / "
          "writes per txn | simulate tps | predict tps |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        late = "%.1f" % float(r["late_tps"]) if r.get("late_tps") else "-"
        print("| %s | %s | %s | %.1f | %s | %.2f / %.2f | %.1f | %.1f |" % (
            r["array"], r["stripe"], r["runs"], float(r["median_tps"]), late,
            float(r["member_reads_txn"]), float(r["member_writes_txn"]),
            float(r["simulate_tps"]), float(r["predict_tps"])))
    if len(rows) != 2:
        return
    small, large = rows
    ratio = lambda key: float(large[key]) / float(small[key])
    measured = ratio("median_tps")
    print()
    print("| %s / %s tps ratio | value | error vs replayed |" % (large["stripe"], small["stripe"]))
    print("|---|---|---|")
    print("| replayed (medians) | %.2f | |" % measured)
    for name, key in (("simulate", "simulate_tps"), ("predict", "predict_tps")):
        print("| %s | %.2f | %+.1f %% |" % (name, ratio(key), err(ratio(key), measured)))


def main(argv):
    command, args = (argv[1], argv[2:]) if len(argv) > 1 else ("", [])
    if command == "measured-header":
        print("\t".join(MEASURED))
    elif command == "measured-row" and len(args) == 12:
        measured_row(args)
    elif command == "points" and len(args) == 1:
        points(args[0])
    elif command == "join" and len(args) == 2:
        join(args[0], args[1])
    elif command == "summary" and len(args) == 1:
        summary(args[0])
    elif command == "markdown" and args:
        matrix_markdown(read_tsv(args[0]))
        if len(args) > 1:
            print()
            print("## Emulated array: replayed stripe effect vs predicted")
        for path in args[1:]:
            print()
            array_markdown(read_tsv(path))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
