#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""ABI hygiene: libkf.so exports exactly the functions kf.h declares with
KF_API, libkf_offline.so exactly those of kf_build.h; nothing else. Every
one carries its library's symbol version node, KF_<SONAME version> and
KF_OFFLINE_<SONAME version> (KF_0.1 in libkf.so.0.1: README.md, "ABI"),
which is the one version each library defines.

usage: test_exports.py KF_H KF_BUILD_H LIBKF_SO LIBKF_OFFLINE_SO"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_packaging import kf_versions  # noqa: E402


def declared(header):
    return set(re.findall(r'^KF_API\b[^(]*?\b(kf_\w+)\(', open(header).read(), re.M))


def exported(lib, node):
    """Every symbol the library defines in its dynamic symbol table, global
    or weak, whatever its type: name -> its version ('' for none). (GNU
    ld's absolute symbol that names the version node is the node, not an
    export.)"""
    out = subprocess.check_output(['readelf', '--dyn-syms', '-W', lib], universal_newlines=True)
    symbols = {}
    for line in out.splitlines():
        f = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(f) < 8 or not f[0].endswith(':') or f[6] == 'UND' or f[4] not in ('GLOBAL', 'WEAK'):
            continue
        if f[6] == 'ABS' and f[7] == node:
            continue
        name, _, version = f[7].partition('@')
        symbols[name] = version.lstrip('@')
    return symbols


def version_definitions(lib):
    """The names of the versions the library defines, its SONAME (the base
    entry) first."""
    out = subprocess.check_output(['readelf', '-V', '-W', lib], universal_newlines=True)
    section = out.split("Version definition section '.gnu.version_d'")
    return re.findall(r'Name: (\S+)', section[1].split('Version needs section')[0]) \
        if len(section) > 1 else []


def main():
    kf_h, build_h, libkf, liboffline = sys.argv[1:5]
    _, soversion = kf_versions(os.path.join(os.path.dirname(kf_h), '..'))
    failures = 0
    for lib, header, node in ((libkf, kf_h, 'KF_' + soversion),
                              (liboffline, build_h, 'KF_OFFLINE_' + soversion)):
        want, symbols = declared(header), exported(lib, node)
        got = set(symbols)
        for name in sorted(got - want):
            print('FAIL: %s exports %s, which %s does not declare KF_API' % (lib, name, header))
            failures += 1
        for name in sorted(want - got):
            print('FAIL: %s does not export %s' % (lib, name))
            failures += 1
        for name in sorted(n for n in got if symbols[n] != node):
            print('FAIL: %s exports %s with version %r, not %s'
                  % (lib, name, symbols[name] or 'none', node))
            failures += 1
        soname = os.path.basename(lib).split('.so')[0] + '.so.' + soversion
        defined = version_definitions(lib)
        if defined != [soname, node]:
            print('FAIL: %s defines the versions %s, not %s' % (lib, defined, [soname, node]))
            failures += 1
        print('test_exports: %s: %d functions exported as %s, %d declared'
              % (lib, len(got), node, len(want)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
