# SPDX-License-Identifier: MIT
"""What the Python test drivers share: the command line tests/SConscript
gives them (py_test), and the failure list they report from."""
import argparse
import os
import shutil
import sys

# The exit status of a test that cannot run here (site_scons/kfb_testing.py).
SKIP_STATUS = 77

# The tools' exit statuses: kfc's (compiler/kfc_diag.h, kfc_status), which
# kfplay shares (tools/kfplay_args.h).
EXIT_INVALID, EXIT_USAGE, EXIT_IO, EXIT_NOMEM = 1, 2, 3, 4


def require(test, tool, package):
    """Exits as skipped, saying what to install, when `tool` is not on the PATH."""
    if shutil.which(tool) is None:
        print('%s: SKIPPED: %s not found (Debian package %s; .ci/install-test-deps installs it)'
              % (test, tool, package))
        sys.exit(SKIP_STATUS)


def short_of_memory(exe, megabytes):
    """subprocess.run's keywords under which `exe` runs out of memory
    before it holds `megabytes` MiB at once: in a sanitizer build, which
    cannot start under a limit of its address space (its shadow memory),
    ASan's allocator fails a larger allocation as malloc does; elsewhere the
    address space is limited."""
    with open(exe, 'rb') as f:
        sanitized = b'__asan_init' in f.read()
    if sanitized:
        options = [os.environ.get('ASAN_OPTIONS', ''), 'allocator_may_return_null=1',
                   'max_allocation_size_mb=%d' % megabytes]
        return {'env': dict(os.environ, ASAN_OPTIONS=':'.join(o for o in options if o))}

    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (megabytes << 20, megabytes << 20))
    return {'preexec_fn': limit}


def arguments(*extra, optional=()):
    """--kfc, --kfplay (absolute paths), --fixtures, --oracle, and --work,
    emptied so that no earlier run's files are taken for this run's; any
    `extra` options a driver needs besides, and the `optional` ones it may
    be given (None when not)."""
    ap = argparse.ArgumentParser()
    for option in ('--kfc', '--kfplay', '--fixtures', '--oracle', '--work') + extra:
        ap.add_argument(option, required=True)
    for option in optional:
        ap.add_argument(option)
    a = ap.parse_args()
    a.kfc, a.kfplay = os.path.abspath(a.kfc), os.path.abspath(a.kfplay)
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    return a


def terminal_text(text, quoted=False):
    """The name `text` as kfplay's text and messages and kfc's diagnostics
    show it (compiler/kfc_text.h): C0 and C1 controls, DEL, and bytes that
    are not UTF-8 (read with 'surrogateescape') as \\xNN, a byte each, a
    backslash as \\\\; `quoted`: between quotes, a quote as \\'."""
    def shown(ch):
        o = ord(ch)
        if o < 0x20 or 0x7f <= o <= 0x9f:
            return ''.join('\\x%02x' % b for b in ch.encode())
        if 0xdc80 <= o <= 0xdcff:
            return '\\x%02x' % (o - 0xdc00)
        if ch == '\\' or (quoted and ch == "'"):
            return '\\' + ch
        return ch
    text = ''.join(map(shown, text))
    return "'%s'" % text if quoted else text


class Checks:
    """Counts checks and keeps the failed ones, printing each as it fails."""

    def __init__(self):
        self.count = 0
        self.failures = []

    def fail(self, what):
        self.failures.append(what)
        print('FAIL: ' + what, file=sys.stderr)

    def check(self, cond, what):
        self.count += 1
        if not cond:
            self.fail(what)
        return cond
