/* wsi_inspector.core.session._store_scan: one pass over a worker-session/1 JSON document, in C, measuring every store input.

   The loader's pure-Python way parses each store record and writes its input again to learn the
   size JavaScript gives it (`JSON.stringify`'s UTF-8 length): about ten times the work of reading
   the text. This pass reads the text once, checks that it is JSON (RFC 8259, UTF-8), and for each
   record of the top-level "store" array tells where its input is, how many bytes JSON.stringify
   writes for it, its shape (keys, array length or kind), and the record's other members when they
   are plain (strings without escapes, integers, true, false, null).

   It never guesses. A size it cannot prove is -1 and the caller measures that record the slow way:
   numbers it cannot print as JavaScript does (subnormals, very long literals), duplicate keys (the
   parse keeps the last value), keys spelled with \u or \/ escapes (two spellings of one key would
   hide a repeat). Anything that is not JSON, or nests deeper than
   MAX_DEPTH, makes the whole scan return None: the Python loader then reads the file and says
   where it is wrong. The scan itself runs without the GIL; only building the answer holds it.
   See core/session/store_scan.py for the Python side and the tests that hold every size to V8's. */
#define _GNU_SOURCE           /* memmem */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_DEPTH 512          /* deeper than this: not scanned here (the loader's limit is 1,024) */
#define FEW_KEYS 8             /* objects with at most this many keys are checked for duplicates pairwise */
#define RECORDS_RELEASE_EVERY 16384 /* records handed out between two returns of the table's pages behind them (1.1 MB) */

enum kind { K_OBJECT, K_ARRAY, K_STRING, K_NUMBER, K_TRUE, K_FALSE, K_NULL };
static const char *KIND_NAMES[] = {"object", "array", "string", "number", "boolean", "boolean", "null"};
static PyObject *KINDS[7];    /* the names, interned once */

typedef struct { Py_ssize_t start, len; } Span;

typedef struct { Span key, value; } Part;  /* one member of the document */

/* One store record; a million of them are held at once, so it is kept small: its other members
   are read again when its answer is built, and an input's key set is kept once (a Shape). */
typedef struct {
    Py_ssize_t start, end;    /* the record's text */
    Py_ssize_t input_start, input_end; /* the input's value, or -1 when none (or more than one) */
    Py_ssize_t output_start, output_end; /* the output's value, or -1: handed out as None (the entry reads it from the text) */
    long long input_bytes;    /* JSON.stringify's UTF-8 length, or -1 when unsure */
    Py_ssize_t shape;         /* an object input's Shape, or an array input's length */
    unsigned char input_kind, verbatim, plain;
} Record;

typedef struct {              /* a set of top-level input keys, in order, as first met */
    uint64_t hash;
    Py_ssize_t keys_at, count; /* in `input_keys` */
} Shape;

typedef struct {
    const unsigned char *text;
    Py_ssize_t length, pos;
    int depth;
    int unsure;               /* the size being measured cannot be proven */
    int verbatim;             /* the text is exactly what orjson.dumps writes for its value */
    Span *keys; Py_ssize_t keys_len, keys_cap;       /* keys of the objects open now */
    Span *input_keys; Py_ssize_t input_keys_len, input_keys_cap;  /* each Shape's keys */
    Shape *shapes; Py_ssize_t shapes_len, shapes_cap;
    Py_ssize_t *shape_slots; Py_ssize_t slots_size;  /* a hash table of shapes: index + 1, 0 when free */
    Record *records; Py_ssize_t records_len, records_cap;
    Part *parts; Py_ssize_t parts_len, parts_cap;  /* the document's own members */
    Py_ssize_t store_index;   /* which part is "store", or -1 */
    int failed;               /* not JSON, too deep, or out of memory */
    int no_memory;
} Scan;

static int grow(void **items, Py_ssize_t *cap, Py_ssize_t need, size_t size, Scan *s) {
    if (need <= *cap) return 1;
    Py_ssize_t next = *cap ? *cap * 2 : 64;
    while (next < need) next *= 2;
    void *bigger = realloc(*items, (size_t)next * size);
    if (!bigger) { s->failed = s->no_memory = 1; return 0; }
    *items = bigger;
    *cap = next;
    return 1;
}

/* JSON's whitespace, which may stand between tokens: what a session written compact and the same one indented
   (or as JSON Lines) differ by inside a record. */
static inline int json_space(unsigned char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static inline void skip_space(Scan *s) {
    while (s->pos < s->length) {
        if (!json_space((unsigned char)s->text[s->pos])) return;
        s->pos++;
        s->verbatim = 0;
    }
}

static inline int fail(Scan *s) { s->failed = 1; return 0; }

static int hex4(const unsigned char *p, unsigned *out) {
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return 0;
    }
    *out = v;
    return 1;
}

/* Bytes JSON.stringify writes for one UTF-16 code unit or code point given by an escape. */
static long long escaped_size(unsigned cp) {
    if (cp == '"' || cp == '\\' || cp == '\b' || cp == '\f' || cp == '\n' || cp == '\r' || cp == '\t') return 2;
    if (cp < 0x20) return 6;  /* \u00XX */
    if (cp < 0x80) return 1;
    if (cp < 0x800) return 2;
    if (cp >= 0xD800 && cp <= 0xDFFF) return 6;  /* a lone surrogate: well-formed JSON.stringify escapes it */
    return 3;
}

/* Plain printable ASCII other than '"' and '\\': copied as they are by both parse and stringify. */
static unsigned char PLAIN[256];

/* A string at s->pos (its opening quote): checked, and JSON.stringify's length of it added to *size.
   *escaped is ESCAPED when it holds escapes, all of the kind with one spelling (\" \\ \b \f \n \r
   \t: these characters cannot be written otherwise), SPELLED_OTHERWISE when it holds \u or \/. */
enum { NOT_ESCAPED, ESCAPED, SPELLED_OTHERWISE };
static int scan_string(Scan *s, long long *size, int *escaped) {
    const unsigned char *t = s->text;
    Py_ssize_t p = s->pos + 1, n = s->length;
    long long bytes = 2;
    *escaped = 0;
    for (;;) {
        Py_ssize_t run = p;
        while (p < n && PLAIN[t[p]]) p++;
        bytes += p - run;
        if (p >= n) return fail(s);
        unsigned char c = t[p];
        if (c == '"') { s->pos = p + 1; *size += bytes; return 1; }
        if (c == '\\') {
            if (*escaped == NOT_ESCAPED) *escaped = ESCAPED;
            if (p + 1 >= n) return fail(s);
            unsigned char e = t[p + 1];
            switch (e) {
            case '"': case '\\': bytes += 2; p += 2; break;
            case 'b': case 'f': case 'n': case 'r': case 't': bytes += 2; p += 2; break;
            case '/': bytes += 1; p += 2; s->verbatim = 0; *escaped = SPELLED_OTHERWISE; break;
            case 'u': {
                unsigned cp;
                if (p + 6 > n || !hex4(t + p + 2, &cp)) return fail(s);
                p += 6;
                s->verbatim = 0;
                *escaped = SPELLED_OTHERWISE;
                if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= n && t[p] == '\\' && t[p + 1] == 'u') {
                    unsigned low;
                    if (!hex4(t + p + 2, &low)) return fail(s);
                    if (low >= 0xDC00 && low <= 0xDFFF) { bytes += 4; p += 6; break; }  /* a pair: one code point */
                }
                bytes += escaped_size(cp);
                break;
            }
            default: return fail(s);
            }
            continue;
        }
        if (c < 0x80) {
            if (c < 0x20) return fail(s);  /* a raw control character */
            p++; bytes++;  /* DEL: not PLAIN only so that the table stays simple */
            continue;
        }
        /* UTF-8, strictly: no overlong forms, no surrogates, nothing past U+10FFFF. */
        Py_ssize_t width;
        if (c >= 0xC2 && c <= 0xDF) width = 2;
        else if (c >= 0xE0 && c <= 0xEF) width = 3;
        else if (c >= 0xF0 && c <= 0xF4) width = 4;
        else return fail(s);
        if (p + width > n) return fail(s);
        for (Py_ssize_t i = 1; i < width; i++) if ((t[p + i] & 0xC0) != 0x80) return fail(s);
        if (c == 0xE0 && t[p + 1] < 0xA0) return fail(s);
        if (c == 0xED && t[p + 1] >= 0xA0) return fail(s);
        if (c == 0xF0 && t[p + 1] < 0x90) return fail(s);
        if (c == 0xF4 && t[p + 1] >= 0x90) return fail(s);
        p += width;
        bytes += width;
    }
}

/* JavaScript's Number::toString length for the value 0.DIGITS × 10^n with `k` digits (k ≥ 1). */
static long long js_number_length(int k, long long n, int negative) {
    long long length;
    if (k <= n && n <= 21) length = n;
    else if (0 < n && n <= 21) length = k + 1;
    else if (-6 < n && n <= 0) length = 2 - n + k;
    else {
        long long e = n - 1, magnitude = e < 0 ? -e : e, digits = 1;
        while (magnitude >= 10) { magnitude /= 10; digits++; }
        length = k + (k > 1) + 2 + digits;  /* d.ddd e± digits */
    }
    return length + negative;
}

/* ---- Numbers: JavaScript's shortest spelling, proven exactly without printing. ----

   A double's JavaScript text is its shortest round-trip digits (k of them) placed by its decimal
   exponent, so its length follows from k and the exponent. A literal of at most 15 significant
   digits is already shortest (two decimals of 15 digits never read as one normal double). For a
   longer one, a shorter spelling exists iff the literal cut to one digit fewer, rounded down or up,
   reads back as the same double (the doubles that read as one are an interval, and any shorter
   spelling in it lies on the far side of one of those two): so the shortest is found by a few
   exact conversions. The conversion is Eisel–Lemire's (a 128-bit product with a table of powers of
   five, core/session/_pow5_table.h); where it cannot decide, or the result is subnormal, strtod decides. */
#include "_pow5_table.h"

static locale_t C_LOCALE;

