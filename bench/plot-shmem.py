#!/usr/bin/python3
"""plot-shmem.py: draw bench/run-shmem.sh's results as one PNG.

    /usr/bin/python3 bench/plot-shmem.py RESULTS PNG

Needs Python 3 with matplotlib (Debian: python3-matplotlib, for
/usr/bin/python3).

RESULTS holds lines "impl.round kind npes count median p10 p90 extra"
(us per call) or "impl.round kind npes count timeout|fail|bad", as
written by run-shmem.sh -o.  Four panels against the number of PEs, log
time: shmem_double_sum_to_all of 1, 1,024 and 1,048,576 doubles, and
back-to-back shmem_barrier_all.  A point is the median over the rounds
of each run's median; bars span the rounds' lowest 10th and highest 90th
percentiles.  Failed runs are named on the panel's top edge.
"""
import statistics
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-shmem.py: needs matplotlib "
             "(Debian package python3-matplotlib, run with /usr/bin/python3)")

STYLES = {
    "ours": ("ours (libpvmshmem)", dict(color="tab:blue", marker="o")),
    "ompi": ("Open MPI OpenSHMEM", dict(color="tab:green", marker="^")),
}
PANELS = [
    ("reduce", 1, "shmem_double_sum_to_all, 1 double"),
    ("reduce", 1024, "shmem_double_sum_to_all, 1,024 doubles"),
    ("reduce", 1048576, "shmem_double_sum_to_all, 1,048,576 doubles"),
    ("barrier", 0, "shmem_barrier_all, back to back"),
]


def read(path):
    """{(impl, kind, count): {npes: [values]}}: a value is (median, p10,
    p90) or a word (timeout, fail, bad)."""
    data = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) < 5:
                continue
            impl = w[0].split(".")[0]
            kind, n, count = w[1], int(w[2]), int(w[3])
            try:
                v = tuple(float(x) for x in w[4:7])
            except ValueError:
                v = w[4]
            data.setdefault((impl, kind, count), {}).setdefault(
                n, []).append(v)
    return data


def panel(ax, data, kind, count, title):
    scale = 1e-3 if count >= 1 << 20 else 1.0
    ax.set_ylabel("ms per call" if scale != 1.0 else "us per call")
    failed = []
    for impl, (label, style) in STYLES.items():
        pts = data.get((impl, kind, count), {})
        xs, med, lo, hi = [], [], [], []
        for n in sorted(pts):
            ok = [v for v in pts[n] if isinstance(v, tuple)]
            failed += [(n, v, label) for v in pts[n] if isinstance(v, str)]
            if not ok:
                continue
            m = statistics.median(v[0] for v in ok) * scale
            xs.append(n)
            med.append(m)
            lo.append(m - min(v[1] for v in ok) * scale)
            hi.append(max(v[2] for v in ok) * scale - m)
        if xs:
            ax.errorbar(xs, med, yerr=[lo, hi], label=label, capsize=3,
                        elinewidth=0.8, **style)
    ax.set_yscale("log")
    ax.set_xscale("log", base=2)
    ax.set_xticks([2, 4, 8])
    ax.set_xticklabels(["2", "4", "8"])
    ax.set_xlabel("PEs")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    for n, v, label in failed:
        ax.annotate("%s: %s" % (label, v), xy=(n, 1),
                    xycoords=("data", "axes fraction"), xytext=(0, -12),
                    textcoords="offset points", ha="center", fontsize=7)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot-shmem.py RESULTS PNG")
    data = read(sys.argv[1])
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.5))
    for ax, (kind, count, title) in zip(axes.flat, PANELS):
        panel(ax, data, kind, count, title)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels),
               fontsize=9)
    fig.suptitle("OpenSHMEM on one 2-core host (bench/run-shmem.sh)\n"
                 "sum_to_all: first PE released by the barrier until every "
                 "PE has the result")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
