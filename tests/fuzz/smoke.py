#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A libFuzzer target, briefly, as a test: every input of its seed corpus,
then --runs fuzzed inputs from a fixed seed (-seed=1), each given --timeout
seconds. Passes when the fuzzer finds nothing; prints one line then, or the
fuzzer's report and the input that failed (kept in --work).

usage: smoke.py --name NAME --runs N --timeout S --work DIR -- FUZZER [FLAGS...] CORPUS..."""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    for option in ('--name', '--work'):
        ap.add_argument(option, required=True)
    ap.add_argument('--runs', type=int, required=True)
    ap.add_argument('--timeout', type=int, required=True)
    ap.add_argument('command', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    command = a.command[1:] if a.command and a.command[0] == '--' else a.command
    fuzzer, rest = command[0], command[1:]
    corpora = [c for c in rest if not c.startswith('-')]
    flags = [f for f in rest if f.startswith('-')]
    seeds = sum(len(files) for c in corpora if os.path.isdir(c) for _, _, files in os.walk(c))
    shutil.rmtree(a.work, ignore_errors=True)
    scratch = os.path.join(a.work, 'corpus')
    os.makedirs(scratch)
    # New inputs go to the scratch corpus (first); the seeds stay as built.
    cmd = [fuzzer, '-runs=%d' % (seeds + a.runs), '-seed=1', '-timeout=%d' % a.timeout,
           '-rss_limit_mb=2560', '-print_final_stats=1', '-artifact_prefix=%s/' % a.work] + flags + \
        [scratch] + corpora
    start = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    seconds = time.monotonic() - start
    out = r.stdout.decode('utf-8', 'replace')
    done = re.search(r'stat::number_of_executed_units:\s*(\d+)', out)
    if r.returncode != 0 or not done:
        print('\n'.join(out.splitlines()[-80:]))
        found = [f for f in os.listdir(a.work) if f != 'corpus']
        print('%s: FAILED (exit %d) after %.1f s; input kept: %s'
              % (a.name, r.returncode, seconds, ', '.join(os.path.join(a.work, f) for f in found) or 'none'))
        return 1
    cov = re.findall(r'cov: (\d+)', out)
    print('%s: %s executions (%d seeds, %d fuzzed from -seed=1) in %.1f s, coverage %s, no finding'
          % (a.name, done.group(1), seeds, a.runs, seconds, cov[-1] if cov else '?'))
    return 0


if __name__ == '__main__':
    sys.exit(main())
