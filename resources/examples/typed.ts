// TypeScript: types are erased before the run; errors point into this file as written.
interface Band { bandDepth: number; spine: number[][] }
const band = inputs.last("pack.corridorRuns") as Band;
const depth: number = band.bandDepth;
return { depth, points: band.spine.length };
