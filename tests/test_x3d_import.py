# SPDX-License-Identifier: MIT
"""kfc's X3D importer against X_ITE, the X3D browser.

The scenes of tests/data/x3d/ (XML, ClassicVRML and VRML97; every
interpolator node, EaseInEaseOut, followers, fan-out at both ends, DEF/USE,
looping and non-looping sensors with start and stop times, sensors started
by events) were played in X_ITE by tests/x3d/xite_sample.cjs (README.md
there). Each is compiled here (also gzipped, and decompiled and compiled
again: the same bytes), the events X_ITE was sent are sent as a host sends
them (a startTime event at E: the sensor's controller at weight 1 with
reference [E, 0]; an enabled event: weight 1; set_destination: kfplay
follow --event), and the fields are compared at every recorded frame.

Interpolated fields agree within float32 precision (TOLERANCE). Followers
agree within what the oracle README lists as X_ITE's departures from the
spec: its chasers take a destination that reaches them idle one slot
(duration / 60) late, so the events are replayed that late here; its
dampers stop within order x tolerance (0.001) of the destination without
snapping to it (FOLLOWER_TOLERANCE).
The scenes with UNIT statements (degrees.x3dv, turns.x3d, and the ones
X3D does not allow in lenient_vrml.wrl and lenient_units.x3d) are played as
X_ITE plays them: rotation angles times the UNIT angle's factor, lengths as
written.
Also: malformed scenes (a word where a field wants a value, a UNIT
statement X_ITE refuses too) get file:line:col errors, -v notes what is
skipped, in the order of the file, and a mistake in what a scene animates
(a name no node, type or field has, a ROUTE browsers refuse, an
interpolator kfc refuses), a USE with no DEF before it, or what X3D's
grammar does not allow and X_ITE reads anyway (VRML's true, a UNIT out of
place), is a warning that -Werror makes an error. And a looping sensor keeps its
phase at world times as large as X3D's (seconds since 1970), and plays nothing
before its startTime where a host loads the scene earlier (world time 0)."""
import gzip
import json
import math
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import driver  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'x3d')
TOLERANCE = 2e-6          # relative to max(1, |value|); rotations: radians
FOLLOWER_TOLERANCE = 2e-3  # X_ITE's dampers stop within order x 0.001 of the destination
PROPERTY = {'translation': 'translation', 'rotation': 'orientation', 'orientation': 'orientation',
            'scale': 'scale', 'diffuseColor': 'diffuse_color', 'emissiveColor': 'emissive_color',
            'specularColor': 'specular_color', 'color': 'color', 'intensity': 'intensity',
            'shininess': 'shininess'}
COUNTS = {'translation': (3,), 'orientation': (4,), 'scale': (1, 3), 'diffuse_color': (3,),
          'emissive_color': (3,), 'specular_color': (3,), 'color': (3,), 'intensity': (1,),
          'shininess': (1,)}
BUILT_IN = set(COUNTS) | {'alpha', 'ambient_color', 'crop', 'density', 'far_distance',
                          'field_of_view', 'morph_weights', 'near_distance', 'pickability',
                          'spot_angle', 'spot_exponent', 'visibility'}


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def target_name(field, count):
    """docs/import-x3d.md's naming rule: NODE.field -> the kfb target."""
    node, name = field.rsplit('.', 1)
    prop = PROPERTY.get(name)
    if prop and count in COUNTS[prop]:
        return node + '.' + prop
    if name in BUILT_IN:
        return '%s.%s_%d' % (node, name, count)
    return field


def quat(r):
    x, y, z, a = r
    n = math.sqrt(x * x + y * y + z * z)
    if n == 0:
        return (0.0, 0.0, 0.0, 1.0)
    s = math.sin(a / 2) / n
    return (x * s, y * s, z * s, math.cos(a / 2))


def error(ours, theirs, rotation):
    """Rotations: the angle between them; else the largest difference
    relative to max(1, |value|)."""
    if rotation:
        q = ours if len(ours) == 4 and not rotation == 'axis' else ours
        p = quat(theirs)
        d = min(1.0, abs(sum(a * b for a, b in zip(q, p))) /
                math.sqrt(sum(a * a for a in q) * sum(b * b for b in p)))
        return 2 * math.acos(d)
    if len(ours) != len(theirs):
        return float('inf')
    return max((abs(a - b) / max(1.0, abs(b)) for a, b in zip(ours, theirs)), default=0.0)


def host_yaml(text, events):
    """The decompiled source with the controllers as a host leaves them
    after the events: startTime E -> weight 1, reference [E, 0]; enabled
    TRUE -> weight 1; stopTime S (or enabled FALSE at S) after a start at E
    -> active from E to S, known ahead (kf_controller_set_active_interval)."""
    for e in events:
        when, rest = e.split(':', 1)
        node, value = rest.split('=', 1)
        name, field = node.split('.', 1)
        line = re.search(r"^  '?%s'?: \{.*\}$" % re.escape(name), text, re.M)
        stop = field in ('stopTime', 'set_stopTime') or \
            (field in ('enabled', 'set_enabled') and value == 'false')
        if not line or (not stop and field not in ('startTime', 'set_startTime', 'enabled',
                                                    'set_enabled')):
            continue
        old = line.group(0)
        ref = re.search(r'reference: \[([^\]]*)\]', old)
        reference = ('[%s, 0]' % value) if 'startTime' in field else \
            ('[%s]' % ref.group(1) if ref else '[0, 0]')
        new = '%s: {reference: %s' % (old.split(':', 1)[0], reference)
        if stop:
            new += ', active_interval: [%s, %s]' % (reference[1:-1].split(',')[0],
                                                     value if 'stopTime' in field else when)
        text = text.replace(old, new + '}')
    return text


def parse_tracks(text):
    """target -> (animator, controllers) (the first track's animator, every
    track's controller), and follower name -> (node, duration), from
    decompiled YAML."""
    tracks = {}
    for m in re.finditer(r"\{animator: '?([^,']+)'?, controller: '?([^,']+)'?, "
                         r"target: '?([^,'}]+)'?", text):
        tracks.setdefault(m.group(3), (m.group(1), []))[1].append(m.group(2))
    section = text.split('followers:', 1)[1].split('controllers:', 1)[0] if 'followers:' in text else ''
    followers = {}
    for block in re.split(r"^  (?='?[^ ])", section, flags=re.M)[1:]:
        name = block.split(':', 1)[0].strip("'")
        node = re.search(r'node: (\w+)', block).group(1)
        duration = re.search(r'duration: ([-0-9.e]+)', block)
        followers[name] = (node, float(duration.group(1)) if duration else 1.0)
    return tracks, followers


def starts(text, events):
    """controller -> the world time it starts playing: 0 for those playing
    from the load, the event's time for those a host starts, infinity for
    the rest."""
    out = {}
    section = text.split('controllers:', 1)[1] if 'controllers:' in text else ''
    for m in re.finditer(r"^  '?([^:']+)'?: \{(.*)\}$", section, re.M):
        out[m.group(1)] = math.inf if 'weight: 0' in m.group(2) else 0.0
    for e in events:
        when, rest = e.split(':', 1)
        name = rest.split('.', 1)[0]
        if name in out and out[name] == math.inf:
            out[name] = float(when)
    return out


def follower_events(events, name, node, duration):
    """kfplay follow's --event options for what X_ITE was sent. X_ITE's
    chasers take a destination that reaches them idle one slot late
    (duration / 60: the oracle README): so are the events here (every
    event of these scenes reaches an idle chaser)."""
    late = duration / 60 if 'Chaser' in node else 0.0
    out = []
    for e in events:
        when, rest = e.split(':', 1)
        target, value = rest.split('=', 1)
        n, field = target.split('.', 1)
        if n == name and field.replace('set_', '') in ('destination', 'value'):
            out += ['--event', '%.17g:%s=%s' % (float(when) + late, field.replace('set_', ''),
                                                 ','.join(value.split()))]
    return out


def compare_scene(a, checks, name, spec, worst):
    src = os.path.join(DATA, name)
    with open(os.path.join(DATA, os.path.splitext(name)[0] + '.xite.json')) as f:
        ref = json.load(f)
    compare(a, checks, src, name, spec, ref, worst)


