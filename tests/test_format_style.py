#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every C source and header of the project is laid out as .clang-format
says: clang-format leaves each file unchanged. The layout is clang-format
14's (Debian's `clang-format` package, which CI installs); another major
version formats some constructs differently, so with one the check says so
and fails rather than report a difference that is only the tool's.

usage: test_format_style.py ROOT"""
import os
import re
import subprocess
import sys

MAJOR = 14


def main():
    root = sys.argv[1]
    try:
        version = subprocess.run(['clang-format', '--version'], capture_output=True,
                                 universal_newlines=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print('test_format_style: SKIPPED: clang-format not found (%s; Debian package '
              'clang-format; .ci/install-test-deps installs it)' % e)
        return 77
    m = re.search(r'version (\d+)\.', version)
    if not m or int(m.group(1)) != MAJOR:
        print('test_format_style: SKIPPED: clang-format %d needed, found: %s (Debian 12\'s '
              'clang-format package)' % (MAJOR, version.strip()))
        return 77
    try:
        files = subprocess.run(['git', 'ls-files', '*.c', '*.h'], cwd=root, capture_output=True,
                               universal_newlines=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: the source folders
        files = sorted(os.path.relpath(os.path.join(d, n), root)
                       for top in ('formats', 'runtime', 'offline', 'compiler', 'tools', 'tests',
                                   'examples')
                       for d, _, names in os.walk(os.path.join(root, top))
                       for n in names if n.endswith(('.c', '.h')))
    if len(files) < 50:
        print('test_format_style: only %d C files under %s' % (len(files), root),
              file=sys.stderr)
        return 1
    bad = []
    for name in files:
        path = os.path.join(root, name)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        formatted = subprocess.run(['clang-format', '--style=file', '--assume-filename=' + path],
                                   input=text, capture_output=True, universal_newlines=True,
                                   check=True, cwd=root).stdout
        if formatted != text:
            a, b = text.splitlines(), formatted.splitlines()
            line = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
                        min(len(a), len(b)))
            bad.append('%s:%d: not as clang-format lays it out' % (name, line + 1))
    for b in bad:
        print(b, file=sys.stderr)
    print('test_format_style: %d files, %d not formatted' % (len(files), len(bad)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
