// The scene: summaries, one entity's data, a handle for module calls, and the counts.
const info = scene.info();                       // {unit, counts: {type: n}, kept: {name: {...}}}
const wardIds = scene.entities("ward").map((w) => w.id);
const ward = scene.read(wardIds[0]);             // a copy of the whole entity: {id, type, name, beds}
const handle = scene.get(wardIds[0]);            // {__h: …}: valid in this run only, never keep it
log("unit", info.unit, "wards", wardIds.join(", "), "beds", ward.beds);
return { counts: info.counts, firstWard: ward.name, isHandle: typeof handle.__h === "string" };