def compare(a, checks, src, name, spec, ref, worst):
    """Compiles `src` and compares what kfb plays with X_ITE's recording
    `ref` of it, made as `spec` says; the largest errors go to `worst`."""
    base = os.path.join(a.work, os.path.splitext(os.path.basename(src))[0])
    r = run([a.kfc, src, '-o', base + '.kfb'])
    if not checks.check(r.returncode == 0, '%s compiles: %s' % (name, r.stderr)):
        return
    # Gzipped, the same file.
    with open(src, 'rb') as f, gzip.open(base + '.gz', 'wb') as g:
        g.write(f.read())
    r = run([a.kfc, base + '.gz', '-o', base + '.gz.kfb'])
    with open(base + '.kfb', 'rb') as f1, open(base + '.gz.kfb', 'rb') as f2:
        checks.check(r.returncode == 0 and f1.read() == f2.read(), '%s gzipped: same file' % name)
    r = run([a.kfc, '--decompile', base + '.kfb', '-o', base + '.yaml'])
    checks.check(r.returncode == 0, '%s decompiles' % name)
    r = run([a.kfc, base + '.yaml', '-o', base + '.again.kfb'])
    with open(base + '.kfb', 'rb') as f1, open(base + '.again.kfb', 'rb') as f2:
        checks.check(r.returncode == 0 and f1.read() == f2.read(),
                     '%s: decompile -> compile gives the same bytes' % name)
    with open(base + '.yaml') as f:
        text = f.read()
    events = spec.get('events', [])
    with open(base + '.host.yaml', 'w') as f:
        f.write(host_yaml(text, events))
    r = run([a.kfc, base + '.host.yaml', '-o', base + '.host.kfb'])
    checks.check(r.returncode == 0, '%s: the host\'s state compiles: %s' % (name, r.stderr))
    tracks, followers = parse_tracks(text)
    start = starts(text, events)
    times = [fr['t'] for fr in ref['frames']]
    r = run([a.kfplay, base + '.host.kfb', 'animate'] + ['%.17g' % t for t in times])
    played = {}
    for line in r.stdout.splitlines():
        w, target, *v = line.split()
        played[(float(w), target)] = [float(x) for x in v]
    follow = {}
    for fname, (fnode, duration) in followers.items():
        r = run([a.kfplay, base + '.kfb', 'follow', fname, '--tick', repr(ref['step']),
                 '--until', repr(times[-1] - ref['load'] + 1e-9)] +
                follower_events(events, fname, fnode, duration))
        checks.check(r.returncode == 0, '%s: kfplay follow %s: %s' % (name, fname, r.stderr))
        for line in r.stdout.splitlines():
            t, *v = line.split()
            follow[(fname, round(float(t) / ref['step']))] = [float(x) for x in v[:-1]]
    for field in ref['fields']:
        count = len(ref['frames'][0]['values'][field])
        target = target_name(field, count)
        rotation = field.rsplit('.', 1)[1] in ('rotation', 'orientation') and count == 4
        if target not in tracks:
            # kfc imported nothing into it: X_ITE must not move it either.
            first = ref['frames'][0]['values'][field]
            checks.check(all(fr['values'][field] == first for fr in ref['frames']),
                         '%s: %s (%s): X_ITE animates it, kfc imported nothing into it'
                         % (name, field, target))
            continue
        animator, controllers = tracks[target]
        is_follower = animator in followers
        key = 'followers' if is_follower else 'interpolators'
        for k, fr in enumerate(ref['frames']):
            theirs = fr['values'][field]
            if fr['t'] < min(start.get(c, math.inf) for c in controllers):
                # Not started: X_ITE holds the field as the scene set it,
                # and so does a host (kfb does not know that value).
                checks.check(theirs == ref['frames'][0]['values'][field],
                             '%s: %s at %g: X_ITE holds it before its sensor starts'
                             % (name, field, fr['t']))
                continue
            if is_follower:
                ours = follow.get((animator, k + 1))
                if ours is not None and rotation:
                    ours = quat(ours)
            else:
                ours = played.get((fr['t'], target))
            if not checks.check(ours is not None, '%s: %s at %g played' % (name, target, fr['t'])):
                break
            e = error(ours, theirs, rotation)
            if e > worst[key][0]:
                worst[key] = (e, '%s %s at %g' % (name, field, fr['t']))
            bound = FOLLOWER_TOLERANCE if is_follower else TOLERANCE
            if not checks.check(e <= bound, '%s: %s at %g: ours %s, X_ITE %s (error %.3g)'
                                % (name, field, fr['t'], ours, theirs, e)):
                break


HEADER_ORDER = ("a scene's header states its PROFILE, then its COMPONENT, UNIT and META "
                "statements, in that order, before the scene")



def fan_scene(sensors, fields, ease=False):
    """One PositionInterpolator 'I' that `sensors` TimeSensors drive (through
    EaseInEaseOut 'E' with `ease`) and that drives `fields` Transforms: a
    track per sensor and field, sensors * fields from sensors + fields
    ROUTEs. 'I' (or 'E') is on line sensors + 2."""
    lines = ['#X3D V3.3 utf8']
    lines += ['DEF S%d TimeSensor { loop TRUE }' % i for i in range(sensors)]
    if ease:
        lines.append('DEF E EaseInEaseOut { key [0 1] easeInEaseOut [0 0 0 0] }')
    lines.append('DEF I PositionInterpolator { key [0 1] keyValue [0 0 0 1 1 1] }')
    lines += ['DEF T%d Transform { }' % j for j in range(fields)]
    lines += ['ROUTE S%d.fraction_changed TO %s.set_fraction' % (i, 'E' if ease else 'I')
              for i in range(sensors)]
    if ease:
        lines.append('ROUTE E.modifiedFraction_changed TO I.set_fraction')
    lines += ['ROUTE I.value_changed TO T%d.translation' % j for j in range(fields)]
    return '\n'.join(lines) + '\n'


