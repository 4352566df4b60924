#!/bin/sh
# man-aliases.sh: write the one-line alias pages (".so manS/PAGE.S") of
# the second block of docs/man/man.am (pvm_newcontext .. pvm_version and
# the SHMEM pages), then rewrite that block to list every page in
# docs/man/ that the first block does not.
#
#   sh tools/man-aliases.sh [BUILDDIR]      (default: _build)
#
# The PVM aliases come from the table below.  The SHMEM ones come from
# the names BUILDDIR's libpvmshmem.so exports (nm -D), each sent to the
# page of its family by the rules in shmem_page, plus the lower-case
# Fortran names of the to_all reductions.  A name that already has a
# page of its own is left alone.  Run it again after adding a page or an
# exported name; tests/man/t-man-cover.sh says what is still missing.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
b=${1:-"$top/_build"}
dir="$top/docs/man"
am="$dir/man.am"
shm="$b/shmem/.libs/libpvmshmem.so"

# alias NAME PAGE [SECTION]: NAME.S says ".so manS/PAGE.S".
alias_page() {
	s=${3:-3}
	[ "$1" = "$2" ] && return 0
	f="$dir/$1.$s"
	if [ -f "$f" ] && ! head -n 1 "$f" | grep -q '^\.so '; then
		return 0 # a page of its own
	fi
	printf '.so man%s/%s.%s\n' "$s" "$2" "$s" >"$f"
}

# ---- PVM: "alias page" (the pages of split families are the other
# block's: contexts, options, buffers, message info, mailbox, export) ----
while read -r name page; do
	alias_page "$name" "$page"
done <<'TABLE'
pvm_newcontext pvm_getcontext
pvm_setcontext pvm_getcontext
pvmfnewcontext pvm_getcontext
pvmfsetcontext pvm_getcontext
pvm_setopt pvm_getopt
pvmfsetopt pvm_getopt
pvm_setrbuf pvm_getrbuf
pvmfsetrbuf pvm_getrbuf
pvm_setsbuf pvm_getsbuf
pvmfsetsbuf pvm_getsbuf
pvm_setminfo pvm_getminfo
pvmfsetminfo pvm_getminfo
pvm_setmwid pvm_getmwid
pvm_settmask pvm_gettmask
pvm_putinfo pvm_getmboxinfo
pvm_recvinfo pvm_getmboxinfo
pvmfputinfo pvm_getmboxinfo
pvmfrecvinfo pvm_getmboxinfo
pvm_unexport pvm_export
pvm_nrecv pvm_recv
pvm_trecv pvm_recv
pvm_probe pvm_recv
pvmfrecv pvm_recv
pvmfnrecv pvm_recv
pvmftrecv pvm_recv
pvmfprobe pvm_recv
pvmfsend pvm_send
pvm_precv pvm_psend
pvmfpsend pvm_psend
pvmfprecv pvm_psend
pvm_unpackf pvm_packf
pvm_pkmesgbody pvm_pkmesg
pvm_upkmesg pvm_pkmesg
pvmfpkmesg pvm_pkmesg
pvmfpkmesgbody pvm_pkmesg
pvmfupkmesg pvm_pkmesg
pvm_strerror pvm_perror
pvmfperror pvm_perror
pvmfparent pvm_parent
pvmfpstat pvm_pstat
pvmfsendsig pvm_sendsig
pvmfsiblings pvm_siblings
pvmfspawn pvm_spawn
pvmfstartpvmd pvm_start_pvmd
pvmftasks pvm_tasks
pvmftidtohost pvm_tidtohost
pvmftidtoh pvm_tidtohost
pvmfnotify pvm_notify
pvmfreduce pvm_reduce
PvmSum pvm_reduce
PvmProduct pvm_reduce
PvmMax pvm_reduce
PvmMin pvm_reduce
pvmfscatter pvm_scatter
TABLE
for t in byte cplx dcplx double float int long short uint ulong ushort str; do
	alias_page "pvm_pk$t" pvm_pkint
	alias_page "pvm_upk$t" pvm_pkint
done
alias_page pvmfpack pvm_pkint
alias_page pvmfunpack pvm_pkint

# ---- SHMEM ----
shmem_page() {
	case $1 in
	*_sum_to_all | *_prod_to_all) echo shmem_sum_to_all ;;
	*_max_to_all | *_min_to_all) echo shmem_max_to_all ;;
	*_and_to_all | *_or_to_all | *_xor_to_all) echo shmem_and_to_all ;;
	*_lock) echo shmem_lock ;;
	*cache* | shmem_udcflush* | shmem_info_*) echo shmem_intro ;;
	*_atomic_* | *_cswap | *_fadd | *_finc | *_add | *_inc | *_fetch | \
	    *_set | *_swap) echo shmem_atomic ;;
	*_wait | *_wait_until | *_test) echo shmem_wait ;;
	*barrier* | shmem_sync*) echo shmem_barrier ;;
	*broadcast* | *collect* | *alltoall*) echo shmem_broadcast ;;
	*put* | *get* | *_p | *_g | shmem_quiet | shmem_fence)
		echo shmem_put ;;
	*) echo shmem_intro ;;
	esac
}
if [ -f "$shm" ]; then
	# A trailing underscore marks a Fortran binding: its page is the
	# one of the name without it.
	nm -D --defined-only "$shm" |
		awk '$2 == "T" || $2 == "W" { print $3 }' | sed 's/_$//' |
		sort -u |
		while read -r name; do
			alias_page "$name" "$(shmem_page "$name")"
		done
else
	echo "note: $shm not built: SHMEM aliases not made" >&2
fi
# The Fortran to_all names, lower case (the Fortran interface's types).
for op in and or xor max min sum prod; do
	case $op in
	and | or | xor) types="int4 int8" ;;
	max | min) types="int4 int8 real4 real8 real16" ;;
	*) types="int4 int8 real4 real8 real16 comp4 comp8" ;;
	esac
	for t in $types; do
		n="shmem_${t}_${op}_to_all"
		alias_page "$n" "$(shmem_page "$n")"
	done
done
alias_page oshfort oshcc 1

# ---- man.am: the second block lists every page the first does not ----
marker='# ---- pvm_newcontext .. pvm_version, and the SHMEM pages ----'
grep -qxF "$marker" "$am" || {
	echo "man.am has no line: $marker" >&2
	exit 1
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
sed "/^$marker\$/,\$d" "$am" >"$tmp"
first=$(grep -o 'docs/man/[^ ]*' "$tmp" | sort -u)
{
	cat "$tmp"
	echo "$marker"
	echo 'dist_man_MANS += \'
	(cd "$dir" && ls | grep -E '\.[1-9]$' | LC_ALL=C sort) |
		while read -r f; do
			printf '%s\n' "$first" | grep -qxF "docs/man/$f" ||
				printf '\tdocs/man/%s \\\n' "$f"
		done | sed '$ s/ \\$//'
} >"$am.new"
mv "$am.new" "$am"
