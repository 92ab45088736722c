// Against mocked.json: scene.mocks answer calls no one recorded (returns, echo, throws).
const { rooms } = await modules.pack.rooms({ departmentId: "dept-icu", count: 1 });
const placed = await modules.pack.rooms.place({ rooms, at: [0, 0] });   // echo: the input back
let risers = "none";
try {
  await modules.mep.risers({ level: 2 });
} catch (error) {
  risers = error.message;                                              // throws: an Error
}
return { rooms: rooms.length, placedAt: placed.at, risers };
