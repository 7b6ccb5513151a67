"""Element formats written from their definitions (IEEE 754 binary16/binary32, bfloat16, the OCP and FNUZ 8-bit float
formats of shared/facts/mfma.md and docs/language.md), for the differential tester's inputs and reference. Nothing
here calls tilec or its runtime."""
import bisect
import math
import struct

BYTES = {"f32": 4, "f16": 2, "bf16": 2, "i8": 1, "i32": 4, "fp8": 1, "bf8": 1}
# 8-bit float formats: (exponent bits, mantissa bits, bias, fnuz, ocp_e4m3)
F8_FORMATS = {
    ("fp8", "gfx942"): (4, 3, 8, True, False),   # E4M3FNUZ
    ("bf8", "gfx942"): (5, 2, 16, True, False),  # E5M2FNUZ
    ("fp8", "gfx950"): (4, 3, 7, False, True),   # E4M3FN
    ("bf8", "gfx950"): (5, 2, 15, False, False),  # E5M2 (IEEE-like: exponent all ones is inf/NaN)
}


def f8_decode(byte, fmt):
    e_bits, m_bits, bias, fnuz, e4m3fn = fmt
    sign = -1.0 if byte & 0x80 else 1.0
    exp = (byte >> m_bits) & ((1 << e_bits) - 1)
    man = byte & ((1 << m_bits) - 1)
    if fnuz and byte == 0x80:
        return math.nan
    if e4m3fn and (byte & 0x7F) == 0x7F:
        return math.nan
    if not fnuz and not e4m3fn and exp == (1 << e_bits) - 1:
        return math.copysign(math.inf, sign) if man == 0 else math.nan
    if exp == 0:
        return sign * man * 2.0 ** (1 - bias - m_bits)
    return sign * (1 + man / (1 << m_bits)) * 2.0 ** (exp - bias)


_F8_TABLES = {}


def _f8_table(fmt):
    """Finite non-negative values of a format, sorted, with their codes."""
    if fmt not in _F8_TABLES:
        vals = sorted((f8_decode(b, fmt), b) for b in range(0x80) if math.isfinite(f8_decode(b, fmt)))
        _F8_TABLES[fmt] = ([v for v, _ in vals], [b for _, b in vals])
    return _F8_TABLES[fmt]


def f8_encode(x, fmt):
    """Round to nearest even; beyond the largest finite value (and infinities) saturate; NaN -> the format's NaN."""
    fnuz = fmt[3]
    if math.isnan(x):
        return 0x80 if fnuz else 0x7F
    vals, codes = _f8_table(fmt)
    a = abs(x)
    if a >= vals[-1]:
        code = codes[-1]
    else:
        i = bisect.bisect_left(vals, a)
        if vals[i] == a:
            code = codes[i]
        else:
            lo, hi = i - 1, i
            dlo, dhi = a - vals[lo], vals[hi] - a
            if dlo < dhi or dlo == dhi and codes[lo] % 2 == 0:
                code = codes[lo]
            else:
                code = codes[hi]
    if x < 0 or (x == 0 and math.copysign(1, x) < 0):
        if fnuz and code == 0:
            return 0  # FNUZ has no negative zero
        code |= 0x80
    return code


