#!/bin/sh
# demo.sh: from a fresh Debian machine to a running job.  Installs what is
# needed, builds and installs into ./_inst, starts a pvmd, runs a
# multi-task job from the console, and halts the virtual machine.
set -e
cd "$(dirname "$0")/.."
top=$(pwd)
sh tools/build.sh
cd _build
make install >/dev/null
inst="$top/_inst"
export PATH="$inst/bin:$PATH" PVM_DPATH="$inst/bin/pvmd"
export PVM_TMP="$(mktemp -d /tmp/pvmdemo.XXXXXX)"
export PVM_ROOT="$inst/lib/pvm3"
echo "== starting pvmd (PVM_TMP=$PVM_TMP)"
"$inst/bin/pvmd"
echo "== a 4-task job from the console"
"$inst/bin/pvm" <<EOT
conf
spawn -> $inst/libexec/pvm4/sum_job 4

EOT
echo "== halting the virtual machine"
echo halt | "$inst/bin/pvm"
rm -rf "$PVM_TMP"
