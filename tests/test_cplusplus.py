# SPDX-License-Identifier: MIT
"""The public headers from C++: tests/cplusplus/from_cpp.cpp, compiled by
every C++ compiler found here (clang++, g++) as C++11, C++17 and C++20 with
-Wall -Wextra -Wpedantic -Werror, linked with the static libraries the build
made, builds, loads and plays a clip with the values it expects. A header
that lost its extern "C", or used what C++ does not have, fails here."""
import argparse
import shutil
import subprocess
import sys

SKIP = 77  # site_scons/kfb_testing.py

ap = argparse.ArgumentParser()
ap.add_argument('--source', required=True)
ap.add_argument('--work', required=True)
ap.add_argument('--include', action='append', default=[])
ap.add_argument('--archive', action='append', default=[])
ap.add_argument('--lib', action='append', default=[])
args = ap.parse_args()

compilers = [c for c in ('clang++', 'g++') if shutil.which(c)]
if not compilers:
    print('test_cplusplus: SKIPPED: no C++ compiler: install clang (.ci/install-test-deps) or g++')
    sys.exit(SKIP)

failures = 0
runs = 0
for cxx in compilers:
    for std in ('c++11', 'c++17', 'c++20'):
        out = '%s/from_cpp_%s_%s' % (args.work, cxx.replace('+', 'x'), std.replace('+', 'x'))
        cmd = ([cxx, '-std=' + std, '-Wall', '-Wextra', '-Wpedantic', '-Werror'] +
               ['-I' + i for i in args.include] + [args.source, '-o', out] + args.archive +
               ['-l' + lib for lib in args.lib + ['m', 'pthread']])
        build = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        runs += 1
        if build.returncode != 0:
            failures += 1
            print('FAIL: %s -std=%s:\n%s' % (cxx, std, build.stdout))
            continue
        run = subprocess.run([out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            failures += 1
            print('FAIL: %s -std=%s ran:\n%s' % (cxx, std, run.stdout))

print('test_cplusplus: %d builds (%s), %d failed' % (runs, ', '.join(compilers), failures))
sys.exit(1 if failures else 0)