ERRORS = [
    # (file name, text, expected stderr suffix after 'NAME:')
    # A value of a type no one defines (CosmoWorlds' enums) is an error at
    # the type, named: not at the word as if a number were mistyped.
    ('unknown_node.wrl', '#VRML V2.0 utf8\nDEF A Transform { children [\n'
     '  DEF X CoHermitePositionInterpolator { key [0 1] keyTypes [ HERMITE, HERMITE ] } ] }\n',
     "3:9: error: unknown node type 'CoHermitePositionInterpolator' (not an X3D or VRML97 node, "
     "and no PROTO or EXTERNPROTO declares it), so its field 'keyTypes' cannot be read "
     "('HERMITE' at 3:62)"),
    ('unknown_field_type.wrl', '#VRML V2.0 utf8\nPROTO Co [\n'
     '  exposedField MFEnum keyTypes HERMITE ] { Group { } }\n',
     "3:16: error: unknown field type 'MFEnum' (X3D and VRML97 have no such type), so the value "
     "of 'keyTypes' cannot be read (at 3:32)"),
    # Tracks past 16 per ROUTE plus 4096: said at the node that multiplies
    # them (10,000 from 200 ROUTEs), with what it multiplies.
    ('fan.x3dv', fan_scene(100, 100),
     "102:1: error: the ROUTEs make more than 7296 tracks (at most 16 per ROUTE, plus 4096): 'I' "
     "is driven by 100 TimeSensors and drives 100 fields (each pair is a track)"),
    ('fan_ease.x3dv', fan_scene(100, 100, ease=True),
     "102:1: error: the ROUTEs make more than 7312 tracks (at most 16 per ROUTE, plus 4096): 'E' "
     "is driven by 100 TimeSensors and eases interpolators that drive 100 fields (each pair is a "
     "track)"),
    ('bad_number.x3d', '<X3D><Scene><TimeSensor DEF="C" loop="true"/>\n'
     '<ScalarInterpolator DEF="I" key="0 1" keyValue="0 x1"/>\n'
     '<Transform DEF="T"/><ROUTE fromNode="C" fromField="fraction_changed" toNode="I" '
     'toField="set_fraction"/><ROUTE fromNode="I" fromField="value_changed" toNode="T" '
     'toField="scale"/></Scene></X3D>\n',
     '2:51: error: expected a number, not \'x1\''),
    ('unclosed.x3d', '<X3D><Scene>\n<Transform>\n</Scene></X3D>\n',
     "3:3: error: XML: mismatched tag: <Transform> (2:1) is still open here (end it with '/>', "
     "or </Transform> before this)"),
    ('wrong_end.x3d', '<X3D><Scene>\n  <Group><Transform/></Grup>\n</Scene></X3D>\n',
     "2:24: error: XML: mismatched tag: <Group> (2:3) is still open here (end it with '/>', or "
     "</Group> before this)"),
    ('entity.x3d', '<?xml version="1.0"?>\n<!DOCTYPE X3D [\n<!ENTITY a "aaaa">\n]>\n'
     '<X3D><Scene/></X3D>\n', '3:12: error: entity declaration \'a\': kfc expands no entities'),
    ('root.x3d', '<?xml version="1.0"?>\n<X3Dx/>\n', "2:1: error: the root element is 'X3Dx', not X3D"),
    ('brace.x3dv', '#X3D V3.3 utf8\nTransform {\n  children [ Group { } \n',
     "4:1: error: expected a value or ']', not the end of the file: the '[' of children at 3:12 "
     "is not closed"),
    # A bracket closed by the wrong character names where it opened too.
    ('bracket.x3dv', '#X3D V3.3 utf8\nTransform {\n  children [\n    Shape { }\n}\n',
     "5:1: error: expected a value or ']', not '}': the '[' of children at 3:12 is not closed"),
    ('brace3.x3dv', '#X3D V3.3 utf8\nGroup { children [ Shape { ] }\n',
     "2:28: error: expected a field name or '}', not ']': the '{' of Shape at 2:26 is not "
     "closed"),
    ('brace2.x3dv', '#X3D V3.3 utf8\nDEF T Transform {\n  translation 0 1 0\n',
     "4:1: error: expected a field name or '}', not the end of the file: the '{' of Transform "
     "at 2:17 is not closed"),
    ('header.wrl', 'Transform { }\n', "1:1: error: expected the header '#X3D V3.3 utf8' or "
     "'#VRML V2.0 utf8'"),
    ('string.x3dv', '#X3D V3.3 utf8\nWorldInfo { title "abc }\n', '2:19: error: unterminated string'),
    ('route.x3dv', '#X3D V3.3 utf8\nROUTE a.b c.d\n', "2:11: error: expected TO, not 'c'"),
    ('deep.x3dv', '#X3D V3.3 utf8\n' + 'Group { children [ ' * 300 + '\n',
     '2:4865: error: nodes nested deeper than 256'),
    ('vrml1.wrl', '#VRML V1.0 ascii\nSeparator { }\n',
     '1:1: error: VRML 1.0 is not supported (VRML97, ClassicVRML and XML are)'),
    ('groups.x3dv', '#X3D V3.3 utf8\nDEF C TimeSensor { loop TRUE }\n'
     'DEF I PositionInterpolator { key [0 1] keyValue [0 0 0 1 1] }\n'
     'DEF T Transform { }\nROUTE C.fraction_changed TO I.set_fraction\n'
     'ROUTE I.value_changed TO T.translation\n',
     '3:49: error: keyValue of PositionInterpolator holds 5 numbers, not a multiple of 3'),
    ('char.x3dv', '#X3D V3.3 utf8\nGroup { \\ }\n', '2:9: error: unexpected character 0x5c'),
    # A word where a field wants a value: what the field takes, at the word
    # (not a node type missing its '{'), in VRML's spelling.
    ('yes.x3dv', '#X3D V3.3 utf8\nDEF Clock TimeSensor { enabled yes }\n',
     "2:32: error: expected TRUE or FALSE, not 'yes'"),
    ('two.x3dv', '#X3D V3.3 utf8\nDEF Clock TimeSensor { cycleInterval two }\n',
     "2:38: error: expected a number, not 'two'"),
    ('letter_o.x3dv', '#X3D V3.3 utf8\nDEF P PositionInterpolator { key [0 1] keyValue [0 0 0, 1 O 0] }\n',
     "2:59: error: expected a number, not 'O'"),
    ('title.x3dv', '#X3D V3.3 utf8\nWorldInfo { title abc }\n',
     "2:19: error: expected a string in double quotes, not 'abc'"),
    ('declared.x3dv', '#X3D V3.3 utf8\nScript { initializeOnly SFFloat speed fast }\n',
     "2:39: error: expected a number, not 'fast'"),
    # Spelt neither as VRML nor as XML spells it: no boolean X_ITE reads.
    ('capital.x3dv', '#X3D V3.3 utf8\nDEF Clock TimeSensor { loop True }\n',
     "2:29: error: expected TRUE or FALSE, not 'True'; did you mean 'TRUE'?"),
    # A prototype's field: its type is not known, but a word no '{' follows
    # is no node.
    ('instance2.x3dv', '#X3D V3.3 utf8\nPROTO P [ initializeOnly SFString s "" ] { Group { } }\n'
     'P { s two }\n', "3:7: error: expected a field value, not 'two'"),
    # A node type without its '{' is still that.
    ('no_brace.x3dv', '#X3D V3.3 utf8\nGroup { children [ Transform ] }\n',
     "2:30: error: expected '{' after the node type, not ']'"),
    ('loop1.x3dv', '#X3D V3.3 utf8\nDEF C TimeSensor { loop 1 }\n',
     "2:25: error: expected TRUE or FALSE, not '1'"),
    ('loop1.x3d', '<X3D><Scene><TimeSensor DEF="C" loop="1"/></Scene></X3D>\n',
     "1:39: error: expected true or false, not '1'"),
    # UNIT statements X_ITE refuses too: a factor that is no number (in XML,
    # an angle's, which X_ITE reads as NaN and turns every rotation by), a
    # UNIT after META or the scene's first statement.
    ('unit_word.x3dv', '#X3D V3.3 utf8\nUNIT angle degree abc\n',
     "2:19: error: expected a conversion factor, not 'abc'"),
    ('unit_number.x3dv', '#X3D V3.3 utf8\nUNIT angle degree 0.5.1\n',
     "2:19: error: expected a number, not '0.5.1'"),
    ('unit_hex.x3dv', '#X3D V3.3 utf8\nUNIT length inch 0x10\n',
     "2:18: error: expected a number, not '0x10'"),
    ('unit_meta.x3dv', '#X3D V3.3 utf8\nMETA "title" "x"\nUNIT angle degree 0.0174532925\n',
     '3:1: error: UNIT after a META statement: ' + HEADER_ORDER),
    ('unit_late.x3dv', '#X3D V3.3 utf8\nGroup { }\nUNIT angle degree 0.0174532925\n',
     "3:1: error: UNIT after the scene's first statement: " + HEADER_ORDER),
    # The header's other statements out of X3D's order, which X_ITE refuses
    # too (it reads the statement as a node of an unknown type).
    ('profile_late.x3dv', '#X3D V3.3 utf8\nUNIT angle degree 0.0174532925\nPROFILE Immersive\n',
     '3:1: error: PROFILE after a UNIT statement: ' + HEADER_ORDER),
    ('profile_twice.x3dv', '#X3D V3.3 utf8\nPROFILE Interchange\nPROFILE Immersive\n',
     '3:1: error: a second PROFILE: ' + HEADER_ORDER),
    ('component_late.x3dv', '#X3D V3.3 utf8\nPROFILE Immersive\nMETA "a" "b"\n'
     'COMPONENT Followers:1\n', '4:1: error: COMPONENT after a META statement: ' + HEADER_ORDER),
    ('meta_late.x3dv', '#X3D V3.3 utf8\nPROFILE Immersive\nGroup { }\nMETA "a" "b"\n',
     "4:1: error: META after the scene's first statement: " + HEADER_ORDER),
    # Numbers by name that browsers read as NaN or infinity; one where a
    # field takes an integer, where X_ITE reads none.
    ('nan.x3dv', '#X3D V3.3 utf8\nDEF I ScalarInterpolator { key [0 1] keyValue [0 NaN] }\n'
     'DEF C TimeSensor { }\nDEF M Material { }\nROUTE C.fraction_changed TO I.set_fraction\n'
     'ROUTE I.value_changed TO M.set_transparency\n',
     "2:50: error: 'NaN' is not a number where browsers read it: kfc takes finite numbers only"),
    ('inf.x3d', '<X3D><Scene><TimeSensor DEF="C" loop="true"/>\n'
     '<ScalarInterpolator DEF="I" key="0 1" keyValue="0 -INF"/>\n'
     '<Material DEF="M"/><ROUTE fromNode="C" fromField="fraction_changed" toNode="I" '
     'toField="set_fraction"/><ROUTE fromNode="I" fromField="value_changed" toNode="M" '
     'toField="transparency"/></Scene></X3D>\n',
     "2:51: error: '-INF' is infinite where browsers read it: kfc takes finite numbers only"),
    ('order_pi.x3dv', '#X3D V3.3 utf8\nPROFILE Immersive\nCOMPONENT Followers:1\n'
     'DEF D PositionDamper { order PI }\n', "4:30: error: expected a number, not 'PI'"),
    ('unit_abc.x3d', '<X3D version="3.3"><head>\n<unit category="angle" name="degree" '
     'conversionFactor="abc"/></head></X3D>\n',
     "2:56: error: UNIT angle 'degree': conversionFactor 'abc' is not a number (browsers read "
     "NaN, which makes every rotation's angle NaN): write one 'degree' in radians"),
    ('unit_inf.x3d', '<X3D version="3.3"><head>\n<unit category="angle" name="degree" '
     'conversionFactor="Infinity"/></head></X3D>\n',
     "2:56: error: UNIT angle 'degree': conversionFactor 'Infinity' is not a finite number "
     "(browsers read infinity, which makes every rotation's angle NaN): write one 'degree' in "
     "radians"),
]


def errors(a, checks):
    for name, text, expected in ERRORS:
        path = os.path.join(a.work, name)
        with open(path, 'w') as f:
            f.write(text)
        out = path + '.kfb'
        r = run([a.kfc, path, '-o', out])
        checks.check(r.returncode == 1 and r.stderr.strip() == '%s:%s' % (path, expected)
                     and not os.path.exists(out),
                     '%s: exit 1 with %r, got %d %r' % (name, expected, r.returncode, r.stderr))
    # Within the bound: 3,600 tracks from 120 ROUTEs (at most 6016).
    path = os.path.join(a.work, 'fan60.x3dv')
    with open(path, 'w') as f:
        f.write(fan_scene(60, 60))
    r = run([a.kfc, path, '-o', path + '.kfb'])
    checks.check(r.returncode == 0 and not r.stderr, '60 by 60 fan: %d %r' % (r.returncode, r.stderr))
    # A gzip stream that breaks off.
    path = os.path.join(a.work, 'cut.x3dz')
    with open(path, 'wb') as f:
        f.write(gzip.compress(b'<X3D><Scene/></X3D>' * 50)[:30])
    r = run([a.kfc, path, '-o', path + '.kfb'])
    checks.check(r.returncode == 1 and r.stderr.strip() == path + ': error: the gzip stream is truncated',
                 'truncated gzip: %r' % r.stderr)


