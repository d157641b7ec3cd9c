#!/usr/bin/env python3
"""Rows and Markdown tables for the lab validation (scripts/lab/lab-matrix.sh,
lab-array.sh; docs/lab.md).

  lab_table.py header
  lab_table.py row IOPS SCALE CACHE CLIENTS LOAD IO_SAMPLES END_TIME RUN PREDICT SIMULATE
      one TSV row: measured tps and latencies (pgstorsim run results), the lab disk's
      reads and writes per second and per transaction in the measured window (cut out of
      IO_SAMPLES, "unix_time reads writes" lines, by END_TIME and the run's duration),
      and the predict / simulate results for the same point
  lab_table.py markdown MATRIX_TSV [ARRAY_TSV...]
      the tables of results/validation/lab.md with errors, mean and worst |error|
"""
import json
import statistics
import sys

COLUMNS = [
    "iops", "scale", "cache", "clients", "load", "tps", "update_ms", "end_ms", "r_iops",
    "w_iops", "reads_txn", "writes_txn", "predict_tps", "predict_update_ms",
    "predict_end_ms", "simulate_tps", "simulate_update_ms", "simulate_end_ms"
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


def row(args):
    iops, scale, cache, clients, load_avg, samples, end_time, run, pred, sim = args
    run, pred, sim = load(run), load(pred), load(sim)
    tps = run["summary"]["tps"]
    r_iops, w_iops = window_rates(samples, float(end_time), run["summary"]["duration_s"])
    values = [
        iops, scale, cache, clients, load_avg, tps,
        statement_ms(run, "UPDATE accounts"), statement_ms(run, "END"), r_iops, w_iops,
        r_iops / tps, w_iops / tps, pred["summary"]["tps"],
        statement_ms(pred, "UPDATE accounts"), statement_ms(pred, "END"),
        sim["summary"]["tps"], statement_ms(sim, "UPDATE accounts"), statement_ms(sim, "END")
    ]
    print("\t".join(v if isinstance(v, str) else "%.3f" % v for v in values))


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def err(predicted, measured):
    return 100.0 * (float(predicted) - float(measured)) / float(measured)


def summary_line(name, errors):
    absolute = [abs(e) for e in errors]
    return "| %s | %.1f %% | %.1f %% | %d of %d |" % (
        name, statistics.mean(absolute), max(absolute), sum(a <= 20 for a in absolute),
        len(absolute))


def bound(r):
    """Which side of the lab disk ran at >= 90 % of its cap in the measured window."""
    cap = float(r["iops"])
    sides = [name for name, key in (("reads", "r_iops"), ("writes", "w_iops"))
             if float(r[key]) >= 0.9 * cap]
    return " + ".join(sides) if sides else "neither (CPU, latency)"


def matrix_markdown(rows):
    print("| point (IOPS, scale, cache, clients) | measured tps | predict tps (err) "
          "| simulate tps (err) | UPDATE accounts ms: run / predict / simulate "
          "| END ms: run / predict / simulate | disk r/s, w/s | reads, writes per txn "
          "| at the cap | load |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s, s%s, %s, %s | %.1f | %.1f (%+.0f %%) | %.1f (%+.0f %%) "
              "| %.1f / %.1f / %.1f | %.1f / %.1f / %.1f | %.0f, %.0f | %.2f, %.2f | %s | %s |" % (
                  r["iops"], r["scale"], r["cache"], r["clients"], float(r["tps"]),
                  float(r["predict_tps"]), err(r["predict_tps"], r["tps"]),
                  float(r["simulate_tps"]), err(r["simulate_tps"], r["tps"]),
                  float(r["update_ms"]), float(r["predict_update_ms"]),
                  float(r["simulate_update_ms"]), float(r["end_ms"]),
                  float(r["predict_end_ms"]), float(r["simulate_end_ms"]),
                  float(r["r_iops"]), float(r["w_iops"]), float(r["reads_txn"]),
                  float(r["writes_txn"]), bound(r), r["load"]))
    print()
    print("| model | mean abs. tps error | worst | points within 20 % |")
    print("|---|---|---|---|")
    print(summary_line("predict", [err(r["predict_tps"], r["tps"]) for r in rows]))
    print(summary_line("simulate", [err(r["simulate_tps"], r["tps"]) for r in rows]))
    capped = [r for r in rows if not bound(r).startswith("neither")]
    if capped and len(capped) < len(rows):
        print(summary_line("predict, points at the cap",
                           [err(r["predict_tps"], r["tps"]) for r in capped]))
        print(summary_line("simulate, points at the cap",
                           [err(r["simulate_tps"], r["tps"]) for r in capped]))


def array_markdown(rows):
    print("| array | stripe | replayed tps (runs) | median | simulate tps | predict tps |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %.1f | %.1f | %.1f |" % (
            r["array"], r["stripe"], r["runs"], float(r["median_tps"]),
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
    if len(argv) >= 2 and argv[1] == "header":
        print("\t".join(COLUMNS))
    elif len(argv) == 12 and argv[1] == "row":
        row(argv[2:])
    elif len(argv) >= 3 and argv[1] == "markdown":
        matrix_markdown(read_tsv(argv[2]))
        if len(argv) > 3:
            print()
            print("## Emulated array: replayed stripe effect vs predicted")
        for path in argv[3:]:
            print()
            array_markdown(read_tsv(path))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
