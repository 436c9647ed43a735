# SPDX-License-Identifier: MIT
"""Running tests under SCons so that one failure does not hide the others.

Each test is a Command whose target is a result file ("pass", "fail" or
"skip"); the test's output is printed as it ran. A test that cannot run here
(a tool it needs is not installed) exits with SKIP_STATUS after printing a
line "NAME: SKIPPED: what to install"; it is counted as skipped, never as
passed. A summary over any set of result files prints one line,
"N passed, M failed, K skipped", and fails the build when M > 0.
"""
import os
import subprocess
import sys

from SCons.Script import Action

# The exit status of a test that could not run (automake's convention).
SKIP_STATUS = 77


def _run(target, source, env):
    cmd = env.subst(env['TEST_COMMAND'], target=target, source=source)
    proc = subprocess.run(cmd, shell=True, env=env['ENV'], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT)
    sys.stdout.write(proc.stdout.decode('utf-8', 'replace'))
    status = ('pass' if proc.returncode == 0 else
              'skip' if proc.returncode == SKIP_STATUS else 'fail')
    if status == 'fail':
        sys.stdout.write('FAILED (exit %d): %s\n' % (proc.returncode, cmd))
    sys.stdout.flush()
    with open(str(target[0]), 'w') as f:
        f.write(status + '\n')
    return 0


def _summarize(target, source, env):
    passed = failed = skipped = 0
    failures, skips = [], []
    for s in source:
        with open(str(s)) as f:
            status = f.read().strip()
        if status == 'pass':
            passed += 1
        elif status == 'skip':
            skipped += 1
            skips.append(str(s))
        else:
            failed += 1
            failures.append(str(s))
    for verdict, names in (('skipped', skips), ('failed', failures)):
        for name in names:
            print('%s: %s' % (verdict, name[:-len('.result')] if name.endswith('.result') else name))
    print('%d passed, %d failed, %d skipped' % (passed, failed, skipped))
    sys.stdout.flush()
    if failed:
        # Leave the verdict as the last line: SCons would print its own
        # error message after a failing action.
        os._exit(1)
    return 0


def test_command(env, name, sources, command):
    """A test: runs `command` (SCons-substituted) once its sources are built."""
    run = env.Command(name + '.result', sources,
                      Action(_run, '$TESTCOMSTR' if not env.get('VERBOSE') else None),
                      TEST_COMMAND=command, TESTCOMSTR='TEST   ' + name)
    env.AlwaysBuild(run)
    return run


def summary(env, name, results):
    """The one-line verdict over `results` (test_command targets)."""
    s = env.Command(name, results, Action(_summarize, None))
    env.AlwaysBuild(s)
    return s
