# SPDX-License-Identifier: Apache-2.0
"""A minimal PNG decoder (standard library only) for the screenshots of test_browser.py:
8-bit grayscale, RGB, gray+alpha and RGBA, non-interlaced, all five row filters."""
import struct
import zlib

_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}


class Image:
    def __init__(self, width, height, channels, rows):
        self.width, self.height, self.channels, self.rows = width, height, channels, rows

    def rgb(self, x, y):
        row, c = self.rows[y], self.channels
        if c in (1, 2):
            v = row[x * c]
            return v, v, v
        return row[x * c], row[x * c + 1], row[x * c + 2]

    def count(self, predicate, box=None):
        """Pixels in `box` (x, y, w, h; default the whole image) whose (r, g, b) satisfy
        `predicate`."""
        x0, y0, w, h = box or (0, 0, self.width, self.height)
        x1, y1 = min(self.width, int(x0 + w)), min(self.height, int(y0 + h))
        x0, y0 = max(0, int(x0)), max(0, int(y0))
        c, n = self.channels, 0
        for y in range(y0, y1):
            seg = self.rows[y][x0 * c:x1 * c]
            if c in (1, 2):
                n += sum(1 for v in seg[0::c] if predicate(v, v, v))
            else:
                n += sum(1 for r, g, b in zip(seg[0::c], seg[1::c], seg[2::c]) if predicate(r, g, b))
        return n


def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def _add_bytes(a, b):
    """Bytewise (a + b) mod 256 of two equal-length byte strings, without a Python loop: on
    big integers, add the low 7 bits of every byte (no carry crosses a byte) and xor the top bits
    back in."""
    n = len(a)
    low = int.from_bytes(b"\x7f" * n, "big")
    x, y = int.from_bytes(a, "big"), int.from_bytes(b, "big")
    return bytearray((((x & low) + (y & low)) ^ ((x ^ y) & ~low & ((1 << (8 * n)) - 1)))
                     .to_bytes(n, "big"))


def decode(data, max_rows=None):
    """Decodes a PNG; with `max_rows`, only the first rows (the rest of the image is cut)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or interlace or color not in _CHANNELS:
        raise ValueError("unsupported PNG (depth %d, color %d, interlace %d)" %
                         (depth, color, interlace))
    bpp = _CHANNELS[color]
    stride = width * bpp
    height = min(height, max_rows or height)
    raw = zlib.decompressobj().decompress(b"".join(idat), height * (stride + 1))
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for c in range(bpp):
                acc = 0
                for i in range(c, stride, bpp):
                    acc = (acc + line[i]) & 0xFF
                    line[i] = acc
        elif kind == 2:
            line = _add_bytes(line, prev)
        elif kind == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up_left = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, prev[i], up_left)) & 0xFF
        elif kind != 0:
            raise ValueError("bad PNG filter %d" % kind)
        rows.append(line)
        prev = line
    return Image(width, height, bpp, rows)
