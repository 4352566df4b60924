#!/bin/sh
# t-enrol.sh: enrolment without and with a pvmd; pvm_config, pvm_tasks,
# pvm_parent, pvm_exit and re-enrolment.
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
need "$TASKS/t_enrol"

# Without a daemon: PvmSysErr, and no daemon appears.
run_checks 30 "$TASKS/t_enrol" nodaemon
check "pvm_mytid started no pvmd (no $T_DIR)" test ! -e "$T_DIR"
found=""
for p in $(pgrep -x pvmd); do
	if cat "/proc/$p/environ" 2>/dev/null | tr '\0' '\n' |
	    grep -qx "PVM_TMP=$T_TMP"; then
		found="$found $p"
	fi
done
check "no pvmd process with our PVM_TMP${found:+ (found$found)}" \
    test -z "$found"

start_pvmd
run_checks 30 "$TASKS/t_enrol" basic "$PVM_ARCH"
# Two tasks at once see each other.
run 30 "$TASKS/t_enrol" quick >/dev/null 2>&1 &
run_checks 30 "$TASKS/t_enrol" quick
wait
check "pvmd alive after the enrolment tests" pvmd_alive
finish
