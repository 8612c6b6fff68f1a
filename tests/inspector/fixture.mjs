// A small hand-made recording in the documented layout (docs/recording.md, version 1), written
// independently of the Rust writer: it pins each "why" wording to a record whose fields the test
// chose (out of range, outside the cone, blocked by a given occluder, seen, filtered, not due).

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

// The scene: agent #0 at (0,0,0) looking +X, agent #1 at (20,0,10) looking -Z (not in focus),
// target #0 moving along +X at z = 0 .. behind occluder #7 (a wall across x = 5) in steps 2-3.
export const FIXTURE = {
  steps: 8,
  dt: 0.1,
  occluders: [{ id: id(7), polys: [box(5, -2, 5.5, 2)] }, { id: id(8), polys: [box(-10, 6, 10, 6.5)] }],
};

function frame(step, why = true) {
  const w = new Writer();
  const dt = FIXTURE.dt, time = (step + 1) * dt;
  w.f64(time); w.u32(step); w.f32(dt);
  // agents
  const ticked0 = step % 2 === 0; // agent #0 senses every other step
  const brain0 = step < 4 ? 0 : step < 6 ? 1 : 2;
  w.u32(2);
  const agent = (aid, pos, fwd, brain, flags, stage, level, move, next) => {
    w.u64(aid); w.v3(pos); w.v3(fwd); w.v3([pos[0], 1.6, pos[2]]);
    w.f32(10); w.f32(45); w.f32(3); w.f32(100);
    w.u8(brain); w.u8(flags); w.u8(1); w.u8(stage); w.f32(level); w.v3(move); w.f32(next); w.f32(12);
  };
  agent(id(0), [0, 0, 0], [1, 0, 0], brain0, (ticked0 ? 1 : 0) | (brain0 ? 2 : 0) | 4 | 8, brain0 ? 2 : 0, brain0 ? 0.7 : 0.1,
    brain0 ? [6, 0, 0] : [0, 0, 0], ticked0 ? 0.2 : 0.1);
  agent(id(1), [20, 0, 10], [0, 0, -1], 3, 1 | 4, 1, 0.4, [0, 0, 0], 0.1);
  // targets: #0 with three check points
  const tx = [8, 8, 8, 8, 3, 3, 15, 2][step];
  w.u32(1);
  w.u64(id(0)); w.v3([tx, 0, 0]); w.u8(1); w.u8(3); w.u16(0);
  w.v3([tx, 0.5, 0]); w.v3([tx, 1.0, 0]); w.v3([tx, 1.6, 0]);
  // sounds: one in step 1
  if (step === 1) { w.u32(1); w.v3([tx, 0, 0]); w.f32(6); w.u64(id(0)); w.u32(0); w.u32(0); } else w.u32(0);
  // percepts: sound in step 1, sight in steps 4 and 6
  const percepts = [];
  if (step === 1) percepts.push([id(0), 1]);
  if (step === 4) percepts.push([id(0), 0]);
  w.u32(percepts.length);
  for (const [a, kind] of percepts) { w.u64(a); w.u64(id(0)); w.u8(kind); w.pad(3); w.v3([tx, 0, 0]); w.f32(0.8); w.u32(kind ? 0 : 0xffffffff); w.f32(kind ? 6 : 0); w.f32(time); }
  // brain changes
  const changes = step === 4 ? [[0, 1]] : step === 6 ? [[1, 2]] : [];
  w.u32(changes.length);
  for (const [from, to] of changes) { w.u64(id(0)); w.u64(id(0)); w.u8(from); w.u8(to); w.u16(0); w.f32(time); }
  // seen / lost
  w.u32(step === 4 ? 1 : 0);
  if (step === 4) { w.u64(id(0)); w.u64(id(0)); w.u8(1); w.pad(3); w.v3([tx, 0, 0]); }
  // forgotten
  w.u32(0);
  // awareness changes
  w.u32(0);
  // memory (agent #0 is in focus): from step 1
  if (step >= 1) { w.u32(1); w.u64(id(0)); w.u64(id(0)); w.v3([tx, 0, 0]); w.f32(step === 4 ? 1 : Math.max(0, 0.5 - step * 0.05)); w.f32(time); w.u8(step === 4 ? 1 : 0); w.pad(3); }
  else w.u32(0);
  // why: agent #0 on its ticks
  if (ticked0 && why) {
    w.u32(1);
    const st = { 0: [0, 0, 0], 2: [2, 2, 2], 4: [2, 3, 3], 6: [1, 1, 1] }[step];
    const verdict = Math.max(...st);
    w.u64(id(0)); w.u64(id(0)); w.u8(verdict); w.u8(3); w.u8(0); w.u8(0);
    const dist = step === 0 ? 12.5 : tx;
    w.f32(dist); w.f32(10); w.f32(step === 6 ? 60 : 2); w.f32(45);
    for (let k = 0; k < 3; k++) {
      w.u8(st[k]); w.pad(3); w.f32(step === 0 ? 12.5 : dist); w.f32(step === 6 ? 60 : 2); w.v3([tx, 0.5 * (k + 1), 0]);
      if (st[k] === 2) { w.v3([5, 1.2, 0]); w.u64(id(7)); } else { w.v3([0, 0, 0]); w.u64(0); }
    }
  } else w.u32(0);
  // tactics: a cover query in step 3
  if (step === 3) { w.u32(1); w.u8(0); w.pad(3); w.u32(2); w.v3([tx, 0, 0]); w.u64(0); w.v3([6, 0, 1]); w.f32(0.9); w.v3([6, 0, -1]); w.f32(0.4); }
  else w.u32(0);
  // influence: a 4 × 3 map in the first frame
  if (step === 0) {
    w.u32(1); w.u64(id(0)); w.u8(0); w.pad(3); w.v3([-2, 0, -2]); w.f32(2); w.u32(4); w.u32(3); w.u32(1);
    for (let i = 0; i < 12; i++) w.f32(i / 11);
    for (let i = 0; i < 12; i++) w.u8(i === 5 ? 1 : 0);
  } else w.u32(0);
  return w;
}

