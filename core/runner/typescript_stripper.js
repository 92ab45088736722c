// The host's TypeScript stripper: amaro's swc glue (vendor/amaro/wasm.js) run in a CommonJS-shaped
// scope, with the three Node APIs it asks for. Evaluated once in the stripper's own isolate, never in
// a body's realm. `load` takes the glue's text and the WebAssembly bytes; `strip` answers in JSON.
"use strict";
globalThis.wsiStripper = (function () {
  // UTF-8 both ways: bare V8 has no TextEncoder/TextDecoder, and wasm-bindgen passes strings as UTF-8.
  function decode(bytes) {
    const parts = [];
    let i = 0;
    while (i < bytes.length) {
      const start = i;
      while (i < bytes.length && bytes[i] < 0x80 && i - start < 8192) i++;
      if (i > start) parts.push(String.fromCharCode.apply(null, bytes.subarray(start, i)));
      if (i >= bytes.length || bytes[i] < 0x80) continue;
      let c = bytes[i++];
      if (c >= 0xf0) c = ((c & 7) << 18) | ((bytes[i++] & 63) << 12) | ((bytes[i++] & 63) << 6) | (bytes[i++] & 63);
      else if (c >= 0xe0) c = ((c & 15) << 12) | ((bytes[i++] & 63) << 6) | (bytes[i++] & 63);
      else c = ((c & 31) << 6) | (bytes[i++] & 63);
      parts.push(String.fromCodePoint(c));
    }
    return parts.join("");
  }
  function encode(text) {
    const out = [];
    for (const ch of text) {
      const c = ch.codePointAt(0);
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  }
  class TextDecoder { decode(bytes) { return bytes === undefined ? "" : decode(bytes); } }
  class TextEncoder { encode(text) { return encode(text); } }
  const node = { util: { TextDecoder, TextEncoder }, "node:buffer": { Buffer: null } };
  let swc = null;

  function load(glue, wasmBuffer) {
    const module = { exports: {} };
    const run = new Function("module", "exports", "require", "__wsiWasmBytes", glue);
    run(module, module.exports, (name) => node[name], new Uint8Array(wasmBuffer));
    swc = module.exports;
  }

  const OPTIONS = { mode: "strip-only", module: false };
  const WORD = /[\w$\u0080-\uffff]/;

  // Where `as T`/`satisfies T` was erased just before `<<`, `>>` or `>>>` (blanks, comments between).
  function shiftsAfterAssertions(source, code) {
    const sites = [];
    for (let i = 0; i < source.length; i++) {
      if (source[i] === code[i] || (i > 0 && WORD.test(source[i - 1]))) continue;
      if (!/^(as|satisfies)(?![\w$\u0080-\uffff])/.test(source.slice(i, i + 10))) continue;
      let j = i;
      for (;;) {
        if (j < code.length && (source[j] !== code[j] || /\s/.test(code[j]))) j++;
        else if (code.startsWith("/*", j)) j = code.indexOf("*/", j + 2) < 0 ? code.length : code.indexOf("*/", j + 2) + 2;
        else if (code.startsWith("//", j)) j = code.indexOf("\n", j) < 0 ? code.length : code.indexOf("\n", j);
        else break;
      }
      const shift = /^(>>>|>>|<<)(?!=)/.exec(code.slice(j, j + 4));
      if (shift !== null) sites.push([j, shift[1].length]);
      i = j;
    }
    return sites;
  }

  // swc (amaro 1.2.1) refuses an erasure that would regroup `a + b as T * c`, but not `a < b as T << c` (a
  // relational operand, a shift after). Ask it again with every kept shift operator turned into `+`, which it
  // does check: a shift operand (`a << b as T << c`) then meets an operator of its own level and passes,
  // a relational one is refused. If that probe does not parse (a `<<` inside a regular expression), fall
  // back to turning only the shift after the assertion, which also refuses the harmless shift operand.
  function regroupedShift(source, code) {
    const sites = shiftsAfterAssertions(source, code);
    if (sites.length === 0) return null;
    const kept = [];
    for (const match of code.matchAll(/(>>>|>>|<<)(?!=)/g)) {
      if (source.startsWith(match[1], match.index)) kept.push([match.index, match[1].length]);
    }
    const probes = [kept, ...sites.map((site) => [site])];
    for (const shifts of probes) {
      let probe = source;
      for (const [at, length] of shifts) probe = probe.slice(0, at) + "+".padEnd(length) + probe.slice(at + length);
      try {
        swc.transformSync(probe, OPTIONS);
        return null;
      } catch (error) {
        if (error && error.code === "UnsupportedSyntax" && /grouping/.test(error.message)) return error;
      }
    }
    return null;
  }

  function strip(source) {
    try {
      const code = swc.transformSync(source, OPTIONS).code;
      const regrouped = regroupedShift(source, code);
      if (regrouped !== null) throw regrouped;
      return JSON.stringify({ code });
    } catch (error) {
      if (error === null || typeof error !== "object" || typeof error.code !== "string") throw error;
      const { code, message, startLine, startColumn } = error;
      return JSON.stringify({ error: { code, message, line: startLine, column: startColumn } });
    }
  }

  return { load, strip };
})();
