// The demo's body b5, fixed: a handle dies with the run, so keep the entity's id instead.
const base = inputs.last("pack.corridorRuns.corridorRuns");
const input = { ...base, clearWidth: 2600 };
const runs = await modules.pack.corridorRuns(input);
const { score } = await modules.pack.corridorRuns.score(input);
log("re-run", runs.runs, "runs; score", score);
return { runs: runs.runs, score, keep: { spine: input.spine, wardId: "ward-2" } };
