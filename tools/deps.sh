#!/bin/sh
# deps.sh [PACKAGE...]: install what building and testing need on Debian
# (or Ubuntu), or the packages named, when they are missing.
# Debian's PVM 3.4.6 (pvm, pvm-dev, pvm-examples) is installed beside ours
# only for comparison tests and benchmarks; our build never uses it.
set -e
PKGS="build-essential autoconf automake libtool pkg-config libevent-dev \
check libsodium-dev gfortran procps util-linux python3 pvm pvm-dev \
pvm-examples iputils-ping iproute2 hostname libedit-dev groff-base"
[ $# -gt 0 ] && PKGS="$*"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps.sh: installing:$missing"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	--no-install-recommends $missing </dev/null