/* digits × 10^exp10 read as a double, by strtod (the C locale): the slow exact way. */
static double slow_double(uint64_t digits, long long exp10) {
    char text[48];
    snprintf(text, sizeof text, "%llue%lld", (unsigned long long)digits, exp10);
    locale_t previous = uselocale(C_LOCALE);
    double x = strtod(text, NULL);
    uselocale(previous);
    return x;
}

/* digits × 10^exp10 (digits > 0) as the nearest double, ties to even; Eisel–Lemire, strtod where it cannot say. */
static double exact_double(uint64_t w, long long q) {
    if (q < POW5_SMALLEST) return 0.0;  /* below 10^-323: rounds to zero */
    if (q > POW5_LARGEST) return INFINITY;
    int lz = __builtin_clzll(w);
    w <<= lz;
    const uint64_t *pow5 = POW5[q - POW5_SMALLEST];
    unsigned __int128 first = (unsigned __int128)w * pow5[0];
    uint64_t high = (uint64_t)(first >> 64), low = (uint64_t)first;
    if ((high & 0x1FF) == 0x1FF) {  /* the bits that decide the rounding may be wrong: take the next 64 */
        unsigned __int128 second = (unsigned __int128)w * pow5[1];
        uint64_t carry_in = (uint64_t)(second >> 64);
        low += carry_in;
        if (carry_in > low) high++;
        if ((high & 0x1FF) == 0x1FF && low == UINT64_MAX) return slow_double(w >> lz, q);
    }
    int upper = (int)(high >> 63);
    int shift = upper + 64 - 52 - 3;
    uint64_t mantissa = high >> shift;
    long long power2 = (((152170 + 65536) * q) >> 16) + 63 + upper - lz + 1023;
    if (power2 <= 0) return slow_double(w >> lz, q);  /* subnormal: rare, left to strtod */
    if (low <= 1 && q >= -4 && q <= 23 && (mantissa & 3) == 1 && (mantissa << shift) == high)
        mantissa &= ~(uint64_t)1;  /* exactly halfway: round to even */
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if (mantissa >= ((uint64_t)2 << 52)) { mantissa = (uint64_t)1 << 52; power2++; }
    mantissa &= ~((uint64_t)1 << 52);
    if (power2 >= 0x7FF) return INFINITY;
    uint64_t bits = mantissa | ((uint64_t)power2 << 52);
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

static const uint64_t POW10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
    100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull, 10000000000000ull,
    100000000000000ull, 1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
    1000000000000000000ull, 10000000000000000000ull};

static int bits128(unsigned __int128 v) {
    uint64_t high = (uint64_t)(v >> 64), low = (uint64_t)v;
    return high ? 128 - __builtin_clzll(high) : low ? 64 - __builtin_clzll(low) : 0;
}

/* Whether m × 10^e < x exactly (1), > x (0), or -1 when equal or too big to compare in 128 bits
   (m < 2^60, x > 0 finite). Both sides are made integers: m·10^e·2^-E against M·10^-e·2^E. */
static int below(uint64_t m, long long e, double x) {
    int E;
    uint64_t M = (uint64_t)ldexp(frexp(x, &E), 53);
    E -= 53;  /* x = M × 2^E */
    if (e > 19 || e < -19) return -1;
    unsigned __int128 left = m, right = M;
    if (e > 0) left *= POW10[e];
    else if (e < 0) right *= POW10[-e];
    if (E < 0) { if (bits128(left) - E > 127) return -1; left <<= -E; }
    else if (E > 0) { if (bits128(right) + E > 127) return -1; right <<= E; }
    return left < right ? 1 : left > right ? 0 : -1;
}

static uint64_t strip_zeros(uint64_t digits, int *count) {
    while (digits % 10 == 0) { digits /= 10; (*count)--; }
    return digits;
}

/* The length of JavaScript's text for x, the double read from 0.DIGITS × 10^power (`digits`:
   `count` significant digits, no trailing zero, count ≤ 19, a spelling that reads back as x);
   *same: these digits are the ones JavaScript (and orjson) write, surely. */
static long long shortest_of(double x, uint64_t digits, int count, long long power, int negative, int *same) {
    *same = 0;
    if (isinf(x)) return 4;  /* JSON.parse gives Infinity; JSON.stringify writes null */
    if (x == 0) return 1;
    int normal = fpclassify(x) == FP_NORMAL, shortened = 0;
    while (count > 1 && (count > 15 || !normal)) {
        uint64_t down = digits / 10, up = down + 1;
        int down_count = count - 1, up_count = count - 1;
        long long up_power = power;
        if (exact_double(down, power - down_count) == x) {
            digits = strip_zeros(down, &down_count); count = down_count;
        } else if (exact_double(up, power - up_count) == x) {
            /* rounding up may carry into a new digit: 999 + 1 = 1000 */
            uint64_t limit = 1;
            for (int i = 0; i < up_count; i++) limit *= 10;
            if (up == limit) { up = 1; up_count = 1; up_power++; }
            else up = strip_zeros(up, &up_count);
            digits = up; count = up_count; power = up_power;
        } else break;
        shortened = 1;
    }
    /* Of several spellings of the shortest length, JavaScript and orjson write the nearest to x: the
       literal's digits are theirs when x lies strictly between the halfway points beside them. */
    if (!shortened && count <= 17)
        *same = below(digits * 10 - 5, power - count - 1, x) == 1 && below(digits * 10 + 5, power - count - 1, x) == 0;
    return js_number_length(count, power, negative);
}

/* A literal of more than 19 significant digits (never JavaScript's own spelling): read by strtod,
   printed to 17 digits (which always read back), and shortened from there. */
static long long long_literal_length(Scan *s, Py_ssize_t start, Py_ssize_t end, int negative) {
    char literal[400], printed[40];
    if (end - start >= (Py_ssize_t)sizeof literal) { s->unsure = 1; return 0; }
    memcpy(literal, s->text + start, (size_t)(end - start));
    literal[end - start] = 0;
    locale_t previous = uselocale(C_LOCALE);
    double x = fabs(strtod(literal, NULL));
    if (isfinite(x) && x != 0) snprintf(printed, sizeof printed, "%.16e", x);
    uselocale(previous);
    if (!isfinite(x) || x == 0) return isinf(x) ? 4 : 1;
    uint64_t digits = 0;
    int count = 0, same;
    char *e = strchr(printed, 'e');
    for (char *c = printed; c < e; c++) if (*c >= '0' && *c <= '9') { digits = digits * 10 + (uint64_t)(*c - '0'); count++; }
    digits = strip_zeros(digits, &count);
    return shortest_of(x, digits, count, strtoll(e + 1, NULL, 10) + 1, negative, &same);
}

/* A number at s->pos: checked, its JSON.stringify length added to *size. *integral is set for a
   plain integer literal of at most 18 digits (a Python int both ways). s->verbatim is cleared when
   orjson would write the value otherwise. */
static int scan_number(Scan *s, long long *size, int *integral) {
    const unsigned char *t = s->text;
    Py_ssize_t p = s->pos, n = s->length, start = p;
    /* The grammar, and on the way the significant digits: from the first non-zero one, the first 19 of
       them as an integer, how many there are, and how many of them close in a run of zeros. */
    int negative = t[p] == '-';
    p += negative;
    if (p >= n || (unsigned)(t[p] - '0') > 9) return fail(s);
    Py_ssize_t int_start = p, first = -1;
    uint64_t digits = 0;
    int taken = 0, fraction_nonzero = 0;
    long long significant = 0, zeros = 0;
    if (t[p] == '0') p++;
    else for (first = p; p < n; p++) {
        unsigned d = (unsigned)(t[p] - '0');
        if (d > 9) break;
        if (taken < 19) { digits = digits * 10 + d; taken++; }
        significant++;
        zeros = d ? 0 : zeros + 1;
    }
    Py_ssize_t int_end = p, frac_start = p, frac_end = p;
    if (p < n && t[p] == '.') {
        frac_start = ++p;
        for (; p < n; p++) {
            unsigned d = (unsigned)(t[p] - '0');
            if (d > 9) break;
            if (first < 0) {
                if (!d) continue;
                first = p;
            }
            fraction_nonzero |= d != 0;
            if (taken < 19) { digits = digits * 10 + d; taken++; }
            significant++;
            zeros = d ? 0 : zeros + 1;
        }
        frac_end = p;
        if (frac_end == frac_start) return fail(s);
    }
    long long exponent = 0;
    int has_exponent = p < n && (t[p] == 'e' || t[p] == 'E');
    if (has_exponent) {
        p++;
        int exp_negative = 0;
        if (p < n && (t[p] == '+' || t[p] == '-')) { exp_negative = t[p] == '-'; p++; }
        Py_ssize_t exp_start = p;
        while (p < n && (unsigned)(t[p] - '0') <= 9) {
            if (exponent < 100000000) exponent = exponent * 10 + (t[p] - '0');
            p++;
        }
        if (p == exp_start) return fail(s);
        if (exp_negative) exponent = -exponent;
    }
    s->pos = p;
    int has_fraction = frac_end > frac_start;
    *integral = !has_fraction && !has_exponent && int_end - int_start <= 18 && !(negative && t[int_start] == '0');
    if (first < 0) {  /* zero of any sign and spelling: JavaScript writes 0; orjson 0, 0.0 or -0.0 */
        *size += 1;
        int zero_as_orjson = !has_exponent && (has_fraction ? frac_end - frac_start == 1 : !negative);
        if (!zero_as_orjson) s->verbatim = 0;
        return 1;
    }
    long long k = significant - zeros;  /* a literal may be long */
    /* power: the value is 0.DIGITS × 10^power */
    long long power = (first < int_end ? int_end - first : -(first - frac_start)) + exponent;
    /* orjson writes a float's shortest digits in plain notation, with ".0" when it is integral, from
       1e-4 to below 1e16; verbatim is kept to what that rule surely covers. */
    int plain_float = has_fraction && !has_exponent && power >= -3 && power <= 15
        && (t[frac_end - 1] != '0' || (frac_end - frac_start == 1 && !fraction_nonzero));
    if (k <= 15 && power >= -290 && power <= 308) {
        /* At most 15 significant digits read back as one double and are its shortest spelling. */
        *size += js_number_length((int)k, power, negative);
        if (!*integral && !plain_float) s->verbatim = 0;
        return 1;
    }
    int same = 0;
    if (k <= 19) {
        uint64_t value = digits / POW10[taken - k];  /* what follows the k-th digit is zeros */
        *size += shortest_of(exact_double(value, power - k), value, (int)k, power, negative, &same);
    } else *size += long_literal_length(s, start, p, negative);
    if (!*integral && !(plain_float && same && k <= 17)) s->verbatim = 0;
    return 1;
}

