#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs kfc and kfplay under valgrind on every fixture: compile, decompile,
# list, sample, follow and animate; and kfc on every invalid source (which must fail
# cleanly, without leaks). usage: valgrind_tools.sh VALGRIND KFC KFPLAY FIXTURES WORK
set -u
vg=$1 kfc=$2 kfplay=$3 fixtures=$4 work=$5
mkdir -p "$work"
status=0
run() {
    "$@" >/dev/null 2>"$work/last.err"
    rc=$?
    if [ $rc -eq 99 ]; then
        echo "valgrind: errors in: $*" >&2
        cat "$work/last.err" >&2
        status=1
    fi
}
for src in "$fixtures"/*.yaml; do
    name=$(basename "$src" .yaml)
    run $vg "$kfc" "$src" -o "$work/$name.kfb"
    run $vg "$kfc" --decompile "$work/$name.kfb" -o "$work/$name.yaml"
    run $vg "$kfplay" "$work/$name.kfb" list
    run $vg "$kfplay" "$work/$name.kfb" animate -1 0 0.5 1 250 1000 1e6
    for seq in $("$kfplay" "$work/$name.kfb" list | awk '$2 == "sequence" {print $1}'); do
        run $vg "$kfplay" "$work/$name.kfb" sample "$seq" -1 0 0.25 0.5 1 100 1e9
    done
    for f in $("$kfplay" "$work/$name.kfb" list | awk '$2 == "follower" {print $1}'); do
        run $vg "$kfplay" "$work/$name.kfb" follow "$f" --tick 0.05 --until 1 --capacity 2
    done
done
for src in "$fixtures"/invalid/*.yaml; do
    run $vg "$kfc" "$src" -o "$work/invalid.kfb"
done
[ $status -eq 0 ] && echo "valgrind_tools: no errors or leaks"
exit $status