NOTES = [
    ('fan_in.x3dv', ["13:1: note: 'Crate.translation' is reached by 2 chains: it keeps the value "
                     "last sent to it, as a browser's field does, not a sum",
                     "56:1: note: PositionDamper 'Settle': order 7 plays as 5 (a damper's is 0 "
                     "to 5)",
                     "57:1: note: ScalarDamper 'Fade': tolerance -5 plays as -1 (the browser's "
                     "own, as any negative one does)"]),
    ('lenient.x3d', ["11:5: note: ColorInterpolator 'Few': 3 values for 5 keys, the last repeated "
                     "for the rest",
                     "12:5: note: PositionInterpolator 'Many': 5 values for 3 keys, the extra ones "
                     "unused"]),
    ('timing.wrl', ["7:1: note: PROTO 'Spinner': prototypes are not imported",
                    "26:1: note: TimeSensor 'Stopped' does not run from the load (its stopTime has "
                    "passed) and no ROUTE starts it: its controller waits at weight 0",
                    "28:1: note: TimeSensor 'Once' is started by ROUTE Knob.touchTime (52:1): its "
                    "controller waits at weight 0 for the host to start it",
                    "59:1: note: ROUTE Logic.level TO Beam.set_fraction skipped: chains fed by a "
                    "Script are not imported",
                    "39:1: note: Script Logic: not run"]),
]


def named(at, word, value):
    """The warning for a number written by name (PI, SQRT2, ...)."""
    return ("%s: warning: '%s' read as %s, as browsers do: X3D writes numbers in digits "
            "[-Wx3d-lenient]" % (at, word, value))


# The warnings of the reference scenes of what X3D's grammar does not allow.
LENIENT = [
    ('lenient_vrml.wrl', [
        "7:1: warning: UNIT applied in a VRML97 file, as browsers do: UNIT is X3D's (3.3 and "
        "later); write the header '#X3D V3.3 utf8' [-Wx3d-lenient]",
        "7:6: warning: unknown unit category 'angel': the UNIT is ignored, as browsers do (X3D's "
        "are angle, force, length and mass); did you mean 'angle'? [-Wx3d-unknown]",
        '9:1: warning: a second UNIT angle replaces the first (8:1), as browsers do: X3D allows '
        'one per category [-Wx3d-lenient]',
        "9:17: warning: UNIT angle 'grad': the conversion factor -0.0157079633 is not positive "
        "(it is one 'grad' in radians), applied as browsers do [-Wx3d-lenient]",
        "10:18: warning: UNIT length 'foot': the conversion factor 0 is not positive (it is one "
        "'foot' in metres), applied as browsers do [-Wx3d-lenient]",
        "16:36: warning: 'false' read as FALSE, as browsers do: VRML97 writes FALSE "
        "[-Wx3d-lenient]",
        "21:11: warning: 'true' read as TRUE, as browsers do: VRML97 writes TRUE [-Wx3d-lenient]",
        "22:39: warning: 'true' read as TRUE, as browsers do: VRML97 writes TRUE [-Wx3d-lenient]",
        "23:45: warning: 'true' read as TRUE, as browsers do: VRML97 writes TRUE [-Wx3d-lenient]",
        "23:58: warning: 'true' read as TRUE, as browsers do: VRML97 writes TRUE [-Wx3d-lenient]"]),
    ('lenient_units.x3d', [
        '5:5: warning: UNIT applied in a scene of version 3.2 (2:35), as browsers do: UNIT needs '
        'X3D 3.3 or later; make the version 3.3 [-Wx3d-lenient]',
        "5:21: warning: unknown unit category 'Angle': the UNIT is ignored, as browsers do (X3D's "
        "are angle, force, length and mass); did you mean 'angle'? [-Wx3d-unknown]",
        '7:5: warning: a second UNIT angle replaces the first (6:5), as browsers do: X3D allows '
        'one per category [-Wx3d-lenient]',
        "7:58: warning: conversionFactor '6.283185307179586 radians' read as 6.28318531, as "
        "browsers do: write the number alone [-Wx3d-lenient]",
        '8:5: warning: <unit> without name ignored, as browsers do [-Wx3d-lenient]',
        "9:58: warning: UNIT mass 'stone': conversionFactor 'heavy' is not a number (browsers "
        "read NaN): write one 'stone' in kilograms [-Wx3d-lenient]",
        '13:5: warning: <unit> in <Scene> ignored, as browsers do: it belongs in the <head> of '
        '<X3D>, before the scene [-Wx3d-lenient]']),
    ('named_numbers.x3dv', [
        named('10:38', 'PI', '3.14159265'),
        named('13:29', 'PI1_2', '1.57079633'),
        named('13:36', 'SQRT1_2', '0.707106781'),
        named('13:46', 'SQRT1_2', '0.707106781'),
        named('13:54', '-pi3_4', '-2.35619449'),
        named('15:39', 'Sqrt1_2', '0.707106781'),
        named('15:62', '+SQRT1_2', '0.707106781'),
        named('15:73', 'pi1_4', '0.785398163'),
        named('16:64', 'pi1_4', '0.785398163'),
        named('16:70', 'PI5_3', '5.23598776'),
        named('16:76', '-PI6_4', '-4.71238898'),
        named('17:57', 'PI7_4', '5.49778714'),
        named('17:88', 'PI2_3', '2.0943951')]),
    ('named_attributes.x3d', [
        named('11:68', '-PI1_4', '-0.785398163'),
        named('11:82', 'pi2_3', '2.0943951'),
        named('12:59', '-Sqrt2', '-1.41421356'),
        named('12:91', 'PI4_3', '4.1887902'),
        named('12:97', 'SQRT1_2', '0.707106781')]),
]


# Scenes whose Script kfc notes after reading the rest: the notes still
# come in the order of the file.
ORDER = [
    ('order.x3dv', '#X3D V3.3 utf8\nPROFILE Immersive\nScript { url "x.js" }\nInline { url "a.x3d" }\n',
     ['3:1: note: Script: not run', '4:1: note: Inline: the scene it loads is not imported']),
    ('order.x3d', '<X3D profile="Immersive" version="3.3"><Scene>\n<Script DEF="S" url=\'"x.js"\'/>\n'
     '<Inline url=\'"a.x3d"\'/>\n</Scene></X3D>\n',
     ['2:1: note: Script S: not run', '3:1: note: Inline: the scene it loads is not imported']),
]


def note_lines(a, src):
    r = run([a.kfc, '-v', src, '-o', os.path.join(a.work, 'notes.kfb')])
    return [l for l in r.stderr.splitlines() if ': note: ' in l]


def in_order(src, lines):
    at = [tuple(int(x) for x in l[len(src) + 1:].split(':')[:2]) for l in lines]
    return at == sorted(at)


def notes(a, checks):
    for name, expected in NOTES:
        src = os.path.join(DATA, name)
        lines = note_lines(a, src)
        for e in expected:
            checks.check(src + ':' + e in lines, '%s: -v notes %r (got %s)' % (name, e, lines))
        checks.check(in_order(src, lines), '%s: -v notes in the order of the file: %s'
                     % (name, lines))
        # Gzipped, the same.
        gz = os.path.join(a.work, name + '.gz')
        with open(src, 'rb') as f, gzip.open(gz, 'wb') as g:
            g.write(f.read())
        checks.check(note_lines(a, gz) == [gz + l[len(src):] for l in lines],
                     '%s gzipped: the same notes' % name)
    for name, text, expected in ORDER:
        src = os.path.join(a.work, name)
        with open(src, 'w') as f:
            f.write(text)
        lines = note_lines(a, src)
        checks.check(lines == [src + ':' + e for e in expected],
                     '%s: -v notes %s, got %s' % (name, expected, lines))
    # What lenient.x3d animates and kfc drops (as X_ITE does: the recording
    # shows Box.translation still) is a warning, in the order of the file,
    # whatever order the import meets them in.
    src = os.path.join(DATA, 'lenient.x3d')
    r = run([a.kfc, src, '-o', os.path.join(a.work, 'lenient.kfb')])
    want = ["10:5: warning: TimeSensor 'Broken' skipped: cycleInterval 0 is not positive "
            "[-Wx3d-dropped]",
            "13:5: warning: ScalarInterpolator 'Empty' has no keys: it sends no value, skipped "
            "[-Wx3d-dropped]",
            "17:5: warning: ROUTE Clock.fraction TO Turn.set_fraction dropped: TimeSensor has no "
            "field 'fraction' (only fraction_changed, which takes no alias) [-Wx3d-unknown]",
            "21:5: warning: ROUTE Many.value TO Box.set_translation dropped: PositionInterpolator "
            "has no field 'value' (only value_changed, which takes no alias) [-Wx3d-unknown]",
            "24:5: warning: ROUTE Nobody.value_changed TO Box.scale dropped: no node is named "
            "'Nobody' [-Wx3d-unknown]"]
    checks.check(r.returncode == 0 and r.stderr.splitlines() == [src + ':' + w for w in want],
                 'lenient.x3d: its warnings, got %d %r' % (r.returncode, r.stderr))
    # With -v its notes take their places among the warnings: every line
    # that names a place in the file, in the order of the file.
    r = run([a.kfc, '-v', src, '-o', os.path.join(a.work, 'lenient.kfb')])
    placed = [l[len(src) + 1:] for l in r.stderr.splitlines() if l.startswith(src + ':')]
    places = [tuple(int(x) for x in l.split(':')[:2]) for l in placed]
    kinds = [l.split(': ')[1] for l in placed]
    checks.check(r.returncode == 0 and places == sorted(places) and
                 kinds == ['warning', 'note', 'note', 'note'] + ['warning'] * 4,
                 'lenient.x3d -v: notes and warnings in the order of the file, got %r' % placed)
    # What X3D's grammar does not allow in the LENIENT scenes, read as X_ITE
    # reads it (the recordings show what it plays then), is a warning each;
    # -Werror makes each scene fail.
    for name, want in LENIENT:
        src = os.path.join(DATA, name)
        out = os.path.join(a.work, name + '.kfb')
        r = run([a.kfc, src, '-o', out])
        checks.check(r.returncode == 0 and r.stderr.splitlines() == [src + ':' + w for w in want],
                     '%s: its warnings, got %d %r' % (name, r.returncode, r.stderr))
        if os.path.exists(out):
            os.remove(out)
        r = run([a.kfc, src, '-o', out, '-Werror'])
        checks.check(r.returncode == 1 and r.stderr.splitlines()[:1] == [
            src + ':' + want[0].replace(': warning: ', ': error: ', 1).replace(' [-W', ' [-Werror=')]
            and not os.path.exists(out), '%s -Werror: fails at the first, got %d %r'
            % (name, r.returncode, r.stderr))


