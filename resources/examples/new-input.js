// A call with an input nobody recorded: the run cannot know the module's answer (MockError).
const input = { ...inputs.at("c20"), clearWidth: 3000 };
const runs = await modules.pack.corridorRuns(input);
return { runs: runs.runs };
