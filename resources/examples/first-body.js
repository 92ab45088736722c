// A first body: read the newest input of a module, a kept value and the scene; log; return.
const band = inputs.last("pack.corridorRuns");  // the newest entry of that module: its input
log("band depth", band.bandDepth, "with", band.spine.length, "spine points");
log("an earlier body kept a spine of", kept.spine.length, "points");
const wards = scene.entities({ type: "ward" });  // [{id, type, name}, …]
return { bandDepth: band.bandDepth, wards: wards.map((w) => w.name) };
