# SPDX-License-Identifier: MIT
"""NEWS, the release notes, says of the newest release what the tree is: its
heading is the version runtime/kf.h carries, its SONAMEs and symbol versions
are the ones the build gives that version (README.md, "ABI"), and its format line names the
version formats/kfb_format.h writes and the older ones formats/kfb.md says
this reader reads. A format or version change that leaves NEWS behind fails
here."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), os.pardir)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kfb_layout  # noqa: E402
from test_packaging import kf_versions  # noqa: E402

failures = []
checks = 0


def check(ok, what):
    global checks
    checks += 1
    if not ok:
        failures.append(what)
        print('FAIL: ' + what)


def read(name):
    with open(os.path.join(ROOT, name), encoding='utf-8') as f:
        return f.read()


def versions_in(text):
    """'1.0, 1.1 and 2.0 to 2.6' as the list of (major, minor) it names."""
    out = []
    for part in re.split(r',\s*|\s+and\s+', text.strip()):
        m = re.fullmatch(r'(\d+)\.(\d+)(?:\s+to\s+(\d+)\.(\d+))?', part.strip())
        if not m:
            raise SystemExit('test_news: cannot read the versions %r' % text)
        a = (int(m.group(1)), int(m.group(2)))
        b = (int(m.group(3)), int(m.group(4))) if m.group(3) else a
        if a[0] != b[0] or a[1] > b[1]:
            raise SystemExit('test_news: a range across majors or backwards: %r' % part)
        out += [(a[0], n) for n in range(a[1], b[1] + 1)]
    return out


# kf.h's version, and the part of it the SONAMEs carry.
version, so = kf_versions(ROOT)
news = read('NEWS')
# The newest release: the first heading (a version over a line of '='), up
# to the next one.
heads = list(re.finditer(r'^(\d+\.\d+\.\d+)\n=+\n', news, re.M))
check(bool(heads), 'NEWS has a release heading (X.Y.Z over a line of =)')
if heads:
    newest = heads[0].group(1)
    check(newest == version, 'NEWS names %s newest, and runtime/kf.h is %s' % (newest, version))
    section = news[heads[0].end():heads[1].start() if len(heads) > 1 else len(news)]
    flat = ' '.join(section.split())
    for lib in ('libkf', 'libkf_offline'):
        check('%s.so.%s' % (lib, so) in flat,
              'NEWS %s names the SONAME %s.so.%s' % (newest, lib, so))
    # Each library's one symbol version node, named after its SONAME's
    # version (SConstruct, KF_SYMBOL_NODE).
    for node in ('KF_' + so, 'KF_OFFLINE_' + so):
        check(re.search(r'\b%s\b' % re.escape(node), flat) is not None,
              'NEWS %s names the symbol version %s' % (newest, node))
    for other in re.findall(r'\b(libkf(?:_offline)?\.so\.[\d.]+[\d])', flat):
        check(other in ('libkf.so.' + so, 'libkf_offline.so.' + so),
              'NEWS %s names the SONAME %s, which this version does not have' % (newest, other))
    # The format: written, and read.
    major, minor = kfb_layout.VERSION >> 16, kfb_layout.VERSION & 0xFFFF
    m = re.search(r'the \.kfb binary format, version (\d+)\.(\d+)', flat)
    check(bool(m), 'NEWS %s names the .kfb format version' % newest)
    if m:
        check((int(m.group(1)), int(m.group(2))) == (major, minor),
              'NEWS %s says format %s.%s, and formats/kfb_format.h writes %d.%d' %
              (newest, m.group(1), m.group(2), major, minor))
    doc = ' '.join(read('formats/kfb.md').split())
    d = re.search(r'This reader reads ([\d., ]+?(?:and|to) [\d.]+(?: to [\d.]+)?) \(', doc)
    n = re.search(r'the reader also reads versions ([\d., ]+?(?:and|to) [\d.]+(?: to [\d.]+)?),',
                  flat)
    check(bool(d), 'formats/kfb.md says which versions this reader reads')
    check(bool(n), 'NEWS %s says which older versions the reader reads' % newest)
    if d and n:
        read_all = versions_in(d.group(1))
        check((major, minor) in read_all,
              'formats/kfb.md\'s reader reads %d.%d, the version it writes' % (major, minor))
        older = [v for v in read_all if v != (major, minor)]
        check(versions_in(n.group(1)) == older,
              'NEWS %s says the reader also reads %s; formats/kfb.md: %s' %
              (newest, n.group(1), ', '.join('%d.%d' % v for v in older)))

print('test_news: %d checks, %d failed' % (checks, len(failures)))
sys.exit(1 if failures else 0)
