# SPDX-License-Identifier: MIT
"""The reference vectors in tests/data/oracle are the independent
implementations' files, unedited: their SHA-256 sums are the ones the
folder's README lists, and the tests that read them find every file."""
import hashlib
import os
import re
import sys


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, 'README.md')) as f:
        listed = dict((name, digest) for digest, name in
                      re.findall(r'^([0-9a-f]{64})  (\S+)$', f.read(), re.M))
    failures = 0
    if len(listed) != 3:
        print('test_oracle_data: README.md lists %d checksums, expected 3' % len(listed))
        failures += 1
    for name, digest in sorted(listed.items()):
        with open(os.path.join(folder, name), 'rb') as f:
            got = hashlib.sha256(f.read()).hexdigest()
        if got != digest:
            print('test_oracle_data: %s has SHA-256 %s, README.md lists %s' % (name, got, digest))
            failures += 1
    print('test_oracle_data: %d files, %d failed' % (len(listed), failures))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
