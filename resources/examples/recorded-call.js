// A module call answered from the record: the same call with the same input as entry c20.
const input = inputs.at("c20");                   // c20's input, as b5 sent it
const runs = await modules.pack.corridorRuns(input);          // modules.g.m(x) calls g.m.m(x)
const same = await modules.pack.corridorRuns.corridorRuns(input);
return { runs: runs.runs, same: same.runs === runs.runs };
