# SPDX-License-Identifier: MIT
"""Writes compiler/kfc_x3d_nodes.c, kfc's table of X3D's node types and
their fields, from what X_ITE defines (xite_sample.cjs --nodes): the X3D
importer checks the names and types of what a scene animates against it.

    python3 tests/x3d/gen_x3d_nodes.py [--out FILE]

Node must find x_ite, jsdom, jsdom-global and nogl (NODE_PATH), as for
gen_references.py. tests/test_x3d_xite.py writes the table again and
checks it is the one committed."""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, '..', '..', 'compiler', 'kfc_x3d_nodes.c'))
# X3D's access types as bits (kfc_x3d_nodes.h): initialized where the node
# is written, receives events, sends them.
ACCESS = {'initializeOnly': 1, 'inputOnly': 2, 'outputOnly': 4, 'inputOutput': 7}
WIDTH = 100


def nodes():
    """X_ITE's version and node types, as xite_sample.cjs --nodes prints them."""
    r = subprocess.run(['node', os.path.join(HERE, 'xite_sample.cjs'), '--nodes'],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError('xite_sample.cjs --nodes: %s' % r.stderr.strip())
    data = json.loads(r.stdout)
    return data['xite'], data['nodes']


def source(version, table):
    """The C file for X_ITE `version`'s node types `table`."""
    # (REUSE tools would read the tag below as this file's own licence.)
    # REUSE-IgnoreStart
    out = ['/* SPDX-License-Identifier: MIT */',
           '/*',
           ' * kfc_x3d_nodes.c - X3D\'s node types and their fields, as X_ITE %s' % version,
           ' * defines them (kfc_x3d_nodes.h). Written by tests/x3d/gen_x3d_nodes.py, not',
           ' * by hand; tests/test_x3d_xite.py checks that X_ITE still defines them so.',
           ' * The table is taken from X_ITE (MIT licence):',
           ' * Copyright (c) 2009 Holger Seelig and other contributors',
           ' */',
           '#include "kfc_x3d_nodes.h"',
           '',
           # REUSE-IgnoreEnd
           '/* clang-format off */',
           'const kfc_x3d_node_type kfc_x3d_node_types[] = {']
    for name in sorted(table):
        out.append('    {"%s",' % name)
        line = '     "'
        for field, kind, access in table[name]:
            token = '%s %s %d;' % (field, kind, ACCESS[access])
            if len(line) + len(token) + 1 > WIDTH - 3:
                out.append(line + '"')
                line = '     "'
            line += token
        out.append(line + '"},')
    out += ['};',
            '/* clang-format on */',
            '',
            'const size_t kfc_x3d_node_type_count = sizeof kfc_x3d_node_types / '
            'sizeof kfc_x3d_node_types[0];',
            '']
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=OUT)
    a = ap.parse_args()
    version, table = nodes()
    with open(a.out, 'w') as f:
        f.write(source(version, table))
    print('%s: %d node types, %d fields (X_ITE %s)' % (a.out, len(table),
                                                      sum(len(v) for v in table.values()), version))
    return 0


if __name__ == '__main__':
    sys.exit(main())