static int scan_value(Scan *s, long long *size, int *kind);

static int same_key(Scan *s, Span a, Span b) {
    return a.len == b.len && memcmp(s->text + a.start, s->text + b.start, (size_t)a.len) == 0;
}

static uint64_t key_hash(Scan *s, Span k) {
    uint64_t h = 1469598103934665603ULL;  /* FNV-1a */
    for (Py_ssize_t i = 0; i < k.len; i++) h = (h ^ s->text[k.start + i]) * 1099511628211ULL;
    return h;
}

/* Whether the keys keys[from:] of one object hold a repeat (compared as written: no escapes here). */
static int has_duplicate(Scan *s, Py_ssize_t from) {
    Py_ssize_t count = s->keys_len - from;
    Span *k = s->keys + from;
    if (count <= FEW_KEYS) {
        for (Py_ssize_t i = 1; i < count; i++)
            for (Py_ssize_t j = 0; j < i; j++) if (same_key(s, k[i], k[j])) return 1;
        return 0;
    }
    size_t size = 16;
    while (size < (size_t)count * 2) size *= 2;
    Py_ssize_t *slots = malloc(size * sizeof(Py_ssize_t));  /* open addressing: index + 1, 0 when free */
    if (!slots) return 1;  /* unsure, never wrong */
    memset(slots, 0, size * sizeof(Py_ssize_t));
    int repeat = 0;
    for (Py_ssize_t i = 0; i < count && !repeat; i++) {
        size_t at = key_hash(s, k[i]) & (size - 1);
        while (slots[at] && !(repeat = same_key(s, k[slots[at] - 1], k[i]))) at = (at + 1) & (size - 1);
        slots[at] = i + 1;
    }
    free(slots);
    return repeat;
}

/* After a member or an item: 1 at ',' (another follows), 0 at `close` (the last), -1 when not JSON. */
static int next_member(Scan *s, unsigned char close) {
    skip_space(s);
    unsigned char c = s->pos < s->length ? s->text[s->pos++] : 0;
    if (c == ',') return 1;
    if (c == close) return 0;
    fail(s);
    return -1;
}

/* An empty object or array at s->pos (just past its opening bracket): skipped over. */
static int closes_at_once(Scan *s, unsigned char close) {
    skip_space(s);
    if (s->pos < s->length && s->text[s->pos] == close) { s->pos++; return 1; }
    return 0;
}

/* A member's key and colon at s->pos: the key's span, `escaped` as scan_string sets it, its
   JSON.stringify length and the colon's added to *size; s->pos is left at the value. */
static int member_key(Scan *s, Span *key, int *escaped, long long *size) {
    skip_space(s);
    if (s->pos >= s->length || s->text[s->pos] != '"') return fail(s);
    Py_ssize_t start = s->pos;
    if (!scan_string(s, size, escaped)) return 0;
    *key = (Span){start + 1, s->pos - start - 2};
    skip_space(s);
    if (s->pos >= s->length || s->text[s->pos] != ':') return fail(s);
    s->pos++;
    *size += 1;
    skip_space(s);
    return s->pos < s->length ? 1 : fail(s);
}

static int push_key(Scan *s, Span key) {
    if (!grow((void **)&s->keys, &s->keys_cap, s->keys_len + 1, sizeof(Span), s)) return 0;
    s->keys[s->keys_len++] = key;
    return 1;
}

/* An object at s->pos. With `keep`, its keys stay on s->keys after it (the input's shape). */
static int scan_object(Scan *s, long long *size, int keep) {
    s->pos++;  /* { */
    Py_ssize_t keys_from = s->keys_len;
    long long bytes = 2, members = 0;
    if (closes_at_once(s, '}')) { *size += bytes; return 1; }
    for (int more = 1; more;) {
        int escaped, kind;
        Span key;
        if (!member_key(s, &key, &escaped, &bytes) || !push_key(s, key)) return 0;
        if (escaped == SPELLED_OTHERWISE) s->unsure = 1;  /* two spellings of one key would hide a repeat */
        if (!scan_value(s, &bytes, &kind)) return 0;
        members++;
        if ((more = next_member(s, '}')) < 0) return 0;
    }
    if (has_duplicate(s, keys_from)) s->unsure = 1;
    if (!keep) s->keys_len = keys_from;
    *size += bytes + members - 1;
    return 1;
}

static int scan_array(Scan *s, long long *size, Py_ssize_t *count) {
    s->pos++;  /* [ */
    long long bytes = 2;
    Py_ssize_t items = 0;
    if (!closes_at_once(s, ']')) {
        for (int more = 1; more;) {
            int kind;
            skip_space(s);
            if (!scan_value(s, &bytes, &kind)) return 0;
            items++;
            if ((more = next_member(s, ']')) < 0) return 0;
        }
    }
    *size += bytes + (items ? items - 1 : 0);
    *count = items;
    return 1;
}

static int literal(Scan *s, const char *word, Py_ssize_t length, long long *size) {
    if (s->pos + length > s->length || memcmp(s->text + s->pos, word, (size_t)length) != 0) return fail(s);
    s->pos += length;
    *size += length;
    return 1;
}

/* Any JSON value at s->pos: checked, its JSON.stringify length added to *size, its kind set. */
static int scan_value(Scan *s, long long *size, int *kind) {
    if (s->pos >= s->length) return fail(s);
    unsigned char c = s->text[s->pos];
    switch (c) {
    case '{': {
        if (++s->depth > MAX_DEPTH) return fail(s);
        *kind = K_OBJECT;
        int ok = scan_object(s, size, 0);
        s->depth--;
        return ok;
    }
    case '[': {
        if (++s->depth > MAX_DEPTH) return fail(s);
        Py_ssize_t count;
        *kind = K_ARRAY;
        int ok = scan_array(s, size, &count);
        s->depth--;
        return ok;
    }
    case '"': { int escaped; *kind = K_STRING; return scan_string(s, size, &escaped); }
    case 't': *kind = K_TRUE; return literal(s, "true", 4, size);
    case 'f': *kind = K_FALSE; return literal(s, "false", 5, size);
    case 'n': *kind = K_NULL; return literal(s, "null", 4, size);
    default: {
        int integral;
        *kind = K_NUMBER;
        return scan_number(s, size, &integral);
    }
    }
}

static uint64_t keys_hash(Scan *s, Span *keys, Py_ssize_t count) {
    uint64_t h = 1469598103934665603ULL;
    for (Py_ssize_t i = 0; i < count; i++) h = (h ^ key_hash(s, keys[i])) * 1099511628211ULL;
    return h;
}

static int same_keys(Scan *s, Shape *shape, Span *keys, Py_ssize_t count) {
    if (shape->count != count) return 0;
    for (Py_ssize_t i = 0; i < count; i++) if (!same_key(s, s->input_keys[shape->keys_at + i], keys[i])) return 0;
    return 1;
}

static void add_slot(Scan *s, Py_ssize_t index) {
    Py_ssize_t at = (Py_ssize_t)(s->shapes[index].hash & (uint64_t)(s->slots_size - 1));
    while (s->shape_slots[at]) at = (at + 1) & (s->slots_size - 1);
    s->shape_slots[at] = index + 1;
}

/* The Shape of the keys s->keys[from:], found or added; -1 when out of memory. */
static Py_ssize_t shape_of(Scan *s, Py_ssize_t from) {
    Span *keys = s->keys + from;
    Py_ssize_t count = s->keys_len - from;
    uint64_t hash = keys_hash(s, keys, count);
    if (s->slots_size) {
        for (Py_ssize_t at = (Py_ssize_t)(hash & (uint64_t)(s->slots_size - 1)); s->shape_slots[at]; at = (at + 1) & (s->slots_size - 1)) {
            Shape *shape = s->shapes + s->shape_slots[at] - 1;
            if (shape->hash == hash && same_keys(s, shape, keys, count)) return s->shape_slots[at] - 1;
        }
    }
    if (!grow((void **)&s->input_keys, &s->input_keys_cap, s->input_keys_len + count, sizeof(Span), s)) return -1;
    if (!grow((void **)&s->shapes, &s->shapes_cap, s->shapes_len + 1, sizeof(Shape), s)) return -1;
    if (count) memcpy(s->input_keys + s->input_keys_len, keys, (size_t)count * sizeof(Span));  /* {}: nothing, maybe no array yet */
    s->shapes[s->shapes_len] = (Shape){hash, s->input_keys_len, count};
    s->input_keys_len += count;
    Py_ssize_t index = s->shapes_len++;
    if (s->shapes_len * 2 > s->slots_size) {  /* keep the table at most half full */
        Py_ssize_t size = s->slots_size ? s->slots_size * 2 : 64;
        Py_ssize_t *slots = calloc((size_t)size, sizeof(Py_ssize_t));
        if (!slots) { s->failed = s->no_memory = 1; return -1; }
        free(s->shape_slots);
        s->shape_slots = slots;
        s->slots_size = size;
        for (Py_ssize_t i = 0; i < s->shapes_len; i++) add_slot(s, i);
    } else add_slot(s, index);
    return index;
}

/* The input at s->pos, measured from a clean slate; an object's top-level keys are copied to
   s->input_keys for its shape. */
