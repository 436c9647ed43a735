#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the benchmarks on workload W and reports them (`scons bench`).

Prints a compact table and writes the same figures as JSON (results.json in
the work directory). Figures, per variant (LINEAR+SLERP, SPLINE+SQUAD):

- forward playback at 60 Hz over the loop and random-access sampling at
  uniform random times, both through a persistent kf_player, and forward
  playback right after a loop of the other variant (caches holding another
  clip's data): ns per track-sample (one joint's translation + rotation +
  scale at one time), median and range over the rounds; and instructions per track-sample under
  callgrind, counted inside kf_player_update only, for two frame counts whose
  difference cancels any fixed cost:
      valgrind --tool=callgrind --toggle-collect=kf_player_update \\
          kfbench count forward|between|random W.kfb FRAMES
  Forward at 60 Hz lands on a key every other frame (W is keyed at 30 Hz),
  where a clip reads one key and interpolates nothing; random times almost
  never do. So random access is set against forward too, and against the
  same 60 Hz half a frame later (between: no frame on a key), which does the
  work random access does, in order;
- a player's memory (what kf_player_create allocates) and a loaded clip's (what
  kf_load_memory leaves allocated), of the default and of the -e files;
- load time of the .kfb from memory, through malloc and through an allocator
  that reuses the blocks freed by the load before (as a game's pools do: the
  rest of the malloc figure is the system's page faults on memory it took
  back), next to zlib alone inflating the same sections; and the same in
  instructions under callgrind (kfbench count load|inflate), for the default,
  -e and -z 0 files (per file byte at -z 0);
