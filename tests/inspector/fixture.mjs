// A small hand-made recording in the documented layout (docs/recording.md, version 3, or with
// `version: 4` format 4), written independently of the Rust writer: it pins each "why" wording to
// a record whose fields the test chose (out of range, outside the cone, blocked by a given
// occluder, seen, filtered, not due), and exercises the delta frames (a key frame at step 0,
// records only when they change after it, an agent and a target destroyed through the "gone"
// sections). Format 4 adds NAMES chunks (the engine's labels: after the START's SCENE, and
// between a step's inputs: a target labelled as it appears, an agent renamed, a label removed)
// and each target's team and layers in its Targets record. Format 5 adds each frame's Hearing
// section, format 6 its Beliefs section (see BELIEF).

class Writer {
  constructor() { this.bytes = []; }
  u8(v) { this.bytes.push(v & 255); }
  u16(v) { this.u8(v); this.u8(v >> 8); }
  u32(v) { for (let i = 0; i < 4; i++) this.u8(Number((BigInt(v) >> BigInt(8 * i)) & 255n)); }
  u64(v) { const b = BigInt(v); for (let i = 0; i < 8; i++) this.u8(Number((b >> BigInt(8 * i)) & 255n)); }
  f32(v) { const d = new DataView(new ArrayBuffer(4)); d.setFloat32(0, v, true); for (let i = 0; i < 4; i++) this.u8(d.getUint8(i)); }
  f64(v) { const d = new DataView(new ArrayBuffer(8)); d.setFloat64(0, v, true); for (let i = 0; i < 8; i++) this.u8(d.getUint8(i)); }
  v3(a) { a.forEach((x) => this.f32(x)); }
  pad(n) { for (let i = 0; i < n; i++) this.u8(0); }
  chunk(kind, body) { this.u8(kind); this.pad(3); this.u32(body.bytes.length); this.bytes.push(...body.bytes); }
}

// Ids as the C ABI packs them: index (u32), world (u16), generation (u16).
export const id = (index, world = 1, generation = 1) => BigInt(index) | (BigInt(world) << 32n) | (BigInt(generation) << 48n);

function fnv1a(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) { h ^= BigInt(b); h = (h * 0x100000001b3n) & 0xffffffffffffffffn; }
  return h;
}

const box = (x0, z0, x1, z1) => [[x0, z0], [x1, z0], [x1, z1], [x0, z1]];

// The scene: agent #0 at (0,0,0) looking +X (eye (0, 1.6, 0); cone 10 m / 45°, peripheral 3 m /
// 100°, lose-sight radius 12 m; in focus), agent #1 at (20,0,10) looking -Z (not in focus,
// destroyed in step 7; both tick every other step), target #0 with three check points (at 1.6, 1.0 and 0.5 m above its
// position) moving about in front of agent #0, target #1 behind agent #0 in steps 2-4. Occluder
// #7 is a wall across x = 5 (removed in step 5; first in the SCENE, so its slot 7 is not its
// place in the list), #8 a wall along z = 6.
export const FIXTURE = {
  steps: 8,
  dt: 0.1,
  occluders: [{ id: id(7), polys: [box(5, -2, 5.5, 2)] }, { id: id(8), polys: [box(-10, 6, 10, 6.5)] }],
};

// Format 4's labels (NAMES chunks; kind 0 agent, 1 target, 2 occluder), each applying from the
// step before whose STEP it is written: the START's labels (after its SCENE and options), then
// target #1 labelled as it is created (before step 2), agent #0 renamed (before step 3), agent
// #1's label removed (before step 5). Both agents are on team 1; target #0 is on team 2, layers 0b1;
// target #1 on team 1 (`targetTeam`), layers 0b100.
export const LABELS = {
  start: [[0, id(0), "G1"], [0, id(1), "G2"], [1, id(0), "player"], [2, id(7), "east wall"], [2, id(8), "nördliche Mauer"]],
  2: [[1, id(1), "decoy"]],
  3: [[0, id(0), "Captain"]],
  5: [[0, id(1), ""]],
  restart: [[0, id(1), "G2 again"], [2, id(8), "nördliche Mauer"]],
};
export const TEAMS = { agents: 1, target0: { team: 2, layers: 0b1 }, target1: { team: 1, layers: 0b100 } };