static int scan_input(Scan *s, Record *r) {
    s->unsure = 0;
    s->verbatim = 1;
    long long size = 0;
    Py_ssize_t start = s->pos;
    unsigned char c = s->text[start];
    int ok;
    if (++s->depth > MAX_DEPTH) return fail(s);
    if (c == '{') {
        Py_ssize_t keys_from = s->keys_len;
        ok = scan_object(s, &size, 1);
        if (ok) {
            r->shape = shape_of(s, keys_from);
            ok = r->shape >= 0;
            s->keys_len = keys_from;
        }
        r->input_kind = K_OBJECT;
    } else if (c == '[') {
        ok = scan_array(s, &size, &r->shape);
        r->input_kind = K_ARRAY;
    } else {
        int kind;
        ok = scan_value(s, &size, &kind);
        r->input_kind = (unsigned char)kind;
    }
    s->depth--;
    if (!ok) return 0;
    r->input_start = start;
    r->input_end = s->pos;
    r->input_bytes = s->unsure ? -1 : size;
    r->verbatim = s->verbatim && !s->unsure;
    return 1;
}

/* One store record at s->pos. An object's "input" is measured; the record is `plain` when each of its
   other members is a value the answer can hold as it is (see plain_fields), under a key without
   escapes, each key once. */
static int scan_record(Scan *s) {
    Record r = {.start = s->pos, .input_start = -1, .input_end = -1, .output_start = -1, .output_end = -1, .input_bytes = -1};
    long long ignored = 0;
    if (s->pos >= s->length || s->text[s->pos] != '{') {
        int kind;
        if (!scan_value(s, &ignored, &kind)) return 0;
    } else {
        r.plain = 1;
        int inputs = 0;
        Py_ssize_t keys_from = s->keys_len;
        if (++s->depth > MAX_DEPTH) return fail(s);
        s->pos++;
        if (!closes_at_once(s, '}')) for (int more = 1; more;) {
            int escaped, kind, plain = 0;
            Span key;
            if (!member_key(s, &key, &escaped, &ignored) || !push_key(s, key)) return 0;
            if (escaped) r.plain = 0;
            if (!escaped && key.len == 5 && memcmp(s->text + key.start, "input", 5) == 0) {
                if (++inputs > 1) r.plain = 0;
                if (!scan_input(s, &r)) return 0;
            } else if (!escaped && key.len == 6 && memcmp(s->text + key.start, "output", 6) == 0) {
                r.output_start = s->pos;  /* any value: the loader keeps the record's text, not the output */
                if (!scan_value(s, &ignored, &kind)) return 0;
                r.output_end = s->pos;
            } else {
                unsigned char c = s->text[s->pos];
                if (c == '"') {
                    int value_escaped;
                    if (!scan_string(s, &ignored, &value_escaped)) return 0;
                    plain = !value_escaped;
                } else if (c == '-' || (c >= '0' && c <= '9')) {
                    if (!scan_number(s, &ignored, &plain)) return 0;
                } else {
                    if (!scan_value(s, &ignored, &kind)) return 0;
                    plain = kind == K_TRUE || kind == K_FALSE || kind == K_NULL;
                }
                if (!plain) r.plain = 0;
            }
            if ((more = next_member(s, '}')) < 0) return 0;
        }
        s->depth--;
        if (inputs > 1) r.input_start = r.input_end = -1;  /* the parse keeps the last: measured the slow way */
        if (r.plain && has_duplicate(s, keys_from)) r.plain = 0;
        s->keys_len = keys_from;
    }
    r.end = s->pos;
    if (!grow((void **)&s->records, &s->records_cap, s->records_len + 1, sizeof(Record), s)) return 0;
    s->records[s->records_len++] = r;
    return 1;
}

static int scan_store(Scan *s) {
    s->pos++;  /* [ */
    if (++s->depth > MAX_DEPTH) return fail(s);
    if (!closes_at_once(s, ']')) for (int more = 1; more;) {
        skip_space(s);
        if (!scan_record(s)) return 0;
        if ((more = next_member(s, ']')) < 0) return 0;
    }
    s->depth--;
    return 1;
}

/* The whole document: an object whose members are kept as spans, "store" scanned record by record. */
static void scan_document(Scan *s) {
    long long ignored = 0;
    s->store_index = -1;
    skip_space(s);
    if (s->pos >= s->length || s->text[s->pos] != '{') { fail(s); return; }
    s->pos++;
    s->depth = 1;
    if (!closes_at_once(s, '}')) for (int more = 1; more;) {
        int escaped, kind;
        Span key;
        if (!member_key(s, &key, &escaped, &ignored)) return;
        if (escaped) { fail(s); return; }  /* the Python reader handles a part named with escapes */
        Py_ssize_t value_start = s->pos;
        if (key.len == 5 && memcmp(s->text + key.start, "store", 5) == 0 && s->text[s->pos] == '[') {
            if (s->store_index >= 0) { fail(s); return; }
            s->store_index = s->parts_len;
            if (!scan_store(s)) return;
        } else if (!scan_value(s, &ignored, &kind)) return;
        if (!grow((void **)&s->parts, &s->parts_cap, s->parts_len + 1, sizeof(Part), s)) return;
        for (Py_ssize_t i = 0; i < s->parts_len; i++)
            if (same_key(s, s->parts[i].key, key)) { fail(s); return; }  /* a repeated part: the Python reader decides */
        s->parts[s->parts_len++] = (Part){key, {value_start, s->pos - value_start}};
        if ((more = next_member(s, '}')) < 0) return;
    }
    skip_space(s);
    if (s->pos != s->length) fail(s);
}

/* ---- A record's text: a read-only buffer over the scanned text, 40 bytes where a memoryview is 184. ---- */

typedef struct {              /* holds one export of the scanned text for every RecordText */
    PyObject_HEAD
    Py_buffer view;
} Keeper;

static void Keeper_dealloc(Keeper *self) {
    PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyTypeObject KeeperType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wsi_inspector.core.session._store_scan.Keeper",
    .tp_basicsize = sizeof(Keeper),
    .tp_dealloc = (destructor)Keeper_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The scanned text, held exported (so a bytearray cannot move) while any record's text lives.",
};

typedef struct {
    PyObject_HEAD
    Keeper *keeper;
    const char *start;
    Py_ssize_t length;
} RecordText;