# fixtures/x3d/door.x3d, in which each case below makes one mistake.
DOOR = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE X3D PUBLIC "ISO//Web3D//DTD X3D 3.3//EN" "http://www.web3d.org/specifications/x3d-3.3.dtd">
<X3D profile="Immersive" version="3.3">
  <head><meta name="description" content="A door that swings open when touched, a lamp that pulses from the load."/></head>
  <Scene>
    <Transform DEF="Door">
      <TouchSensor DEF="Handle"/>
      <Shape><Appearance><Material DEF="Wood" diffuseColor="0.6 0.4 0.2"/></Appearance><Box size="1 2 0.1"/></Shape>
    </Transform>
    <PointLight DEF="Lamp" location="0 3 0"/>
    <TimeSensor DEF="Opening" cycleInterval="1.5"/>
    <TimeSensor DEF="Pulse" cycleInterval="2" loop="true"/>
    <OrientationInterpolator DEF="Swing" key="0 1" keyValue="0 1 0 0, 0 1 0 -1.5708"/>
    <ScalarInterpolator DEF="Glow" key="0 0.5 1" keyValue="0.4 1 0.4"/>
    <ROUTE fromNode="Handle" fromField="touchTime" toNode="Opening" toField="set_startTime"/>
    <ROUTE fromNode="Opening" fromField="fraction_changed" toNode="Swing" toField="set_fraction"/>
    <ROUTE fromNode="Swing" fromField="value_changed" toNode="Door" toField="set_rotation"/>
    <ROUTE fromNode="Pulse" fromField="fraction_changed" toNode="Glow" toField="set_fraction"/>
    <ROUTE fromNode="Glow" fromField="value_changed" toNode="Lamp" toField="set_intensity"/>
  </Scene>
