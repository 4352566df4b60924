#!/bin/sh
# deb-test.sh [--keep]: build the Debian packages (debian/,
# docs/packaging.md) and try them on a fresh Debian root.
#
#  1. copies the tree (git's files, not _build/ or anything ignored) to a
#     work directory and runs `dpkg-buildpackage -us -uc -b` there with
#     DEB_BUILD_OPTIONS="nocheck parallel=2" (make check is CI's check
#     step); the symbols files must match the libraries exactly
#     (debian/rules sets check level 4);
#  2. checks that debian/changelog has configure.ac's version, what each
#     package holds, and lintian: no error and no warning;
#  3. makes a minbase root of this machine's Debian release with
#     debootstrap, from the mirror apt uses here (the root is kept as a
#     tarball in the cache directory, and the .debs apt downloads too,
#     so later runs do not download them again);
#  4. in that root (a chroot, with /proc and /dev/shm mounted): installs
#     Debian's libpvm3, pvm and pvm-dev, then ours with apt, which must
#     remove those three; installs Debian's pvm-examples, which must take
#     our libraries for its libpvm3 dependency;
#  5. as an ordinary user there, with the installed files only: starts a
#     pvmd, runs the README's job (sum_job, 4 tasks, pvm_reduce) from the
#     console and from the shell, Debian's prebuilt hello.pvm and
#     gexample (4 tasks, groups, reduce) on our libraries, and master1 +
#     slave1 built from pvm-examples' C sources against pvm4-dev with
#     pkg-config, fmaster1 + fslave1 from its Fortran sources with
#     libfpvm3; halts the pvmd.
#
# Any failure exits 1.  Needs root and the network (the mirror): without
# them it skips with exit status 77 and says why; under CI=true a skip is
# a failure.  The chroot's processes are killed and everything mounted is
# unmounted on every exit (trap); --keep leaves the work directory (the
# .debs, the logs) and prints where it is.
#
# Environment: PVM_DEB_CACHE (default /var/cache/pvm4-deb) the cache;
# PVM_DEB_MIRROR the mirror (default: the one apt uses for this release);
# PVM_DEB_ROOT_DAYS (default 7) how old the cached root may be.
set -u
cd "$(dirname "$0")/.." || exit 99
t0=$(date +%s)
keep=no
[ "${1:-}" = --keep ] && keep=yes

say() { echo "deb-test.sh: $*"; }
skip() {
	if [ "${CI:-}" = true ]; then
		say "FAIL: cannot run, and CI=true forbids a skip: $*"
		exit 1
	fi
	say "SKIP: $*"
	exit 77
}
fail() {
	say "FAIL: $*"
	exit 1
}
# phase NAME: a heading, with the time since the start.
phase() {
	say "== $* (at $(($(date +%s) - t0)) s)"
}

[ "$(id -u)" -eq 0 ] || skip "needs root (debootstrap, chroot, mount)"
command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
	skip "needs a Debian system (apt-get, dpkg)"
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$suite" ] || skip "no VERSION_CODENAME in /etc/os-release"
arch=$(dpkg --print-architecture)

