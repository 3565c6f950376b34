"""PNG files put together from separately compressed horizontal bands.

A board picture is a stack of bands: the top frame, one band per rank, the bottom frame. Most
of them are the same from one move to the next, so each band's compressed bytes are cached and
a picture only compresses the bands it has not seen. A PNG's pixels are one zlib stream of
scanlines (each led by its filter byte, here 0: none, the usual choice for palette images).
Deflate data compressed apart can be joined when every piece but the last ends on a byte
boundary without the "final block" bit, which a sync flush gives; the stream's Adler-32 is
combined from the pieces' own. The decoded picture is the same pixels as a whole-image encode;
the file is a few bytes per band larger, and deflate cannot refer back across bands (a band of
an 8x8 board is about 31 KB of scanlines, as long as deflate's window, so little is lost).
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ADLER_BASE = 65521
_FINAL_EMPTY_BLOCK = b"\x03\x00"   # a final, empty fixed-Huffman block: the stream ends here
_ZLIB_HEADER = {1: b"\x78\x01", 2: b"\x78\x5e", 3: b"\x78\x5e", 4: b"\x78\x5e", 5: b"\x78\x5e",
                6: b"\x78\x9c", 7: b"\x78\xda", 8: b"\x78\xda", 9: b"\x78\xda"}


@dataclass(frozen=True)
class Band:
    """One band's scanlines, compressed: deflate data ending in a sync flush, and the Adler-32
    and length of the uncompressed scanlines (filter bytes included)."""

    data: bytes
    adler: int
    length: int


def compress_scanlines(scanlines: bytes, level: int) -> Band:
    """Scanlines (each its filter byte, then its pixels) as one Band."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = packer.compress(scanlines) + packer.flush(zlib.Z_SYNC_FLUSH)
    return Band(data, zlib.adler32(scanlines), len(scanlines))


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of A+B from those of A and B and the length of B (zlib's adler32_combine)."""
    base = _ADLER_BASE
    rem = second_length % base
    sum1 = first & 0xFFFF
    sum2 = (rem * sum1) % base
    sum1 += (second & 0xFFFF) + base - 1
    sum2 += ((first >> 16) & 0xFFFF) + ((second >> 16) & 0xFFFF) + base - rem
    if sum1 >= base:
        sum1 -= base
    if sum1 >= base:
        sum1 -= base
    if sum2 >= base << 1:
        sum2 -= base << 1
    if sum2 >= base:
        sum2 -= base
    return sum1 | (sum2 << 16)


def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(body, zlib.crc32(kind)))


def header_of(png: bytes) -> bytes:
    """Everything of a PNG file before its first IDAT chunk (signature, IHDR, PLTE...)."""
    if not png.startswith(SIGNATURE):
        raise ValueError("not a PNG file")
    at = len(SIGNATURE)
    while at + 8 <= len(png):
        length = struct.unpack(">I", png[at:at + 4])[0]
        if png[at + 4:at + 8] == b"IDAT":
            return png[:at]
        at += 12 + length
    raise ValueError("a PNG file without pixel data")


def assemble(header: bytes, bands: list[Band], level: int) -> bytes:
    """A whole PNG file: `header` (from header_of), the bands in order as one IDAT, IEND."""
    adler = 1   # the Adler-32 of nothing
    for band in bands:
        adler = adler32_combine(adler, band.adler, band.length)
    stream = b"".join([_ZLIB_HEADER.get(level, b"\x78\x9c"), *(band.data for band in bands),
                       _FINAL_EMPTY_BLOCK, struct.pack(">I", adler)])
    return header + chunk(b"IDAT", stream) + chunk(b"IEND", b"")
