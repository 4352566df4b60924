#!/bin/sh
# fuzz.sh [SECONDS]: run every libFuzzer target of tests/fuzz for SECONDS
# (default 60) each, in the build tree tools/build.sh makes (_build/).
# clang and its libFuzzer and sanitizer runtimes are not in deps.sh's list
# (building and `make check` do not need them): they are installed here,
# through deps.sh, when missing.
set -e
cd "$(dirname "$0")/.."
sh tools/deps.sh clang libclang-rt-dev
sh tools/build.sh
cd _build
make fuzz FUZZ_SECONDS="${1:-60}"