# The mirror apt uses for this release (sources.list or deb822 .sources).
mirror=${PVM_DEB_MIRROR:-$(apt-get indextargets --format '$(REPO_URI)' \
    'Origin: Debian' "Codename: $suite" "Release: $suite" \
    'Created-By: Packages' 'Target-Of: deb' 2>/dev/null | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian/}
mirror=${mirror%/}
# The suites of this release apt uses (the release, -updates,
# -security), each with its own base URI, for the chroot's sources.
sources=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' \
    'Origin: Debian' "Codename: $suite" 'Created-By: Packages' \
    'Target-Of: deb' 2>/dev/null | grep ' main$' | sort -u)
[ -n "$sources" ] && [ -z "${PVM_DEB_MIRROR:-}" ] ||
	sources="$mirror/ $suite main"

work=$(mktemp -d /var/tmp/pvm4-deb.XXXXXX) || exit 99
root="$work/root"
/usr/lib/apt/apt-helper download-file "$mirror/dists/$suite/Release" \
    "$work/Release" >"$work/net.log" 2>&1 ||
	{ rm -rf "$work"; skip "no network: cannot fetch $mirror/dists/$suite/Release"; }

cache=${PVM_DEB_CACHE:-/var/cache/pvm4-deb}
mkdir -p "$cache/archives/partial" || fail "cannot make $cache"

# ---- cleanup: the chroot's processes, the mounts, the work dir ----
mounts=""
cleanup() {
	local p r m left i
	trap - EXIT INT TERM HUP
	# Kill what runs in the chroot (a pvmd left by a failed job), and
	# wait up to 5 s for it to go before unmounting.
	i=0
	while [ -d "$root" ] && [ $i -lt 50 ]; do
		left=""
		for p in /proc/[0-9]*; do
			r=$(readlink "$p/root" 2>/dev/null) || continue
			case $r in
			"$root" | "$root"/*)
				kill -KILL "${p#/proc/}" 2>/dev/null &&
				    left="$left ${p#/proc/}"
				;;
			esac
		done
		[ -z "$left" ] && break
		[ $i -eq 0 ] && say "killing what still runs in the chroot:$left"
		sleep 0.1
		i=$((i + 1))
	done
	# Unmount in the reverse order of mounting.
	for m in $mounts; do
		umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null ||
			say "cannot unmount $m"
	done
	left=$(awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts)
	if [ -n "$left" ]; then
		say "still mounted, $work left in place: $left"
	elif [ "$keep" = yes ]; then
		say "kept: $work"
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# do_mount TARGET ARGS...: mount, and remember it for cleanup.
do_mount() {
	local t=$1
	shift
	mount "$@" "$t" || fail "mount $* $t"
	mounts="$t $mounts"
}

# ---- 1. build ----
phase "installing what the build and this test need"
if [ -f tools/deps.sh ]; then
	sh tools/deps.sh >"$work/deps.log" 2>&1 &&
	    sh tools/deps.sh debhelper dpkg-dev lintian debootstrap \
	    >>"$work/deps.log" 2>&1 || {
		cat "$work/deps.log"
		fail "tools/deps.sh failed"
	}
fi

version=$(sed -n 's/^AC_INIT(\[pvm4\], \[\([^]]*\)\].*/\1/p' configure.ac)
[ -n "$version" ] || fail "no version in configure.ac"
src="$work/src/pvm4-$version"
mkdir -p "$src" || exit 99
# git's files (tracked, and new ones not ignored), else the whole tree.
if git rev-parse --git-dir >/dev/null 2>&1; then
	status_before=$(git status --porcelain --untracked-files=all | grep "^??")
	git ls-files -z --cached --others --exclude-standard |
	    xargs -0 sh -c 'for f do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	    tar -cf - --null -T - | tar -xf - -C "$src" ||
		fail "cannot copy the tree"
else
	status_before=""
	tar -cf - --exclude='./_build*' --exclude=./_inst --exclude=./debian/build \
	    . | tar -xf - -C "$src" || fail "cannot copy the tree"
fi

# Every file of debian/ goes into the release tarball (Makefile.am).
for f in $(cd "$src" && find debian -type f | sort); do
	grep -qF -- "$f" Makefile.am ||
		fail "$f is not in EXTRA_DIST (Makefile.am)"
done
chv=$(cd "$src" && dpkg-parsechangelog -S Version)
[ "$chv" = "$version" ] ||
	fail "debian/changelog is at $chv, configure.ac at $version"
(cd "$src" && dpkg-checkbuilddeps -Pnocheck) ||
	fail "build dependencies missing (dpkg-checkbuilddeps above)"

phase "dpkg-buildpackage -us -uc -b (nocheck, parallel=2) in $src"
if ! (cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" \
    dpkg-buildpackage -us -uc -b -Pnocheck) >"$work/build.log" 2>&1; then
	tail -n 60 "$work/build.log"
	fail "dpkg-buildpackage failed (log: $work/build.log, kept with --keep)"
fi
if grep -n 'dpkg-gensymbols: \(warning\|error\)' "$work/build.log"; then
	fail "dpkg-gensymbols complained (above)"
fi
changes="$work/src/pvm4_${version}_$arch.changes"
[ -f "$changes" ] || fail "no $changes"

if git rev-parse --git-dir >/dev/null 2>&1; then
	[ "$(git status --porcelain --untracked-files=all | grep "^??")" = \
	    "$status_before" ] ||
		fail "new files in the source tree after the build (git status)"
fi

# ---- 2. what the packages hold, and lintian ----
phase "package contents"
deb() { echo "$work/src/${1}_${version}_$arch.deb"; }
# has PACKAGE PATH...: each PATH (a grep -E pattern, anchored) is in it.
has() {
	local p=$1 f list
	shift
	[ -f "$(deb "$p")" ] || fail "no package $p"
	list=$(dpkg-deb -c "$(deb "$p")" | awk '{ print $6 }' | sed 's|^\./|/|')
	for f do
		echo "$list" | grep -Eq "^$f\$" || fail "$p lacks $f"
	done
}
ml="/usr/lib/[^/]+"
has libpvm3-3 "$ml/libpvm3\.so\.3" "$ml/libpvm3\.so\.3\.0\.0"
has libgpvm3-3 "$ml/libgpvm3\.so\.3" "$ml/libgpvm3\.so\.3\.0\.0"
has libfpvm3-3 "$ml/libfpvm3\.so\.3" "$ml/libfpvm3\.so\.3\.0\.0"
has libpvmshmem0 "$ml/libpvmshmem\.so\.0" "$ml/libpvmshmem\.so\.0\.0\.0"
has pvm4-dev /usr/include/pvm3.h /usr/include/fpvm3.h /usr/include/pvmtev.h \
    /usr/include/shmem.h "$ml/libpvm3\.so" "$ml/libgpvm3\.a" \
    "$ml/pkgconfig/pvm3\.pc" "$ml/pkgconfig/gpvm3\.pc" \
    "$ml/pkgconfig/pvmshmem\.pc" "$ml/pvm3/lib/aimk" \
    /usr/share/man/man3/pvm_spawn.3.gz /usr/share/man/man3/shmem_put.3.gz
has pvm4 /usr/bin/pvm /usr/bin/pvmd /usr/bin/pvmgs /usr/libexec/pvm4/sum_job \
    /usr/share/man/man1/pvm.1.gz /usr/share/man/man7/pvm_intro.7.gz \
    /usr/share/man/man8/pvmd.8.gz /usr/share/man/man8/pvmgs.8.gz
has pvm4-shmem /usr/bin/oshrun /usr/bin/oshcc /usr/bin/oshfort \
    /usr/share/man/man1/oshrun.1.gz
# The library packages are named after the sonames.
for p in libpvm3-3:libpvm3.so.3 libgpvm3-3:libgpvm3.so.3 \
    libfpvm3-3:libfpvm3.so.3 libpvmshmem0:libpvmshmem.so.0; do
	x=$(dpkg-deb -I "$(deb "${p%%:*}")" symbols | head -n 1)
	[ "${x%% *}" = "${p#*:}" ] ||
		fail "${p%%:*}: symbols file is for '${x%% *}', not ${p#*:}"
done

phase "lintian (no error, no warning)"
lintian --pedantic --display-info --fail-on error,warning \
    "$changes" >"$work/lintian.log" 2>&1
lrc=$?
grep -v '^running with root privileges' "$work/lintian.log"
[ "$lrc" -eq 0 ] || fail "lintian: exit status $lrc (above)"

# ---- 3. a fresh root ----
tarball="$cache/$suite-$arch-minbase.tar.gz"
days=${PVM_DEB_ROOT_DAYS:-7}
if [ -f "$tarball" ] && [ -n "$(find "$tarball" -mtime "-$days")" ]; then
	phase "unpacking the cached $suite root ($tarball)"
	mkdir -p "$root" && tar -C "$root" --numeric-owner -xzf "$tarball" ||
		fail "cannot unpack $tarball"
else
	phase "debootstrap --variant=minbase $suite from $mirror"
	command -v debootstrap >/dev/null 2>&1 || fail "no debootstrap"
	if ! debootstrap --variant=minbase --arch="$arch" "$suite" "$root" \
	    "$mirror" >"$work/debootstrap.log" 2>&1; then
		tail -n 30 "$work/debootstrap.log"
		fail "debootstrap failed"
	fi
	chroot "$root" apt-get clean
	tar -C "$root" --numeric-owner -czf "$tarball.tmp" . &&
	    mv "$tarball.tmp" "$tarball" || fail "cannot write $tarball"
fi

# ---- 4. install ----
phase "installing Debian's PVM, then ours, then pvm-examples (chroot)"
do_mount "$root/proc" -t proc proc
do_mount "$root/dev/shm" -t tmpfs -o mode=1777 tmpfs
do_mount "$root/var/cache/apt/archives" --bind "$cache/archives"
cp /etc/resolv.conf /etc/hosts "$root/etc/" 2>/dev/null
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
echo "$sources" | awk '{ print "deb " $1 " " $2 " " $3 }' \
    >"$root/etc/apt/sources.list"
mkdir -p "$root/tmp/debs"
for p in libpvm3-3 libgpvm3-3 libfpvm3-3 libpvmshmem0 pvm4-dev pvm4 \
    pvm4-shmem; do
	cp "$(deb "$p")" "$root/tmp/debs/" || exit 99
done

# in_root COMMAND...: run as root in the chroot, clean environment.
in_root() {
	chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
	    HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}
APT="apt-get -y -q -o APT::Sandbox::User=root -o Dpkg::Use-Pty=0 --no-install-recommends"
installed() {
	in_root dpkg-query -W -f='${Status}' "$1" 2>/dev/null |
	    grep -q ' installed$'
}
log="$work/apt.log"
in_root $APT update >"$log" 2>&1 || { cat "$log"; fail "apt-get update"; }
in_root $APT install libpvm3 pvm pvm-dev >>"$log" 2>&1 ||
	{ tail -n 30 "$log"; fail "installing Debian's libpvm3 pvm pvm-dev"; }
for p in libpvm3 pvm pvm-dev; do
	installed "$p" || fail "Debian's $p did not install"
done
echo "-- ours" >>"$log"
in_root sh -c "$APT install /tmp/debs/*.deb" >>"$log" 2>&1 ||
	{ tail -n 30 "$log"; fail "installing our packages"; }
for p in libpvm3-3 libgpvm3-3 libfpvm3-3 libpvmshmem0 pvm4-dev pvm4 \
    pvm4-shmem; do
	installed "$p" || fail "$p is not installed"
done
for p in libpvm3 pvm pvm-dev; do
	installed "$p" && fail "Debian's $p is still installed next to ours"
done
say "ours replaced Debian's libpvm3, pvm and pvm-dev"
echo "-- pvm-examples" >>"$log"
in_root $APT install pvm-examples gcc gfortran libc6-dev pkg-config \
    >>"$log" 2>&1 ||
	{ tail -n 30 "$log"; fail "installing pvm-examples, gcc, gfortran, pkg-config"; }
installed pvm-examples || fail "pvm-examples is not installed"
installed libpvm3 && fail "installing pvm-examples brought back Debian's libpvm3"
lib=$(in_root sh -c 'readlink -f "$(dpkg -L libpvm3-3 | grep "/libpvm3\.so\.3$")"')
owner=$(in_root dpkg -S "$lib" | cut -d: -f1)
[ "$owner" = libpvm3-3 ] || fail "$lib belongs to '$owner', not libpvm3-3"
say "pvm-examples installed on our libraries ($lib)"

# ---- 5. the job, as an ordinary user ----
phase "the README's job and Debian's examples (user pvmuser, chroot)"
# A uid no account of this machine has, so that nothing outside the
# chroot is ever the same user as the chroot's pvmd and tasks.
uid=59999
while getent passwd "$uid" >/dev/null 2>&1 && [ $uid -gt 50000 ]; do
	uid=$((uid - 1))
done
in_root useradd -m -u "$uid" -s /bin/sh pvmuser || fail "useradd"
cat >"$root/tmp/job.sh" <<'EOF'
# Runs in the chroot as pvmuser, with what the packages installed.
set -u
die() { echo "job: FAIL: $*"; echo halt | pvm >/dev/null 2>&1; exit 1; }
cd "$HOME" || exit 1
arch=$($(dpkg -L pvm4 | grep '/pvmgetarch$')) || die "pvmgetarch"
bin="$HOME/pvm3/bin/$arch"
mkdir -p "$bin" ex
export PVM_TMP="$HOME/tmp"
mkdir -p "$PVM_TMP"

# master1 + slave1 from pvm-examples' sources, built against pvm4-dev.
tar -xzf /usr/share/doc/pvm-examples/examples.tar.gz -C ex \
    examples/master1.c examples/slave1.c || die "examples.tar.gz"
for p in master1 slave1; do
	# (PVM 3.4's examples are old C: gcc's warnings go to a file.)
	cc -o "$bin/$p" "ex/examples/$p.c" $(pkg-config --cflags --libs pvm3) \
	    >"cc-$p.log" 2>&1 || {
		cat "cc-$p.log"
		die "cannot build $p against pvm4-dev"
	}
done

# fmaster1 + fslave1 from the Fortran sources (master1.f, slave1.f),
# with libfpvm3-3.  They include '../include/fpvm3.h': pvm4-dev's
# PVM_ROOT tree has it.
inc=$(dpkg -L pvm4-dev | grep '/pvm3/include/fpvm3\.h$') ||
	die "pvm4-dev has no PVM_ROOT include/fpvm3.h"
ln -s "${inc%/*}" ex/include
tar -xzf /usr/share/doc/pvm-examples/examples.tar.gz -C ex \
    examples/master1.f examples/slave1.f || die "examples.tar.gz (Fortran)"
for p in master1 slave1; do
	(cd ex/examples && gfortran -w -fallow-argument-mismatch \
	    -o "$bin/f$p" "$p.f" -lfpvm3 -lpvm3) >"fc-$p.log" 2>&1 || {
		cat "fc-$p.log"
		die "cannot build f$p against pvm4-dev"
	}
done

# Spawn by name: our builds in $bin, Debian's binaries in /usr/bin.
export PVM_PATH="$bin:/usr/bin"
echo "== pvmd"
pvmd || die "pvmd did not start"

echo "== the README's job: spawn -> sum_job 4, from the console"
printf 'conf\nspawn -> /usr/libexec/pvm4/sum_job 4\n\n' |
    timeout -k 5 120 pvm >console.out 2>&1
cat console.out
grep -q 'sum of squares 1\.\.1000000 = 333333833333500000 (correct)' \
    console.out || die "the console's job did not print the correct sum"
[ "$(grep -c 'partial sum' console.out)" -eq 4 ] ||
	die "not 4 partial sums from the console's job"

echo "== sum_job 4 from the shell"
timeout -k 5 120 /usr/libexec/pvm4/sum_job 4 >shell.out 2>&1
rc=$?
cat shell.out
[ "$rc" -eq 0 ] || die "sum_job exited with $rc"
grep -q '(correct)' shell.out || die "sum_job: no correct sum"

echo "== Debian's hello.pvm (spawns hello_other)"
timeout -k 5 60 hello.pvm </dev/null >hello.out 2>&1
rc=$?
cat hello.out
[ "$rc" -eq 0 ] || die "hello.pvm exited with $rc"
grep -Eq "^from t[0-9a-f]+: hello, world from $(uname -n)\$" hello.out ||
	die "hello.pvm: no 'hello, world' from hello_other"

echo "== Debian's gexample (4 tasks: groups, pvm_reduce)"
printf '100\n4\n' | timeout -k 5 120 gexample >gexample.out 2>&1
rc=$?
cat gexample.out
[ "$rc" -eq 0 ] || die "gexample exited with $rc"
grep -q 'The 1-Norm is 5050 ' gexample.out || die "gexample: 1-norm not 5050"
grep -q 'product of column 1 is 9\.33262e+157' gexample.out ||
	die "gexample: product not 100!"

echo "== master1 + slave1, built from source here"
timeout -k 5 60 "$bin/master1" </dev/null >master1.out 2>&1
rc=$?
cat master1.out
[ "$rc" -eq 0 ] || die "master1 exited with $rc"
grep -q SUCCESSFUL master1.out || die "master1: spawn not SUCCESSFUL"
bad=$(sed -n 's/^I got \([0-9.]*\) from [0-9]*; (expecting \([0-9.]*\))$/\1 \2/p' \
    master1.out | awk '$1 != $2 { n++ } END { print n + 0 }')
n=$(grep -c '^I got .* from [0-9]*; (expecting .*)$' master1.out)
[ "$n" -eq 3 ] && [ "$bad" -eq 0 ] ||
	die "master1: $n result lines, $bad wrong"
echo "== fmaster1 + fslave1 (Fortran), built from source here"
timeout -k 5 60 "$bin/fmaster1" </dev/null >fmaster1.out 2>&1
rc=$?
cat fmaster1.out
[ "$rc" -eq 0 ] || die "fmaster1 exited with $rc"
grep -q SUCCESSFUL fmaster1.out || die "fmaster1: spawn not SUCCESSFUL"
n=$(grep -c 'I got .* from .*(expected' fmaster1.out)
bad=$(sed -n 's/.*I got *\([0-9.]*\) from *[0-9]* (expected *\([0-9.]*\) ).*/\1 \2/p' \
    fmaster1.out | awk '$1 + 0 != $2 + 0 { n++ } END { print n + 0 }')
[ "$n" -eq 3 ] && [ "$bad" -eq 0 ] ||
	die "fmaster1: $n result lines, $bad wrong"

# Which library each program loaded: the packages' own.
# (pvm-examples has programs named master1 and fmaster1 in /usr/bin too:
# ours are run by their path.)
for pl in "$bin/master1:libpvm3" "$bin/slave1:libpvm3" \
    "$bin/fmaster1:libfpvm3" "$bin/fslave1:libfpvm3" \
    /usr/bin/hello.pvm:libpvm3 /usr/bin/gexample:libgpvm3; do
	p=${pl%%:*}
	l=${pl#*:}
	f=$(ldd "$p" |
	    sed -n "s/^[[:space:]]*$l\\.so\\.3 => \\([^ ]*\\).*/\\1/p")
	dpkg -S "$(readlink -f "${f:-/none}")" 2>/dev/null |
	    grep -q "^$l-3:" ||
		die "$p does not load $l-3's $l.so.3 (${f:-not found})"
done

echo "== halt"
echo halt | timeout -k 5 30 pvm >/dev/null 2>&1
# No procps in a minbase root: look for our pvmd in /proc.
pvmds() {
	for c in /proc/[0-9]*/comm; do
		[ -O "$c" ] && [ "$(cat "$c" 2>/dev/null)" = pvmd ] && echo "$c"
	done
}
i=0
while [ -n "$(pvmds)" ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -z "$(pvmds)" ] || die "pvmd still running after halt"
echo "job: all passed"
EOF
gid=$(in_root id -g pvmuser) || fail "no pvmuser in the chroot"
chroot --userspec="$uid:$gid" "$root" /usr/bin/env -i \
    HOME=/home/pvmuser PATH=/usr/bin:/bin LC_ALL=C.UTF-8 USER=pvmuser \
    timeout -k 10 600 /bin/sh /tmp/job.sh
jrc=$?
[ "$jrc" -eq 0 ] || fail "the job in the chroot failed (exit status $jrc)"

now=$(date +%s)
say "PASS: packages built, lint-clean, installed in a fresh $suite root," \
    "the README's job and Debian's examples ran ($((now - t0)) s)"
exit 0