static void RecordText_dealloc(RecordText *self) {
    Py_DECREF(self->keeper);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int RecordText_getbuffer(RecordText *self, Py_buffer *view, int flags) {
    return PyBuffer_FillInfo(view, (PyObject *)self, (void *)self->start, self->length, 1, flags);
}

static Py_ssize_t RecordText_length(RecordText *self) { return self->length; }

static PyObject *RecordText_repr(RecordText *self) {
    return PyUnicode_FromFormat("<record text, %zd bytes>", self->length);
}

/* Python's own hash of bytes: a RecordText hashes as bytes(text) does, so it stands in a set or dict of bytes. */
static Py_hash_t hash_bytes(const char *start, Py_ssize_t length) {
#if PY_VERSION_HEX >= 0x030E0000
    return Py_HashBuffer(start, length);
#else
    return _Py_HashBytes(start, length);
#endif
}

static Py_hash_t RecordText_hash(RecordText *self) { return hash_bytes(self->start, self->length); }

/* == and != with anything holding contiguous bytes, by length and memcmp (a memoryview compares item by
   item through its format, several times slower); other comparisons are not defined. */
static PyObject *RecordText_richcompare(RecordText *self, PyObject *other, int op) {
    if ((op != Py_EQ && op != Py_NE) || !PyObject_CheckBuffer(other)) Py_RETURN_NOTIMPLEMENTED;
    Py_buffer theirs;
    if (PyObject_GetBuffer(other, &theirs, PyBUF_SIMPLE) < 0) {
        PyErr_Clear();
        Py_RETURN_NOTIMPLEMENTED;
    }
    int same = theirs.len == self->length && memcmp(theirs.buf, self->start, (size_t)self->length) == 0;
    PyBuffer_Release(&theirs);
    return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* ---- A JSON text's tokens: the same value written compact, indented or as a JSON Lines line. ---- */

/* Reads a JSON text's bytes with the whitespace between its tokens left out (inside a string every byte
   counts). Made for texts the scan found to be JSON; on any other text it still ends, at the text's end. */
typedef struct { const unsigned char *at, *end; int in_string, escaped; } Tokens;

static inline Tokens tokens_of(const char *text, Py_ssize_t length) {
    Tokens t = {(const unsigned char *)text, (const unsigned char *)text + length, 0, 0};
    return t;
}

/* Whether any of a word's 8 bytes is `b` (the classic "has zero byte" test on w ^ b…b): lets the loops below
   pass 8 ordinary bytes (digits, commas, letters) at once. */
static inline uint64_t has_byte(uint64_t w, unsigned char b) {
    uint64_t v = w ^ (0x0101010101010101ULL * b);
    return (v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL;
}

static inline int tokens_next(Tokens *t) {  /* the next byte that counts, or -1 at the end */
    while (t->at < t->end) {
        unsigned char c = *t->at++;
        if (t->in_string) {
            if (t->escaped) t->escaped = 0;
            else if (c == '\\') t->escaped = 1;
            else if (c == '"') t->in_string = 0;
            return c;
        }
        if (json_space(c)) continue;
        if (c == '"') t->in_string = 1;
        return c;
    }
    return -1;
}

/* Copies the text's next bytes that count into out[0:cap]: how many, fewer than cap only at the text's end.
   Up to 8 bytes at a time: a run that changes nothing (digits and commas, a string's letters) is copied,
   a run of spaces (an indentation) passed, up to the first byte that matters, found by has_byte (whose
   lowest flag is exact). */
#define TOKEN_CHUNK 256
static Py_ssize_t tokens_fill(Tokens *t, unsigned char *out, Py_ssize_t cap) {
    Py_ssize_t k = 0;
    while (k < cap && t->at < t->end) {
        if (cap - k >= 8 && t->end - t->at >= 8 && !t->escaped) {
            uint64_t w;
            memcpy(&w, t->at, 8);
            if (!t->in_string && json_space((unsigned char)w)) {  /* a line's end, then its indentation */
                uint64_t other = (w ^ 0x2020202020202020ULL) >> 8;  /* after it, non-zero in each byte not a space */
                t->at += 1 + (other ? __builtin_ctzll(other) / 8 : 7);
                continue;
            }
            uint64_t stops = t->in_string ? has_byte(w, '"') | has_byte(w, '\\')
                : has_byte(w, '"') | has_byte(w, ' ') | has_byte(w, '\n') | has_byte(w, '\r') | has_byte(w, '\t');
            int run = stops ? __builtin_ctzll(stops) / 8 : 8;
            if (run > 0) {
                memcpy(out + k, &w, 8);  /* the bytes past the run are written over next */
                k += run;
                t->at += run;
                continue;
            }
        }
        int c = tokens_next(t);
        if (c < 0) break;
        out[k++] = (unsigned char)c;
    }
    return k;
}

/* A 64-bit digest of a JSON text's tokens, 8 bytes at a time (a multiply and a rotate each, then murmur's
   finalizer): texts that differ only in whitespace between tokens have the same digest. Some ten times
   Python's siphash, for telling inputs apart where no adversary picks them (the compare's keys, whose
   equal texts are then compared in full). Not Python's hash: `digest` is the one copy. */
static uint64_t digest_tokens(const char *text, Py_ssize_t length) {
    const uint64_t k1 = 0x9E3779B97F4A7C15ULL, k2 = 0xC2B2AE3D27D4EB4FULL;
    uint64_t h = k2, word, count = 0;
    unsigned char chunk[TOKEN_CHUNK];
    Tokens t = tokens_of(text, length);
    Py_ssize_t filled, at;
    do {
        filled = tokens_fill(&t, chunk, TOKEN_CHUNK);
        count += (uint64_t)filled;
        for (at = 0; at + 8 <= filled; at += 8) {
            memcpy(&word, chunk + at, 8);
            h ^= word * k2;
            h = ((h << 31) | (h >> 33)) * k1;
        }
    } while (filled == TOKEN_CHUNK);
    word = 0;
    memcpy(&word, chunk + at, (size_t)(filled - at));  /* the last chunk's last bytes (a full chunk has none) */
    h ^= word * k2;
    h ^= count * k1;  /* so that trailing zero bytes are not nothing */
    h ^= h >> 33;
    h *= 0xFF51AFD7ED558CCDULL;
    h ^= h >> 33;
    h *= 0xC4CEB9FE1A85EC53ULL;
    h ^= h >> 33;
    return h;
}

/* Whether two JSON texts have the same tokens (each value spelled alike, whitespace aside): then they
   parse to equal values. Equal bytes are told by memcmp first. */
static int same_tokens(const char *a, Py_ssize_t a_length, const char *b, Py_ssize_t b_length) {
    if (a_length == b_length && memcmp(a, b, (size_t)a_length) == 0) return 1;
    Tokens x = tokens_of(a, a_length), y = tokens_of(b, b_length);
    unsigned char chunk_x[TOKEN_CHUNK], chunk_y[TOKEN_CHUNK];
    Py_ssize_t filled;
    do {
        filled = tokens_fill(&x, chunk_x, TOKEN_CHUNK);
        if (tokens_fill(&y, chunk_y, TOKEN_CHUNK) != filled || memcmp(chunk_x, chunk_y, (size_t)filled) != 0) return 0;
    } while (filled == TOKEN_CHUNK);
    return 1;
}

static Py_ssize_t space_past(const char *t, Py_ssize_t i, Py_ssize_t n) {
    while (i < n && json_space((unsigned char)t[i])) i++;
    return i;
}

static Py_ssize_t string_past(const char *t, Py_ssize_t i, Py_ssize_t n) {  /* from its opening quote to past its end */
    for (i++; i < n; i++) {
        if (t[i] == '\\') i++;
        else if (t[i] == '"') return i + 1;
    }
    return n;
}

/* Past the JSON value at t[i]: its depth is a counter (no recursion, however deep the value). */
static Py_ssize_t value_past(const char *t, Py_ssize_t i, Py_ssize_t n) {
    Py_ssize_t depth = 0;
    while (i < n) {
        char c = t[i];
        if (c == '"') {
            i = string_past(t, i, n);
            if (depth == 0) return i;
            continue;
        }
        if (depth > 0 && n - i >= 8) {  /* inside an array or object only brackets and strings matter */
            uint64_t word;
            memcpy(&word, t + i, 8);
            uint64_t stops = has_byte(word, '"') | has_byte(word, '{') | has_byte(word, '[') | has_byte(word, '}') | has_byte(word, ']');
            if (stops == 0 || (stops & 0xFF) == 0) {  /* to the first that matters (has_byte's lowest flag is exact) */
                i += stops ? __builtin_ctzll(stops) / 8 : 8;
                continue;
            }
        }
        if (c == '{' || c == '[') depth++;
        else if (c == '}' || c == ']') {
            if (depth == 0) return i;
            if (--depth == 0) return i + 1;
        } else if (depth == 0 && (c == ',' || json_space((unsigned char)c))) return i;
        i++;
    }
    return n;
}

/* The value of the top-level member `name` of the JSON object t[0:n] (the last such member, as a parse
   keeps): 1 and its span; 0 when the object has no such member; -1 when unsure (a name spelled with
   escapes, or the text is not an object). `from`, when not 0, is just past a member's value: the members
   before it are not read (a member named twice, once before, is then not seen). */
static int member_span(const char *t, Py_ssize_t n, const char *name, Py_ssize_t name_length, Py_ssize_t from,
                       Py_ssize_t *start, Py_ssize_t *stop) {
    int found = 0;
    Py_ssize_t i = space_past(t, from, n);
    if (from == 0) {
        if (i >= n || t[i] != '{') return -1;
        i = space_past(t, i + 1, n);
    } else if (i < n && t[i] == ',') {  /* from just past a member's value */
        i = space_past(t, i + 1, n);
    }
    for (; i < n && t[i] != '}'; i = space_past(t, i, n)) {
        if (t[i] != '"') return -1;
        Py_ssize_t key = i + 1;
        i = string_past(t, i, n);
        if (memchr(t + key, '\\', (size_t)(i - 1 - key))) return -1;
        int named = i - 1 - key == name_length && memcmp(t + key, name, (size_t)name_length) == 0;
        i = space_past(t, i, n);
        if (i >= n || t[i] != ':') return -1;
        Py_ssize_t value = space_past(t, i + 1, n);
        i = value_past(t, value, n);
        if (named) {
            found = 1;
            *start = value;
            *stop = i;
        }
        i = space_past(t, i, n);
        if (i < n && t[i] == ',') i++;
    }
    return found;
}

/* The span start:stop of a buffer, checked; stop -1 is its end. */
static int span_of(Py_buffer *view, Py_ssize_t start, Py_ssize_t *stop, const char *what) {
    if (*stop == -1) *stop = view->len;
    if (start < 0 || *stop < start || *stop > view->len) {
        PyErr_Format(PyExc_IndexError, "%s: the span is not within the text", what);
        return -1;
    }
    return 0;
}

/* digest(buffer, start=0, stop=-1): the tokens' digest of buffer[start:stop], read where it lies. */
static PyObject *digest(PyObject *Py_UNUSED(module), PyObject *args) {
    Py_buffer view;
    Py_ssize_t start = 0, stop = -1;
    if (!PyArg_ParseTuple(args, "y*|nn", &view, &start, &stop)) return NULL;
    PyObject *answer = span_of(&view, start, &stop, "digest") < 0 ? NULL
        : PyLong_FromUnsignedLongLong(digest_tokens((const char *)view.buf + start, stop - start));
    PyBuffer_Release(&view);
    return answer;
}

/* same_json(a, a_start, a_stop, b, b_start, b_stop): whether the two spans have the same tokens. */
static PyObject *same_json(PyObject *Py_UNUSED(module), PyObject *args) {
    Py_buffer a, b;
    Py_ssize_t a_start, a_stop, b_start, b_stop;
    if (!PyArg_ParseTuple(args, "y*nny*nn", &a, &a_start, &a_stop, &b, &b_start, &b_stop)) return NULL;
    PyObject *answer = NULL;
    if (span_of(&a, a_start, &a_stop, "same_json") == 0 && span_of(&b, b_start, &b_stop, "same_json") == 0)
        answer = PyBool_FromLong(same_tokens((const char *)a.buf + a_start, a_stop - a_start,
                                             (const char *)b.buf + b_start, b_stop - b_start));
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    return answer;
}

/* same_rest(a, a_start, b, b_start, absent): whether a[a_start:] and b[b_start:] have the same tokens and
   neither text holds `absent` before its start (a record's input and all after it, when no output comes
   before the input: one call, where the compare made five of Python). */
static PyObject *same_rest(PyObject *Py_UNUSED(module), PyObject *args) {
    Py_buffer a, b, absent;
    Py_ssize_t a_start, b_start;
    if (!PyArg_ParseTuple(args, "y*ny*ny*", &a, &a_start, &b, &b_start, &absent)) return NULL;
    PyObject *answer = NULL;
    if (a_start < 0 || a_start > a.len || b_start < 0 || b_start > b.len) {
        PyErr_SetString(PyExc_IndexError, "same_rest: a start is not within its text");
    } else {
        int same = absent.len == 0
            || (!memmem(a.buf, (size_t)a_start, absent.buf, (size_t)absent.len)
                && !memmem(b.buf, (size_t)b_start, absent.buf, (size_t)absent.len));
        same = same && same_tokens((const char *)a.buf + a_start, a.len - a_start, (const char *)b.buf + b_start, b.len - b_start);
        answer = PyBool_FromLong(same);
    }
    PyBuffer_Release(&a);
    PyBuffer_Release(&b);
    PyBuffer_Release(&absent);
    return answer;
}

/* member(buffer, name, from=0): the span (start, stop) of the object's top-level member `name`, False when
   it has none, None when unsure (see member_span). */
static PyObject *member(PyObject *Py_UNUSED(module), PyObject *args) {
    Py_buffer view;
    const char *name;
    Py_ssize_t name_length, from = 0, start = 0, stop = 0;
    if (!PyArg_ParseTuple(args, "y*s#|n", &view, &name, &name_length, &from)) return NULL;
    if (from < 0 || from > view.len) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_IndexError, "member: from is not within the text");
        return NULL;
    }
    int found = member_span(view.buf, view.len, name, name_length, from, &start, &stop);
    PyBuffer_Release(&view);
    if (found < 0) Py_RETURN_NONE;
    if (found == 0) Py_RETURN_FALSE;
    return Py_BuildValue("(nn)", start, stop);
}


static PyBufferProcs RecordText_buffer = {.bf_getbuffer = (getbufferproc)RecordText_getbuffer};
static PySequenceMethods RecordText_sequence = {.sq_length = (lenfunc)RecordText_length};

static PyTypeObject RecordTextType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wsi_inspector.core.session._store_scan.RecordText",
    .tp_basicsize = sizeof(RecordText),
    .tp_dealloc = (destructor)RecordText_dealloc,
    .tp_repr = (reprfunc)RecordText_repr,
    .tp_as_buffer = &RecordText_buffer,
    .tp_as_sequence = &RecordText_sequence,
    .tp_hash = (hashfunc)RecordText_hash,
    .tp_richcompare = (richcmpfunc)RecordText_richcompare,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One store record's JSON text, read where it lies (bytes(), memoryview(), len(), == and hash() as bytes).",
};