const EYE = [0, 1.6, 0];
// Target #0's position per step: 12.5 m ahead (point 1 at eye height: 12.5 m, out of range),
// 8 m ahead behind the wall (steps 1-3), 3 m ahead (4-5), 8 m away 60° to the side (6), 2 m (7).
const A60 = [8 * Math.cos(Math.PI / 3), 0, 8 * Math.sin(Math.PI / 3)];
const T0 = [[12.5, 0, 0], [8, 0, 0], [8, 0, 0], [8, 0, 0], [3, 0, 0], [3, 0, 0], A60, [2, 0, 0]];
const points = (p) => [[p[0], 1.6, p[2]], [p[0], 1.0, p[2]], [p[0], 0.5, p[2]]];
const T1 = [-5, 0, 0];
const dist = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

// Options (all off by default, giving the recording the tests were first written for):
//   loseRadius   agent #0's lose-sight radius (default 12; 0: it has none)
//   layerFilter  step 4's filtered pair (target #1) refused by the layer mask instead of attitude
//   version      3 (default), 4, 5 or 6: the format (4: NAMES chunks, the targets' team and
//                layers; 5: each frame's Hearing section, see HEARING; 6: each frame's Beliefs
//                section, see BELIEF)
//   names        format 4 only: false leaves the NAMES chunks out
//   targetTeam   format 4: target #1's team (default 1, the agents' team)
//   restart      format 4: a second START before step 6 (as a snapshot loaded while recording):
//                its SCENE, then a NAMES chunk with only LABELS.restart in force; step 6's frame
//                is then a key frame
//   walk         walk inputs: a graph before step 1, a grid before step 4, cleared before step 6
//   corrupt      { field: value }: one count replaced by `value` (a nonsense count), field one of
//                agents (step 0), ticksRun (step 0's first run), memory (step 1's record count),
//                why (step 2's pair count), tactics (step 3's result count), influence (step 0's
//                layer count), occluders (the first SCENE), points (its first polygon),
//                walkNodes (the walk graph's node count); format 4: labels (the first NAMES
//                chunk's label count), labelLength (its first label's length), labelKind (its
//                first label's kind); format 6: beliefRun (the length of the first run of
//                step 4's belief)
let opts = {};
const C = (field, v) => (opts.corrupt && field in opts.corrupt ? opts.corrupt[field] : v);
function frame(step, why = true) {
  const w = new Writer();
  const dt = FIXTURE.dt, time = (step + 1) * dt, key = step === 0 || (opts.restart && step === 6);
  w.f64(time); w.u32(step); w.f32(dt); w.u32(key ? 1 : 0);
  const tx = T0[step];
  // 1. agents: only those whose record changed (agent #0 in steps 4 and 6; agent #1 never)
  const brain0 = step < 4 ? 0 : step < 6 ? 1 : 2;
  const agent = (aid, pos, fwd, brain, flags, stage, level, move) => {
    w.u64(aid); w.v3(pos); w.v3(fwd); w.v3([pos[0], 1.6, pos[2]]);
    w.f32(10); w.f32(45); w.f32(3); w.f32(100);
    w.u8(brain); w.u8(flags); w.u8(1); w.u8(stage); w.f32(level); w.v3(move); w.f32(aid === id(0) ? opts.loseRadius ?? 12 : 12);
  };
  const agents = [];
  if (key || step === 4 || step === 6) agents.push(() => agent(id(0), [0, 0, 0], [1, 0, 0], brain0, (brain0 ? 2 : 0) | 4 | 8, brain0 ? 2 : 0, brain0 ? 0.7 : 0.1, brain0 ? [6, 0, 0] : [0, 0, 0]));
  if (key) agents.push(() => agent(id(1), [20, 0, 10], [0, 0, -1], 3, 4, 1, 0.4, [0, 0, 0]));
  w.u32(key ? C("agents", agents.length) : agents.length); agents.forEach((f) => f());
  // 2. agents gone: agent #1 in step 7
  if (step === 7) { w.u32(1); w.u64(id(1)); } else w.u32(0);
  // 3. sight ticks, as runs of consecutive slots sharing their next tick: both agents tick every
  // other step (next in 0.2 s: one run of two), except in step 0 where agent #1's next tick is
  // 0.25 s away (two runs)
  const runs = step === 0 ? [[0, 1, 0.2], [1, 1, 0.25]] : step % 2 === 0 && step < 7 ? [[0, 2, 0.2]] : [];
  w.u32(runs.length); for (const [first, count, next] of runs) { w.u32(first); w.u32(step === 0 && first === 0 ? C("ticksRun", count) : count); w.f32(next); }
  // 4. targets: only those that changed (#0 moves in steps 1, 4, 6, 7; #1 appears in step 2)
  const targets = [];
  if (key || [1, 4, 6, 7].includes(step)) targets.push([id(0), tx, points(tx)]);
  if (step === 2) targets.push([id(1), T1, [[T1[0], 1.6, T1[2]]]]);
  w.u32(targets.length);
  for (const [tid, pos, pts] of targets) {
    w.u64(tid); w.v3(pos); w.u8(1); w.u8(pts.length); w.u16(0);
    if (opts.version >= 4) { const t = tid === id(0) ? TEAMS.target0 : { ...TEAMS.target1, team: opts.targetTeam ?? TEAMS.target1.team }; w.u32(t.team); w.u32(t.layers); }
    pts.forEach((p) => w.v3(p));
  }
  // 5. targets gone: #1 in step 5
  if (step === 5) { w.u32(1); w.u64(id(1)); } else w.u32(0);
  // 6. sounds: one in step 1
  if (step === 1) { w.u32(1); w.v3(tx); w.f32(6); w.u64(id(0)); w.u32(0); w.u32(0); } else w.u32(0);
  // 7. percepts: sound in step 1, sight in step 4
  const percepts = [];
  if (step === 1) percepts.push([id(0), 1]);
  if (step === 4) percepts.push([id(0), 0]);
  w.u32(percepts.length);
  for (const [a, kind] of percepts) { w.u64(a); w.u64(id(0)); w.u8(kind); w.pad(3); w.v3(tx); w.f32(0.8); w.u32(kind ? 0 : 0xffffffff); w.f32(kind ? 6 : 0); w.f32(time); }
  // 8. brain changes
  const changes = step === 4 ? [[0, 1]] : step === 6 ? [[1, 2]] : [];
  w.u32(changes.length);
  for (const [from, to] of changes) { w.u64(id(0)); w.u64(id(0)); w.u8(from); w.u8(to); w.u16(0); w.f32(time); }
  // 9. seen / lost: seen in step 4, lost in step 6 (its lose-sight radius applies in step 6)
  if (step === 4 || step === 6) { w.u32(1); w.u64(id(0)); w.u64(id(0)); w.u8(step === 4 ? 1 : 0); w.pad(3); w.v3(tx); } else w.u32(0);
  // 10. forgotten, 11. awareness changes
  w.u32(0);
  w.u32(0);
  // 12. memory (agent #0 is in focus): empty in the key frame, then only when it changed
  const conf = { 1: 0.45, 2: 0.4, 4: 1, 6: 0.2 }[step];
  if (key) { w.u32(1); w.u64(id(0)); w.u32(0); }
  else if (conf !== undefined) {
    w.u32(1); w.u64(id(0)); w.u32(step === 1 ? C("memory", 1) : 1);
    w.u64(id(0)); w.v3(tx); w.f32(conf); w.f32(step === 4 ? time : 0.2); w.u8(step === 4 ? 1 : 0); w.pad(3);
  } else w.u32(0);
  // 13. why: agent #0 (slot 0) on its ticks, only the pairs the sweep met
  const pairs = [];
  if (why && step === 2) {
    // all three points blocked by occluder #7 (slot 7) where their rays cross x = 5
    pairs.push({ slot: 0, flags: 0, st: [2, 2, 2], blocked: points(tx).map((p) => [5 * dist(p, EYE) / p[0], 7]) });
  }
  if (why && step === 4) {
    // point 1 blocked by an engine's ray answer, points 2 and 3 seen; target #1 filtered (attitude)
    pairs.push({ slot: 0, flags: 0, st: [2, 3, 3], blocked: [[2, 0xffffffff]] });
    pairs.push({ slot: 1, flags: (opts.layerFilter ? 3 : 4) << 4, st: [0], blocked: [] });
  }
  if (pairs.length) {
    w.u32(1); w.u32(0); w.u32(step === 2 ? C("why", pairs.length) : pairs.length);
    for (const pr of pairs) {
      w.u32(pr.slot); w.u8(pr.st.length); w.u8(pr.flags); w.u16(pr.st.reduce((s, v, k) => s | (v << (2 * k)), 0));
      for (const [d, occ] of pr.blocked) { w.f32(d); w.u32(occ); }
    }
  } else w.u32(0);
  // 14. tactics: a cover query in step 3
  if (step === 3) { w.u32(1); w.u8(0); w.pad(3); w.u32(C("tactics", 2)); w.v3(tx); w.u64(0); w.v3([6, 0, 1]); w.f32(0.9); w.v3([6, 0, -1]); w.f32(0.4); }
  else w.u32(0);
  // 15. influence: a 4 × 3 map in the first frame
  if (step === 0) {
    w.u32(1); w.u64(id(0)); w.u8(0); w.pad(3); w.v3([-2, 0, -2]); w.f32(2); w.u32(4); w.u32(3); w.u32(C("influence", 1));
    for (let i = 0; i < 12; i++) w.f32(i / 11);
    for (let i = 0; i < 12; i++) w.u8(i === 5 ? 1 : 0);
  } else w.u32(0);
  // 16. hearing (format 5): agent #0 heard step 1's sound around the wall (HEARING.heard); in
  // step 2 a record says why it did not hear a sound (HEARING.notHeard: no walkable path)
  if (opts.version >= 5) {
    const records = step === 1 ? [HEARING.heard] : step === 2 ? [HEARING.notHeard] : [];
    w.u32(records.length);
    for (const h of records) {
      w.u64(id(0)); w.u32(h.sound); w.u8(h.outcome); w.u8(1); w.u16(h.path.length);
      w.f32(h.reach); w.f32(h.straight); w.f32(h.kept); w.f32(h.distance); w.v3(h.apparent);
      h.path.forEach((q) => w.v3(q));
    }
  }
  // 17. beliefs (format 6): agent #0's own belief about target #0 is made in step 4 (written
  // whole), not written in steps 5 and 6 (unchanged: the inspector shows step 4's), dropped in
  // step 7 (a record with no nodes)
  if (opts.version >= 6) {
    const b = BELIEF;
    if (step === 4) {
      w.u32(1);
      w.u64(id(0)); w.u8(0); w.pad(3); w.u64(id(0)); w.u32(b.nodes); w.f32(b.peak); w.f32(b.tile);
      w.u32(1); w.u64(id(0));
      w.u32(1); w.u64(id(0)); w.v3(b.claim.pos); w.f32(b.claim.mass); w.u8(1); w.pad(3); w.f32(b.claim.tileMass); w.f32(b.claim.walk);
      w.u32(b.runs.length);
      b.runs.forEach(([first, levels], k) => { w.u32(first); w.u32(k === 0 ? C("beliefRun", levels.length) : levels.length); levels.forEach((l) => w.u8(l)); });
    } else if (step === 7) {
      w.u32(1);
      w.u64(id(0)); w.u8(0); w.pad(3); w.u64(id(0)); w.pad(24);
    } else w.u32(0);
  }
  return w;
}

