#!/usr/bin/python3
"""plot-reduce.py: draw bench/run-reduce.sh's results as one PNG.

    /usr/bin/python3 bench/plot-reduce.py RESULTS PNG

Needs Python 3 with matplotlib (Debian: apt-get install python3-matplotlib,
which installs it for /usr/bin/python3, not for other Pythons on $PATH).

RESULTS holds lines "impl kind n count median p10 p90 [extra]"
(microseconds; extra is not drawn) or "impl kind n count
timeout|fail|bad", as written by run-reduce.sh -o.  Panels of median
time per call against group size, log-scale time: pvm_reduce of 1, 1,024
and 1,048,576 doubles (from the first member's release by the separating
barrier until the root has the result), pvm_barrier (back to back,
timed at the root), and, when the results have them, pvm_gather,
pvm_scatter and pvm_bcast of 1 and 1,024 doubles.
Points are medians, bars the 10th to 90th percentiles.  Runs that timed
out or failed are marked on the panel's top edge.
"""
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-reduce.py: needs matplotlib "
             "(Debian package python3-matplotlib, run with /usr/bin/python3)")

# impl -> (label, line style)
STYLES = {
    "ours": ("ours", dict(color="tab:blue", marker="o", ls="-")),
    "ours-frozen": ("ours, frozen group",
                    dict(color="tab:blue", marker="o", ls="--", mfc="none")),
    "pvm346": ("PVM 3.4.6", dict(color="tab:red", marker="s", ls="-")),
    "pvm346-frozen": ("PVM 3.4.6, frozen group",
                      dict(color="tab:red", marker="s", ls="--", mfc="none")),
    "mpi": ("Open MPI", dict(color="tab:green", marker="^", ls="-")),
}
PANELS = [
    ("reduce", 1, "pvm_reduce, 1 double"),
    ("reduce", 1024, "pvm_reduce, 1,024 doubles"),
    ("reduce", 1048576, "pvm_reduce, 1,048,576 doubles"),
    ("barrier", 0, "pvm_barrier, back to back at the root"),
    ("gather", 1, "pvm_gather, 1 double a member"),
    ("gather", 1024, "pvm_gather, 1,024 doubles a member"),
    ("scatter", 1, "pvm_scatter, 1 double a member"),
    ("scatter", 1024, "pvm_scatter, 1,024 doubles a member"),
    ("bcast", 1, "pvm_bcast, 1 double"),
    ("bcast", 1024, "pvm_bcast, 1,024 doubles"),
]


def read(path):
    """{(impl, kind, count): {n: value}}: value is (median, p10, p90) or
    a word (timeout, fail, bad)."""
    data = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 5:
                continue
            impl, kind, n, count = w[:4]
            try:
                v = tuple(float(x) for x in w[4:7])
                if len(v) < 3:
                    v = (v[0], v[0], v[0])
            except ValueError:
                v = w[4]
            data.setdefault((impl, kind, int(count)), {})[int(n)] = v
    return data


def unit(kind, count):
    """Scale and axis label: ms for the big reduce, else us."""
    if kind == "reduce" and count >= 1 << 20:
        return 1e-3, "ms per call (median)"
    return 1.0, "us per call (median)"


def panel(ax, data, kind, count, title):
    scale, ylabel = unit(kind, count)
    failed = []
    for impl, (label, style) in STYLES.items():
        pts = data.get((impl, kind, count))
        if not pts:
            continue
        ok = sorted((n, [x * scale for x in v]) for n, v in pts.items()
                    if isinstance(v, tuple))
        failed += [(n, v, label) for n, v in pts.items()
                   if isinstance(v, str)]
        if ok:
            xs = [p[0] for p in ok]
            med = [p[1][0] for p in ok]
            # Bars: 10th to 90th percentile of the repetitions.
            err = [[m - p[1][1] for m, p in zip(med, ok)],
                   [p[1][2] - m for m, p in zip(med, ok)]]
            ax.errorbar(xs, med, yerr=err, label=label, capsize=3,
                        elinewidth=0.8, alpha=0.9, **style)
    ax.set_yscale("log")
    ax.set_xscale("log", base=2)
    ns = sorted({n for (i, k, c), pts in data.items()
                 if k == kind and c == count for n in pts})
    if kind == "barrier":
        ns = [n for n in ns if n in (2, 4, 8, 12, 16)]
    ax.set_xticks(ns)
    ax.set_xticklabels([str(n) for n in ns])
    ax.set_xlabel("tasks in the group")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    for n, v, label in failed:
        ax.annotate("%s: %s" % (label, v), xy=(n, 1), xycoords=(
            "data", "axes fraction"), xytext=(0, -12),
            textcoords="offset points", ha="center", fontsize=7,
            color="black")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot-reduce.py RESULTS PNG")
    data = read(sys.argv[1])
    # Only the panels the results have (gather, scatter and bcast runs
    # are optional: run-reduce.sh -g "").
    panels = [p for p in PANELS
              if any(k == p[0] and c == p[1] for (i, k, c) in data)]
    cols = 2 if len(panels) <= 4 else 3
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.5 * cols, 4.25 * rows),
                             squeeze=False)
    for ax, (kind, count, title) in zip(axes.flat, panels):
        panel(ax, data, kind, count, title)
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    # One legend for all panels (the reduce panels have every line).
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels),
               fontsize=9)
    fig.suptitle("Group calls on one 2-core host (bench/run-reduce.sh)\n"
                 "from the first member's release by the barrier until the "
                 "root has the result (scatter, bcast: until the last "
                 "member has its part); median, bars 10th-90th percentile")
    fig.tight_layout(rect=(0, 0.03, 1, 1 - 0.2 / rows))
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