/* ---- The answer: a Python object over the scan, building each record's tuple when asked. ---- */

typedef struct {
    PyObject_HEAD
    Scan scan;
    Py_buffer view;
    Py_ssize_t next;          /* the next record to hand out */
    PyObject **shape_keys;    /* each Shape's tuple of keys, made when first handed out */
    Py_ssize_t shape_keys_len; /* slots in shape_keys: lines scanned one by one meet new shapes as they go */
    Keeper *keeper;           /* made with the first record's text */
    Py_ssize_t *lines;        /* scan_ahead's lines, (start, stop) each, their records in the table */
    Py_ssize_t lines_len;     /* 0: no lines scanned ahead */
} Scanned;

static void free_scan(Scan *s) {
    free(s->keys); free(s->input_keys); free(s->shapes); free(s->shape_slots); free(s->records); free(s->parts);
    s->keys = s->input_keys = NULL; s->shapes = NULL; s->shape_slots = NULL; s->records = NULL; s->parts = NULL;
}

static void Scanned_dealloc(Scanned *self) {
    for (Py_ssize_t i = 0; i < self->shape_keys_len; i++) Py_XDECREF(self->shape_keys[i]);
    free(self->shape_keys);
    Py_XDECREF(self->keeper);
    free(self->lines);
    free_scan(&self->scan);
    if (self->view.obj) PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The text of a key (interned), its escapes undone: only the one-spelling kind reach here. */
static PyObject *text_of(Scanned *self, Span span) {
    const char *at = (const char *)self->scan.text + span.start;
    PyObject *text;
    if (!memchr(at, '\\', (size_t)span.len)) text = PyUnicode_DecodeUTF8(at, span.len, "strict");
    else {
        char *plain = PyMem_Malloc((size_t)span.len);
        if (!plain) return PyErr_NoMemory();
        Py_ssize_t n = 0;
        for (Py_ssize_t i = 0; i < span.len; i++) {
            char c = at[i];
            if (c == '\\') {
                c = at[++i];
                c = c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
            }
            plain[n++] = c;
        }
        text = PyUnicode_DecodeUTF8(plain, n, "strict");
        PyMem_Free(plain);
    }
    if (text) PyUnicode_InternInPlace(&text);
    return text;
}

static Py_ssize_t after_space(const unsigned char *t, Py_ssize_t p, Py_ssize_t end) {
    while (p < end && (t[p] == ' ' || t[p] == '\n' || t[p] == '\r' || t[p] == '\t')) p++;
    return p;
}

static Py_ssize_t closing_quote(const unsigned char *t, Py_ssize_t p, Py_ssize_t end) {
    while (p < end && t[p] != '"') p++;
    return p;
}

/* A plain record's members, read again (the scan checked them all): the input and output as None, strings
   without escapes, integers of at most 18 digits, true, false, null. Every step stays inside the
   record, whatever its bytes (a mapped file can change under a reader). */
static PyObject *plain_fields(Scanned *self, Record *r) {
    const unsigned char *t = self->scan.text;
    Py_ssize_t end = r->end - 1;  /* the closing brace */
    PyObject *fields = PyDict_New();
    Py_ssize_t p = after_space(t, r->start + 1, end);
    while (fields && p < end) {
        Py_ssize_t key_start = p + 1, key_end = closing_quote(t, key_start, end);
        PyObject *key = text_of(self, (Span){key_start, key_end - key_start}), *value = NULL;
        p = after_space(t, after_space(t, key_end + 1, end) + 1, end);  /* past the colon */
        if (p == r->input_start) { value = Py_NewRef(Py_None); p = r->input_end; }
        else if (p == r->output_start) { value = Py_NewRef(Py_None); p = r->output_end; }
        else if (p < end && t[p] == '"') {
            Py_ssize_t close = closing_quote(t, p + 1, end);
            value = PyUnicode_DecodeUTF8((const char *)t + p + 1, close - p - 1, "strict");
            p = close + 1;
        } else if (p < end && t[p] == 't') { value = Py_NewRef(Py_True); p += 4; }
        else if (p < end && t[p] == 'f') { value = Py_NewRef(Py_False); p += 5; }
        else if (p < end && t[p] == 'n') { value = Py_NewRef(Py_None); p += 4; }
        else {
            char digits[24];
            int n = 0;
            while (n < 20 && p < end && (t[p] == '-' || (unsigned)(t[p] - '0') <= 9)) digits[n++] = (char)t[p++];
            digits[n] = 0;
            value = PyLong_FromString(digits, NULL, 10);  /* nothing read: a ValueError, not a wrong value */
        }
        if (!key || !value || PyDict_SetItem(fields, key, value) < 0) Py_CLEAR(fields);
        Py_XDECREF(key);
        Py_XDECREF(value);
        p = after_space(t, p, end);
        if (p < end && t[p] == ',') p = after_space(t, p + 1, end);
        else break;
    }
    return fields;
}

/* The tuple of a Shape's keys: made once, then shared by every record with that key set. */
static PyObject *shape_keys(Scanned *self, Py_ssize_t index) {
    if (index >= self->shape_keys_len) {
        Py_ssize_t size = self->scan.shapes_len > 2 * self->shape_keys_len ? self->scan.shapes_len : 2 * self->shape_keys_len;
        if (size <= index) size = index + 1;
        PyObject **bigger = realloc(self->shape_keys, (size_t)size * sizeof(PyObject *));
        if (!bigger) return PyErr_NoMemory();
        memset(bigger + self->shape_keys_len, 0, (size_t)(size - self->shape_keys_len) * sizeof(PyObject *));
        self->shape_keys = bigger;
        self->shape_keys_len = size;
    }
    if (!self->shape_keys[index]) {
        Shape *shape = self->scan.shapes + index;
        PyObject *keys = PyTuple_New(shape->count);
        for (Py_ssize_t i = 0; keys && i < shape->count; i++) {
            PyObject *key = text_of(self, self->scan.input_keys[shape->keys_at + i]);
            if (!key) Py_CLEAR(keys);
            else PyTuple_SET_ITEM(keys, i, key);
        }
        if (!keys) return NULL;
        self->shape_keys[index] = keys;
    }
    return Py_NewRef(self->shape_keys[index]);
}

static PyObject *record_text(Scanned *self, Py_ssize_t start, Py_ssize_t end) {
    if (!self->keeper) {
        self->keeper = PyObject_New(Keeper, &KeeperType);
        if (!self->keeper) return NULL;
        if (PyObject_GetBuffer(self->view.obj, &self->keeper->view, PyBUF_SIMPLE) < 0) {
            self->keeper->view.obj = NULL;
            Py_CLEAR(self->keeper);
            return NULL;
        }
    }
    RecordText *text = PyObject_New(RecordText, &RecordTextType);
    if (!text) return NULL;
    text->keeper = (Keeper *)Py_NewRef(self->keeper);
    text->start = (const char *)self->keeper->view.buf + start;
    text->length = end - start;
    return (PyObject *)text;
}

/* (start, end, input_start, input_end, input_bytes, shape, fields, verbatim, text) for one record. */
static PyObject *record_tuple(Scanned *self, Record *r) {
    PyObject *shape, *fields, *text;
    if (r->input_start < 0 || r->input_bytes < 0) shape = Py_NewRef(Py_None);
    else if (r->input_kind == K_OBJECT) shape = shape_keys(self, r->shape);
    else if (r->input_kind == K_ARRAY) shape = PyLong_FromSsize_t(r->shape);
    else shape = Py_NewRef(KINDS[r->input_kind]);
    if (!shape) return NULL;
    fields = r->plain && r->input_start >= 0 ? plain_fields(self, r) : Py_NewRef(Py_None);
    if (!fields) { Py_DECREF(shape); return NULL; }
    text = record_text(self, r->start, r->end);
    if (!text) { Py_DECREF(shape); Py_DECREF(fields); return NULL; }
    return Py_BuildValue("(nnnnLNNON)", r->start, r->end, r->input_start, r->input_end, r->input_bytes,
                         shape, fields, r->verbatim ? Py_True : Py_False, text);
}

/* Give back the pages of the records table wholly behind the next record to hand out, every
   RECORDS_RELEASE_EVERY records: they are never read again, and the table (72 bytes a record: 7 MB for
   100,000) was otherwise held whole beside the entries made from it, at the top of a load's peak. Only
   whole pages inside the table are given back, never the allocator's own bytes around it. */
static void release_records_behind(Scanned *self) {
    if (self->next % RECORDS_RELEASE_EVERY) return;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = ((uintptr_t)self->scan.records + page - 1) & ~(page - 1);
    /* Up to the page of the last record handed out, not past it: its caller may still be reading it. */
    uintptr_t to = (uintptr_t)(self->scan.records + self->next - 1) & ~(page - 1);
    if (to > from) madvise((void *)from, to - from, MADV_DONTNEED);
}

static PyObject *Scanned_next(Scanned *self) {
    if (self->next >= self->scan.records_len) return NULL;
    Record *r = self->scan.records + self->next++;
    PyObject *record = record_tuple(self, r);
    release_records_behind(self);
    return record;
}

static PyObject *Scanned_parts(Scanned *self, PyObject *Py_UNUSED(ignored)) {
    PyObject *parts = PyList_New(self->scan.parts_len);
    for (Py_ssize_t i = 0; parts && i < self->scan.parts_len; i++) {
        Part *m = self->scan.parts + i;
        PyObject *key = text_of(self, m->key);
        PyObject *item = key ? Py_BuildValue("(Nnn)", key, m->value.start, m->value.start + m->value.len) : NULL;
        if (!item) { Py_CLEAR(parts); break; }
        PyList_SET_ITEM(parts, i, item);
    }
    return parts;
}

/* The record in text[start:stop] (a JSON Lines line, spaces around it allowed) scanned on its own: its
   tuple, offsets into the whole text, or None when it is not one JSON value. The Scan starts clean
   each time but keeps its shapes, so equal key sets are one tuple across lines. */
static PyObject *record_at(Scanned *self, Py_ssize_t start, Py_ssize_t stop) {
    Scan *s = &self->scan;
    s->pos = start;
    s->length = stop;  /* the line's end: nothing past it is read */
    s->depth = 0;
    s->keys_len = 0;
    s->records_len = 0;
    s->failed = s->no_memory = 0;
    skip_space(s);
    int ok = scan_record(s);
    skip_space(s);
    if (s->no_memory) return PyErr_NoMemory();
    if (!ok || s->failed || s->pos != s->length) Py_RETURN_NONE;
    return record_tuple(self, s->records);
}

static int line_span(Scanned *self, PyObject *args, Py_ssize_t *start, Py_ssize_t *stop) {
    if (!PyArg_ParseTuple(args, "nn", start, stop)) return 0;
    if (*start < 0 || *start > *stop || *stop > self->view.len) {
        PyErr_Format(PyExc_ValueError, "span %zd:%zd is not inside the text of %zd bytes", *start, *stop, self->view.len);
        return 0;
    }
    return 1;
}

/* The line's record as scan_ahead left it, or NULL (not scanned ahead: the lines ahead are dropped). Lines
   scanned ahead and not asked for (the header) are passed over. */
static PyObject *record_ahead(Scanned *self, Py_ssize_t start, Py_ssize_t stop) {
    while (self->next < self->lines_len && self->lines[2 * self->next] < start) self->next++;
    if (self->next < self->lines_len && self->lines[2 * self->next] == start && self->lines[2 * self->next + 1] == stop) {
        Record *r = self->scan.records + self->next++;
        PyObject *record = r->start < 0 ? Py_NewRef(Py_None) : record_tuple(self, r);
        release_records_behind(self);  /* after the tuple is made: the page given back may hold the start of r */
        return record;
    }
    free(self->lines);
    self->lines = NULL;
    self->lines_len = self->next = 0;
    return NULL;
}

static PyObject *Scanned_record(Scanned *self, PyObject *args) {
    Py_ssize_t start, stop;
    if (!line_span(self, args, &start, &stop)) return NULL;
    PyObject *ahead = self->lines_len ? record_ahead(self, start, stop) : NULL;
    return ahead ? ahead : record_at(self, start, stop);
}

/* scan_ahead(starts, stops): every line text[starts[i]:stops[i]] (8-byte integers, in order) scanned at once
   without the GIL, as record() scans one; record() then hands each out. Line by line, a JSON Lines load held
   the GIL through each line's scan, so two sessions read at once (a compare) hardly overlapped. */
static PyObject *Scanned_scan_ahead(Scanned *self, PyObject *args) {
    Py_buffer starts, stops;
    if (!PyArg_ParseTuple(args, "y*y*", &starts, &stops)) return NULL;
    Py_ssize_t count = starts.len / 8;
    const int64_t *from = starts.buf, *to = stops.buf;
    int bad = starts.len != stops.len || starts.len % 8 != 0;
    for (Py_ssize_t i = 0; !bad && i < count; i++)
        bad = from[i] < 0 || from[i] > to[i] || to[i] > self->view.len || (i > 0 && from[i] < to[i - 1]);
    Py_ssize_t *lines = bad ? NULL : malloc((size_t)(2 * count + 1) * sizeof(Py_ssize_t));
    if (!bad && lines)
        for (Py_ssize_t i = 0; i < count; i++) { lines[2 * i] = (Py_ssize_t)from[i]; lines[2 * i + 1] = (Py_ssize_t)to[i]; }
    PyBuffer_Release(&starts);
    PyBuffer_Release(&stops);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "scan_ahead: the lines must be 8-byte starts and stops in order, inside the text");
        return NULL;
    }
    if (!lines) return PyErr_NoMemory();
    free(self->lines);
    self->lines = NULL;
    Scan *s = &self->scan;
    s->records_len = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < count && !s->no_memory; i++) {
        Py_ssize_t before = s->records_len;
        s->pos = lines[2 * i];
        s->length = lines[2 * i + 1];  /* the line's end: nothing past it is read */
        s->depth = 0;
        s->keys_len = 0;
        s->failed = 0;
        skip_space(s);
        int ok = scan_record(s);
        skip_space(s);
        if (!ok || s->failed || s->pos != s->length) {  /* not one JSON value: None, as record() says */
            s->records_len = before;
            if (grow((void **)&s->records, &s->records_cap, before + 1, sizeof(Record), s))
                s->records[s->records_len++] = (Record){.start = -1};
        }
    }
    Py_END_ALLOW_THREADS
    if (s->no_memory) {
        free(lines);
        s->records_len = 0;
        return PyErr_NoMemory();
    }
    self->lines = lines;
    self->lines_len = count;
    self->next = 0;
    Py_RETURN_NONE;
}

