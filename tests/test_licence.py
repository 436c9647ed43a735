# SPDX-License-Identifier: MIT
"""Every source file of the repository says its licence in an SPDX line near
its top, and LICENSE holds the MIT text that line names. The files that
cannot say it in a line of their own (data, documents) are covered by
REUSE.toml, read with tomllib: every file the repository holds has its own
SPDX line or a REUSE.toml annotation that gives its licence, every file an
annotation naming the copyright of LICENSE, and every path of an annotation
matches a file (none is left over from a file since removed). LICENSES/MIT.txt,
the licence text as REUSE wants it, is LICENSE's text."""
import os
import re
import subprocess
import sys
import tomllib

# REUSE-IgnoreStart
TAG = 'SPDX-License-Identifier: MIT'
# REUSE-IgnoreEnd
CODE_EXT = ('.c', '.h', '.cc', '.cpp', '.py', '.sh', '.in', '.dict', '.1', '.js', '.mjs', '.cjs')
CODE_NAMES = ('SConstruct', 'SConscript', 'run', 'install-deps', 'install-test-deps')
# The licence texts themselves, which REUSE does not ask to be licensed.
LICENCE_TEXTS = ('LICENSE', 'LICENSES/MIT.txt')


def tracked(root):
    """The tracked files (a git checkout) or every file (an export)."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True, check=True)
        names = [n for n in out.stdout.decode().split('\0') if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in ('.git', 'build', '__pycache__')]
            names += [os.path.relpath(os.path.join(d, f), root).replace(os.sep, '/') for f in files]
    # (a file deleted in the work tree is not there to check)
    return sorted(n for n in names if os.path.isfile(os.path.join(root, n)))


def is_code(name):
    return name.endswith(CODE_EXT) or os.path.basename(name) in CODE_NAMES


def has_tag(root, name):
    with open(os.path.join(root, name), 'rb') as f:
        head = f.read(512).decode('utf-8', 'replace').splitlines()[:3]
    return any(TAG in line for line in head)


def glob_regex(pattern):
    """A REUSE.toml path as a regular expression: '*' is any text without a
    '/', '**' any text, '**/' any folders or none ('**/*.md' is README.md
    too, as the reuse tool reads it), '\\*' a '*'."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith('\\\\', i):
            out.append(re.escape('\\'))
            i += 2
        elif pattern.startswith('\\*', i):
            out.append(re.escape('*'))
            i += 2
        elif pattern.startswith('**/', i):
            out.append('(?:.*/)?')
            i += 3
        elif pattern.startswith('**', i):
            out.append('.*')
            i += 2
        elif pattern[i] == '*':
            out.append('[^/]*')
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile(''.join(out) + r'\Z')


def annotations(root, failures):
    """REUSE.toml's annotations as (paths, copyright, licence), each path a
    (pattern, regex)."""
    try:
        with open(os.path.join(root, 'REUSE.toml'), 'rb') as f:
            toml = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        failures.append('REUSE.toml: %s' % e)
        return []
    if toml.get('version') != 1:
        failures.append('REUSE.toml: version = %r, not 1' % toml.get('version'))
    found = []
    for i, a in enumerate(toml.get('annotations', [])):
        paths = a.get('path', [])
        paths = [paths] if isinstance(paths, str) else paths
        if not paths:
            failures.append('REUSE.toml: annotation %d has no path' % (i + 1))
        found.append(([(p, glob_regex(p)) for p in paths], a.get('SPDX-FileCopyrightText'),
                      a.get('SPDX-License-Identifier')))
    if not found:
        failures.append('REUSE.toml: no [[annotations]]')
    return found


def last_with(notes, name, key):
    """The value `key` (1: copyright, 2: licence) of the last annotation
    matching `name` that gives one, as REUSE takes the last match."""
    value = None
    for note in notes:
        if note[key] is not None and any(regex.match(name) for _, regex in note[0]):
            value = note[key]
    return value


def main():
    root = sys.argv[1]
    failures = []
    with open(os.path.join(root, 'LICENSE')) as f:
        text = f.read()
    if not text.startswith('MIT License') or 'Permission is hereby granted, free of charge' not in text:
        failures.append('LICENSE: not the MIT licence text')
    try:
        with open(os.path.join(root, 'LICENSES', 'MIT.txt')) as f:
            if f.read() != text:
                failures.append('LICENSES/MIT.txt: not the text of LICENSE')
    except OSError as e:
        failures.append('LICENSES/MIT.txt: %s' % e)
    copyright_lines = re.findall(r'^Copyright \(c\) (.+)$', text, re.M)
    if len(copyright_lines) != 1:
        failures.append('LICENSE: %d copyright lines, not one' % len(copyright_lines))
    copyright = copyright_lines[0] if copyright_lines else None

    files = tracked(root)
    code = [n for n in files if is_code(n)]
    for name in code:
        if not has_tag(root, name):
            failures.append('%s: no "%s" line in its first three lines' % (name, TAG))

    notes = annotations(root, failures)
    for note in notes:
        if note[1] is not None and note[1] != copyright:
            failures.append('REUSE.toml: SPDX-FileCopyrightText = %r, not LICENSE\'s %r'
                            % (note[1], copyright))
        if note[2] is not None and note[2] != 'MIT':
            failures.append('REUSE.toml: SPDX-License-Identifier = %r, not MIT' % note[2])
        for pattern, regex in note[0]:
            if not any(regex.match(n) for n in files):
                failures.append('REUSE.toml: path %r matches no file' % pattern)
    covered = 0
    for name in files:
        if name in LICENCE_TEXTS:
            continue
        if last_with(notes, name, 1) is None:
            failures.append('%s: no REUSE.toml annotation gives its copyright' % name)
        if not has_tag(root, name):
            if last_with(notes, name, 2) is None:
                failures.append('%s: no SPDX line, and no REUSE.toml annotation gives its licence'
                                % name)
            else:
                covered += 1
    for line in failures:
        print(line)
    print('%d files checked (%d of code with the licence line, %d licensed by REUSE.toml), '
          '%d problems' % (len(files), len(code), covered, len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
