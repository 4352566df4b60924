#!/usr/bin/python3
"""plot-netpipe.py: draw bench/run-netpipe.sh's NetPIPE results as one PNG.

    /usr/bin/python3 bench/plot-netpipe.py RESDIR PNG

Needs Python 3 with matplotlib (Debian: apt-get install python3-matplotlib,
which installs it for /usr/bin/python3, not for other Pythons on $PATH).

RESDIR holds NetPIPE's output files as run-netpipe.sh names them,
IMPL.RUN.np.out (IMPL: ours, pvm346, openmpi), each line "size Mbps
time": size in bytes, time one-way in seconds (half a round trip).  Two
panels against message size, both log-log: one-way time, and bandwidth
in MB/s (10^6 bytes/s, size / time).  Each curve is, for every size, the
median over the runs that measured it.
"""
import glob
import os
import statistics
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot-netpipe.py: needs matplotlib "
             "(Debian package python3-matplotlib, run with /usr/bin/python3)")

# impl -> (label, line style)
STYLES = {
    "ours": ("ours (NPpvm on our libpvm3)",
             dict(color="tab:blue", marker="o", ls="-")),
    "pvm346": ("PVM 3.4.6 (NPpvm)", dict(color="tab:red", marker="s", ls="-")),
    "openmpi": ("Open MPI 2 ranks, vader (NPopenmpi)",
                dict(color="tab:green", marker="^", ls="-")),
}


def read(resdir):
    """{impl: {size: [one-way seconds, one per run]}}, and run counts."""
    data, runs = {}, {}
    for path in sorted(glob.glob(os.path.join(resdir, "*.np.out"))):
        impl = os.path.basename(path).split(".")[0]
        runs[impl] = runs.get(impl, 0) + 1
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) < 3:
                    continue
                try:
                    size, t = int(w[0]), float(w[2])
                except ValueError:
                    continue
                if t > 0:
                    data.setdefault(impl, {}).setdefault(size, []).append(t)
    return data, runs


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot-netpipe.py RESDIR PNG")
    data, runs = read(sys.argv[1])
    if not data:
        sys.exit("plot-netpipe.py: no *.np.out in %s" % sys.argv[1])
    fig, (lat, bw) = plt.subplots(1, 2, figsize=(12, 5))
    for impl, (label, style) in STYLES.items():
        pts = data.get(impl)
        if not pts:
            continue
        sizes = sorted(pts)
        med = [statistics.median(pts[s]) for s in sizes]
        lab = "%s, %d run%s" % (label, runs[impl],
                                "" if runs[impl] == 1 else "s")
        lat.plot(sizes, [t * 1e6 for t in med], label=lab, ms=3, lw=1,
                 **style)
        bw.plot(sizes, [s / t / 1e6 for s, t in zip(sizes, med)],
                label=lab, ms=3, lw=1, **style)
    for ax in (lat, bw):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("message size (bytes)")
        ax.grid(True, which="both", alpha=0.3)
        ticks = [1 << k for k in range(0, 25, 4)]
        ax.set_xticks(ticks)
        ax.set_xticklabels(["1", "16", "256", "4Ki", "64Ki", "1Mi",
                            "16Mi"])
    lat.set_ylabel("one-way time (us, median)")
    lat.set_title("latency (half the round trip)")
    bw.set_ylabel("bandwidth (MB/s = 10^6 bytes/s, median)")
    bw.set_title("bandwidth")
    handles, labels = lat.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels),
               fontsize=9)
    fig.suptitle("NetPIPE 3.7.2 ping-pong on one 2-core host "
                 "(bench/run-netpipe.sh)")
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    fig.savefig(sys.argv[2], dpi=100)


if __name__ == "__main__":
    main()
