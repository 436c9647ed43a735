# SPDX-License-Identifier: MIT
"""Every source file of the repository says its licence in an SPDX line near
its top, and LICENSE holds the MIT text that line names."""
import os
import subprocess
import sys

TAG = 'SPDX-License-Identifier: MIT'
CODE_EXT = ('.c', '.h', '.cc', '.py', '.sh', '.in', '.dict', '.1', '.js', '.mjs', '.cjs')
CODE_NAMES = ('SConstruct', 'SConscript', 'run', 'install-deps', 'install-test-deps')


def sources(root):
    """The tracked files (a git checkout) or every file (an export)."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True, check=True)
        names = [n for n in out.stdout.decode().split('\0') if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in ('.git', 'build')]
            names += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return [n for n in names
            if n.endswith(CODE_EXT) or os.path.basename(n) in CODE_NAMES]


def main():
    root = sys.argv[1]
    failures = []
    with open(os.path.join(root, 'LICENSE')) as f:
        text = f.read()
    if not text.startswith('MIT License') or 'Permission is hereby granted, free of charge' not in text:
        failures.append('LICENSE: not the MIT licence text')
    files = sources(root)
    for name in files:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        with open(path, 'rb') as f:
            head = f.read(512).decode('utf-8', 'replace').splitlines()[:3]
        if not any(TAG in line for line in head):
            failures.append('%s: no "%s" line in its first three lines' % (name, TAG))
    for line in failures:
        print(line)
    print('%d source files checked, %d without the licence line' % (len(files), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
