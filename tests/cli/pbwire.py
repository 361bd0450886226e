"""pbwire: the protobuf wire format, written from the format alone and
independent of gpulens's own reader (sources/protowire.c): a reader for the
Nsight Compute cross-checks (ncurep_check.py, ncu_stalls_check.py), and a
writer for what builds reports (fixtures/mk_ncu.py, the fuzz seeds of
tests/fuzz/reader_seeds.py)."""
import struct

# ---- reading ---------------------------------------------------------------


def varint(buf, pos):
    """The base-128 varint at buf[pos]: (value, position after it)."""
    shift = value = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def fields(buf):
    """Yields (field number, wire type, value) for each field of one
    message: an integer for varints, bytes for the other wire types."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = varint(buf, pos)
        elif wire == 1:
            val, pos = buf[pos:pos + 8], pos + 8
        elif wire == 5:
            val, pos = buf[pos:pos + 4], pos + 4
        elif wire == 2:
            n, pos = varint(buf, pos)
            val, pos = buf[pos:pos + n], pos + n
        else:
            raise ValueError("wire type %d" % wire)
        yield num, wire, val


# ---- writing ---------------------------------------------------------------


def enc_varint(v):
    """v as a base-128 varint."""
    b = b""
    while True:
        c = v & 0x7f
        v >>= 7
        if v:
            b += bytes([c | 0x80])
        else:
            return b + bytes([c])


def fvar(num, v):
    """Field num as a varint."""
    return enc_varint(num << 3) + enc_varint(v)


def fbytes(num, b):
    """Field num as length-delimited bytes (a str is UTF-8 encoded)."""
    if isinstance(b, str):
        b = b.encode()
    return enc_varint(num << 3 | 2) + enc_varint(len(b)) + b


def fdouble(num, d):
    """Field num as a 64-bit double."""
    return enc_varint(num << 3 | 1) + struct.pack("<d", d)