</X3D>
"""

DOOR_VRML = """#X3D V3.3 utf8
DEF Door Transform { children [ DEF Handle TouchSensor { } ] }
DEF Lamp PointLight { location 0 3 0 }
DEF Pulse TimeSensor { cycleInterval 2 loop TRUE }
DEF Glow ScalarInterpolator { key [0 0.5 1] keyValue [0.4 1 0.4] }
DEF Swing OrientationInterpolator { key [0 1] keyValue [0 1 0 0, 0 1 0 -1.5708] }
ROUTE Pulse.fraction_changed TO Glow.set_fraction
ROUTE Glow.value_changed TO Lamp.set_intensity
ROUTE Pulse.fraction_changed TO Swing.set_fraction
ROUTE Swing.value_changed TO Door.set_rotation
"""

DOOR_VRML97 = DOOR_VRML.replace('#X3D V3.3 utf8', '#VRML V2.0 utf8')

# The door in degrees: its angles are radians times the UNIT's factor.
DOOR_DEGREES = DOOR_VRML.replace('#X3D V3.3 utf8\n', '#X3D V3.3 utf8\n'
                                 'UNIT angle degree 0.017453292519943295\n').replace(
                                     '0 1 0 -1.5708]', '0 1 0 -90]')

# A damper and a chaser following the door's lamp and handle.
DOOR_FOLLOWERS = DOOR_VRML.replace('#X3D V3.3 utf8\n', '#X3D V3.3 utf8\nPROFILE Immersive\n'
                                   'COMPONENT Followers:1\n') + (
    'DEF Dim ScalarDamper { tau 0.3 }\nDEF Slide PositionChaser { duration 1.5 }\n'
    'ROUTE Dim.value_changed TO Lamp.set_intensity\n'
    'ROUTE Slide.value_changed TO Door.set_translation\n')

# The followers and a chaser turning a knob.
DOOR_TURN = DOOR_FOLLOWERS + (
    'DEF Knob Transform { }\nDEF Turn OrientationChaser { initialDestination 0 1 0 1.5708 }\n'
    'ROUTE Turn.value_changed TO Knob.set_rotation\n')

# (name, scene, what is changed, what to, warning's name, LINE:COL: MESSAGE)
WARNINGS = [
    # A follower's destination from an interpolator: the scene moves it,
    # and kfb's followers take destinations from the host alone.
    ('follower_chain.x3dv', DOOR_FOLLOWERS, 'ROUTE Slide.value_changed TO Door.set_translation\n',
     'ROUTE Slide.value_changed TO Door.set_translation\n'
     'ROUTE Glow.value_changed TO Dim.set_destination\n', 'x3d-dropped',
     "17:1: ROUTE Glow.value_changed TO Dim.set_destination dropped: kfb's followers take "
     "set_destination from the host, not from a ScalarInterpolator's value_changed, so "
     "ScalarDamper 'Dim' moves only as the host sends it"),
    # Keys as milliseconds, and a follower's rotation in degrees, as in YAML.
    ('ms_keys.x3d', DOOR, 'key="0 0.5 1"', 'key="0 500 1000"', 'fraction-range',
     '14:41: key 1 (500) is outside [0, 1] (and 1 more key): the fraction a TimeSensor gives '
     'never reaches it (cycleInterval sets the time)'),
    ('turn_degrees.x3dv', DOOR_TURN, '0 1 0 1.5708 }', '0 1 0 90 }', 'angle-range',
     "18:49: OrientationChaser 'Turn' initialDestination has an angle of 90, more than a turn: "
     'angles are radians (90 degrees is 1.5708)'),
    # Times of many minutes: written in milliseconds? (X3D has no speed.)
    ('long_cycle.x3d', DOOR, 'cycleInterval="2" loop', 'cycleInterval="2000" loop',
     'long-duration', '12:44: a cycleInterval of 2000 s is 33.3 minutes: TimeSensor times are '
     'seconds (milliseconds?)'),
    ('long_tau.x3dv', DOOR_FOLLOWERS, 'tau 0.3', 'tau 300', 'long-duration',
     '13:28: a tau of 300 s is 5 minutes: follower times are seconds (milliseconds?)'),
    # VRML's spelling of a boolean in XML, which browsers read too.
    ('loop_upper.x3d', DOOR, 'cycleInterval="2" loop="true"', 'cycleInterval="2" loop="TRUE"',
     'x3d-lenient', "12:53: 'TRUE' read as true, as browsers do: XML writes true"),
    ('long_chase.x3dv', DOOR_FOLLOWERS, 'duration 1.5', 'duration 1500', 'long-duration',
     '14:37: a duration of 1500 s is 25 minutes: follower times are seconds (milliseconds?)'),
    ('route_node.x3d', DOOR, 'toNode="Glow"', 'toNode="Glw"', 'x3d-unknown',
     "18:5: ROUTE Pulse.fraction_changed TO Glw.set_fraction dropped: no node is named 'Glw'; "
     "did you mean 'Glow'?"),
    ('route_from.x3d', DOOR, 'fromField="fraction_changed" toNode="Glow"',
     'fromField="fraction_chnged" toNode="Glow"', 'x3d-unknown',
     "18:5: ROUTE Pulse.fraction_chnged TO Glow.set_fraction dropped: TimeSensor has no field "
     "'fraction_chnged'; did you mean 'fraction_changed'?"),
    ('route_value.x3d', DOOR, 'fromNode="Glow" fromField="value_changed"',
     'fromNode="Glow" fromField="valu_changed"', 'x3d-unknown',
     "19:5: ROUTE Glow.valu_changed TO Lamp.set_intensity dropped: ScalarInterpolator has no "
     "field 'valu_changed'; did you mean 'value_changed'?"),
    ('node_type.x3d', DOOR, '<ScalarInterpolator DEF', '<ScalarInterpolatr DEF', 'x3d-unknown',
     "14:5: unknown node type 'ScalarInterpolatr': ROUTEs to and from 'Glow' are dropped; did "
     "you mean 'ScalarInterpolator'?"),
    ('target_type.x3d', DOOR, '<PointLight DEF', '<PointLigth DEF', 'x3d-unknown',
     "10:5: unknown node type 'PointLigth': ROUTEs to and from 'Lamp' are dropped; did you mean "
     "'PointLight'?"),
    ('key_order.x3d', DOOR, 'key="0 0.5 1"', 'key="0 1 0.5"', 'x3d-dropped',
     "14:5: ScalarInterpolator 'Glow' skipped: key 2 (0.5) is less than the key before it (1)"),
    ('to_field.x3d', DOOR, 'toField="set_intensity"', 'toField="set_intensty"', 'x3d-unknown',
     "19:5: ROUTE Glow.value_changed TO Lamp.set_intensty dropped: PointLight has no field "
     "'set_intensty'; did you mean 'set_intensity'?"),
    ('to_type.x3d', DOOR, 'toField="set_intensity"', 'toField="set_location"', 'x3d-dropped',
     "19:5: ROUTE Glow.value_changed TO Lamp.set_location dropped: ScalarInterpolator sends "
     "SFFloat, PointLight's location takes SFVec3f"),
    ('to_input.x3d', DOOR, 'toNode="Door" toField="set_rotation"',
     'toNode="Door" toField="bboxCenter"', 'x3d-dropped',
     "17:5: ROUTE Swing.value_changed TO Door.bboxCenter dropped: Transform's bboxCenter takes "
     "no events (it is initializeOnly)"),
    # Glow is driven by two sensors: its ROUTE is met twice, reported once.
    ('fan_in.x3d', DOOR, 'toField="set_intensity"/>',
     'toField="set_location"/>\n    <ROUTE fromNode="Opening" fromField="fraction_changed" '
     'toNode="Glow" toField="set_fraction"/>', 'x3d-dropped',
     "19:5: ROUTE Glow.value_changed TO Lamp.set_location dropped: ScalarInterpolator sends "
     "SFFloat, PointLight's location takes SFVec3f"),
    # A ScalarInterpolator as an easing curve between the sensor and the
    # swing: kfb eases through an EaseInEaseOut only, so the swing is lost.
    ('eased.x3dv', DOOR_VRML, 'ROUTE Pulse.fraction_changed TO Swing.set_fraction',
     'DEF Ease ScalarInterpolator { key [0 1] keyValue [0 1] }\n'
     'ROUTE Pulse.fraction_changed TO Ease.set_fraction\n'
     'ROUTE Ease.value_changed TO Swing.set_fraction', 'x3d-dropped',
     "11:1: ROUTE Ease.value_changed TO Swing.set_fraction dropped: kfb plays a TimeSensor's "
     "fraction through at most an EaseInEaseOut, not through a ScalarInterpolator; "
     "OrientationInterpolator 'Swing' and its chain into Door.set_rotation are not imported"),
    # A prototype whose body animates, instanced twice: its first instance
    # says so.
    ('bouncer.wrl', DOOR_VRML97, 'DEF Lamp PointLight',
     'PROTO Bouncer [ ] { DEF T Transform { } DEF C TimeSensor { loop TRUE }\n'
     'DEF I PositionInterpolator { key [0 1] keyValue [0 0 0, 0 1 0] }\n'
     'ROUTE C.fraction_changed TO I.set_fraction ROUTE I.value_changed TO T.translation }\n'
     'Bouncer { } Bouncer { }\nDEF Lamp PointLight', 'x3d-dropped',
     "6:1: instance of prototype 'Bouncer' dropped, with every other instance: kfc does not "
     "expand prototypes, and its body animates (ROUTE I.value_changed TO T.translation, 5:44)"),
    ('bouncer.x3d', DOOR, '<PointLight DEF',
     '<ProtoDeclare name="Bouncer"><ProtoBody><Transform DEF="T"/>'
     '<TimeSensor DEF="C" loop="true"/>'
     '<PositionInterpolator DEF="I" key="0 1" keyValue="0 0 0 0 1 0"/>'
     '<ROUTE fromNode="C" fromField="fraction_changed" toNode="I" toField="set_fraction"/>'
     '<ROUTE fromNode="I" fromField="value_changed" toNode="T" toField="translation"/>'
     '</ProtoBody></ProtoDeclare>\n<ProtoInstance name="Bouncer"/><PointLight DEF',
     'x3d-dropped',
     "11:1: instance of prototype 'Bouncer' dropped, with every other instance: kfc does not "
     "expand prototypes, and its body animates (ROUTE I.value_changed TO T.translation, 10:246)"),
    ('attribute.x3d', DOOR, 'keyValue="0.4 1 0.4"', 'keyValu="0.4 1 0.4"', 'x3d-unknown',
     "14:50: ScalarInterpolator 'Glow' has no field 'keyValu' (it is ignored); did you mean "
     "'keyValue'?"),
    ('sensor.x3d', DOOR, 'cycleInterval="2" loop', 'cycleIntervall="2" loop', 'x3d-unknown',
     "12:29: TimeSensor 'Pulse' has no field 'cycleIntervall' (it is ignored); did you mean "
     "'cycleInterval'?"),
    ('route_node.x3dv', DOOR_VRML, 'TO Glow.set_fraction', 'TO Glw.set_fraction', 'x3d-unknown',
     "7:1: ROUTE Pulse.fraction_changed TO Glw.set_fraction dropped: no node is named 'Glw'; "
     "did you mean 'Glow'?"),
    ('attribute.x3dv', DOOR_VRML, 'keyValue [0.4', 'keyValu [0.4', 'x3d-unknown',
     "5:45: ScalarInterpolator 'Glow' has no field 'keyValu' (it is ignored); did you mean "
     "'keyValue'?"),
    ('node_type.x3dv', DOOR_VRML, 'DEF Glow ScalarInterpolator', 'DEF Glow scalarInterpolator',
     'x3d-unknown', "5:1: unknown node type 'scalarInterpolator': ROUTEs to and from 'Glow' are "
     "dropped; did you mean 'ScalarInterpolator'?"),
    ('to_type.x3dv', DOOR_VRML, 'TO Lamp.set_intensity', 'TO Lamp.color', 'x3d-dropped',
     "8:1: ROUTE Glow.value_changed TO Lamp.color dropped: ScalarInterpolator sends SFFloat, "
     "PointLight's color takes SFColor"),
    # An angle in degrees, where X3D's are radians; not at a turn written short.
    ('degrees.x3d', DOOR, '0 1 0 -1.5708"', '0 1 0 -90"', 'angle-range',
     "13:62: OrientationInterpolator 'Swing' key 1 has an angle of -90, more than a turn: angles "
     "are radians (-90 degrees is -1.5708)"),
    ('degrees.x3dv', DOOR_VRML, 'key [0 1] keyValue [0 1 0 0, 0 1 0 -1.5708]',
     'key [0 0.5 1] keyValue [0 1 0 6.2832, 0 1 0 180, 0 1 0 90]', 'angle-range',
     "6:60: OrientationInterpolator 'Swing' key 1 has an angle of 180, more than a turn (and 1 "
     "more key): angles are radians (180 degrees is 3.14159)"),
    # In a scene whose UNIT angle is a degree, what radians make of the angle.
    ('unit_range.x3dv', DOOR_DEGREES, '0 1 0 -90]', '0 1 0 -400]', 'angle-range',
     "7:56: OrientationInterpolator 'Swing' key 1 has an angle of -400, more than a turn: UNIT "
     "angle 'degree' (2:1) makes it -6.98131701 radians"),
    # A USE needs a DEF before it (X_ITE takes a later one, and drops a USE
    # of a name none binds, with a warning).
    ('use.x3dv', DOOR_VRML, 'TouchSensor { } ]', 'TouchSensor { } USE Handel ]', 'x3d-unknown',
     "2:60: USE 'Handel' dropped: no DEF names it; did you mean 'Handle'?"),
    ('use.x3d', DOOR, '<TouchSensor DEF="Handle"/>',
     '<TouchSensor DEF="Handle"/><TouchSensor USE="Handel"/>', 'x3d-unknown',
     "7:34: USE 'Handel' dropped: no DEF names it; did you mean 'Handle'?"),
    ('use_before.x3dv', DOOR_VRML, 'children [ DEF Handle', 'children [ USE Lamp DEF Handle',
     'x3d-unknown', "2:33: USE 'Lamp' comes before its DEF (3:1): X3D wants the DEF first"),
    # What X3D's grammar does not allow and X_ITE reads anyway, read so:
    # XML's true and false in VRML, where a boolean may stand (an X3D
    # node's field, a prototype's, a Script's declaration).
    ('true.x3dv', DOOR_VRML, 'loop TRUE', 'loop true', 'x3d-lenient',
     "4:45: 'true' read as TRUE, as browsers do: ClassicVRML writes TRUE"),
    ('false.wrl', DOOR_VRML97, 'TouchSensor { }', 'TouchSensor { enabled false }', 'x3d-lenient',
     "2:66: 'false' read as FALSE, as browsers do: VRML97 writes FALSE"),
    ('instance.x3dv', DOOR_VRML, 'DEF Lamp PointLight',
     'PROTO P [ initializeOnly SFBool on TRUE ] { Group { } }\nP { on true }\nDEF Lamp PointLight',
     'x3d-lenient', "4:8: 'true' read as TRUE, as browsers do: ClassicVRML writes TRUE"),
    ('declared.x3dv', DOOR_VRML, 'DEF Lamp PointLight',
     'Script { initializeOnly SFBool ready false }\nDEF Lamp PointLight', 'x3d-lenient',
     "3:38: 'false' read as FALSE, as browsers do: ClassicVRML writes FALSE"),
    # UNIT statements X3D does not allow, applied as X_ITE applies them
    # (lenient_vrml.wrl and lenient_units.x3d show what it plays), or
    # dropped as it drops them.
    ('unit.wrl', DOOR_DEGREES, '#X3D V3.3 utf8', '#VRML V2.0 utf8', 'x3d-lenient',
     "2:1: UNIT applied in a VRML97 file, as browsers do: UNIT is X3D's (3.3 and later); write "
     "the header '#X3D V3.3 utf8'"),
    ('unit_old.x3dv', DOOR_DEGREES, '#X3D V3.3 utf8', '#X3D V3.2 utf8', 'x3d-lenient',
     '2:1: UNIT applied in a scene of version 3.2 (1:6), as browsers do: UNIT needs X3D 3.3 or '
     'later; make the version 3.3'),
    ('unit_category.x3dv', DOOR_VRML, '#X3D V3.3 utf8\n',
     '#X3D V3.3 utf8\nUNIT angel degree 0.0174532925\n', 'x3d-unknown',
     "2:6: unknown unit category 'angel': the UNIT is ignored, as browsers do (X3D's are angle, "
     "force, length and mass); did you mean 'angle'?"),
    ('unit_twice.x3dv', DOOR_DEGREES, 'UNIT angle degree 0.017453292519943295\n',
     'UNIT angle degree 0.017453292519943295\nUNIT angle deg 0.017453292519943295\n',
     'x3d-lenient', '3:1: a second UNIT angle replaces the first (2:1), as browsers do: X3D '
     'allows one per category'),
    ('unit_negative.x3dv', DOOR_VRML, '#X3D V3.3 utf8\n', '#X3D V3.3 utf8\nUNIT length foot -0.3048\n',
     'x3d-lenient', "2:18: UNIT length 'foot': the conversion factor -0.3048 is not positive (it "
     "is one 'foot' in metres), applied as browsers do"),
    ('unit_zero.x3dv', DOOR_DEGREES, 'degree 0.017453292519943295', 'degree 0', 'x3d-lenient',
     "2:19: UNIT angle 'degree': the conversion factor 0 is not positive (it is one 'degree' in "
     "radians), applied as browsers do"),
    ('unit_scene.x3d', DOOR, '<Transform DEF="Door">',
     '<unit category="angle" name="degree" conversionFactor="0.0174532925"/><Transform DEF="Door">',
     'x3d-lenient', '6:5: <unit> in <Scene> ignored, as browsers do: it belongs in the <head> of '
     '<X3D>, before the scene'),
    ('unit_name.x3d', DOOR, '<head>', '<head><unit category="angle" conversionFactor="0.01"/>',
     'x3d-lenient', '4:9: <unit> without name ignored, as browsers do'),
    ('unit_suffix.x3d', DOOR, '<head>',
     '<head><unit category="length" name="cm" conversionFactor="0.01 m"/>', 'x3d-lenient',
     "4:61: conversionFactor '0.01 m' read as 0.01, as browsers do: write the number alone"),
    ('unit_nan.x3d', DOOR, '<head>',
     '<head><unit category="mass" name="stone" conversionFactor="heavy"/>', 'x3d-lenient',
     "4:62: UNIT mass 'stone': conversionFactor 'heavy' is not a number (browsers read NaN): "
     "write one 'stone' in kilograms"),
    ('unit_old.x3d', DOOR, 'version="3.3">\n  <head>',
     'version="3.2">\n  <head><unit category="length" name="cm" conversionFactor="0.01"/>',
     'x3d-lenient', '4:9: UNIT applied in a scene of version 3.2 (3:35), as browsers do: UNIT '
     'needs X3D 3.3 or later; make the version 3.3'),
    ('unit_category.x3d', DOOR, '<head>',
     '<head><unit category="Angle" name="degree" conversionFactor="0.0174532925"/>', 'x3d-unknown',
     "4:25: unknown unit category 'Angle': the UNIT is ignored, as browsers do (X3D's are angle, "
     "force, length and mass); did you mean 'angle'?"),
    ('unit_twice.x3d', DOOR, '<head>', '<head><unit category="length" name="cm" '
     'conversionFactor="0.01"/><unit category="length" name="mm" conversionFactor="0.001"/>',
     'x3d-lenient', '4:68: a second UNIT length replaces the first (4:9), as browsers do: X3D '
     'allows one per category'),
]

# Mistakes in what kfc does not import stay -v notes (NAME, scene, change,
# to, the note); a prototype's fields and a Script's are not known, so
# not checked.
QUIET = [
    ('start.x3d', DOOR, 'fromNode="Handle"', 'fromNode="Handel"',
     "15:5: note: ROUTE skipped: no node is named 'Handel'"),
    ('proto.x3d', DOOR, '<PointLight DEF="Lamp" location="0 3 0"/>',
     '<ProtoDeclare name="Light"><ProtoBody><PointLight/></ProtoBody></ProtoDeclare>'
     '<ProtoInstance name="Light" DEF="Lamp"/>',
     "10:5: note: ProtoDeclare 'Light': prototypes are not imported"),
    ('proto.x3dv', DOOR_VRML, 'DEF Lamp PointLight {',
     'PROTO Light [ inputOutput SFFloat glow 0 ] { PointLight { intensity IS glow } }\n'
     'DEF Lamp Light {', "3:1: note: PROTO 'Light': prototypes are not imported"),
    ('script.x3dv', DOOR_VRML, 'TO Lamp.set_intensity', 'TO Run.level\n'
     'DEF Run Script { inputOnly SFFloat level }', "9:1: note: Script Run: not run"),
    ('no_values.x3d', DOOR, ' keyValue="0.4 1 0.4"', '',
     "14:5: note: ScalarInterpolator 'Glow': no keyValue for its 3 keys: each plays 0"),
    # A quarter turn in degrees is no angle over a turn.
    ('degrees.x3dv', DOOR_DEGREES, '0 1 0 -90]', '0 1 0 -90]',
     "2:1: note: UNIT angle 'degree': the angles of rotations are read in 'degree', 0.0174532925 "
     "radians each"),
    # A USE of a name an IMPORT binds, and one in a prototype's body, whose
    # names are its own.
    ('import.x3dv', DOOR_VRML, 'DEF Lamp PointLight',
     'DEF Scenery Inline { }\nIMPORT Scenery.Sun AS Sky\nGroup { children [ USE Sky ] }\n'
     'PROTO Lit [ ] { Group { children [ DEF Bulb PointLight { } USE Bulb ] } }\n'
     'DEF Lamp PointLight', "4:1: note: IMPORT is not followed: names it binds are not imported"),
]


def warnings(a, checks):
    for name, scene, old, new, warning, expected in WARNINGS:
        checks.check(scene.count(old) == 1, '%s: %r is in the scene once' % (name, old))
        path = os.path.join(a.work, name)
        with open(path, 'w') as f:
            f.write(scene.replace(old, new))
        out = path + '.kfb'
        at, message = expected.split(': ', 1)
        for args, status, kind, suffix in (([], 0, 'warning', '-W'),
                                           (['-Werror'], 1, 'error', '-Werror='),
                                           (['-Werror=' + warning], 1, 'error', '-Werror=')):
            if os.path.exists(out):
                os.remove(out)
            r = run([a.kfc, path, '-o', out] + args)
            want = '%s:%s: %s: %s [%s%s]' % (path, at, kind, message, suffix, warning)
            checks.check(r.returncode == status and r.stderr.splitlines() == [want] and
                         os.path.exists(out) == (status == 0),
                         '%s %s: exit %d with %r, got %d %r' % (name, ' '.join(args), status, want,
                                                                 r.returncode, r.stderr))
        r = run([a.kfc, path, '-o', out, '-Wno-' + warning])
        checks.check(r.returncode == 0 and not r.stderr, '%s -Wno-%s: %r' % (name, warning,
                                                                            r.stderr))
    # A UNIT angle of factor 0 (unit_zero.x3dv, above) makes every angle 0,
    # as X_ITE plays it: the door does not turn.
    path = os.path.join(a.work, 'unit_zero.x3dv')
    r = run([a.kfc, path, '-o', path + '.kfb'])
    r = run([a.kfplay, path + '.kfb', 'animate', '0.5', '1.5'])
    checks.check(r.returncode == 0 and [l for l in r.stdout.splitlines() if 'Door' in l] ==
                 ['0.5 Door.orientation 0 0 0 1', '1.5 Door.orientation 0 0 0 1'],
                 'unit_zero.x3dv: the door stays at no rotation: %r' % r.stdout)
    for name, scene, old, new, expected in QUIET:
        checks.check(scene.count(old) == 1, '%s: %r is in the scene once' % (name, old))
        path = os.path.join(a.work, name)
        with open(path, 'w') as f:
            f.write(scene.replace(old, new))
        r = run([a.kfc, path, '-o', path + '.kfb', '-Werror'])
        checks.check(r.returncode == 0 and not r.stderr, '%s -Werror: %r' % (name, r.stderr))
        r = run([a.kfc, path, '-o', path + '.kfb', '-v'])
        lines = [l for l in r.stderr.splitlines() if ': note: ' in l]
        checks.check(path + ':' + expected in lines, '%s: -v notes %r (got %s)' % (name, expected,
                                                                                   lines))


def far_phase(a, checks):
    """A looping sensor's phase at world times as X3D's are, seconds since
    1970: the fraction X3D gives in double, fmod(W, cycleInterval) /
    cycleInterval, for cycles float32 cannot hold (0.35 as float32 is a
    whole cycle off within 8 months)."""
    for cycle in ('0.35', '4.2'):
        path = os.path.join(a.work, 'far_phase_%s.x3dv' % cycle)
        with open(path, 'w') as f:
            f.write('#X3D V3.3 utf8\nDEF T TimeSensor { cycleInterval %s loop TRUE }\n'
                    'DEF S ScalarInterpolator { key [0 1] keyValue [0 1] }\n'
                    'DEF L DirectionalLight { }\n'
                    'ROUTE T.fraction_changed TO S.set_fraction\n'
                    'ROUTE S.value_changed TO L.set_intensity\n' % cycle)
        r = run([a.kfc, path, '-o', path + '.kfb'])
        if not checks.check(r.returncode == 0, '%s: %s' % (path, r.stderr)):
            continue
        times = (10.1, 100000.1, 1800000000.1)
        r = run([a.kfplay, path + '.kfb', 'animate'] + ['%.17g' % w for w in times])
        got = [float(l.split()[2]) for l in r.stdout.splitlines() if 'L.intensity' in l]
        want = [math.fmod(w, float(cycle)) / float(cycle) for w in times]
        checks.check(len(got) == len(want) and
                     all(abs(g - w) < 1e-6 for g, w in zip(got, want)),
                     'cycleInterval %s at world times %s: fractions %s, want %s' %
                     (cycle, times, got, want))


LATE = ('#X3D V3.3 utf8\nDEF T TimeSensor { cycleInterval 1 %s }\n'
        'DEF S ScalarInterpolator { key [0 1] keyValue [10 20] }\nDEF M Material { }\n'
        'ROUTE T.fraction_changed TO S.set_fraction\nROUTE S.value_changed TO M.set_transparency\n')
# The same interpolator also driven by a sensor looping from the load, with a
# cycle of 4: the field blends latest.
LATE_FAN = LATE.replace('DEF S ', 'DEF A TimeSensor { cycleInterval 4 loop TRUE }\nDEF S ') + \
    'ROUTE A.fraction_changed TO S.set_fraction\n'
FOREVER = '1.7976931348623157e+308'  # DBL_MAX, as kfc -d writes it


def load_before_start(a, checks):
    """A host that loads a scene before a looping sensor's startTime (world
    time 0 here, startTime 2) sees the sensor play nothing until then, as
    X3D's sensor is inactive: M.transparency (a custom property: 0 until a
    track plays it) is 0 at 0.25, 1 and 1.99, and at fractions 0.25 and 0.5
    (10 + 10 f) at 2.25 and 3.5, where a controller always active would
    wrap the negative position into a cycle. Also the host rules of
    docs/import-x3d.md made ahead of the load, the YAML round trip of the
    interval's end (the largest double), and a field two sensors reach."""
    def build(name, scene):
        path = os.path.join(a.work, name)
        with open(path, 'w') as f:
            f.write(scene)
        r = run([a.kfc, '-v', path, '-o', path + '.kfb'])
        d = run([a.kfc, '--decompile', path + '.kfb', '-o', '-'])
        checks.check(r.returncode == 0 and d.returncode == 0, '%s: %s %s' % (name, r.stderr,
                                                                            d.stderr))
        return path, r.stderr, d.stdout

    def played(name, yaml_text, times):
        path = os.path.join(a.work, name + '.yaml')
        with open(path, 'w') as f:
            f.write(yaml_text)
        r = run([a.kfc, path, '-o', path + '.kfb'])
        r = run([a.kfplay, path + '.kfb', 'animate'] + times)
        return [float(l.split()[2]) for l in r.stdout.splitlines() if 'M.transparency' in l]

    def expect(what, got, want):
        checks.check(len(got) == len(want) and all(abs(g - w) < 1e-5 for g, w in zip(got, want)),
                     '%s: %s, want %s' % (what, got, want))

    times = ['0.25', '1', '1.99', '2.25', '3.5']
    path, err, text = build('late.x3dv', LATE % 'loop TRUE startTime 2')
    line = '  T: {active_interval: [2, %s], reference: [2, 0]}' % FOREVER
    checks.check(line in text.splitlines() and float(FOREVER) == sys.float_info.max,
                 'late.x3dv: the controller is active from the startTime on: %s' % text)
    checks.check("late.x3dv:2:1: note: TimeSensor 'T' loops from its startTime 2: its controller "
                 "is active from that world time on, and plays nothing before it" in err,
                 'late.x3dv: -v notes the interval: %s' % err)
    again = os.path.join(a.work, 'late.again.kfb')
    with open(again + '.yaml', 'w') as f:
        f.write(text)
    r = run([a.kfc, again + '.yaml', '-o', again])
    with open(path + '.kfb', 'rb') as f1, open(again, 'rb') as f2:
        checks.check(r.returncode == 0 and f1.read() == f2.read(),
                     'late.x3dv: decompile -> compile gives the same bytes')
    expect('late.x3dv from world time 0', played('late', text, times), [0, 0, 0, 12.5, 15])
    # set_stopTime 3 known ahead: the interval keeps its start. The field
    # keeps the value of the last update it played (2.5: fraction 0.5).
    expect('late.x3dv stopped at 3', played('late_stop', text.replace(line, line.replace(
        FOREVER, '3')), ['1', '2.25', '2.5', '3.5']), [0, 12.5, 15, 15])
    # Disabled, and enabled by the host at 1 (weight 1): still nothing
    # before its startTime.
    path, err, text = build('late_off.x3dv', LATE % 'loop TRUE startTime 2 enabled FALSE')
    checks.check('  T: {weight: 0, active_interval: [2, %s], reference: [2, 0]}' % FOREVER
                 in text.splitlines(), 'late_off.x3dv: weight 0, the interval: %s' % text)
    expect('late_off.x3dv enabled at 1', played('late_on', text.replace('weight: 0, ', ''),
                                                ['1.5', '2.25', '3.5']), [0, 12.5, 15])
    # A sensor that does not loop still waits at weight 0 (a browser loads
    # after its one cycle); a host that loads first starts it at 1.5, ahead.
    path, err, text = build('late_once.x3dv', LATE % 'startTime 1.5')
    checks.check('  T: {weight: 0, reference: [1.5, 0]}' in text.splitlines() and
                 "late_once.x3dv:2:1: note: TimeSensor 'T' does not run from the load (it does not "
                 "loop) and no ROUTE starts it: its controller waits at weight 0" in err,
                 'late_once.x3dv: waits at weight 0: %s %s' % (text, err))
    expect('late_once.x3dv started at 1.5', played('late_once', text.replace(
        'weight: 0, ', 'active_interval: [1.5, %s], ' % FOREVER), ['1', '1.75', '3']),
        [0, 12.5, 20])
    # A startTime of 0 or less: no world time of X3D's clock is before it,
    # and the controller keeps the always-active form.
    # (stopTime -1, not its default 0: that would have stopped it.)
    for start, ref in (('0', ''), ('-1', '{reference: [-1, 0]}')):
        path, err, text = build('late_%s.x3dv' % start, LATE % (
            'loop TRUE startTime %s stopTime %s' % (start, start)))
        checks.check(('  T: %s' % (ref or '{}')) in text.splitlines() and
                     'loops from its startTime' not in err,
                     'startTime %s: always active: %s' % (start, text))
    # Two sensors into one field (blend latest): before 2 the one looping
    # from the load sends alone (fractions 1/16, 1/4, 0.4975 of its cycle of
    # 4); from 2 the one started later wins; stopped at 3, it sends nothing
    # and the other's value (3.5 / 4) shows again.
    path, err, text = build('late_fan.x3dv', LATE_FAN % 'loop TRUE startTime 2')
    expect('late_fan.x3dv', played('late_fan', text, times), [10.625, 12.5, 14.975, 12.5, 15])
    expect('late_fan.x3dv stopped at 3', played('late_fan_stop', text.replace(
        'active_interval: [2, %s]' % FOREVER, 'active_interval: [2, 3]'), times),
        [10.625, 12.5, 14.975, 12.5, 18.75])


def main():
    a = driver.arguments()
    checks = driver.Checks()
    with open(os.path.join(DATA, 'scenes.json')) as f:
        manifest = json.load(f)
    worst = {'interpolators': (0.0, ''), 'followers': (0.0, '')}
    for name in sorted(manifest):
        compare_scene(a, checks, name, manifest[name], worst)
    errors(a, checks)
    notes(a, checks)
    warnings(a, checks)
    far_phase(a, checks)
    load_before_start(a, checks)
    print('test_x3d_import: %d checks, %d failed; worst error vs X_ITE: interpolated %.3g (%s), '
          'followers %.3g (%s)' % (checks.count, len(checks.failures), worst['interpolators'][0],
                                   worst['interpolators'][1], worst['followers'][0],
                                   worst['followers'][1]))
    return 1 if checks.failures else 0


if __name__ == '__main__':
    sys.exit(main())
