"""JSON values to measure against V8: the JavaScript that measures them, and generators of values that
differ between printers (odd floats, big integers, escapes). Shared by the json_bytes tests, the store
scan's, the manifest's and the dense-numbers benchmark; the `v8` fixture is in tests/core/conftest.py."""
import struct

from hypothesis import strategies as st

UTF8_LENGTH_JS = """
function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}
function sizes(texts) { return JSON.stringify(texts.map((t) => utf8Length(JSON.stringify(JSON.parse(t))))); }
function texts(texts) { return JSON.stringify(texts.map((t) => JSON.stringify(JSON.parse(t)))); }
"""


interesting_floats = st.sampled_from(
    [0.0, -0.0, 1.0, -1.0, 1e15, 1e16, 1e17, 1e20, 1e21, 1e22, 1e-5, 1e-6, 1.5e-6, 9.99e-7, 1e-7,
     5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0.1, 123e-20, 2.0**53, 2.0**53 + 2]
)
numbers = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False), interesting_floats,
    st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=-1000, max_value=1000),
)
texts_ = st.text(alphabet=st.characters(blacklist_categories=()), max_size=12)
keys = st.one_of(texts_, st.integers(min_value=0, max_value=2**33).map(str), st.sampled_from(["1.0,", "e+16", "-0.0"]))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, texts_),
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(keys, children, max_size=4)),
    max_leaves=10,
)


def random_value(rng, depth=0):
    """A random JSON value biased to what differs between printers: odd floats, big ints, escapes."""
    kind = rng.random()
    if depth < 3 and kind < 0.15:
        return [random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))]
    if depth < 3 and kind < 0.3:
        return {random_key(rng): random_value(rng, depth + 1) for _ in range(rng.randint(0, 5))}
    if kind < 0.45:
        x = struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]  # any bit pattern
        return x if x - x == 0 else 0.5  # but not NaN or infinity, which JSON text cannot hold
    if kind < 0.6:
        return rng.choice([1, -1]) * rng.random() * 10.0 ** rng.randint(-12, 25)
    if kind < 0.7:
        return float(rng.randint(-10**6, 10**6))
    if kind < 0.8:
        return rng.randint(-(2**80), 2**80) >> rng.randint(0, 80)
    if kind < 0.95:
        return "".join(chr(rng.choice([rng.randint(0, 0x7f), rng.randint(0, 0x3000), rng.randint(0xd800, 0xdfff),
                                       rng.randint(0x10000, 0x10ffff)])) for _ in range(rng.randint(0, 8)))
    return rng.choice([None, True, False])


def random_key(rng):
    return rng.choice([str(rng.randint(0, 2**33)), "k" + str(rng.randint(0, 99)), "1.0,", "e+16", "\u00e9\"x"])


def dense_corrections(count):
    """A value where nearly every number prints differently in orjson, beside strings that mimic them."""
    return {"whole": [float(i) for i in range(count)], "tiny": [1.5e-6 * (i + 1) for i in range(count // 3)],
            "huge": [-1e17 - i * 1e3 for i in range(count // 30)], "zeros": [-0.0] * (count // 10),
            "mimics\\": [f"{i}.0,\\" for i in range(count // 10)] + ["1e-6,", "-0.0]", "2e+17}"]}
