# SPDX-License-Identifier: MIT
"""The project's math is docs/math.md: every citation of it in a tracked file
("docs/math.md §1.4", "`docs/math.md` §3 and §4", "[docs/math.md](...) §5")
must name a section that docs/math.md has, and so must docs/math.md's own
references ("§1.4", "§5.6, 5.7"). No file cites the notes the document
replaced. usage: test_doc_citations.py REPO_ROOT"""
import os
import re
import subprocess
import sys

MATH = 'docs/math.md'
# Spelled in two pieces so that this file does not cite it itself.
RETIRED = re.compile('SPEC' + r'[-_ ]?' + 'NOTES', re.IGNORECASE)

NUMBER = r'\d+(?:\.\d+)*'
# A numbered heading: "## 1. M3G KeyframeSequence", "### 1.4 Interpolation".
HEADING = re.compile(r'^#{1,6}\s+§?(' + NUMBER + r')\.?\s', re.MULTILINE)
# What may stand between two sections of one list: spaces, comment leaders of
# a wrapped line, and a connective.
GAP = r'(?:\s|\*|#|//)*'
JOIN = GAP + r'(?:,|and|or|to|–|-)' + GAP
SECTION = r'§\s*' + NUMBER
CHAIN = SECTION + r'(?:' + JOIN + r'§?\s*' + NUMBER + r')*'
# The document's name, as code (`docs/math.md`) or as a link, then a list of
# sections: "§1.3, §1.4", "§3 and §4", "§1.4-1.5".
CITATION = re.compile(r'(?:docs/)?math\.md(?:`|\]\([^)]*\))?' + GAP + '(' + CHAIN + ')')
# Inside docs/math.md: any list of sections.
REFERENCE = re.compile('(' + CHAIN + ')')


def tracked(root):
    """The tracked files (a git checkout) or every file (an export)."""
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True, check=True)
        return [n for n in out.stdout.decode().split('\0') if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x not in ('.git', 'build')]
            names += [os.path.relpath(os.path.join(d, f), root) for f in files]
        return names


def text_of(path):
    """The file as text, or None for a binary file."""
    with open(path, 'rb') as f:
        data = f.read()
    if b'\0' in data:
        return None
    return data.decode('utf-8', 'replace')


def numbers(chain):
    return re.findall(NUMBER, chain)


def line_of(text, offset):
    return text.count('\n', 0, offset) + 1


def sections(text):
    """The numbered sections of docs/math.md, outside its code blocks."""
    found, fenced = set(), False
    for line in text.splitlines():
        if line.startswith('```'):
            fenced = not fenced
        elif not fenced:
            m = HEADING.match(line + ' ')
            if m:
                found.add(m.group(1))
    return found


def main():
    root = sys.argv[1]
    failures = []
    math_path = os.path.join(root, MATH)
    if not os.path.isfile(math_path):
        print('%s: missing' % MATH)
        return 1
    math_text = text_of(math_path)
    known = sections(math_text)
    for must in ('0', '1', '2', '3', '4', '5', '1.1', '1.7'):
        if must not in known:
            failures.append('%s: no section §%s' % (MATH, must))

    names = tracked(root)
    citations = 0
    for name in names:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            continue
        text = text_of(path)
        if text is None:
            continue
        for m in RETIRED.finditer(text):
            failures.append('%s:%d: cites %s; cite %s instead' %
                            (name, line_of(text, m.start()), m.group(0), MATH))
        pattern = REFERENCE if name == MATH else CITATION
        for m in pattern.finditer(text):
            for number in numbers(m.group(1)):
                citations += 1
                if number not in known:
                    failures.append('%s:%d: cites %s §%s, which it does not have' %
                                    (name, line_of(text, m.start()), MATH, number))
    for line in failures:
        print(line)
    print('%d files checked, %d citations of %s (%d sections), %d problems' %
          (len(names), citations, MATH, len(known), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
