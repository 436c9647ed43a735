# SPDX-License-Identifier: MIT
"""kfc's output file, at its edges.

- An output name of NAME_MAX bytes works (the temporary name beside it is
  short), for compiling and for decompiling, and gives the same bytes as a
  short name.
- SIGTERM or SIGINT while kfc writes through its temporary file removes
  that file, leaves any earlier output as it was, and kfc dies of the
  signal. The write is caught in the act by decompiling a large file and
  polling the directory for the temporary file; a run that finishes before
  the signal lands proves nothing and is repeated (up to ATTEMPTS times),
  and at least one run must be caught.
"""
import os
import signal
import subprocess
import sys
import time

import driver

ATTEMPTS = 6
checks = driver.Checks()
check = checks.check


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)


def long_names(kfc, fixtures, work):
    name_max = os.pathconf(work, 'PC_NAME_MAX')
    src = os.path.join(fixtures, 'basic.yaml')
    short = os.path.join(work, 'short.kfb')
    longest = os.path.join(work, 'k' * (name_max - 4) + '.kfb')
    check(run([kfc, src, '-o', short]).returncode == 0, 'short name compiles')
    r = run([kfc, src, '-o', longest])
    check(r.returncode == 0, 'a %d-byte output name: %s' % (name_max, r.stderr.decode()))
    check(os.path.exists(longest) and read(longest) == read(short),
          'the %d-byte output holds the same bytes' % name_max)
    back = os.path.join(work, 'y' * (name_max - 5) + '.yaml')
    r = run([kfc, '--decompile', longest, '-o', back])
    check(r.returncode == 0 and os.path.exists(back), 'decompiled to a %d-byte name' % name_max)
    too_long = os.path.join(work, 'k' * (name_max + 1))
    r = run([kfc, src, '-o', too_long])
    check(r.returncode != 0 and not os.path.exists(too_long), 'NAME_MAX + 1 fails cleanly')
    check(not [p for p in os.listdir(work) if p.startswith('.kfc-')], 'no temporary file left')


def big_kfb(kfc, work):
    """A file whose decompilation takes a while: one wide sequence."""
    src = os.path.join(work, 'big.yaml')
    comps, keys = 1000, 400
    with open(src, 'w') as f:
        f.write('kfb: 1\nsequences:\n  s:\n    interpolation: linear\n'
                '    duration: %d\n    keys:\n' % keys)
        for k in range(keys):
            f.write('      - [%d, [%s]]\n' % (k, ', '.join(str((k * 7 + c) % 13 * 0.25)
                                                        for c in range(comps))))
    out = os.path.join(work, 'big.kfb')
    check(run([kfc, src, '-o', out]).returncode == 0, 'big file compiles')
    return out


def interrupted(kfc, work, kfb, sig):
    out_dir = os.path.join(work, 'signal-%d' % sig)
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, 'out.yaml')
    with open(target, 'w') as f:
        f.write('earlier output\n')
    reference = os.path.join(work, 'reference-%d.yaml' % sig)
    check(run([kfc, '--decompile', kfb, '-o', reference]).returncode == 0, 'reference decompile')
    complete = read(reference)
    caught = 0
    for attempt in range(ATTEMPTS):
        p = subprocess.Popen([kfc, '--decompile', kfb, '-o', target],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        seen = False
        deadline = time.monotonic() + 60
        while p.poll() is None and time.monotonic() < deadline:
            if any(n.startswith('.kfc-') for n in os.listdir(out_dir)):
                seen = True
                p.send_signal(sig)
                break
        p.communicate(timeout=60)
        if seen and p.returncode == -sig:
            caught += 1
            left = [n for n in os.listdir(out_dir) if n != 'out.yaml']
            check(not left, 'signal %d: temporary files left: %s' % (sig, left))
            # Either the signal came during the write (the earlier output
            # stays) or just after the rename (the new output is whole).
            check(read(target) in (b'earlier output\n', complete),
                  'signal %d: the output is neither the earlier one nor complete' % sig)
            with open(target, 'w') as f:
                f.write('earlier output\n')
        elif p.returncode == 0:
            # Finished before the signal: the output is complete; start over.
            with open(target, 'w') as f:
                f.write('earlier output\n')
        else:
            check(False, 'signal %d: unexpected exit %d' % (sig, p.returncode))
    check(caught > 0, 'signal %d: no run was caught while writing' % sig)
    return caught


def main():
    a = driver.arguments()
    long_names(a.kfc, a.fixtures, a.work)
    kfb = big_kfb(a.kfc, a.work)
    caught = [interrupted(a.kfc, a.work, kfb, s) for s in (signal.SIGTERM, signal.SIGINT)]
    if checks.failures:
        print('test_kfc_output: %d failure(s)' % len(checks.failures), file=sys.stderr)
        return 1
    print('test_kfc_output: %d checks; interrupted writes caught: SIGTERM %d, SIGINT %d of %d'
          % (checks.count, caught[0], caught[1], ATTEMPTS))
    return 0


if __name__ == '__main__':
    sys.exit(main())
