#!/bin/sh
# t-hosts-opts.sh: the hostfile's options and batch allocations.
#  1. A hostfile with lo=, dx=, ep= (a $VARIABLE), wd=, ip= and a '*'
#     line, and an '&' line whose options a later `add` of the bare name
#     uses.
#  2. pvmd -b in a (simulated) Slurm allocation: SLURM_JOB_NODELIST;
#     there, from a slave, the calls about the machine (t_vmapi).
#  3. pvmd -b with a PBS node file (names repeated, as PBS writes them).
. "$PVM_TOP_SRCDIR/tests/integration/lib.sh"
. "$PVM_TOP_SRCDIR/tests/integration/lib-hosts.sh"
need "$PVMD" "$PVM_CONSOLE" "$TASKS/t_hosts" "$TASKS/t_vmapi"
hosts_setup 3

# ---- 1. hostfile options
mkdir -p "$T_TMP/ep" "$T_TMP/wd2"
cp "$TASKS/t_hosts" "$T_TMP/ep/only_in_ep" || exit 99
cat >"$T_TMP/mypvmd" <<END
#!/bin/sh
echo "\$(hostname)" >>"$T_TMP/dx-used"
exec "$PVMD" "\$@"
END
chmod +x "$T_TMP/mypvmd"
cat >"$T_TMP/hostfile" <<END
# options of PVM 3.4's hostfile
* lo=tester dx=$T_TMP/mypvmd
h2 ep=\$PVMT_EP wd=$T_TMP/wd2 ip=h2-6
&h3 sp=500
END
# ep= names a variable: each pvmd expands it from its own environment.
export PVMT_EP="$T_TMP/ep"
check "master started with the hostfile" hosts_start_master "$T_TMP/hostfile"
check "h2's launcher got -l tester (lo=, from the '*' line)" \
    grep -q "^h2-6: -l tester " "$PVMT_RSHLOG"
check "h2 was reached by its ip= name h2-6" grep -q "^h2-6: " "$PVMT_RSHLOG"
check "h2 runs the pvmd named by dx=" grep -qx "h2" "$T_TMP/dx-used"
check "h3 ('&') was not started" sh -c "! grep -q '^h3' '$PVMT_RSHLOG'"
hosts_console 1 40 "$T_TMP/c1" <<'END'
spawn -h2 -> only_in_ep hello
spawn -h2 -> /bin/pwd
add h3
conf
END
check "a program found along h2's ep=\$PVMT_EP runs there" \
    grep -q "hello from h2" "$T_TMP/c1"
check "tasks on h2 start in its wd=" grep -q "\] $T_TMP/wd2\$" "$T_TMP/c1"
check "add h3 (bare) succeeded" grep -q "1 successful" "$T_TMP/c1"
check "h3 got its '&' line's sp=500" grep -q "h3 .* 500 " "$T_TMP/c1"
check "h3 also used the '*' line's dx=" grep -qx "h3" "$T_TMP/dx-used"
hosts_console 1 30 "$T_TMP/halt1" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10

# ---- 2. Slurm
hosts_reset
slurm_master() {
	SLURM_JOB_NODELIST="h[1-3]" hosts_start_master -b
}
check "pvmd -b in a Slurm allocation h[1-3]" slurm_master
hosts_console 1 30 "$T_TMP/c2" <<'END'
conf
END
check "conf lists the allocation's 3 hosts" grep -q "^3 hosts" "$T_TMP/c2"
check "h2 and h3 from the node list" sh -c \
    "grep -q ' h2 ' '$T_TMP/c2' && grep -q ' h3 ' '$T_TMP/c2'"
# The calls about the machine, from a slave: mstat, hostsync, tasks,
# pstat, kill on every host.
run_checks 60 "$NETNS_RSH" h2 "$TASKS/t_vmapi" 3
hosts_console 2 30 "$T_TMP/halt2" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10

# ---- 3. PBS
hosts_reset
printf 'h1\nh1\nh2\nh2\nh3\n' >"$T_TMP/nodefile"
pbs_master() {
	PBS_NODEFILE="$T_TMP/nodefile" hosts_start_master -b
}
check "pvmd -b with a PBS node file" pbs_master
hosts_console 1 30 "$T_TMP/c3" <<'END'
conf
END
check "conf lists 3 hosts, each once" grep -q "^3 hosts" "$T_TMP/c3"
no_alloc() {
	! env -u SLURM_JOB_NODELIST -u SLURM_NODELIST -u PBS_NODEFILE \
	    "$NETNS_RSH" h2 "$PVMD" -b 2>"$T_TMP/noalloc"
}
hosts_console 1 30 "$T_TMP/halt3" <<'END'
halt
END
check "halt" hosts_wait_no_pvmd 10
hosts_reset
check "pvmd -b outside an allocation fails" no_alloc
check "and says why" grep -q "no usable batch allocation" "$T_TMP/noalloc"
finish
