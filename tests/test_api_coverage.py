#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every public function is given hostile arguments: each function kf.h and
kf_build.h declare KF_API is called in tests/test_api_edges.c, so that a
function added later without its edge cases fails here.

usage: test_api_coverage.py KF_H KF_BUILD_H TEST_API_EDGES_C"""
import re
import sys


def main():
    headers, test = sys.argv[1:-1], sys.argv[-1]
    declared = set()
    for h in headers:
        declared |= set(re.findall(r'^KF_API\b[^(]*?\b(kf_\w+)\(', open(h).read(), re.M))
    source = open(test).read()
    missing = sorted(f for f in declared if not re.search(r'\b%s\s*\(' % f, source))
    for f in missing:
        print('FAIL: %s is never called in %s' % (f, test))
    print('test_api_coverage: %d public functions, %d without edge cases' % (len(declared), len(missing)))
    return 1 if missing or len(declared) < 90 else 0


if __name__ == '__main__':
    sys.exit(main())
