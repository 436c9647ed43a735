# SPDX-License-Identifier: MIT
"""The .kfb framing, for the Python tests that read, size or damage files:
the identifier's size, the fields of the header and of each record, the
section and compression codes, and the version that brought each feature,
all read from formats/kfb_format.h (the one place the format's facts are
written) when this module is imported. A record there is made only of
32-bit words, so a field's offset is four times its place; a record this
module could not read so stops the import, rather than a test reading the
wrong bytes."""
import collections
import os
import re
import struct
import zlib

FORMAT_H = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, 'formats',
                        'kfb_format.h')
with open(FORMAT_H, encoding='utf-8') as _f:
    _TEXT = re.sub(r'/\*.*?\*/', '', _f.read(), flags=re.S)


def _number(name):
    """A `#define NAME 8u` or an enumerator `NAME = 8`."""
    m = (re.search(r'^#define %s\s+(\d+)u?\s*$' % name, _TEXT, re.M) or
         re.search(r'\b%s\s*=\s*(\d+)\b' % name, _TEXT))
    if not m:
        raise ImportError('%s: no number %s' % (FORMAT_H, name))
    return int(m.group(1))


def fields(record):
    """The field names of `typedef struct RECORD {...} RECORD;`, in order."""
    m = re.search(r'typedef struct %s \{(.*?)\} %s;' % (record, record), _TEXT, re.S)
    if not m:
        raise ImportError('%s: no record %s' % (FORMAT_H, record))
    names = re.findall(r'^\s*(?:uint32_t|float)\s+(\w+);\s*$', m.group(1), re.M)
    if len(names) != m.group(1).count(';'):
        raise ImportError('%s: %s has a field that is not one 32-bit word' % (FORMAT_H, record))
    return names


def field_at(record, field):
    """The byte offset of `field` in `record`."""
    return 4 * fields(record).index(field)


def version(major, minor):
    """A version as the header's word holds it (KFB_VERSION)."""
    return major << 16 | minor


def has(word, since):
    """kfb_has: a file of version `word` has what `since` brought."""
    return word >> 16 == since >> 16 and word >= since


IDENTIFIER_SIZE = _number('KFB_IDENTIFIER_SIZE')
HEADER_SIZE = IDENTIFIER_SIZE + 4 * len(fields('kfb_header'))
SECTION_HEADER_SIZE = 4 * len(fields('kfb_section_header'))
SECTION_CRC_SIZE = _number('KFB_SECTION_CRC_SIZE')
SECTION_COUNT = _number('KFB_SECTION_COUNT')
STRINGS, OBJECTS, DATA = (_number('KFB_SECTION_' + s) for s in ('STRINGS', 'OBJECTS', 'DATA'))
OBJECT_HEADER_SIZE = 4 * len(fields('kfb_object'))
COMPRESSION_NONE, COMPRESSION_ZLIB, COMPRESSION_RUNS = (
    _number('KFB_COMPRESSION_' + c) for c in ('NONE', 'ZLIB', 'RUNS'))
VERSION = version(_number('KFB_VERSION_MAJOR'), _number('KFB_VERSION_MINOR'))
# KFB_SINCE_*: SINCE['PIECES'] is the version DATA's stream became pieces.
SINCE = {name: version(int(major), int(minor)) for name, major, minor in re.findall(
    r'^#define KFB_SINCE_(\w+)\s+KFB_VERSION\((\d+),\s*(\d+)\)', _TEXT, re.M)}
if not SINCE:
    raise ImportError('%s: no KFB_SINCE_* versions' % FORMAT_H)


def header_at(field):
    """KFB_HEADER_AT: the file offset of a header field."""
    return IDENTIFIER_SIZE + field_at('kfb_header', field)


def word(data, at):
    return struct.unpack_from('<I', data, at)[0]


def put_word(data, at, value):
    struct.pack_into('<I', data, at, value)


def version_of(data):
    """(major, minor) of the file `data`."""
    w = word(data, header_at('version'))
    return w >> 16, w & 0xFFFF


_SECTION_FIELDS = fields('kfb_section_header')
# A section: its header's offset, its stored bytes' offset, then its
# header's fields (tag, compression, stored_size, raw_size).
Section = collections.namedtuple('Section', ['at', 'stored'] + _SECTION_FIELDS)


def sections(data):
    """The file's sections, in order."""
    out, at = [], HEADER_SIZE
    for _ in range(SECTION_COUNT):
        words = struct.unpack_from('<%dI' % len(_SECTION_FIELDS), data, at)
        s = Section(at, at + SECTION_HEADER_SIZE, *words)
        out.append(s)
        at = s.stored + s.stored_size + SECTION_CRC_SIZE
    return out


def tag_text(tag):
    """A section's tag as its four letters ("DATA")."""
    return struct.pack('<I', tag).decode('latin-1')


def fix_header_crc(data):
    """The header's CRC made again over the bytes before it (a bytearray)."""
    end = header_at('header_crc')
    put_word(data, end, zlib.crc32(bytes(data[:end])))


def fix_section_crc(data, section):
    """The CRC of `section` (from sections()) made again over its header and
    stored bytes."""
    end = section.stored + section.stored_size
    put_word(data, end, zlib.crc32(bytes(data[section.at:end])))
