#!/usr/bin/python3
"""plot-hosts.py: draw bench/run-hosts.sh's summary as one PNG.

    bench/run-hosts.sh _build 3 > run.log
    /usr/bin/python3 bench/plot-hosts.py run.log hosts.png

Needs matplotlib (Debian: python3-matplotlib).  Reads the summary table
that run-hosts.sh prints last ("figure  ours  pvm346 ..."), and draws
ours against PVM 3.4.6 for each figure, one panel per unit, log scale.
A PVM figure given as a bound ("> 240000") is drawn at the bound, hatched.
"""
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

ROW = re.compile(r"^(.+?\((us|MB/s|ms)\))\s+(\S+)\s+(>?\s*[\d.]+|n/a)\s")


def parse(path):
    rows, on = [], False
    for line in open(path):
        if line.startswith("figure "):
            on = True
            continue
        if not on:
            continue
        m = ROW.match(line)
        if not m:
            continue
        name, unit, ours, pvm = m.group(1), m.group(2), m.group(3), m.group(4)
        if ours == "n/a" or pvm == "n/a":
            continue
        bound = pvm.startswith(">")
        rows.append((name.replace(" (%s)" % unit, ""), unit, float(ours),
                     float(pvm.lstrip("> ")), bound))
    return rows


def main():
    rows = parse(sys.argv[1])
    units = [u for u in ("us", "MB/s", "ms") if any(r[1] == u for r in rows)]
    fig, axes = plt.subplots(len(units), 1, figsize=(9, 2.2 + 1.6 * len(rows)
                                                       / max(1, len(units))))
    if len(units) == 1:
        axes = [axes]
    for ax, unit in zip(axes, units):
        sel = [r for r in rows if r[1] == unit]
        y = range(len(sel))
        ax.barh([i + 0.2 for i in y], [r[2] for r in sel], 0.4,
                label="pvm4 (ours)", color="tab:blue")
        ax.barh([i - 0.2 for i in y], [r[3] for r in sel], 0.4,
                label="PVM 3.4.6", color="tab:orange",
                hatch=None)
        for i, r in enumerate(sel):
            if r[4]:
                ax.barh(i - 0.2, r[3], 0.4, color="none",
                        edgecolor="black", hatch="//")
                ax.text(r[3] * 0.8, i - 0.2, "not noticed within %g %s" %
                        (r[3] / (1000 if unit == "ms" else 1),
                         "s" if unit == "ms" else unit),
                        va="center", fontsize=7, ha="right")
        ax.set_yticks(list(y))
        ax.set_yticklabels([r[0] for r in sel], fontsize=8)
        ax.set_xscale("log")
        better = "higher is better" if unit == "MB/s" else "lower is better"
        ax.set_xlabel("%s (%s, log scale)" % (unit, better), fontsize=8)
        ax.invert_yaxis()
        ax.legend(fontsize=7, loc="lower right")
    fig.suptitle("4 hosts (network namespaces on one 2-vCPU machine): "
                 "medians of bench/run-hosts.sh", fontsize=9)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