static PyObject *Scanned_text(Scanned *self, PyObject *args) {
    Py_ssize_t start, stop;
    return line_span(self, args, &start, &stop) ? record_text(self, start, stop) : NULL;
}

static PyMethodDef Scanned_methods[] = {
    {"parts", (PyCFunction)Scanned_parts, METH_NOARGS, "The document's members: (name, start, end) each."},
    {"record", (PyCFunction)Scanned_record, METH_VARARGS,
     "record(start, stop): the record in text[start:stop] scanned on its own (a JSON Lines line), or None."},
    {"text", (PyCFunction)Scanned_text, METH_VARARGS, "text(start, stop): text[start:stop] as a record's text (a RecordText)."},
    {"scan_ahead", (PyCFunction)Scanned_scan_ahead, METH_VARARGS,
     "scan_ahead(starts, stops): every line scanned at once without the GIL; record() then hands each out."},
    {NULL}
};

static PyTypeObject ScannedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wsi_inspector.core.session._store_scan.Scanned",
    .tp_basicsize = sizeof(Scanned),
    .tp_dealloc = (destructor)Scanned_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A scanned session document; iterating gives each store record's tuple, once.",
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Scanned_next,
    .tp_methods = Scanned_methods,
};

/* A Scanned over `text`, nothing scanned yet; NULL with an exception set. */
static Scanned *new_scanned(PyObject *text) {
    Scanned *self = PyObject_New(Scanned, &ScannedType);
    if (!self) return NULL;
    memset(&self->scan, 0, sizeof self->scan);
    memset(&self->view, 0, sizeof self->view);
    self->next = 0;
    self->shape_keys = NULL;
    self->shape_keys_len = 0;
    self->keeper = NULL;
    self->lines = NULL;
    self->lines_len = 0;
    if (PyObject_GetBuffer(text, &self->view, PyBUF_SIMPLE) < 0) { self->view.obj = NULL; Py_DECREF(self); return NULL; }
    self->scan.text = self->view.buf;
    self->scan.length = self->view.len;
    return self;
}

/* scan(text) -> Scanned, or None when the text is not a plain JSON session document. */
static PyObject *scan(PyObject *Py_UNUSED(module), PyObject *text) {
    Scanned *self = new_scanned(text);
    if (!self) return NULL;
    Scan *s = &self->scan;
    Py_BEGIN_ALLOW_THREADS
    scan_document(s);
    Py_END_ALLOW_THREADS
    if (s->no_memory) { Py_DECREF(self); return PyErr_NoMemory(); }
    if (s->failed) { Py_DECREF(self); Py_RETURN_NONE; }
    return (PyObject *)self;
}

/* scan_record(text) -> one record's tuple (as Scanned gives them), or None when `text` is not one
   JSON value. A JSON Lines line: short, so the GIL is kept. */
static PyObject *scan_one_record(PyObject *Py_UNUSED(module), PyObject *text) {
    Scanned *self = new_scanned(text);
    if (!self) return NULL;
    PyObject *record = record_at(self, 0, self->view.len);
    Py_DECREF(self);
    return record;
}

/* lines(text) -> a Scanned with nothing scanned, whose record(start, stop) scans each line where it lies:
   one export of the text for all of them, each record's text 40 bytes (a line's memoryview is 184, and
   scan_record's own Scanned and export for each line some 300 more). */
static PyObject *scan_lines(PyObject *Py_UNUSED(module), PyObject *text) {
    return (PyObject *)new_scanned(text);
}


/* ---- Searching bytes where they lie: core/session/fast_find.py's native half (memmem, buffer addresses). ---- */

typedef struct {              /* find(needle, start=0, end=None) over one held buffer, as bytes.find */
    PyObject_HEAD
    Py_buffer view;
} Finder;