// Format 6's belief (docs/recording.md, Beliefs), over the walk grid set before step 4 (origin
// (-4, 0, -4), 16 × 12 cells of 0.5 m: node n is cell (n % 16, n / 16), its centre at
// (-3.75 + 0.5 × (n % 16), 0, -3.75 + 0.5 × (n / 16))): two runs of four cells, rows 9 and 10,
// columns 10-13 (x 1.25-2.75, z 0.75 and 1.25); agent #0's search point at node 157 (2.75, 0,
// 0.75), chosen for the most per metre walked.
export const BELIEF = {
  nodes: 16 * 12, peak: 0.5, tile: 4,
  runs: [[154, [64, 128, 255, 32]], [170, [16, 32, 200, 1]]],
  claim: { pos: [2.75, 0, 0.75], mass: 0.3, tileMass: 0.23, walk: 12 },
};

// Format 5's Hearing records (docs/recording.md: outcome 1 heard along the walk, 5 no walk).
export const HEARING = {
  heard: { sound: 0, outcome: 1, reach: 12, straight: 8, kept: 0, distance: 9.5, apparent: [6, 0, 3], path: [[8, 0, 0.5], [7, 0, 2], [6, 0, 3], [1, 0, 1]] },
  notHeard: { sound: 0, outcome: 5, reach: 12, straight: 8, kept: 0, distance: 0, apparent: [8, 0, 0], path: [] },
};

