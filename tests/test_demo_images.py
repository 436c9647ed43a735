#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The pictures README.md shows (docs/images/*.svg) are what `scons demo`
draws now. Each is plotted again with the tools under test, as
docs/images/demo.json says, and compared with the committed file; with
--demo DIR (the release build), the pictures `scons demo` drew in DIR
(build/release/demo) are compared with the committed ones too. Numbers
agree within 0.02 px (compilers may round the last digit differently),
everything else exactly."""
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
NUMBER = re.compile(r'-?\d+(?:\.\d+)?')


def differ(new, old):
    """Whether two SVG texts differ, and the largest difference of their numbers."""
    same = NUMBER.sub('#', new) == NUMBER.sub('#', old)
    nums = list(zip(NUMBER.findall(new), NUMBER.findall(old)))
    worst = max((abs(float(a) - float(b)) for a, b in nums), default=0)
    return not (same and worst <= 0.02), worst


def main():
    args = driver.arguments(optional=('--demo',))
    c = driver.Checks()
    pictures = json.load(open(os.path.join(ROOT, 'docs', 'images', 'demo.json')))
    readme = open(os.path.join(ROOT, 'README.md')).read()
    for p in pictures:
        kfb = os.path.join(args.work, p['svg'] + '.kfb')
        svg = os.path.join(args.work, p['svg'])
        subprocess.check_call([args.kfc, os.path.join(ROOT, p['source']), '-o', kfb])
        subprocess.check_call([args.kfplay, kfb, 'plot'] + p['plot'] + ['-o', svg])
        old = open(os.path.join(ROOT, 'docs', 'images', p['svg'])).read()
        bad, worst = differ(open(svg).read(), old)
        c.check(not bad, 'docs/images/%s is what kfplay plots as docs/images/demo.json says '
                '(worst %.3f); run scons demo and copy its pictures there' % (p['svg'], worst))
        if args.demo:
            drawn = os.path.join(args.demo, p['svg'])
            if c.check(os.path.isfile(drawn), 'scons demo drew %s' % drawn):
                bad, worst = differ(open(drawn).read(), old)
                c.check(not bad, 'docs/images/%s is %s, which scons demo drew (worst %.3f); '
                        'copy it there' % (p['svg'], drawn, worst))
        c.check('docs/images/%s' % p['svg'] in readme, 'README.md shows %s' % p['svg'])
    print('test_demo_images: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
