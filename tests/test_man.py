#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man pages of kfc and kfplay render with groff without a warning
(-ww), and document every option and command their --help lists; kfc's
one-line descriptions name every input its synopses take; both tools'
pages and --help list the same exit statuses."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402


def main():
    args = driver.arguments()
    driver.require('test_man', 'groff', 'groff-base')
    c = driver.Checks()
    man = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'man')
    env = dict(os.environ, LC_ALL='C.UTF-8', MANWIDTH='80')
    for tool, exe in (('kfc', args.kfc), ('kfplay', args.kfplay)):
        page = os.path.join(man, tool + '.1')
        r = subprocess.run(['groff', '-man', '-Tutf8', '-ww', page], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, env=env)
        c.check(r.returncode == 0 and not r.stderr, '%s.1: groff warnings: %s' % (tool, r.stderr))
        text = re.sub('.\b', '', r.stdout)  # overstrike (bold, underline) to plain text
        c.check('NAME' in text and 'SYNOPSIS' in text and 'EXIT STATUS' in text,
                '%s.1: the usual sections' % tool)
        helptext = subprocess.run([exe, '--help'], stdout=subprocess.PIPE, text=True).stdout
        if tool == 'kfc':
            wanted = set(re.findall(r'^\s+(?:-\w+, )?(-[-\w]+)', helptext, re.M))
        else:
            wanted = set(re.findall(r'(--[a-z]+)', helptext))
            wanted |= set(re.findall(r'^  ([a-z][-a-z]+) ', helptext, re.M))
        missing = sorted(w for w in wanted if w not in text)
        c.check(len(wanted) >= 8 and not missing,
                '%s.1 documents all %d of --help (missing: %s)' % (tool, len(wanted), missing))
    # What kfc compiles, as its synopses list it, is named in its one-line
    # descriptions too: the man page's NAME and the paragraph of --help.
    helptext = subprocess.run([args.kfc, '--help'], stdout=subprocess.PIPE, text=True).stdout
    usage, description = helptext.split('\n\n')[:2]
    source = open(os.path.join(man, 'kfc.1'), encoding='utf-8').read().split('\n')
    name_line = source[source.index('.SH NAME') + 1]
    for ext, word in (('.yaml', 'YAML'), ('.gltf', 'glTF'), ('.m3g', 'M3G'), ('.x3d', 'X3D')):
        if ext in usage.lower():
            c.check(word in ' '.join(description.split()),
                    'kfc --help: the description names %s: %r' % (word, description))
            c.check(word in name_line, 'kfc.1: NAME names %s: %r' % (word, name_line))
    # One table of exit statuses: both pages and both --help texts list
    # kfc's codes, 0 to 4, and each code's entry starts with the same words
    # on both pages (Success, Invalid input, Usage error, Input or output
    # error, Out of memory).
    entries = {}
    for tool, exe in (('kfc', args.kfc), ('kfplay', args.kfplay)):
        page = open(os.path.join(man, tool + '.1'), encoding='utf-8').read()
        section = page.split('.SH EXIT STATUS\n', 1)[-1].split('\n.SH ', 1)[0]
        entries[tool] = {code: ' '.join(re.findall(r'\w+', line)[:2]) for code, line in
                         re.findall(r'^\.TP\n\.B (\d+)\n(.*)', section, re.M)}
        c.check(sorted(entries[tool]) == ['0', '1', '2', '3', '4'],
                '%s.1: EXIT STATUS lists %s, not 0 to 4' % (tool, sorted(entries[tool])))
        helptext = subprocess.run([exe, '--help'], stdout=subprocess.PIPE, text=True).stdout
        listed = re.findall(r'^  (\d)  \S', helptext.split('Exit status', 1)[-1], re.M)
        c.check(listed == ['0', '1', '2', '3', '4'],
                '%s --help: the exit statuses %s, not 0 to 4' % (tool, listed))
    c.check(entries['kfc'] == entries['kfplay'],
            'the EXIT STATUS entries start alike: kfc.1 %s, kfplay.1 %s'
            % (entries['kfc'], entries['kfplay']))
    print('test_man: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