- compile time of the YAML by kfc next to libyaml alone parsing it into
  events (both as processes, whole runs, in turns: the ratio is the median of
  each turn's), and kfc's MB/s;
- the -e files at the first bound (the quantized form a player plays): playback
  instructions per track-sample, forward and random, and kfc's worst sampled
  error of each kind next to its bound (kfc -v);
- the second workload W2 (gen_workload.py --w2): what its clips hold, a player,
  playback instructions, load against inflate, compile against libyaml; its -e
  files' size, clip, load instructions, playback instructions and worst error;
  and its -z 0 files' load instructions per file byte;
- the file size next to W's keys as raw float32, and the file sizes of every variant
  (the constant-channel one included) at zlib levels 0, 1 and 9, with the load time
  at level 0 (sections stored as they are: a load with nothing to inflate);
- the files kfc writes with -z runs (DATA's zero runs left out, nothing deflated),
  lossless and at the first -e bound: bytes, load time and instructions.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_workload  # noqa: E402  (W's dimensions: one truth)

VARIANTS = (('linear_slerp', 'linear', 'LINEAR+SLERP'), ('spline_squad', 'spline', 'SPLINE+SQUAD'))
TARGETS = {
    'linear_slerp': {'forward_instructions': 40},
    'spline_squad': {'forward_instructions': 90},
    'random_over_forward': 1.2,
    'after_other_over_forward': 1.3,
    'player_bytes': 10000,
    # What a loaded clip holds: lossless W, 1.25x (LINEAR+SLERP) and 1.1x
    # (SPLINE+SQUAD, tangents and intermediates included) its raw float32
    # keys; at the first -e bound, 290,000 and 600,000 bytes.
    'clip_bytes': {'linear_slerp': 963200, 'spline_squad': 2880000},
    'clip_bytes_bounded': {'LINEAR+SLERP': 290000, 'SPLINE+SQUAD': 600000},
    'load_over_inflate': 1.2,
    # Load instructions (callgrind) over zlib alone inflating the same
    # streams: lossless, at the first -e bound; per file byte at -z 0.
    'load_over_inflate_instructions': 1.3,
    'load_over_inflate_instructions_bounded': 1.5,
    'load_instructions_per_byte_stored': 3.0,
    'compile_over_libyaml': 1.5,
    'compile_mb_per_s': 25.0,
    # Playback of the -e files' quantized form (first bound), instructions
    # per track-sample; random <= 1.2x forward as above.
    'bounded_forward_instructions': {'linear_slerp': 60, 'spline_squad': 110},
}
COUNT_FRAMES = (600, 1800)  # one and three loops at 60 Hz


def machine():
    cpu = platform.processor() or platform.machine()
    try:
        with open('/proc/cpuinfo') as f:
            m = re.search(r'^model name\s*:\s*(.*)$', f.read(), re.M)
            if m:
                cpu = m.group(1).strip()
    except OSError:
        pass
    return {'cpu': cpu, 'cores': os.cpu_count(), 'system': platform.platform()}


def callgrind_instructions(kfbench, mode, kfb, frames, work, kernels=None,
                           function='kf_player_update'):
    out = os.path.join(work, 'callgrind.%s.%d.out' % (mode, frames))
    subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=' + out,
                    '--toggle-collect=' + function, kfbench, 'count', mode, kfb,
                    str(frames)] + ([kernels] if kernels else []), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(out) as f:
        text = f.read()
    os.remove(out)
    m = re.search(r'^(?:summary|totals):\s*(\d+)', text, re.M)
    if not m:
        sys.exit('run_bench: no instruction total in callgrind output')
    return int(m.group(1))


def instructions_per_track_sample(kfbench, mode, kfb, work, kernels=None,
                                  joints=gen_workload.JOINTS):
    """kernels: a kernel set by name (scalar, sse2, avx2); None: the one the
    library picks on this machine."""
    a, b = (callgrind_instructions(kfbench, mode, kfb, n, work, kernels) for n in COUNT_FRAMES)
    return (b - a) / ((COUNT_FRAMES[1] - COUNT_FRAMES[0]) * joints)


def load_instructions(kfbench, kfb, work):
    """Instructions of one load of kfb (kf_load_memory) and of zlib alone
    inflating its compressed sections (kfbench's inflate_sections), each from
    one and three repetitions, so that nothing but the loads is counted."""
    out = {}
    for mode, function in (('load', 'kf_load_memory'), ('inflate', 'inflate_sections')):
        a, b = (callgrind_instructions(kfbench, mode, kfb, n, work, function=function)
                for n in (1, 3))
        out[mode] = (b - a) / 2
    return {'load_instructions': out['load'], 'inflate_instructions': out['inflate'],
            'load_over_inflate_instructions': out['load'] / out['inflate']
            if out['inflate'] else None,
            'load_instructions_per_file_byte': out['load'] / os.path.getsize(kfb)}


def playback_instructions(kfbench, kfb, work, joints=gen_workload.JOINTS):
    """Forward and random playback instructions per track-sample of kfb, and
    their ratio."""
    fwd = instructions_per_track_sample(kfbench, 'forward', kfb, work, joints=joints)
    btw = instructions_per_track_sample(kfbench, 'between', kfb, work, joints=joints)
    rnd = instructions_per_track_sample(kfbench, 'random', kfb, work, joints=joints)
    return {'forward_instructions_per_track_sample': fwd,
            'between_instructions_per_track_sample': btw,
            'random_instructions_per_track_sample': rnd,
            'random_over_forward_instructions': rnd / fwd,
            'random_over_between_instructions': rnd / btw}


def worst_errors(kfc, argv):
    """kfc -v's worst sampled error of each kind and its bound, from the
    compile `argv` (kfc's own arguments): {kind: [error, bound]}."""
    text = subprocess.run([kfc, '-v'] + argv, check=True, capture_output=True,
                          text=True).stderr
    m = re.search(r'^kfc: worst error: (.*)$', text, re.M)
    if not m:
        sys.exit('run_bench: kfc -v reported no worst error')
    return {kind: [float(error), float(bound)] for kind, error, bound in
            re.findall(r'(\w+) ([0-9.e+-]+)(?: deg)? \(max ([0-9.e+-]+)\)', m.group(1))}


def fmt_errors(errors):
    return ', '.join('%s %.3g of %.3g' % (kind, e, b) for kind, (e, b) in errors.items())


def time_process(argv, rounds):
    times = []
    for _ in range(rounds + 1):  # the first run warms the page cache
        t0 = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
    times = times[1:]
    return {'median': statistics.median(times), 'min': min(times), 'max': max(times),
            'unit': 's'}


def time_pair(argv_a, argv_b, rounds):
    """Times two commands in turns (a then b, then b then a, ...), so that a slow stretch of the
    machine falls on both alike; returns their times and the median of each round's a / b."""
    a, b = [], []
    for i in range(rounds + 1):  # the first round warms the page cache
        for argv, into in ((argv_a, a), (argv_b, b)) if i % 2 == 0 else ((argv_b, b), (argv_a, a)):
            t0 = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
            into.append(time.perf_counter() - t0)
    a, b = a[1:], b[1:]
    stats = lambda t: {'median': statistics.median(t), 'min': min(t), 'max': max(t), 'unit': 's'}
    return stats(a), stats(b), statistics.median(x / y for x, y in zip(a, b))


def playback_line(r, label):
    """The quantized form's playback counts of r (playback_instructions), with
    their targets, or nothing without them."""
    if 'forward_instructions_per_track_sample' not in r:
        return ''
    target = TARGETS['bounded_forward_instructions'][
        'linear_slerp' if label.startswith('LINEAR') else 'spline_squad']
    return ('fwd %.1f instr/track-sample (<= %d), random %.2fx (<= %.1f; %.2fx between keys)  ' %
            (r['forward_instructions_per_track_sample'], target,
             r['random_over_forward_instructions'], TARGETS['random_over_forward'],
             r['random_over_between_instructions']))


def fmt_range(s, scale=1.0, digits=1):
    return '%.*f (%.*f-%.*f)' % (digits, s['median'] * scale, digits, s['min'] * scale,
                                 digits, s['max'] * scale)


def runs_line(r):
    """A -z runs file's figures (runs_file), for the report."""
    instr = ('  %.2f M instr' % (r['load_instructions'] / 1e6)
             if 'load_instructions' in r else '')
    return '-z runs: %s bytes, load %s us (reused memory %s)%s' % (
        '{:,}'.format(r['file_bytes']), fmt_range(r['load_ns'], 1e-3, 0),
        fmt_range(r['load_reused_ns'], 1e-3, 0), instr)


def load_time(kfbench, path, rounds):
    return json.loads(subprocess.run([kfbench, 'load', path, str(rounds)], check=True,
                                     capture_output=True, text=True).stdout)


def runs_file(kfc, kfbench, work, argv, dst, load_rounds):
    """The file kfc writes with -z runs (DATA's zero runs left out, nothing
    deflated) and `argv`: its bytes, load time and instructions."""
    subprocess.run([kfc, '-z', 'runs'] + argv + ['-o', dst], check=True)
    r = {'file_bytes': os.path.getsize(dst)}
    r.update(load_time(kfbench, dst, load_rounds))
    if shutil.which('valgrind'):
        r.update(load_instructions(kfbench, dst, work))
    os.remove(dst)
    return r


def file_sizes(kfc, kfbench, work, load_rounds):
    """Bytes of each variant's .kfb (constant channels included) at zlib levels 0, 1, 9,
    the load time at level 0 (sections stored: nothing to inflate), and the
    -z runs file's (runs_file)."""
    sizes, loads = {}, {}
    for short, label in (('linear', 'LINEAR+SLERP'), ('spline', 'SPLINE+SQUAD'),
                         ('const', 'constant-ch.')):
        src = os.path.join(work, 'w_%s.yaml' % short)
        out = os.path.join(work, 'w_%s.sized.kfb' % short)
        sizes[label] = {}
        for level in ('0', '1', '9'):
            subprocess.run([kfc, '-z', level, src, '-o', out], check=True)
            sizes[label][level] = os.path.getsize(out)
            if level == '0':
                loads[label] = load_time(kfbench, out, load_rounds)
                if shutil.which('valgrind'):
                    loads[label].update(load_instructions(kfbench, out, work))
        os.remove(out)
        loads[label]['runs'] = runs_file(kfc, kfbench, work, [src], out, load_rounds)
    return sizes, loads


LOSSY_BOUNDS = (('translation=7e-5,orientation=0.14,scale=1e-3',
                 'LINEAR+SLERP <= 120,000, SPLINE+SQUAD <= 300,000, constant-ch. <= 45,000'),
                ('translation=1e-5,orientation=0.01,scale=1e-5', 'LINEAR+SLERP <= 210,000'))


def lossy_sizes(kfc, kfbench, work, rounds, load_rounds):
    """Bytes (zlib 1 and 9), compile seconds and load time (kfc's default
    level) of each variant at each --max-error bound; at the first, the
    quantized form's playback instructions and kfc's worst errors."""
    out = {}
    for spec, _ in LOSSY_BOUNDS:
        out[spec] = {}
        for short, label in (('linear', 'LINEAR+SLERP'), ('spline', 'SPLINE+SQUAD'),
                             ('const', 'constant-ch.')):
            src = os.path.join(work, 'w_%s.yaml' % short)
            dst = os.path.join(work, 'w_%s.lossy.kfb' % short)
            r = {}
            first = spec == LOSSY_BOUNDS[0][0] and short != 'const'
            for level in ('1', '9'):
                argv = ['-z', level, '-e', spec, src, '-o', dst]
                if first and level == '1':  # (the error does not depend on the level)
                    r['worst_error'] = worst_errors(kfc, argv)
                else:
                    subprocess.run([kfc] + argv, check=True)
                r[level] = os.path.getsize(dst)
            r['compile_s'] = time_process([kfc, '-e', spec, src, '-o', dst], rounds)
            r.update(load_time(kfbench, dst, load_rounds))
            if shutil.which('valgrind'):
                r.update(load_instructions(kfbench, dst, work))
            if first and shutil.which('valgrind'):
                r.update(playback_instructions(kfbench, dst, work))
            if first:
                r['runs'] = runs_file(kfc, kfbench, work, ['-e', spec, src],
                                      dst[:-4] + '.runs.kfb', load_rounds)
            os.remove(dst)
            out[spec][label] = r
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kfbench', required=True)
    ap.add_argument('--yaml-events', required=True)
    ap.add_argument('--kfc')
    ap.add_argument('--work', required=True)
    ap.add_argument('--rounds', type=int, default=31)
    ap.add_argument('--flags', default='')
    args = ap.parse_args()
    work = args.work

    kfb = {v: os.path.join(work, 'w_%s.kfb' % short) for v, short, _ in VARIANTS}
    yaml = {v: os.path.join(work, 'w_%s.yaml' % short) for v, short, _ in VARIANTS}
    timing = json.loads(subprocess.run(
        [args.kfbench, 'time', kfb['linear_slerp'], kfb['spline_squad'], str(args.rounds)],
        check=True, stdout=subprocess.PIPE, text=True).stdout)

    raw_keys = gen_workload.JOINTS * gen_workload.KEYS * (3 + 4 + 3) * 4
    results = {'workload': {'joints': gen_workload.JOINTS, 'keys_per_channel': gen_workload.KEYS,
                            'tracks': 3 * gen_workload.JOINTS, 'time_unit': 's',
                            'raw_float32_key_bytes': raw_keys},
               'machine': machine(), 'flags': args.flags, 'targets': TARGETS,
               'kernels': timing['kernels'], 'inflate': timing['inflate']}
    have_valgrind = shutil.which('valgrind') is not None
    for v, short, _ in VARIANTS:
        r = dict(timing[v])
        r['load_over_inflate'] = r['load_ns']['median'] / r['inflate_ns']['median']
        r['load_reused_over_inflate'] = (r['load_reused_ns']['median'] /
                                         r['inflate_ns']['median'])
        r['random_over_forward_ns'] = (r['random_ns_per_track_sample']['median'] /
                                       r['forward_ns_per_track_sample']['median'])
        r['after_other_over_forward_ns'] = (r['after_other_ns_per_track_sample']['median'] /
                                            r['forward_ns_per_track_sample']['median'])
        r['file_over_raw_keys'] = r['file_bytes'] / raw_keys
        if have_valgrind:
            r.update(playback_instructions(args.kfbench, kfb[v], work))
            r.update(load_instructions(args.kfbench, kfb[v], work))
            if timing['kernels'] == 'avx2':  # and on x86-64's baseline
                r['forward_instructions_per_track_sample_sse2'] = instructions_per_track_sample(
                    args.kfbench, 'forward', kfb[v], work, 'sse2')
        if args.kfc:
            size = os.path.getsize(yaml[v])
            out = os.path.join(work, 'w_%s.timed.kfb' % short)
            rounds = max(3, min(args.rounds, 21))
            r['yaml_bytes'] = size
            r['compile_s'], r['libyaml_parse_s'], r['compile_over_libyaml'] = time_pair(
                [args.kfc, yaml[v], '-o', out], [args.yaml_events, yaml[v]], rounds)
            r['compile_mb_per_s'] = size / 1e6 / r['compile_s']['median']
            os.remove(out)
        results[v] = r

    if args.kfc:
        results['file_sizes'], results['stored_loads'] = file_sizes(args.kfc, args.kfbench, work,
                                                                    args.rounds)
        results['lossy_sizes'] = lossy_sizes(args.kfc, args.kfbench, work,
                                             max(3, min(args.rounds, 5)), args.rounds)

    # The second workload, W2: the memory targets, a player's bytes, playback
    # instructions and load time of its default files, and what its -e files
    # hold.
    w2 = {}
    kfb2 = {v: os.path.join(work, 'w2_%s.kfb' % short) for v, short, _ in VARIANTS}
    if all(os.path.exists(f) for f in kfb2.values()):
        t2 = json.loads(subprocess.run(
            [args.kfbench, 'time', kfb2['linear_slerp'], kfb2['spline_squad'], str(args.rounds)],
            check=True, stdout=subprocess.PIPE, text=True).stdout)
        raw2 = gen_workload.W2['JOINTS'] * gen_workload.W2['KEYS'] * (3 + 4 + 3) * 4
        w2['raw_float32_key_bytes'] = raw2
        for v, short, label in VARIANTS:
            r = dict(t2[v])
            r['load_over_inflate'] = r['load_ns']['median'] / r['inflate_ns']['median']
            r['clip_over_raw_keys'] = r['clip_bytes'] / raw2
            if have_valgrind:
                r.update(playback_instructions(args.kfbench, kfb2[v], work,
                                               joints=gen_workload.W2['JOINTS']))
                r.update(load_instructions(args.kfbench, kfb2[v], work))
            if args.kfc:
                src = os.path.join(work, 'w2_%s.yaml' % short)
                dst = os.path.join(work, 'w2_%s.lossy.kfb' % short)
                r['bounded_worst_error'] = worst_errors(
                    args.kfc, ['-e', LOSSY_BOUNDS[0][0], src, '-o', dst])
                r['bounded_file_bytes'] = os.path.getsize(dst)
                r['bounded_clip_bytes'] = load_time(args.kfbench, dst, 3)['clip_bytes']
                if have_valgrind:
                    r['bounded'] = load_instructions(args.kfbench, dst, work)
                    r['bounded'].update(playback_instructions(
                        args.kfbench, dst, work, joints=gen_workload.W2['JOINTS']))
                    subprocess.run([args.kfc, '-z', '0', src, '-o', dst], check=True)
                    r['stored'] = load_instructions(args.kfbench, dst, work)
                    r['stored']['file_bytes'] = os.path.getsize(dst)
                rounds = max(3, min(args.rounds, 21))
                r['compile_s'], r['libyaml_parse_s'], r['compile_over_libyaml'] = time_pair(
                    [args.kfc, src, '-o', dst], [args.yaml_events, src], rounds)
                os.remove(dst)
            w2[v] = r
        results['w2'] = w2

    with open(os.path.join(work, 'results.json'), 'w') as f:
        json.dump(results, f, indent=2)
        f.write('\n')

    rows = []

    def row(label, key, show, target=''):
        rows.append((label, [show(results[v]) if key(results[v]) else '-' for v, _, _ in VARIANTS],
                     target))

    row('forward instr/track-sample', lambda r: 'forward_instructions_per_track_sample' in r,
        lambda r: '%.1f' % r['forward_instructions_per_track_sample'], '<= 40 / <= 90')
    row('forward instr, SSE2 kernels', lambda r: 'forward_instructions_per_track_sample_sse2' in r,
        lambda r: '%.1f' % r['forward_instructions_per_track_sample_sse2'])
    row('random  instr/track-sample', lambda r: 'random_instructions_per_track_sample' in r,
        lambda r: '%.1f' % r['random_instructions_per_track_sample'])
    row('random / forward (instr)', lambda r: 'random_over_forward_instructions' in r,
        lambda r: '%.2f' % r['random_over_forward_instructions'], '<= 1.2')
    row('between keys instr/track-sample', lambda r: 'between_instructions_per_track_sample' in r,
        lambda r: '%.1f' % r['between_instructions_per_track_sample'])
    row('random / between keys (instr)', lambda r: 'random_over_between_instructions' in r,
        lambda r: '%.2f' % r['random_over_between_instructions'])
    row('forward ns/track-sample', lambda r: True,
        lambda r: fmt_range(r['forward_ns_per_track_sample']))
    row('random  ns/track-sample', lambda r: True,
        lambda r: fmt_range(r['random_ns_per_track_sample']))
    row('random / forward (ns)', lambda r: True, lambda r: '%.2f' % r['random_over_forward_ns'],
        '<= 1.2')
    row('fwd ns after another clip', lambda r: True,
        lambda r: fmt_range(r['after_other_ns_per_track_sample']))
    row('after another / warm (ns)', lambda r: True,
        lambda r: '%.2f' % r['after_other_over_forward_ns'], '<= 1.3')
    row('player bytes', lambda r: True, lambda r: '{:,}'.format(r['player_bytes']), '<= 10,000')
    row('clip bytes held', lambda r: True, lambda r: '{:,}'.format(r['clip_bytes']),
        '<= 963,200 / <= 2,880,000')
    row('load us (malloc)', lambda r: True, lambda r: fmt_range(r['load_ns'], 1e-3))
    row('load us (reused memory)', lambda r: True,
        lambda r: fmt_range(r['load_reused_ns'], 1e-3))
    row('inflate alone us', lambda r: True, lambda r: fmt_range(r['inflate_ns'], 1e-3))
    row('load / inflate', lambda r: True, lambda r: '%.2f' % r['load_over_inflate'], '<= 1.2')
    row('load instructions (M)', lambda r: 'load_instructions' in r,
        lambda r: '%.2f' % (r['load_instructions'] / 1e6))
    row('zlib alone instructions (M)', lambda r: 'inflate_instructions' in r,
        lambda r: '%.2f' % (r['inflate_instructions'] / 1e6))
    row('load / zlib (instr)', lambda r: 'load_over_inflate_instructions' in r,
        lambda r: '%.2f' % r['load_over_inflate_instructions'], '<= 1.3')
    row('load (reused) / inflate', lambda r: True,
        lambda r: '%.2f' % r['load_reused_over_inflate'])
    row('compile ms', lambda r: 'compile_s' in r, lambda r: fmt_range(r['compile_s'], 1e3))
    row('libyaml parse ms', lambda r: 'compile_s' in r,
        lambda r: fmt_range(r['libyaml_parse_s'], 1e3))
    row('compile / libyaml', lambda r: 'compile_s' in r,
        lambda r: '%.2f' % r['compile_over_libyaml'], '<= 1.5')
    row('compile MB/s', lambda r: 'compile_s' in r, lambda r: '%.1f' % r['compile_mb_per_s'],
        '>= 25')
    row('file bytes', lambda r: True, lambda r: '{:,}'.format(r['file_bytes']))
    row('file / raw keys', lambda r: True,
        lambda r: '%.3f of {:,}'.format(raw_keys) % r['file_over_raw_keys'])

    m = results['machine']
    print('workload W: %d joints x (T, R, S), %d keys/channel, %d tracks, times in s' %
          (gen_workload.JOINTS, gen_workload.KEYS, 3 * gen_workload.JOINTS))
    print('machine: %s, %s cores; flags: %s' % (m['cpu'], m['cores'], args.flags or '?'))
    print('kernels: %s (the set kf_player_create picks here)' % results['kernels'])
    print('inflate: %s (load figures; "zlib alone" is zlib\'s inflate)' % results['inflate'])
    if not have_valgrind:
        print('(valgrind not found: no instruction counts)')
    if not args.kfc:
        print('(kfc not built: no compile figures; W built through kf_builder)')
    width = max(len(r[0]) for r in rows)
    print('%-*s  %-22s %-22s %s' % (width, '', 'LINEAR+SLERP', 'SPLINE+SQUAD', 'target'))
    for label, cells, target in rows:
        print('%-*s  %-22s %-22s %s' % (width, label, cells[0], cells[1], target))
    if 'file_sizes' in results:
        print('file bytes by zlib level (targets: lossless LINEAR+SLERP <= 545,000, '
              'SPLINE+SQUAD <= 1,100,000)')
        for name, sizes in results['file_sizes'].items():
            load = results['stored_loads'][name]
            levels = '  '.join('-z %s: %9s' % (z, '{:,}'.format(n)) for z, n in sizes.items())
            per_byte = ('  %.1f instr/byte (<= 3)' % load['load_instructions_per_file_byte']
                        if 'load_instructions_per_file_byte' in load else '')
            print('  %-14s %s  load at -z 0: %s us (reused memory %s)%s'
                  % (name, levels, fmt_range(load['load_ns'], 1e-3, 0),
                     fmt_range(load['load_reused_ns'], 1e-3, 0), per_byte))
            if 'runs' in load:
                print('  %-14s %s' % ('', runs_line(load['runs'])))
    for spec, target in LOSSY_BOUNDS if 'lossy_sizes' in results else ():
        print('kfc -e %s (file targets: %s)' % (spec, target))
        for name, r in results['lossy_sizes'][spec].items():
            ratio = ('  load/zlib %.2f instr (<= 1.5)' % r['load_over_inflate_instructions']
                     if r.get('load_over_inflate_instructions') else '')
            print('  %-14s -z 1: %9s  -z 9: %9s  compile %s ms  load %s us (reused memory %s)'
                  '  clip %s bytes%s'
                  % (name, '{:,}'.format(r['1']), '{:,}'.format(r['9']),
                     fmt_range(r['compile_s'], 1e3, 0), fmt_range(r['load_ns'], 1e-3, 0),
                     fmt_range(r['load_reused_ns'], 1e-3, 0), '{:,}'.format(r['clip_bytes']),
                     ratio))
            if 'worst_error' in r:
                print('  %-14s %sworst error: %s' % ('', playback_line(r, name), fmt_errors(
                    r['worst_error'])))
            if 'runs' in r:
                print('  %-14s %s (%.2fx the -z 6 load)' % (
                    '', runs_line(r['runs']),
                    r['runs']['load_reused_ns']['median'] / r['load_reused_ns']['median']))
    if w2:
        print('workload W2: %(JOINTS)d joints x (T, R, S), %(KEYS)d keys/channel, a %(DURATION)g s '
              'loop' % gen_workload.W2)
        for v, _, label in VARIANTS:
            r = w2[v]
            counts = ('  fwd %.1f / between keys %.1f / random %.1f instr/track-sample' %
                      (r['forward_instructions_per_track_sample'],
                       r['between_instructions_per_track_sample'],
                       r['random_instructions_per_track_sample'])
                      if 'forward_instructions_per_track_sample' in r else '')
            bounded = ('  -e: %s bytes, clip %s' % ('{:,}'.format(r['bounded_file_bytes']),
                                                    '{:,}'.format(r['bounded_clip_bytes']))
                       if 'bounded_clip_bytes' in r else '')
            load_instr = ('  load/zlib %.2f instr' % r['load_over_inflate_instructions']
                          if r.get('load_over_inflate_instructions') else '')
            print('  %-14s file %s  clip %s bytes (%.2fx raw keys)  player %s  load/inflate %.2f%s%s%s'
                  % (label, '{:,}'.format(r['file_bytes']), '{:,}'.format(r['clip_bytes']),
                     r['clip_over_raw_keys'], '{:,}'.format(r['player_bytes']),
                     r['load_over_inflate'], load_instr, counts, bounded))
            if 'compile_over_libyaml' in r:
                print('  %-14s compile / libyaml %.2f (<= 1.5)' % ('', r['compile_over_libyaml']))
            if 'bounded' in r:
                b = r['bounded']
                print('  %-14s -e: load/zlib %.2f instr (<= 1.5)  %s' %
                      ('', b['load_over_inflate_instructions'], playback_line(b, label)))
            if 'bounded_worst_error' in r:
                print('  %-14s -e: worst error: %s' % ('', fmt_errors(r['bounded_worst_error'])))
            if 'stored' in r:
                print('  %-14s -z 0: %s bytes, load %.1f instr/byte (<= 3)' %
                      ('', '{:,}'.format(r['stored']['file_bytes']),
                       r['stored']['load_instructions_per_file_byte']))
    print('JSON: %s' % os.path.join(work, 'results.json'))


if __name__ == '__main__':
    main()
