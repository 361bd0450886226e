"""pbwire: a protobuf wire-format reader for the Nsight Compute cross-checks
(ncurep_check.py, ncu_stalls_check.py), written from the format alone and
independent of gpulens's own reader (sources/protowire.c)."""


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
