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
bound assumes.

The picture is written as kfc writes its outputs: -o naming the file read
(by its name, ./name, a symbolic or a hard link) is a usage error that
changes nothing; a FIFO or /dev/null is written in place and stays, also
when the write fails; a failed write says why and leaves an earlier picture
as it was, and no temporary file. A plot option that no panel takes (--from
of a sequence, --tick of a target, --tangents of a target or follower,
--samples of a follower) is a usage error naming the option and the panel."""
import errno
import os
import resource
import shutil
import signal
import stat
import struct
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

SVG = '{http://www.w3.org/2000/svg}'
TOL_PX = 0.3  # points are written to 0.01 px; sampling is exact


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def read(path):
    with open(path, 'rb') as f:
        return f.read()


def temporaries(folder):
    """Temporary files of an output (kfc_output.h) left in `folder`."""
    return [n for n in os.listdir(folder) if n.startswith('.kfc-')]


def ignore_sigpipe():
    """A write to a pipe nobody reads fails (EPIPE) instead of ending the process."""
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)


def small_files():
    """A write past 4 KiB fails (EFBIG) instead of ending the process."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


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
    # An event's vector written with spaces, as X3D writes one: the shell
    # splits it, and both commands say how it is written.
    split = ['--tick', '0.05', '--until', '2', '--event', '0.5:destination=1', '2', '0']
    hint = ("an event's value is written with commas and no spaces "
            "(--event 0.5:destination=1,2,0)")
    r = run([args.kfplay, fol, 'follow', 'cam'] + split)
    c.check(r.returncode == 2 and r.stdout == '' and
            "kfplay: error: follow takes one NAME, not '2' too: " + hint in r.stderr,
            'follow, event split: %d %r' % (r.returncode, r.stderr))
    r = run([args.kfplay, fol, 'plot', 'cam', '-o', os.path.join(args.work, 'split.svg')] + split)
    c.check(r.returncode == 2 and
            "kfplay: error: plot: '2' is a number, not a name: " + hint in r.stderr and
            not os.path.exists(os.path.join(args.work, 'split.svg')),
            'plot, event split: %d %r' % (r.returncode, r.stderr))
    # A scalar follower's value is one number: a number after its name is
    # no part of an event's, and is not said to be.
    r = run([args.kfplay, fol, 'follow', 'level', '--tick', '0.05', '--until', '2',
             '--event', '0.5:destination=1', '2'])
    c.check(r.returncode == 2 and "follow takes one NAME, not '2' too (times are" in r.stderr,
            'follow level, a stray number: %r' % r.stderr)
    # A value already written with commas is not taken for a split one.
    r = run([args.kfplay, fol, 'follow', 'cam', '0', '--tick', '0.05', '--until', '2',
             '--event', '0.5:destination=1,2,0'])
    c.check(r.returncode == 2 and "follow takes one NAME, not '0' too (times are" in r.stderr,
            'follow, a stray number: %r' % r.stderr)

    # Without --tick and --until the message names the command run: plot.
    r = run([args.kfplay, fol, 'plot', 'cam', '-o', os.path.join(args.work, 'no_tick.svg')])
    c.check(r.returncode == 2 and 'kfplay: error: plot needs --tick and --until' in r.stderr,
            'plot cam without --tick: %r' % r.stderr)
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
    c.check(r.returncode == 2 and r.stderr.endswith("Try 'kfplay --help' for more information.\n"),
            'a range wider than a double: refused, as options out of their range: %d %r'
            % (r.returncode, r.stderr))

    # Names that need escaping in XML (quotes, '#', tabs and line breaks, UTF-8).
    names_kfb = os.path.join(args.work, 'names.kfb')
    run([args.kfc, os.path.join(args.fixtures, 'names.yaml'), '-o', names_kfb])
    odd = ['it\'s "quoted"', 'tab\there\nline', 'ünïcødé',
           'emoji \U0001f3ac', '#x', 'a: b']
    panels = plot(names_kfb, odd, [], 'names')
    if panels:
        titles = [next(e for e in p if cls(e) == 'title').text for p in panels]
        c.check(titles[0].startswith('it\'s "quoted":') and titles[1].startswith('tab\\x09here\\x0aline:')
                and titles[2].startswith('ünïcødé:') and titles[3].startswith('emoji \U0001f3ac:'),
                'odd names survive in the titles: %r' % titles[:4])

    # Bytes a terminal acts on are written as every name is (\xNN, a
    # backslash doubled), so that ESC and the four characters "\x1b" differ.
    ctl_yaml = os.path.join(args.work, 'control_names.yaml')
    ctl = ['esc\x1b[31m', 'del\x7f', 'csi\u009b', 'back\\x1b']
    with open(ctl_yaml, 'w', encoding='utf-8') as f:
        f.write('kfb: 1\nsequences:\n')
        for n in ctl:
            f.write('  "%s": {interpolation: step, duration: 1, keys: [[0, 1]]}\n'
                    % n.encode('unicode_escape').decode('ascii'))
    ctl_kfb = os.path.join(args.work, 'control_names.kfb')
    r = run([args.kfc, ctl_yaml, '-o', ctl_kfb])
    c.check(r.returncode == 0, 'control names compile: %s' % r.stderr.strip())
    panels = plot(ctl_kfb, ctl, [], 'control_names')
    if panels:
        titles = [next(e for e in p if cls(e) == 'title').text.split(':')[0] for p in panels]
        c.check(titles == ['esc\\x1b[31m', 'del\\x7f', 'csi\\xc2\\x9b', 'back\\\\x1b'],
                'control bytes escaped in the titles: %r' % titles)

    # The command may come first, as in the issue's `kfplay plot FILE NAME`.
    first = os.path.join(args.work, 'first.svg')
    r = run([args.kfplay, 'plot', fol, 'cam'] + drive + ['-o', first])
    c.check(r.returncode == 0 and open(first).read() == open(os.path.join(args.work, 'cam.svg')).read(),
            'kfplay plot FILE NAME: the same picture')

    # Bad requests fail without writing anything: a name the file lacks is
    # invalid input, an option's value out of its range a usage error.
    bad = os.path.join(args.work, 'bad.svg')
    for extra, code in ((['nosuch'], 1), ([], 2), (['cam', '--tick', '0'], 2),
                        (['cam', '--tick', '1ms', '--until', '1'], 2),
                        (['cam', '--samples', '1'], 2), (['cam', '--bogus'], 2)):
        r = run([args.kfplay, fol, 'plot'] + extra + ['-o', bad])
        c.check(r.returncode == code and not os.path.exists(bad),
                'plot %s: exit %d (want %d), no file' % (extra, r.returncode, code))
    # What is missing, and only that.
    for extra, message in (([], 'plot needs at least one NAME and -o OUT.svg'),
                           (['-o', bad], 'plot needs at least one NAME'),
                           (['cam'] + drive, "plot needs -o OUT.svg, the picture's file "
                                             "('-': standard output)")):
        r = run([args.kfplay, fol, 'plot'] + extra)
        c.check(r.returncode == 2 and not r.stdout and not os.path.exists(bad) and
                r.stderr == "kfplay: error: %s\nTry 'kfplay --help' for more information.\n"
                % message, 'plot %s: exit %d, %r' % (extra, r.returncode, r.stderr))

    # -o never names the file read: by its name, ./name, a symbolic link or a
    # hard link. A usage error; the input is as it was.
    walk = os.path.join(args.work, 'walk.kfb')
    shutil.copyfile(leg, walk)
    for name in ('sym.kfb', 'hard.kfb'):
        if os.path.lexists(os.path.join(args.work, name)):
            os.remove(os.path.join(args.work, name))
    os.symlink('walk.kfb', os.path.join(args.work, 'sym.kfb'))
    os.link(walk, os.path.join(args.work, 'hard.kfb'))
    for output in ('walk.kfb', './walk.kfb', 'sym.kfb', 'hard.kfb', walk):
        shutil.copyfile(leg, walk)  # the same inode: hard.kfb stays a link to it
        r = run([args.kfplay, 'walk.kfb', 'plot', 'hip_position', '-o', output], cwd=args.work)
        c.check(r.returncode == 2 and "the output '%s' is the input 'walk.kfb'" % output in r.stderr
                and read(walk) == read(leg) and os.path.islink(os.path.join(args.work, 'sym.kfb')),
                '-o %s (the input): exit %d, %r' % (output, r.returncode, r.stderr))
    shutil.copyfile(leg, walk)
    r = run([args.kfplay, 'sym.kfb', 'plot', 'hip_position', '-o', 'walk.kfb'], cwd=args.work)
    c.check(r.returncode == 2 and read(walk) == read(leg),
            'input a link, -o its target: exit %d, %r' % (r.returncode, r.stderr))
    # Standard input's file is the input too.
    for output in ('walk.kfb', 'hard.kfb'):
        with open(walk, 'rb') as f:
            r = run([args.kfplay, '-', 'plot', 'hip_position', '-o', output], cwd=args.work,
                    stdin=f)
        c.check(r.returncode == 2 and "the output '%s' is the file standard input reads" % output
                in r.stderr and read(walk) == read(leg),
                'stdin, -o %s (its file): exit %d, %r' % (output, r.returncode, r.stderr))

    # Nor is '-' standard output opened on the file read (a shell's
    # `1<>walk.kfb`, `>> walk.kfb`): refused as -o /dev/fd/1 is, nothing
    # written.
    shutil.copyfile(leg, walk)
    for mode in ('r+b', 'ab'):
        said = []
        for output in ('/dev/fd/1', '-'):
            with open(walk, mode) as out:
                r = subprocess.run([args.kfplay, 'walk.kfb', 'plot', 'hip_position', '-o', output],
                                   cwd=args.work, stdout=out, stderr=subprocess.PIPE,
                                   universal_newlines=True)
            said.append(r.stderr.replace("'%s'" % output, "'OUT'"))
            c.check(r.returncode == 2 and "plot: the output '%s' is the input 'walk.kfb'; what is "
                    "read is never overwritten" % output in r.stderr and read(walk) == read(leg),
                    '-o %s, standard output opened %s on the input: exit %d, %r'
                    % (output, mode, r.returncode, r.stderr))
        c.check(said[0] == said[1], '-o - as -o /dev/fd/1 (%s): %r' % (mode, said))
    with open(walk, 'rb') as f, open(walk, 'r+b') as out:
        r = subprocess.run([args.kfplay, '-', 'plot', 'hip_position', '-o', '-'], stdin=f,
                           stdout=out, stderr=subprocess.PIPE, universal_newlines=True)
    c.check(r.returncode == 2 and "plot: the output '-' is the file standard input reads" in
            r.stderr and read(walk) == read(leg),
            'stdin and stdout the same file, -o -: exit %d, %r' % (r.returncode, r.stderr))

    # '-' is standard output: the same picture as a file.
    r = subprocess.run([args.kfplay, leg, 'plot', 'hip_position', '-o', '-'],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    leg_svg = os.path.join(args.work, 'hip.svg')
    run([args.kfplay, leg, 'plot', 'hip_position', '-o', leg_svg])
    c.check(r.returncode == 0 and r.stdout == read(leg_svg), '-o -: the picture on stdout')

    # Outputs that are not regular files are written in place and stay.
    r = run([args.kfplay, leg, 'plot', 'hip_position', '-o', '/dev/null'])
    c.check(r.returncode == 0 and stat.S_ISCHR(os.stat('/dev/null').st_mode),
            '-o /dev/null: exit %d, %r' % (r.returncode, r.stderr))
    fifo = os.path.join(args.work, 'pipe.svg')

    def through_fifo(reader, extra, **kw):
        """kfplay writing into a FIFO that `reader` (a thread) reads."""
        if os.path.lexists(fifo):
            os.remove(fifo)
        os.mkfifo(fifo)
        thread = threading.Thread(target=reader)
        thread.start()
        r = run([args.kfplay, leg, 'plot', 'hip_position', '-o', fifo] + extra, **kw)
        if thread.is_alive():  # kfplay never opened it: let the reader go
            try:
                os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
        thread.join(60)
        return r

    got = []
    r = through_fifo(lambda: got.append(read(fifo)), [])
    c.check(r.returncode == 0 and got == [read(leg_svg)] and stat.S_ISFIFO(os.lstat(fifo).st_mode),
            '-o FIFO: written in place, the FIFO stays: exit %d, %r' % (r.returncode, r.stderr))

    def read_one_byte():
        fd = os.open(fifo, os.O_RDONLY)
        os.read(fd, 1)
        os.close(fd)

    # A reader that goes away: the write fails (EPIPE, 5 MB through a 64 KiB
    # pipe), is reported, and the FIFO is not kfplay's to remove.
    r = through_fifo(read_one_byte, ['--samples', '100000'], preexec_fn=ignore_sigpipe)
    c.check(r.returncode == driver.EXIT_IO and os.strerror(errno.EPIPE) in r.stderr and os.path.lexists(fifo)
            and stat.S_ISFIFO(os.lstat(fifo).st_mode),
            '-o FIFO, reader gone: exit %d, the FIFO stays: %r' % (r.returncode, r.stderr))
    if os.path.lexists(fifo):
        os.remove(fifo)

    # A failed write leaves an earlier picture as it was, and no temporary
    # file; it says why.
    earlier = os.path.join(args.work, 'earlier.svg')
    with open(earlier, 'wb') as f:
        f.write(b'<svg>the earlier picture</svg>\n')
    before = read(earlier)
    r = run([args.kfplay, leg, 'plot', 'hip_position', '-o', earlier], preexec_fn=small_files)
    c.check(r.returncode == driver.EXIT_IO and os.strerror(errno.EFBIG) in r.stderr and earlier in r.stderr
            and read(earlier) == before and not temporaries(args.work),
            'a write past the file size limit: exit %d, earlier picture kept, %r, left %r'
            % (r.returncode, r.stderr, temporaries(args.work)))
    missing = os.path.join(args.work, 'nodir', 'x.svg')
    r = run([args.kfplay, leg, 'plot', 'hip_position', '-o', missing])
    c.check(r.returncode == driver.EXIT_IO and missing in r.stderr and os.strerror(errno.ENOENT) in r.stderr,
            '-o in a missing folder: exit %d, the reason: %r' % (r.returncode, r.stderr))
    if os.geteuid() != 0:  # root writes in a read-only folder
        locked = os.path.join(args.work, 'locked')
        os.makedirs(locked, exist_ok=True)
        shutil.copyfile(earlier, os.path.join(locked, 'x.svg'))
        os.chmod(locked, 0o555)
        r = run([args.kfplay, leg, 'plot', 'hip_position', '-o', os.path.join(locked, 'x.svg')])
        os.chmod(locked, 0o755)
        c.check(r.returncode == driver.EXIT_IO and os.strerror(errno.EACCES) in r.stderr
                and read(os.path.join(locked, 'x.svg')) == before,
                '-o in a read-only folder: exit %d, kept: %r' % (r.returncode, r.stderr))

    # A plot option no panel takes is a usage error naming it and the panel;
    # one that some panel takes is the picture's.
    unused = os.path.join(args.work, 'unused.svg')
    for kfb, extra, what in (
            (leg, ['hip_position', '--from', '0', '--to', '1'],
             "--from is for a target's panel; 'hip_position' is a sequence"),
            (leg, ['hip_position', '--to', '1'], "--to is for a target's panel"),
            (leg, ['hip_position', '--tick', '0.1'],
             "--tick is for a follower's panel; 'hip_position' is a sequence"),
            (leg, ['hip.translation', '--tangents'],
             "--tangents is for an animator's panel; 'hip.translation' is a target"),
            (leg, ['hip.translation', '--until', '2'], "--until is for a follower's panel"),
            (x3d, ['door', '--from', '0.5'], "'door' is an X3D interpolator"),
            (fol, ['cam', '--samples', '10'] + drive,
             "--samples is for an animator's or a target's panel; 'cam' is a follower"),
            (fol, ['cam', '--tangents'] + drive, "--tangents is for an animator's panel"),
            # a damper holds no transitions: --capacity is a chaser's
            (fol, ['cam', '--capacity', '3'] + drive,
             "--capacity is for a chaser's panel; 'cam' is a follower (a damper)"),
            (leg, ['hip_position', 'knee_angle', '--capacity', '4'],
             "'hip_position' is a sequence, 'knee_angle' is a sequence")):
        r = run([args.kfplay, kfb, 'plot'] + extra + ['-o', unused])
        c.check(r.returncode == 2 and what in r.stderr and not os.path.exists(unused),
                'plot %s: exit %d, %r' % (extra, r.returncode, r.stderr))
    for kfb, extra in ((leg, ['hip_position', 'hip.translation', '--tangents', '--from', '1']),
                       (leg, ['hip.translation', '--samples', '50']),
                       (fol, ['cam', 'slide', '--capacity', '3'] + drive)):
        r = run([args.kfplay, kfb, 'plot'] + extra + ['-o', unused])
        c.check(r.returncode == 0 and os.path.exists(unused),
                'plot %s: taken by a panel: exit %d, %r' % (extra, r.returncode, r.stderr))
    # A name plot draws nothing of: a controller's says what it is and
    # what plays it, as sample says it; one the file lacks says so.
    for name, message in (
            ('walk', "'walk' is a controller, not an animator, follower or target: animate "
                     "plays what it controls (kfplay FILE animate W...)"),
            ('nobody', "no animator, follower or target named 'nobody' (kfplay FILE list shows "
                       "the names)"),
            # A mistyped name gets the names meant, as sample's does, among
            # all that plot draws: targets too.
            ('hip.translaton', "no animator, follower or target named 'hip.translaton'; did you "
                               "mean 'hip.translation'? (kfplay FILE list shows the names)"),
            ('hip_postion', "no animator, follower or target named 'hip_postion'; did you mean "
                            "'hip_position'? (kfplay FILE list shows the names)"),
            ('translation', "no animator, follower or target named 'translation'; did you mean "
                            "'hip.translation'? (kfplay FILE list shows the names)")):
        named = os.path.join(args.work, 'named.svg')
        r = run([args.kfplay, leg, 'plot', 'hip_position', name, '-o', named])
        c.check(r.returncode == 1 and r.stderr == 'kfplay: error: %s\n' % message and
                not os.path.exists(named), 'plot %s: exit %d, %r' % (name, r.returncode, r.stderr))
    # --tangents on an animator that has none: drawn without, and said.
    for kfb, name in ((leg, 'knee_angle'), (x3d, 'door')):
        r = run([args.kfplay, kfb, 'plot', name, '--tangents', '-o', unused])
        c.check(r.returncode == 0 and 'warning' in r.stderr and '--tangents' in r.stderr,
                'plot %s --tangents: drawn, with a warning: %r' % (name, r.stderr))

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
