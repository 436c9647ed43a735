#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ABI hygiene: libkf.so exports exactly the functions kf.h declares with
KF_API, libkf_offline.so exactly those of kf_build.h; nothing else.

usage: test_exports.py KF_H KF_BUILD_H LIBKF_SO LIBKF_OFFLINE_SO"""
import re
import subprocess
import sys


def declared(header):
    return set(re.findall(r'^KF_API\b[^(]*?\b(kf_\w+)\(', open(header).read(), re.M))


def exported(lib):
    out = subprocess.check_output(['nm', '-D', '--defined-only', lib], universal_newlines=True)
    return {f[2] for f in (l.split() for l in out.splitlines())
            if len(f) == 3 and f[1] in 'TtWiDdBbRr' and not f[2].startswith('_')}


def main():
    kf_h, build_h, libkf, liboffline = sys.argv[1:5]
    failures = 0
    for lib, header in ((libkf, kf_h), (liboffline, build_h)):
        want, got = declared(header), exported(lib)
        for name in sorted(got - want):
            print('FAIL: %s exports %s, which %s does not declare KF_API' % (lib, name, header))
            failures += 1
        for name in sorted(want - got):
            print('FAIL: %s does not export %s' % (lib, name))
            failures += 1
        print('test_exports: %s: %d functions exported, %d declared' % (lib, len(got), len(want)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
