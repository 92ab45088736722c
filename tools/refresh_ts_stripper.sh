#!/usr/bin/env bash
# Refresh the vendored TypeScript stripper (Node's `amaro`: swc's strip-only mode compiled to WebAssembly)
# from the npm registry, or check that the vendored files are what the pinned release ships.
#
#   tools/refresh_ts_stripper.sh            re-derive the pinned version and compare with the vendored files
#   tools/refresh_ts_stripper.sh 1.3.0      vendor amaro 1.3.0 and rewrite PIN.json (then run the tests)
#
# amaro's lib/wasm.js is wasm-bindgen glue with the WebAssembly inlined as one base64 literal; it is split
# into wasm_bg.wasm (the bytes, so the host copies them into V8 without parsing 3.7 MB of JavaScript) and
# wasm.js (the glue, that one line replaced). Needs npm and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=core/runner/vendor/amaro
pin=$dest/PIN.json
version=${1:-$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$pin")}
mode=$([ $# -ge 1 ] && echo write || echo check)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "amaro@$version" >/dev/null)
tarball=$(ls "$work"/amaro-*.tgz)
integrity=$(npm view "amaro@$version" dist.integrity)
tar xzf "$tarball" -C "$work"

python3 - "$work/package" "$dest" "$version" "$integrity" "$tarball" "$mode" <<'PY'
import base64, hashlib, json, pathlib, sys

package, dest, version, integrity, tarball, mode = sys.argv[1:]
package, dest = pathlib.Path(package), pathlib.Path(dest)
digest = "sha512-" + base64.b64encode(hashlib.sha512(pathlib.Path(tarball).read_bytes()).digest()).decode()
if digest != integrity:
    sys.exit(f"amaro {version}: the tarball's {digest} is not the registry's {integrity}")
glue = (package / "lib" / "wasm.js").read_text("utf-8")
head, quote_end = "const bytes = Buffer.from('", "', 'base64');"
start = glue.index(head)
end = glue.index(quote_end, start)
files = {
    "wasm_bg.wasm": base64.b64decode(glue[start + len(head):end], validate=True),
    "wasm.js": (glue[:start] + "const bytes = __wsiWasmBytes;" + glue[end + len(quote_end):]).encode("utf-8"),
    "LICENSE.md": (package / "LICENSE.md").read_bytes(),        # amaro: MIT
    "LICENSE-swc": (package / "dist" / "LICENSE").read_bytes(),  # swc, compiled into the WebAssembly: Apache-2.0
}
pin = {
    "package": "amaro",
    "version": version,
    "integrity": integrity,
    "source": "lib/wasm.js, split into wasm_bg.wasm and wasm.js by tools/refresh_ts_stripper.sh",
    "sha256": {name: hashlib.sha256(data).hexdigest() for name, data in files.items()},
}
if mode == "check":
    kept = json.loads((dest / "PIN.json").read_text())
    on_disk = {name: hashlib.sha256((dest / name).read_bytes()).hexdigest() for name in files}
    if kept != pin or on_disk != pin["sha256"]:
        sys.exit(f"vendored amaro {version} differs from the registry's: pinned {kept}, registry {pin}, on disk {on_disk}")
    print(f"amaro {version}: vendored files match the registry's release")
else:
    dest.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (dest / name).write_bytes(data)
    (dest / "PIN.json").write_text(json.dumps(pin, indent=2) + "\n")
    print(f"amaro {version} vendored into {dest}")
PY