// Returns the recording as a Uint8Array. `end: false` leaves the END chunk out.
// `explain`: when given, an options INPUT (call 0) says whether the "why" was recorded (and
// when false, the frames hold none).
export function makeRecording({ end = true, explain, ...rest } = {}) {
  opts = { version: 3, ...rest };
  const w = new Writer();
  for (const c of "ARGUSREC") w.u8(c.charCodeAt(0));
  w.u32(opts.version); w.u32(0);
  let chunks = 0;
  const start = new Writer(); for (const c of "ARGUSSNP") start.u8(c.charCodeAt(0));
  w.chunk(1, start); chunks++;
  let first = true;
  // Format 6: a SCENE ends with the walk graph in force at its START (`u32 call`, then the
  // arguments of set_walk_grid / set_walk_graph; 27 none) or 0 (an occluder's change: unsaid).
  // `sceneWalk`: the grid of step 4's input is in force when recording starts.
  const grid = (b) => { b.v3([-4, 0, -4]); b.u32(16); b.u32(12); b.f32(0.5); b.f32(0.3); b.f32(1.8); b.u32(0xffffffff); b.f32(0); };
  const scene = (occluders, walk) => {
    const sc = new Writer();
    sc.u32(first ? C("occluders", occluders.length) : occluders.length);
    for (const o of occluders) {
      sc.u64(o.id); sc.u32(1); sc.u32(o.polys.length);
      for (const poly of o.polys) { sc.u32(first ? C("points", poly.length) : poly.length); first = false; for (const [x, z] of poly) { sc.f32(x); sc.f32(z); } }
    }
    if (opts.version >= 6) {
      if (walk === "grid") { sc.u32(25); grid(sc); } else sc.u32(walk === "unsaid" ? 0 : 27);
    }
    return sc;
  };
  w.chunk(2, scene(FIXTURE.occluders, opts.sceneWalk ? "grid" : "none")); chunks++;
  // Format 4: a NAMES chunk (u32 count; per label u8 kind, u8[3] pad, u64 id, u32 length, the
  // UTF-8 bytes, no padding) after the START's SCENE (and the options INPUT, when there is one:
  // docs/recording.md's order) and before the STEPs of steps 2, 3 and 5.
  const withNames = opts.version >= 4 && opts.names !== false;
  let firstNames = true;
  const names = (entries) => {
    const b = new Writer();
    b.u32(firstNames ? C("labels", entries.length) : entries.length);
    for (const [kind, tid, text] of entries) {
      const bytes = new TextEncoder().encode(text);
      b.u8(firstNames ? C("labelKind", kind) : kind); b.pad(3); b.u64(tid); b.u32(firstNames ? C("labelLength", bytes.length) : bytes.length);
      bytes.forEach((x) => b.u8(x));
      firstNames = false;
    }
    w.chunk(6, b); chunks++;
  };
  if (explain !== undefined) {
    const o = new Writer(); o.u16(0); o.u16(0); o.u8(explain ? 1 : 0); o.pad(3); o.u32(0);
    w.chunk(3, o); chunks++;
  }
  if (withNames) names(LABELS.start);
  const input = (body) => { w.chunk(3, body); chunks++; };
  for (let s = 0; s < FIXTURE.steps; s++) {
    if (opts.walk && s === 1) {
      // set_walk_graph: snap 1.5, 4 nodes (a square of 4 m around (2, 0, 2)), 4 edges
      const b = new Writer(); b.u16(26); b.u16(0); b.f32(1.5);
      const nodes = [[0, 0, 0], [4, 0, 0], [4, 0, 4], [0, 0, 4]];
      b.u32(C("walkNodes", nodes.length)); nodes.forEach((n) => b.v3(n));
      b.u32(4); for (const [a, c] of [[0, 1], [1, 2], [2, 3], [3, 0]]) { b.u32(a); b.u32(c); b.f32(4); }
      input(b);
    }
    if (opts.walk && s === 4) {
      // set_walk_grid: origin (-4, 0, -4), 16 × 12 cells of 0.5 m, band 0.3-1.8, all layers, snap 0
      const b = new Writer(); b.u16(25); b.u16(0); grid(b);
      input(b);
    }
    if (opts.walk && s === 6) { const b = new Writer(); b.u16(27); b.u16(0); input(b); }
    if (withNames && LABELS[s]) names(LABELS[s]);
    if (opts.restart && s === 6) {
      const snap = new Writer(); for (const c of "ARGUSSNP") snap.u8(c.charCodeAt(0));
      w.chunk(1, snap); chunks++;
      w.chunk(2, scene(FIXTURE.occluders.slice(1), !opts.walk && opts.sceneWalk ? "grid" : "none")); chunks++;
      if (withNames) names(LABELS.restart);
    }
    const step = new Writer(); step.f32(FIXTURE.dt); step.u32(0);
    w.chunk(4, step); chunks++;
    // Step 5 removes occluder #7: a SCENE between its STEP and its FRAME.
    if (s === 5) { w.chunk(2, scene(FIXTURE.occluders.slice(1), "unsaid")); chunks++; }
    w.chunk(5, frame(s, explain !== false)); chunks++;
  }
  if (end) {
    const sum = fnv1a(w.bytes);
    const e = new Writer(); e.u32(FIXTURE.steps); e.u32(chunks); e.u64(sum);
    w.chunk(255, e);
  }
  return Uint8Array.from(w.bytes);
}