// Returns the recording as a Uint8Array. `end: false` leaves the END chunk out.
// `explain`: when given, an options INPUT (call 0) says whether the "why" was recorded (and
// when false, the frames hold none).
export function makeRecording({ end = true, explain } = {}) {
  const w = new Writer();
  for (const c of "ARGUSREC") w.u8(c.charCodeAt(0));
  w.u32(1); w.u32(0);
  let chunks = 0;
  const start = new Writer(); for (const c of "ARGUSSNP") start.u8(c.charCodeAt(0));
  w.chunk(1, start); chunks++;
  const scene = (occluders) => {
    const sc = new Writer();
    sc.u32(occluders.length);
    for (const o of occluders) {
      sc.u64(o.id); sc.u32(1); sc.u32(o.polys.length);
      for (const poly of o.polys) { sc.u32(poly.length); for (const [x, z] of poly) { sc.f32(x); sc.f32(z); } }
    }
    return sc;
  };
  w.chunk(2, scene(FIXTURE.occluders)); chunks++;
  if (explain !== undefined) {
    const o = new Writer(); o.u16(0); o.u16(0); o.u8(explain ? 1 : 0); o.pad(3); o.u32(0);
    w.chunk(3, o); chunks++;
  }
  for (let s = 0; s < FIXTURE.steps; s++) {
    const step = new Writer(); step.f32(FIXTURE.dt); step.u32(0);
    w.chunk(4, step); chunks++;
    // Step 5 removes occluder #7: a SCENE between its STEP and its FRAME.
    if (s === 5) { w.chunk(2, scene(FIXTURE.occluders.slice(1))); chunks++; }
    w.chunk(5, frame(s, explain !== false)); chunks++;
  }
  if (end) {
    const sum = fnv1a(w.bytes);
    const e = new Writer(); e.u32(FIXTURE.steps); e.u32(chunks); e.u64(sum);
    w.chunk(255, e);
  }
  return Uint8Array.from(w.bytes);
}