static void Finder_dealloc(Finder *self) {
    if (self->view.obj) PyBuffer_Release(&self->view);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Finder_call(Finder *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"needle", "start", "end", NULL};
    Py_buffer needle;
    Py_ssize_t start = 0, size = self->view.len, stop = size;
    PyObject *end = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*|nO", names, &needle, &start, &end)) return NULL;
    if (end != Py_None) {
        stop = PyLong_AsSsize_t(end);
        if (stop == -1 && PyErr_Occurred()) { PyBuffer_Release(&needle); return NULL; }
        stop = stop < 0 ? (stop + size < 0 ? 0 : stop + size) : (stop > size ? size : stop);
    }
    if (start < 0) start = start + size < 0 ? 0 : start + size;  /* the bounds as bytes.find takes them */
    Py_ssize_t found = -1;
    if (start <= size && stop - start >= needle.len) {
        if (needle.len == 0) found = start;
        else {
            const char *base = self->view.buf;
            const char *hit = memmem(base + start, (size_t)(stop - start), needle.buf, (size_t)needle.len);
            found = hit ? hit - base : -1;
        }
    }
    PyBuffer_Release(&needle);
    return PyLong_FromSsize_t(found);
}

static PyTypeObject FinderType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "wsi_inspector.core.session._store_scan.Finder",
    .tp_basicsize = sizeof(Finder),
    .tp_dealloc = (destructor)Finder_dealloc,
    .tp_call = (ternaryfunc)Finder_call,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "find(needle, start=0, end=None): bytes.find over the held buffer, read where it lies (memmem).",
};

/* finder(haystack) -> Finder: the haystack's buffer held (exported: a bytearray cannot move) while it lives. */
static PyObject *new_finder(PyObject *Py_UNUSED(module), PyObject *haystack) {
    Finder *self = PyObject_New(Finder, &FinderType);
    if (!self) return NULL;
    if (PyObject_GetBuffer(haystack, &self->view, PyBUF_SIMPLE) < 0) { self->view.obj = NULL; Py_DECREF(self); return NULL; }
    return (PyObject *)self;
}

/* buffer_spans(buffers) -> ([address], [size]): where each contiguous buffer's bytes lie now. */
static PyObject *buffer_spans(PyObject *Py_UNUSED(module), PyObject *buffers) {
    PyObject *iterator = PyObject_GetIter(buffers), *addresses = PyList_New(0), *sizes = PyList_New(0), *item;
    if (!iterator || !addresses || !sizes) goto failed;
    while ((item = PyIter_Next(iterator))) {
        Py_buffer view;
        int ok = PyObject_GetBuffer(item, &view, PyBUF_SIMPLE) == 0;
        Py_DECREF(item);
        if (!ok) goto failed;
        PyObject *address = PyLong_FromVoidPtr(view.buf), *size = PyLong_FromSsize_t(view.len);
        PyBuffer_Release(&view);
        ok = address && size && PyList_Append(addresses, address) == 0 && PyList_Append(sizes, size) == 0;
        Py_XDECREF(address);
        Py_XDECREF(size);
        if (!ok) goto failed;
    }
    if (PyErr_Occurred()) goto failed;
    Py_DECREF(iterator);
    return Py_BuildValue("(NN)", addresses, sizes);
failed:
    Py_XDECREF(iterator); Py_XDECREF(addresses); Py_XDECREF(sizes);
    return NULL;
}

/* The code point of the UTF-8 sequence at s[i..n) and its length, or length 0 when it is not one (a bad lead
   byte, a missing or bad continuation byte). Surrogates are taken as they come (Python's "surrogatepass" writes
   them so), as are overlong forms: the text was read as UTF-8 already, and each becomes the same escape. */
static int utf8_at(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, uint32_t *code) {
    unsigned char lead = s[i];
    int length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? (lead <= 0xEF ? 3 : 0) : lead >= 0xC0 ? 2 : 0;
    if (length == 0 || i + length > n) return 0;
    uint32_t value = lead & (0x7F >> length);
    for (int k = 1; k < length; k++) {
        if ((s[i + k] & 0xC0) != 0x80) return 0;
        value = (value << 6) | (s[i + k] & 0x3F);
    }
    if (value > 0x10FFFF) return 0;
    *code = value;
    return length;
}

/* What ascii_compact does with each byte: copy it (0), or look at it (1): outside strings a space, tab, newline,
   return or quote; inside them a quote, a backslash or a byte past ASCII (and, so both tables can be one, the
   whitespace, copied there all the same). */
static unsigned char COMPACT_STOPS[256];

static void compact_stops_init(void) {
    for (int c = 0x80; c < 256; c++) COMPACT_STOPS[c] = 1;
    COMPACT_STOPS[' '] = COMPACT_STOPS['\t'] = COMPACT_STOPS['\n'] = COMPACT_STOPS['\r'] = 1;
    COMPACT_STOPS['"'] = COMPACT_STOPS['\\'] = 1;
}

/* ascii_compact(text) -> bytes, or None: JSON text (UTF-8) without the whitespace between its tokens and with each
   character past ASCII written as its \uXXXX escape (two past U+FFFF), escapes as written; JSON reads the same
   values from it. None where the text is not UTF-8 (the caller's own way then says so). One pass, copying runs
   of plain bytes whole, into a buffer grown as escapes need. See core/runner/envelope.py `_ascii_compact`. */
static PyObject *ascii_compact(PyObject *Py_UNUSED(module), PyObject *arg) {
    static const char HEX[] = "0123456789abcdef";
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    const unsigned char *s = view.buf;
    Py_ssize_t n = view.len, size = 0, room = n + 64;
    PyObject *out = PyBytes_FromStringAndSize(NULL, room);
    int in_string = 0;
    for (Py_ssize_t i = 0; out && i < n;) {
        Py_ssize_t run = i;
        while (run < n && !COMPACT_STOPS[s[run]]) run++;
        if (size + (run - i) + 12 > room) {  /* an escape writes at most 12 bytes */
            room = 2 * room + (run - i) + 12;
            if (_PyBytes_Resize(&out, room) < 0) break;
        }
        char *o = PyBytes_AS_STRING(out);
        memcpy(o + size, s + i, run - i);
        size += run - i;
        if (run == n) break;
        unsigned char c = s[run];
        i = run + 1;
        if (c < 0x80) {
            if (!in_string && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {  /* an indentation, whole */
                while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
                continue;
            }
            o[size++] = c;
            if (c == '"') in_string = !in_string;
            else if (c == '\\' && in_string && i < n) o[size++] = s[i++];  /* \" does not end the string */
            continue;
        }
        uint32_t code = 0;
        int length = utf8_at(s, run, n, &code);
        if (length == 0) {
            Py_CLEAR(out);
            out = Py_NewRef(Py_None);
            break;
        }
        i = run + length;
        uint32_t units[2] = {code, 0};
        int count = 1;
        if (code > 0xFFFF) {
            units[0] = 0xD800 + ((code - 0x10000) >> 10);
            units[1] = 0xDC00 + ((code - 0x10000) & 0x3FF);
            count = 2;
        }
        for (int k = 0; k < count; k++) {
            o[size++] = '\\'; o[size++] = 'u';
            for (int shift = 12; shift >= 0; shift -= 4) o[size++] = HEX[(units[k] >> shift) & 0xF];
        }
    }
    PyBuffer_Release(&view);
    if (out && out != Py_None && _PyBytes_Resize(&out, size) < 0) return NULL;
    return out;
}

static PyMethodDef module_methods[] = {
    {"scan", (PyCFunction)scan, METH_O, "scan(text): the session document scanned, or None (see core/session/store_scan.py)."},
    {"scan_record", (PyCFunction)scan_one_record, METH_O,
     "scan_record(text): one record (a JSON Lines line) scanned, or None (see core/session/store_scan.py)."},
    {"lines", (PyCFunction)scan_lines, METH_O,
     "lines(text): a Scanned of nothing yet, to scan each line with .record(start, stop) (see core/session/store_scan.py)."},
    {"finder", (PyCFunction)new_finder, METH_O, "finder(haystack): bytes.find over it, read where it lies (see core/session/fast_find.py)."},
    {"digest", (PyCFunction)digest, METH_VARARGS,
     "digest(buffer, start=0, stop=-1): a 64-bit digest of a JSON text's tokens (see core/session/store_scan.py)."},
    {"same_json", (PyCFunction)same_json, METH_VARARGS,
     "same_json(a, a_start, a_stop, b, b_start, b_stop): the two spans have the same tokens (see core/session/store_scan.py)."},
    {"same_rest", (PyCFunction)same_rest, METH_VARARGS,
     "same_rest(a, a_start, b, b_start, absent): the rests have the same tokens, no `absent` before them (see core/session/store_scan.py)."},
    {"member", (PyCFunction)member, METH_VARARGS,
     "member(buffer, name, from=0): the span of an object's top-level member (see core/session/store_scan.py)."},
    {"ascii_compact", (PyCFunction)ascii_compact, METH_O, "ascii_compact(text): the JSON text compact and in ASCII, or None (see core/runner/envelope.py)."},
    {"buffer_spans", (PyCFunction)buffer_spans, METH_O, "buffer_spans(buffers): ([address], [size]) (see core/session/fast_find.py)."},
    {NULL}
};

static struct PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "wsi_inspector.core.session._store_scan", NULL, -1, module_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__store_scan(void) {
    for (int c = 0x20; c < 0x7F; c++) PLAIN[c] = c != '"' && c != '\\';
    C_LOCALE = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    for (int i = 0; i < 7; i++) if (!(KINDS[i] = PyUnicode_InternFromString(KIND_NAMES[i]))) return NULL;
    compact_stops_init();
    if (!C_LOCALE) return PyErr_NoMemory();
    if (PyType_Ready(&ScannedType) < 0 || PyType_Ready(&KeeperType) < 0 || PyType_Ready(&RecordTextType) < 0
        || PyType_Ready(&FinderType) < 0) return NULL;
    PyObject *module = PyModule_Create(&module_def);
    if (module && PyModule_AddObjectRef(module, "RecordText", (PyObject *)&RecordTextType) < 0) Py_CLEAR(module);
    return module;
}
