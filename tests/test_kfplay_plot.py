#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kfplay plot: the SVG parses as XML and rsvg-convert renders it; each panel
has one line per component, one marker per key and component (per period for
loops), a tangent per marker with --tangents, a seam per loop; and the points
of every line, read back through the axes (the tick labels and their
positions), are the values kfplay sample / follow / animate print. A
picture's size is bounded whatever the file: a sequence of 100,000
components is refused without writing anything, panels count together, and
an accepted picture takes no more bytes per point and mark than the stated
bound assumes."""
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

SVG = '{http://www.w3.org/2000/svg}'
TOL_PX = 0.3  # points are written to 0.01 px; sampling is exact


def run(cmd):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def cls(e):
    return e.get('class', '')


def axis_map(labels):
    """value = a + b * pixel through the first and last tick label."""
    (p0, v0), (p1, v1) = labels[0], labels[-1]
    b = (v1 - v0) / (p1 - p0)
    return lambda px: v0 + b * (px - p0), lambda v: p0 + (v - v0) / b


def panel_axes(panel):
    """The tick labels of a panel as (pixel, value): x labels sit on their
    tick; a y label follows its grid line, whose y is the tick's."""
    xs, ys, last_grid = [], [], None
    for e in panel:
        if cls(e) == 'grid':
            last_grid = e
        elif cls(e) == 'xtick-label':
            xs.append((float(e.get('x')), float(e.text)))
        elif cls(e) == 'ytick-label':
            ys.append((float(last_grid.get('y1')), float(e.text)))
    return axis_map(xs), axis_map(ys), xs, ys


def points(polyline):
    return [tuple(map(float, p.split(','))) for p in polyline.get('points').split()]


def all_of(panel, name):
    return [e for e in panel.iter() if cls(e) == name]


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    assert head[:8] == b'\x89PNG\r\n\x1a\n'
    return struct.unpack('>II', head[16:24])


