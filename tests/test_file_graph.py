#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The floor plan, checked on the built objects and the sources:

- no cycles between files: object A depends on object B when A calls or
  reads a symbol B defines; that graph, over the runtime, the offline
  library, kfc and kfplay, has no cycle;
- the runtime is what a game ships: no runtime object uses a symbol defined
  by the offline library, and no runtime source includes an offline header;
- the runtime needs nothing from zlib but inflate and checksums (no deflate)
  and nothing from a thread library;
- the map: docs/maintainers.md's source tree names every source file of
  runtime/, offline/, compiler/ and tools/ (a header may go by its .c), and
  has a row for every folder of the repository.

usage: test_file_graph.py ROOT LIB.a|OBJ.o...   (the runtime's library first)"""
import os
import re
import subprocess
import sys

from test_doc_citations import tracked

MAP = 'docs/maintainers.md'
SOURCE_FOLDERS = ('runtime', 'offline', 'compiler', 'tools')

def symbols(archive):
    """{object: (defined, undefined)} of the global symbols of an archive, or
    of one object (named after its folder: a tool's own files)."""
    out = subprocess.check_output(['nm', '-A', archive], universal_newlines=True)
    objs = {}
    whole = archive.endswith('.o')
    owner = os.path.basename(os.path.dirname(archive) if whole else archive)
    for line in out.splitlines():
        m = re.match(r'^%s([^:]+\.o):\s*(?:[0-9a-f]+)?\s+([A-Za-z])\s+(\S+)$'
                     % ('' if whole else '[^:]+:'), line)
        if not m:
            continue
        obj, kind, name = m.groups()
        defined, undefined = objs.setdefault(owner + ':' + os.path.basename(obj), (set(), set()))
        if kind == 'U':
            undefined.add(name)
        elif kind.isupper():
            defined.add(name)
    return objs


def find_cycle(graph):
    """One cycle as a list of nodes, or None (iterative DFS, three colours)."""
    colour = {n: 0 for n in graph}
    for start in sorted(graph):
        if colour[start]:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        colour[start] = 1
        while stack:
            node, edges = stack[-1]
            nxt = next(edges, None)
            if nxt is None:
                colour[node] = 2
                stack.pop()
                path.pop()
            elif colour[nxt] == 1:
                return path[path.index(nxt):] + [nxt]
            elif colour[nxt] == 0:
                colour[nxt] = 1
                stack.append((nxt, iter(sorted(graph[nxt]))))
                path.append(nxt)
    return None


def unmapped(root):
    """What docs/maintainers.md's source tree leaves out."""
    text = open(os.path.join(root, MAP), encoding='utf-8').read()
    named = set(re.findall(r'`([^`\s]+)`', text))
    rows = set(re.findall(r'^\| `([^`]+)/` \|', text, re.MULTILINE))
    missing = []
    files = tracked(root)
    for path in sorted(files):
        folder, _, name = path.partition('/')
        if folder in SOURCE_FOLDERS and '/' not in name and name.endswith(('.c', '.h')):
            if name not in named and not (name.endswith('.h') and name[:-2] + '.c' in named):
                missing.append('%s does not name %s' % (MAP, path))
    for folder in sorted({p.split('/')[0] for p in files if '/' in p}):
        if folder not in rows:
            missing.append('%s has no row for %s/' % (MAP, folder))
    return missing


def main():
    root, archives = sys.argv[1], sys.argv[2:]
    failures = []
    objs = {}
    for a in archives:
        objs.update(symbols(a))
    owner = {}
    for obj, (defined, _) in objs.items():
        for name in defined:
            owner[name] = obj
    graph = {obj: {owner[n] for n in undefined if n in owner and owner[n] != obj}
             for obj, (_, undefined) in objs.items()}
    cycle = find_cycle(graph)
    if cycle:
        failures.append('a cycle between files: ' + ' -> '.join(cycle))

    runtime = os.path.basename(archives[0])
    for obj, deps in sorted(graph.items()):
        if obj.startswith(runtime + ':'):
            for d in sorted(deps):
                if not d.startswith(runtime + ':'):
                    failures.append('runtime object %s uses %s' % (obj, d))
            undefined = objs[obj][1]
            for name in sorted(undefined):
                if name.startswith(('deflate', 'pthread_', 'thrd_', 'mtx_', 'cnd_')):
                    failures.append('runtime object %s needs %s' % (obj, name))

    offline_headers = {f for f in os.listdir(os.path.join(root, 'offline')) if f.endswith('.h')}
    for f in sorted(os.listdir(os.path.join(root, 'runtime'))):
        if f.endswith(('.c', '.h')):
            text = open(os.path.join(root, 'runtime', f)).read()
            for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
                if inc in offline_headers:
                    failures.append('runtime/%s includes offline header %s' % (f, inc))

    failures += unmapped(root)

    for f in failures:
        print('FAIL: ' + f)
    print('test_file_graph: %d objects, %d dependencies, %d failures'
          % (len(graph), sum(len(d) for d in graph.values()), len(failures)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