def round_f32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_f16(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<e", struct.pack("<e", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16_bits_of_f32(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    if (u & 0x7FFFFFFF) > 0x7F800000:
        return (u >> 16) | 0x40
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


def round_bf16(x):
    """From a double: to f32 first (the hardware and the emulator compute bf16 arithmetic in f32), then to bf16."""
    return bf16_value(bf16_bits_of_f32(round_f32(x)))


def to_dtype(x, dt, target):
    """The value `x` (a double) converted to dtype `dt` as C++/tilec casts do, returned as a Python number."""
    if dt == "f32":
        return round_f32(x)
    if dt == "f16":
        return round_f16(x)
    if dt == "bf16":
        return round_bf16(x)
    if dt in ("i8", "i32"):
        return int(x)  # truncation toward zero; the generator keeps values in range
    fmt = F8_FORMATS[(dt, target)]
    return f8_decode(f8_encode(round_f32(x), fmt), fmt)


def pack(values, dt, target):
    """Bytes of `values` (already representable in dt) in dtype dt."""
    if dt == "f32":
        return struct.pack(f"<{len(values)}f", *values)
    if dt == "f16":
        return struct.pack(f"<{len(values)}e", *values)
    if dt == "bf16":
        return struct.pack(f"<{len(values)}H", *(bf16_bits_of_f32(v) for v in values))
    if dt == "i8":
        return struct.pack(f"<{len(values)}b", *values)
    if dt == "i32":
        return struct.pack(f"<{len(values)}i", *values)
    fmt = F8_FORMATS[(dt, target)]
    return bytes(f8_encode(v, fmt) for v in values)


def unpack(data, dt, target):
    n = len(data) // BYTES[dt]
    if dt == "f32":
        return list(struct.unpack(f"<{n}f", data))
    if dt == "f16":
        return list(struct.unpack(f"<{n}e", data))
    if dt == "bf16":
        return [bf16_value(b) for b in struct.unpack(f"<{n}H", data)]
    if dt == "i8":
        return list(struct.unpack(f"<{n}b", data))
    if dt == "i32":
        return list(struct.unpack(f"<{n}i", data))
    fmt = F8_FORMATS[(dt, target)]
    return [f8_decode(b, fmt) for b in data]


def random_values(rng, n, dt, target, limit):
    """n values exactly representable in dt with |v| <= limit (integers for i8/i32, eighths for floats)."""
    if dt in ("i8", "i32"):
        return [rng.randint(-limit, limit) for _ in range(n)]
    if dt in ("fp8", "bf8"):
        vals, _ = _f8_table(F8_FORMATS[(dt, target)])
        ok = [v for v in vals if v <= limit]
        return [rng.choice(ok) * rng.choice((1, -1)) for _ in range(n)]
    return [rng.randint(-8 * limit, 8 * limit) / 8 for _ in range(n)]


def ulp(x, dt, target):
    """Distance from |x| to the next representable value of dt above it (an upper bound of one rounding step)."""
    a = abs(x)
    if dt in ("i8", "i32"):
        return 1
    if dt == "f32":
        m, p, emin = 24, 0, -126
    elif dt == "f16":
        m, emin = 11, -14
    elif dt == "bf16":
        m, emin = 8, -126
    else:
        e_bits, m_bits, bias, _, _ = F8_FORMATS[(dt, target)]
        m, emin = m_bits + 1, 1 - bias
    e = max(math.frexp(a)[1] - 1, emin) if a > 0 else emin
    return 2.0 ** (e - m + 1)


# --- The MX element formats of gfx950's scaled MFMA (OCP MX specification; docs/mx.md) ---

# (exponent bits, mantissa bits) of the 4- and 6-bit formats; none has infinities or NaN.
MX_SMALL = {"fp4x2": (2, 1), "fp6x4": (2, 3), "bf6x4": (3, 2)}


def mx_value(code, dt):
    """The value of one element code of an MX operand dtype: fp8/bf8 as OCP E4M3FN / E5M2; fp4 (E2M1), fp6 (E2M3) and
    bf6 (E3M2) from their fields, bias 2^(e-1) - 1, exponent 0 subnormal."""
    if dt in ("fp8", "bf8"):
        return f8_decode(code, F8_FORMATS[(dt, "gfx950")])
    e, m = MX_SMALL[dt]
    bias = (1 << (e - 1)) - 1
    sign = -1.0 if code >> (e + m) & 1 else 1.0
    exp, man = code >> m & ((1 << e) - 1), code & ((1 << m) - 1)
    if exp == 0:
        return sign * math.ldexp(man, 1 - bias - m)
    return sign * math.ldexp((1 << m) | man, exp - bias - m)


def mx_random_code(rng, dt):
    """A random code of a finite value."""
    bits = 8 if dt in ("fp8", "bf8") else 1 + sum(MX_SMALL[dt])
    while True:
        c = rng.randrange(1 << bits)
        if math.isfinite(mx_value(c, dt)):
            return c


def mx_pack(codes, dt):
    """Codes in K order as the tensor's bytes: fp8/bf8 one per byte; fp4x2 two per byte, the even K value in the low
    nibble; fp6x4/bf6x4 four per 3 bytes, value e of a group at bits 6e .. 6e + 5 of its little-endian 24 bits."""
    if dt in ("fp8", "bf8"):
        return bytes(codes)
    if dt == "fp4x2":
        return bytes(codes[i] | codes[i + 1] << 4 for i in range(0, len(codes), 2))
    out = bytearray()
    for i in range(0, len(codes), 4):
        word = codes[i] | codes[i + 1] << 6 | codes[i + 2] << 12 | codes[i + 3] << 18
        out += word.to_bytes(3, "little")
    return bytes(out)
