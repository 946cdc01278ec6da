"""Helpers shared by expected.py and its case modules: HLSL's 32-bit arithmetic in Python."""
import math
import struct


def f32(x):
    """Rounds a Python float to float32 (overflow gives infinity)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def i32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x & 0x80000000 else x


def u32(x):
    return x & 0xFFFFFFFF


def tdiv(a, b):
    """Division truncating toward zero (C, HLSL, OpSDiv)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trem(a, b):
    """Remainder with the sign of the dividend (C, HLSL, OpSRem)."""
    return a - b * tdiv(a, b)


def fbits(x):
    """The bit pattern of x as a float32."""
    return struct.unpack("<I", struct.pack("<f", f32(x)))[0]


def half(bits):
    """The IEEE half in the low 16 bits of `bits`, as a Python float."""
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def smsb(v):
    """firstbithigh on an int (FindSMsb): the highest bit that differs from the sign bit."""
    s = i32(v)
    if s < 0:
        s = ~s
    return s.bit_length() - 1 if s else 0xFFFFFFFF


def reverse32(v):
    return int(format(u32(v), "032b")[::-1], 2)
