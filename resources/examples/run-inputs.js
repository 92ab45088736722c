// modules.run.inputs.*: the editor's own helpers, computed for real (no record needed).
const store = [{ id: "c1", call: "a.b.c", input: { n: 1 } }, { id: "c2", call: "a.b.c", input: { n: 2 } }];
const bytes = await modules.run.inputs.jsonBytes(store);
const { tail, fell } = await modules.run.inputs.trimStore(store, 50);
return { bytes, kept: tail.map((e) => e.id), fell };