def main():
    args = driver.arguments()
    driver.require('test_kfplay_plot', 'rsvg-convert', 'librsvg2-bin')
    c = driver.Checks()
    rsvg = shutil.which('rsvg-convert')

    def plot(kfb, names, extra, tag):
        svg = os.path.join(args.work, tag + '.svg')
        r = run([args.kfplay, kfb, 'plot'] + names + extra + ['-o', svg])
        if not c.check(r.returncode == 0, '%s: plot failed: %s' % (tag, r.stderr.strip())):
            return None
        root = ET.parse(svg).getroot()  # raises on malformed XML
        c.check(root.tag == SVG + 'svg', '%s: root is <svg>' % tag)
        if rsvg:
            png = os.path.join(args.work, tag + '.png')
            r = run([rsvg, svg, '-o', png])
            c.check(r.returncode == 0 and not r.stderr, '%s: rsvg-convert: %s' % (tag, r.stderr))
            if os.path.exists(png):
                w, h = png_size(png)
                c.check((w, h) == (760, 300 * len(names)),
                        '%s: rendered %dx%d' % (tag, w, h))
        panels = [e for e in root if cls(e) == 'panel']
        c.check(len(panels) == len(names), '%s: one panel per name' % tag)
        return panels

    def compare(tag, panel, rows):
        """rows(list of x) -> list of value lists; every series point, away
        from jumps, must lie on the printed values."""
        (x_of, px_of), (y_of, py_of), xs, ys = panel_axes(panel)
        c.check(len(xs) >= 2 and len(ys) >= 2, '%s: at least two ticks per axis' % tag)
        avoid = [float(e.get('x1')) for e in all_of(panel, 'seam') + all_of(panel, 'event')]
        avoid += [float(e.get('cx', e.get('x', 0))) for e in all_of(panel, 'key')]
        series = all_of(panel, 'series')
        picked = [p for p in points(series[0])[::7] if all(abs(p[0] - a) > 2 for a in avoid)]
        values = rows([x_of(p[0]) for p in picked])
        worst = 0.0
        for i, p in enumerate(picked):
            for comp, line in enumerate(series):
                pt = points(line)[points(series[0]).index(p)]
                worst = max(worst, abs(pt[1] - py_of(values[i][comp])))
        c.check(worst < TOL_PX and len(picked) >= 10,
                '%s: %d points on the printed values (worst %.3f px)' % (tag, len(picked), worst))

    def sample_rows(kfb, name):
        def rows(ts):
            r = run([args.kfplay, kfb, 'sample', name] + ['%.17g' % t for t in ts])
            return [list(map(float, line.split()[1:])) for line in r.stdout.splitlines()]
        return rows

    # Sequences: the leg walk (spline and squad, looping).
    leg = os.path.join(args.work, 'leg_walk.kfb')
    run([args.kfc, os.path.join(args.fixtures, 'leg_walk.yaml'), '-o', leg])
    panels = plot(leg, ['hip_position', 'knee_angle'], ['--tangents'], 'leg')
    if panels:
        for panel, name, comps in zip(panels, ['hip_position', 'knee_angle'], [3, 4]):
            c.check(len(all_of(panel, 'series')) == comps, '%s: %d lines' % (name, comps))
            c.check(len(all_of(panel, 'key')) == 5 * 2 * comps,
                    '%s: 5 keys x 2 periods x %d markers' % (name, comps))
            c.check(len(all_of(panel, 'seam')) == 1, '%s: one loop seam' % name)
            want = 5 * 2 * comps if name == 'hip_position' else 0
            c.check(len(all_of(panel, 'tangent')) == want, '%s: %d tangents' % (name, want))
            c.check(len(all_of(panel, 'legend')) == comps, '%s: a legend entry per line' % name)
            compare(name, panel, sample_rows(leg, name))
        # Tangents run along the curve: the hip's x moves 30 per second in
        # the middle keys, so the middle key's tangent rises.
        (x_of, _), (y_of, _), _, _ = panel_axes(panels[0])
        tangent = points(all_of(panels[0], 'tangent')[2 * 3])  # key 2, component x
        slope = (y_of(tangent[2][1]) - y_of(tangent[0][1])) / (x_of(tangent[2][0]) - x_of(tangent[0][0]))
        c.check(abs(slope - 30) < 0.5, 'hip x tangent at key 2: slope %.3f, want 30' % slope)

    # X3D interpolators: over the fraction, rotations as axis-angle.
    x3d = os.path.join(args.work, 'x3d.kfb')
    run([args.kfc, os.path.join(args.fixtures, 'x3d_interpolators.yaml'), '-o', x3d])
    names = ['path', 'door', 'level']
    panels = plot(x3d, names, [], 'x3d')
    if panels:
        for panel, name, comps, keys in zip(panels, names, [3, 4, 1], [3, 3, 4]):
            c.check(len(all_of(panel, 'series')) == comps, '%s: %d lines' % (name, comps))
            c.check(len(all_of(panel, 'key')) == keys * comps, '%s: %d markers' % (name, keys * comps))
            compare(name, panel, sample_rows(x3d, name))

    # A follower, driven as `follow` drives it: every tick is a point.
    fol = os.path.join(args.work, 'followers.kfb')
    run([args.kfc, os.path.join(args.fixtures, 'followers.yaml'), '-o', fol])
    drive = ['--tick', '0.05', '--until', '2', '--event', '0.25:destination=1,2,0.5',
             '--event', '1:destination=-1,0,0']
    panels = plot(fol, ['cam'], drive, 'cam')
    if panels:
        r = run([args.kfplay, fol, 'follow', 'cam'] + drive)
        rows = [list(map(float, line.split())) for line in r.stdout.splitlines()]
        (x_of, _), (_, py_of), _, _ = panel_axes(panels[0])
        series = all_of(panels[0], 'series')
        c.check(len(series) == 3 and all(len(points(s)) == len(rows) for s in series),
                'cam: one point per tick (%d)' % len(rows))
        c.check(len(all_of(panels[0], 'event')) == 2, 'cam: two events marked')
        worst = max(max(abs(p[1] - py_of(row[1 + k])) for p, row in zip(points(s), rows))
                    for k, s in enumerate(series))
        c.check(worst < TOL_PX, 'cam: points on the follow output (worst %.3f px)' % worst)
        xerr = max(abs(x_of(p[0]) - row[0]) for p, row in zip(points(series[0]), rows))
        c.check(xerr < 0.01, 'cam: points at the tick times (worst %.4f)' % xerr)

    # A target through animate, over a world-time range.
    panels = plot(leg, ['hip.translation'], ['--from', '0', '--to', '3.9'], 'target')
    if panels:
        def animate_rows(ws):
            r = run([args.kfplay, leg, 'animate'] + ['%.17g' % w for w in ws])
            return [list(map(float, l.split()[2:])) for l in r.stdout.splitlines()
                    if l.split()[1] == 'hip.translation']
        compare('hip.translation', panels[0], animate_rows)
        (x_of, _), _, xs, _ = panel_axes(panels[0])
        c.check(abs(x_of(points(all_of(panels[0], 'series')[0])[-1][0]) - 3.9) < 0.0005,
                'target: the range ends at --to')

    # Far from zero the axes still get round ticks, and the loops end.
    panels = plot(leg, ['hip.translation'], ['--from', '1e15', '--to', '1.000000000004e15'], 'far')
    if panels:
        _, _, xs, ys = panel_axes(panels[0])
        c.check(2 <= len(xs) <= 40 and 2 <= len(ys) <= 40, 'far: %d x and %d y ticks' % (len(xs), len(ys)))
    r = run([args.kfplay, leg, 'plot', 'hip.translation', '--from', '-1e308', '--to', '1e308',
             '-o', os.path.join(args.work, 'huge.svg')])
    c.check(r.returncode == 1, 'a range wider than a double: refused')

    # Names that need escaping in XML (quotes, '#', tabs and line breaks, UTF-8).
    names_kfb = os.path.join(args.work, 'names.kfb')
    run([args.kfc, os.path.join(args.fixtures, 'names.yaml'), '-o', names_kfb])
    odd = ['it\'s "quoted"', 'tab\there\nline', 'ünïcødé',
           'emoji \U0001f3ac', '#x', 'a: b']
    panels = plot(names_kfb, odd, [], 'names')
    if panels:
        titles = [next(e for e in p if cls(e) == 'title').text for p in panels]
        c.check(titles[0].startswith('it\'s "quoted":') and titles[1].startswith('tab?here?line:')
                and titles[2].startswith('ünïcødé:') and titles[3].startswith('emoji \U0001f3ac:'),
                'odd names survive in the titles: %r' % titles[:4])

    # The command may come first, as in the issue's `kfplay plot FILE NAME`.
    first = os.path.join(args.work, 'first.svg')
    r = run([args.kfplay, 'plot', fol, 'cam'] + drive + ['-o', first])
    c.check(r.returncode == 0 and open(first).read() == open(os.path.join(args.work, 'cam.svg')).read(),
            'kfplay plot FILE NAME: the same picture')

    # Bad requests fail without writing anything.
    bad = os.path.join(args.work, 'bad.svg')
    for extra, code in ((['nosuch'], 1), ([], 2), (['cam', '--tick', '0'], 1),
                        (['cam', '--bogus'], 2)):
        r = run([args.kfplay, fol, 'plot'] + extra + ['-o', bad])
        c.check(r.returncode == code and not os.path.exists(bad),
                'plot %s: exit %d (want %d), no file' % (extra, r.returncode, code))

    # The bound (man kfplay): 2,000,000 line points and 200,000 key marks a
    # picture. A sequence of 100,000 components, two keys, compiles to about
    # a kilobyte; its plot would be 40 million points: refused at once, no file.
    def compile_keys(tag, components, keys):
        src = os.path.join(args.work, tag + '.yaml')
        with open(src, 'w') as f:
            f.write('kfb: 1\nsequences:\n  s:\n    interpolation: linear\n    duration: %d\n'
                    '    keys:\n' % max(1, keys - 1))
            for k in range(keys):
                f.write('      - [%d, [%s]]\n' % (k, ', '.join(str((k + j) % 3) for j in range(components))))
        kfb = os.path.join(args.work, tag + '.kfb')
        r = run([args.kfc, '-z', '9', src, '-o', kfb])
        c.check(r.returncode == 0, '%s compiles: %s' % (tag, r.stderr))
        return kfb

    wide = compile_keys('wide', 100000, 2)
    c.check(os.path.getsize(wide) < 4096, 'the wide file is small: %d bytes' % os.path.getsize(wide))
    for extra, what in (([], '404 samples x 100000 components make 40400000 line points; a '
                             'picture draws at most 2000000'),
                        (['--samples', '2', '--tangents'], 'key marks; a picture draws at most 200000')):
        r = run([args.kfplay, wide, 'plot', 's', '-o', bad] + extra)
        c.check(r.returncode == 1 and what in r.stderr and not os.path.exists(bad),
                'wide plot %s: exit %d, %r' % (extra, r.returncode, r.stderr))
    # Panels count together: two of 1,000,000 points fit, three do not.
    mid = compile_keys('mid', 2500, 2)
    r = run([args.kfplay, mid, 'plot', 's', 's', 's', '-o', bad, '--samples', '396'])
    c.check(r.returncode == 1 and 'make 3000000 line points' in r.stderr and not os.path.exists(bad),
            'three panels of 1e6 points: %r' % r.stderr)
    # Bytes per point and per mark, on a picture within the bound: what the
    # 60 MB figure is made of (17 bytes a line point, 130 a mark, 260 a
    # tangent: two marks).
    ok = compile_keys('within', 100, 600)
    big = os.path.join(args.work, 'within.svg')
    r = run([args.kfplay, ok, 'plot', 's', '--samples', '2000', '--tangents', '-o', big])
    n_points, n_marks = (2000 + 2 * 600) * 100, 3 * 600 * 100
    size = os.path.getsize(big) if os.path.exists(big) else -1
    c.check(r.returncode == 0 and 0 < size <= 17 * n_points + 130 * n_marks + 100000,
            "within the bound: %d bytes for %d points and %d marks (%r)" % (size, n_points, n_marks, r.stderr))

    if not rsvg:
        c.fail('rsvg-convert is not installed (Debian: librsvg2-bin)')
    print('test_kfplay_plot: %d checks, %d failed' % (c.count, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == '__main__':
    sys.exit(main())
