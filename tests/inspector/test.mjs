// Drives tools/inspector/argus-inspector.html in Debian's headless Chromium (puppeteer-core) and
// checks what the page shows. Every check prints "ok" or "FAIL" and counts as one test; the
// last line is "N passed, M failed" (tests/suites/70-inspector.sh parses it).
//
//   node test.mjs --chromium /usr/bin/chromium --work DIR
//        [--courtyard FILE --courtyard-log FILE]   the demo's recording and its stdout
//        [--big FILE]                              a large recording: open and seek times
//        [--screenshot FILE]                       write the README/docs screenshot there
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import puppeteer from "puppeteer-core";
import { makeRecording, LABELS, HEARING, BELIEF } from "./fixture.mjs";
import { pngStats } from "./png.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const PAGE = path.resolve(here, "../../tools/inspector/argus-inspector.html");
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const work = args.work || fs.mkdtempSync("/tmp/argus-inspector-");
fs.mkdirSync(work, { recursive: true });

let passed = 0, failed = 0;
function check(name, ok, detail = "") {
  detail = String(detail).replace(/\s*\n\s*/g, " | ");
  if (ok) { passed++; console.log("ok   " + name + (detail ? " — " + detail : "")); }
  else { failed++; console.log("FAIL " + name + (detail ? " — " + detail : "")); }
  return ok;
}
const figures = [];
function figure(text) { figures.push(text); console.log("figure: " + text); }

const browser = await puppeteer.launch({
  executablePath: args.chromium || "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files", "--disable-dev-shm-usage"],
  defaultViewport: { width: 1400, height: 900 },
  protocolTimeout: 300000,
});

async function freshPage() {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  // Offline: any request that is not the page itself is refused and reported.
  await page.setRequestInterception(true);
  const requests = [];
  page.on("request", (r) => { if (r.url().startsWith("file://") || r.url().startsWith("data:") || r.url().startsWith("blob:")) r.continue(); else { requests.push(r.url()); r.abort(); } });
  await page.goto(pathToFileURL(PAGE).href, { waitUntil: "load" });
  return { page, errors, requests };
}

// Hands a file to the page through its file input, as a user's pick would.
async function upload(page, file) {
  const input = await page.$("#file");
  const before = await page.evaluate(() => window.argusInspector.state().opens);
  await input.uploadFile(file);
  await page.waitForFunction((n) => { const s = window.argusInspector.state(); return s.opens > n && ((s.ready && !s.loading) || s.error); }, { timeout: 120000, polling: 50 }, before);
  return page.evaluate(() => window.argusInspector.state());
}
const text = (page, sel) => page.$eval(sel, (e) => e.innerText);
// A thing as the page names it: "#3", or "G1 (#3)" when the recording labels it (format 4): the
// courtyard's checks hold whether or not the demo's recording carries labels.
const shown = (id) => `(?:${id}|[^\\n()]+ \\(${id}\\))`;
const api = (page, fn, ...a) => page.evaluate((fn, a) => window.argusInspector[fn](...a), fn, a);

// ---- 1. the hand-made recording: every "why" wording, selection, errors -----------------------
{
  const fixture = path.join(work, "fixture.argusrec");
  fs.writeFileSync(fixture, makeRecording());
  const { page, errors, requests } = await freshPage();
  const s = await upload(page, fixture);
  check("fixture: opens through the file input", s.ready && !s.error && s.frames === 8, JSON.stringify({ frames: s.frames, error: s.error }));
  check("fixture: not truncated", s.ready && s.truncated === false);
  check("fixture: counts shown (2 agents, 1 target, 2 occluders)",
    (await text(page, "#count-agents")) === "2" && (await text(page, "#count-targets")) === "1" && (await text(page, "#count-occluders")) === "2",
    await text(page, "#counts"));
  await api(page, "seek", 5);
  const occ5 = await text(page, "#count-occluders");
  await api(page, "seek", 4);
  check("fixture: a SCENE chunk applies from its step (2 occluders at step 4, 1 from step 5)", (await text(page, "#count-occluders")) === "2" && occ5 === "1", occ5);
  await api(page, "select", 0, 0);
  await api(page, "seek", 0);
  let why = await text(page, "#why");
  check("fixture: out of range, by how much", /point 1: out of range: 12\.5 m > 10\.0 m \(by 2\.5 m\)/.test(why), why);
  await api(page, "seek", 2);
  why = await text(page, "#why");
  check("fixture: blocked by occluder #7 at the hit point", /point 2: blocked by occluder #7 at \(5\.0, 1\.2, 0\.0\)/.test(why), why);
  await api(page, "seek", 3);
  why = await text(page, "#why");
  check("fixture: sight not due, next tick, and the last tick's answer", /sight not due this step: next tick in 0\.10 s/.test(why) && /last sight tick, step 2/.test(why) && /blocked by occluder #7/.test(why), why);
  await api(page, "seek", 4);
  why = await text(page, "#why");
  check("fixture: seen", /verdict: seen/.test(why) && /point 2: seen/.test(why) && /point 1: blocked/.test(why), why);
  await api(page, "seek", 6);
  why = await text(page, "#why");
  check("fixture: outside the cone, by how much", /point 1: outside the cone: 60° > 45° half-angle \(by 15°\)/.test(why), why);
  const agent = await text(page, "#agent");
  check("fixture: agent panel (brain, awareness, move target)", /brain\s+Chasing/.test(agent) && /awareness\s+Alert 0\.70/.test(agent) && /move target\s+\(6\.0, 0\.0, 0\.0\)/.test(agent), agent);
  const mem = await text(page, "#memory");
  check("fixture: memory record with its confidence", /target #0.*confidence 0\.20/.test(mem), mem);
  await api(page, "select", 1, 0);
  why = await text(page, "#why");
  check("fixture: an agent out of focus says so", /not in focus/.test(why), why);
  // Format 2's delta frames: the state at a step is its key frame's plus the changes after it.
  const agent1 = await text(page, "#agent");
  check("fixture: deltas: agent #1, written only in the key frame, still shown at step 6", /brain\s+Searching/.test(agent1) && /position\s+\(20\.0, 0\.0, 10\.0\)/.test(agent1), agent1);
  await api(page, "seek", 1);
  const tick1 = await text(page, "#agent");
  await api(page, "seek", 3);
  const tick3 = await text(page, "#agent");
  check("fixture: sight ticks as runs: agent #1's next tick from its own run (step 0: 0.25 s) and from a shared one (step 2)", /next tick in 0\.15 s/.test(tick1) && /next tick in 0\.10 s/.test(tick3), tick1 + " | " + tick3);
  await api(page, "seek", 6);
  await api(page, "seek", 7);
  check("fixture: Agents gone: agent #1 destroyed in step 7 (1 agent left)", (await text(page, "#count-agents")) === "1" && /does not exist at this step/.test(await text(page, "#agent")), await text(page, "#counts"));
  await api(page, "select", 0, 0);
  check("fixture: deltas: memory unchanged in step 7 keeps step 6's record", /target #0.*confidence 0\.20/.test(await text(page, "#memory")), await text(page, "#memory"));
  await api(page, "seek", 3);
  const counts3 = await text(page, "#count-targets"), mem3 = await text(page, "#memory"), agent3 = await text(page, "#agent");
  await api(page, "seek", 5);
  const counts5 = await text(page, "#count-targets"), agent5 = await text(page, "#agent");
  check("fixture: deltas: target #1 created in step 2 exists in step 3; Targets gone removes it in step 5", counts3 === "2" && counts5 === "1", counts3 + " / " + counts5);
  check("fixture: deltas: memory and agent at steps without their records (3, 5)", /confidence 0\.40/.test(mem3) && /brain\s+Idle/.test(agent3) && /brain\s+Investigating/.test(agent5) && /next tick in 0\.10 s/.test(agent3), mem3 + " | " + agent3 + " | " + agent5);
  await api(page, "seek", 2);
  await api(page, "select", 0, 1);
  why = await text(page, "#why");
  check("fixture: a target the sweep did not list (behind the agent): outside the cone, by how much", /point 1: outside the cone: 180° > 45° half-angle \(by 135°\)/.test(why), why);
  check("fixture (format 3): the unlisted pair keeps the caveat that format 3 records no target layers or teams", /format 3 records no target layers or teams/.test(why) && !/the target is on team/.test(why), why);
  await api(page, "seek", 4);
  why = await text(page, "#why");
  check("fixture: filtered (flags bits 4-7: attitude)", /verdict: filtered/.test(why) && /point 1: filtered: attitude/.test(why), why);
  check("fixture (format 3): the attitude filter keeps its caveat (the agent's team; format 3 does not record the target's)", /point 1: filtered: attitude: same team, or a team this agent's team does not perceive \(the agent is on team 1; format 3 does not record the target's team\)/.test(why), why);
  await api(page, "select", 0, 0);
  why = await text(page, "#why");
  check("fixture: blocked by an engine's ray answer (occluder slot 0xFFFFFFFF), at the hit point", /point 1: blocked by the engine's ray answer at \(2\.0, 1\.6, 0\.0\), 2\.0 m away/.test(why), why);
  await api(page, "seek", 6);
  why = await text(page, "#why");
  check("fixture: lost in this step: the lose-sight radius applies to the unlisted pair", /radius 12\.0 m/.test(why) && /lose-sight radius applied/.test(why), why);
  check("fixture: the summary counts the key frames", /key frames\s+1\b/.test(await text(page, "#summary")), await text(page, "#summary"));
  check("fixture (format 3): the summary names the format version and says format 3 records no labels", /format version 3\)/.test(await text(page, "#summary")) && /labels\s+none \(format 3 records none\)/.test(await text(page, "#summary")), await text(page, "#summary"));
  // Clicking: agent #0, then the target, selects the pair.
  await api(page, "select", null);
  await api(page, "seek", 2);
  let at = await api(page, "screenOf", "agent", 0);
  await page.mouse.click(at.x, at.y);
  at = await api(page, "screenOf", "target", 0);
  await page.mouse.click(at.x, at.y);
  let st = await api(page, "state");
  check("fixture: clicking an agent then a target selects the pair", st.selected.agent === "#0" && st.selected.target === "#0", JSON.stringify(st.selected));
  await page.keyboard.press("ArrowRight");
  st = await api(page, "state");
  check("fixture: → steps forward", st.step === 3, "step " + st.step);
  check("fixture: no page errors, no network requests", errors.length === 0 && requests.length === 0, [...errors, ...requests].join("; "));
  await page.waitForFunction(() => window.argusInspector.state().checksum !== "checking", { timeout: 60000 });
  st = await api(page, "state");
  check("fixture: checksum checked: OK", st.checksum === "ok" && /OK/.test(await text(page, "#checksum")), st.checksum);
  // A recording made with RecordOptions { explain: false } says so instead of a "why".
  fs.writeFileSync(path.join(work, "no-why.argusrec"), makeRecording({ explain: false }));
  await upload(page, path.join(work, "no-why.argusrec"));
  await api(page, "select", 0, 0);
  await api(page, "seek", 2);
  why = await text(page, "#why");
  check("fixture: a recording without the why says so", /made without the “why”/.test(why) && /no \(explain off\)/.test(await text(page, "#summary")), why);
  // Truncated and damaged files.
  const full = makeRecording();
  const flipped = Uint8Array.from(full); flipped[24] ^= 1;   // inside START, which the page does not read
  fs.writeFileSync(path.join(work, "flipped.argusrec"), flipped);
  let r0 = await upload(page, path.join(work, "flipped.argusrec"));
  await page.waitForFunction(() => window.argusInspector.state().checksum !== "checking", { timeout: 60000 });
  r0 = await api(page, "state");
  check("fixture: one flipped byte → checksum mismatch shown", r0.ready && r0.checksum === "mismatch" && /checksum mismatch/.test(await text(page, "#warn")), r0.checksum);
  // The JS API takes the bytes too.
  const viaApi = await page.evaluate((bytes) => { const ok = window.argusInspector.open(new Uint8Array(bytes).buffer, "api"); return ok && Object.assign(window.argusInspector.state(), { info: document.getElementById("info").innerText }); }, [...full]);
  // Drag and drop: a File dropped on the page.
  const dropped = await page.evaluate(async (bytes) => {
    const n = window.argusInspector.state().opens;
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(bytes)], "dropped.argusrec"));
    document.getElementById("map").dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    for (let i = 0; i < 100 && window.argusInspector.state().opens === n; i++) await new Promise((r) => setTimeout(r, 20));
    return window.argusInspector.state();
  }, [...full]);
  check("fixture: opens a dropped file", dropped.ready && dropped.frames === 8 && /dropped\.argusrec/.test(await text(page, "#info")), await text(page, "#info"));
  // A click on a lane's label selects that agent.
  const lanes = await (await page.$("#lanes")).boundingBox();
  await page.mouse.click(lanes.x + 10, lanes.y + 16 + 12 + 6);   // below the time axis: the second row
  st = await api(page, "state");
  check("fixture: clicking the second lane's label selects agent #1", st.selected.agent === "#1", JSON.stringify(st.selected));
  check("fixture: opens through window.argusInspector.open", viaApi && viaApi.ready && viaApi.frames === 8 && /^api/.test(viaApi.info), viaApi && viaApi.info);
  const noEnd = makeRecording({ end: false });
  fs.writeFileSync(path.join(work, "no-end.argusrec"), noEnd);
  let r = await upload(page, path.join(work, "no-end.argusrec"));
  check("fixture: no END chunk → opens, says truncated", r.ready && r.truncated && /truncated/.test(await text(page, "#warn")), await text(page, "#warn"));
  const bad = Uint8Array.from(full); bad[0] = 0x58;
  fs.writeFileSync(path.join(work, "bad-magic.argusrec"), bad);
  r = await upload(page, path.join(work, "bad-magic.argusrec"));
  check("fixture: wrong magic → error shown", !r.ready && /Not an Argus recording/.test(await text(page, "#error")), await text(page, "#error"));
  const v2 = Uint8Array.from(full); v2[8] = 2;
  fs.writeFileSync(path.join(work, "v2.argusrec"), v2);
  r = await upload(page, path.join(work, "v2.argusrec"));
  check("fixture: version 2 → error shown", !r.ready && /version 2/.test(await text(page, "#error")) && /reads versions 3 to 6/.test(await text(page, "#error")), await text(page, "#error"));
  // A chunk that runs past the end of the file: the file was cut there; it opens up to its last
  // complete step, with a banner saying where it was cut.
  fs.writeFileSync(path.join(work, "cut.argusrec"), full.subarray(0, full.length - 300));
  r = await upload(page, path.join(work, "cut.argusrec"));
  const cutExpect = completeFrames(full.subarray(0, full.length - 300));
  check("fixture: a chunk past the end → opens up to its last complete step, banner says cut and where", r.ready && r.truncated && r.frames === cutExpect.frames &&
    (await text(page, "#warn")).includes("cut: the file ends at byte " + (full.length - 300).toLocaleString("en")),
    JSON.stringify({ frames: r.frames, want: cutExpect.frames }) + " " + await text(page, "#warn"));
  await page.close();
}

// The FRAME chunks complete within `bytes` (a cut copy), read from the chunk layout of
// docs/recording.md independently of the page: { frames, lastStep, ends } (ends: each complete
// chunk's end offset).
function completeFrames(bytes) {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 16, frames = 0, lastStep = null;
  const ends = [];
  while (p + 8 <= bytes.length) {
    const kind = bytes[p], len = dv.getUint32(p + 4, true);
    if (p + 8 + len > bytes.length) break;
    if (kind === 5) { frames++; lastStep = dv.getUint32(p + 8 + 8, true); }
    p += 8 + len; ends.push(p);
    if (kind === 255) break;
  }
  return { frames, lastStep, ends, boundary: p === bytes.length };
}

// ---- 1b. issue #46: cut files, nonsense counts, wording, layout, side view, search, events,
// legend, walk graph (all on hand-made recordings) ---------------------------------------------
{
  const { page, errors, requests } = await freshPage();
  const full = makeRecording();
  // A copy cut at every byte after the first frame: each opens, with as many steps as complete
  // FRAME chunks, the last one shown being the last complete step; the banner says cut, where.
  const firstFrameEnd = (() => { const c = completeFrames(full); let k = 0; const dv = new DataView(full.buffer); for (let p = 16; p < full.length;) { const len = dv.getUint32(p + 4, true); p += 8 + len; if (full[p - 8 - len] === 5) return p; } return 0; })();
  const wants = [];
  for (let n = firstFrameEnd; n < full.length; n++) { const c = completeFrames(full.subarray(0, n)); wants.push([n, c.frames, c.lastStep, c.boundary]); }
  const got = await page.evaluate((bytes, wants) => {
    const bad = [];
    for (const [n, frames, lastStep, boundary] of wants) {
      const ok = window.argusInspector.open(new Uint8Array(bytes).slice(0, n).buffer, "cut-" + n);
      const st = window.argusInspector.state();
      if (!ok) { bad.push(n + ": not opened: " + st.error); continue; }
      const last = window.argusInspector.seekFrame(st.frames - 1);
      const warn = document.getElementById("warn").innerText;
      const saysCut = boundary ? /truncated: the recording has no END chunk/.test(warn) : new RegExp("cut: the file ends at byte " + n.toLocaleString("en") + ", inside the \\w+ chunk at byte [\\d,]+|inside the header of the chunk").test(warn) && warn.includes("last complete step, " + lastStep);
      if (st.frames !== frames || last.step !== lastStep || !st.truncated || !saysCut) bad.push(n + ": " + st.frames + " steps (want " + frames + "), last step " + last.step + " (want " + lastStep + "): " + warn);
    }
    return bad;
  }, [...full], wants);
  check(`issue 46: the fixture cut at each of its ${wants.length} bytes after the first frame opens up to its last complete step, with a banner saying cut and where`, got.length === 0, got.slice(0, 3).join(" | "));
  // Cut before the first frame is complete: refused, saying so (no step to show).
  let r0 = await page.evaluate((bytes) => { window.argusInspector.open(new Uint8Array(bytes).buffer, "early"); return window.argusInspector.state(); }, [...full.subarray(0, firstFrameEnd - 5)]);
  check("issue 46: cut before the first complete step: refused with the cut's place", !r0.ready && /no complete step: cut: the file ends at byte/.test(r0.error || ""), r0.error);

  // Nonsense counts: a clear error naming the field, never a JavaScript error or a hang.
  const crafted = [
    ["agents", /agents count is 4,?294,?967,?295|the agents count is 4294967295/],
    ["ticksRun", /sight-ticks run's first slot and count \(0, 4294967295\)/],
    ["memory", /record count of agent slot 0's memory entry is 4294967295/],
    ["why", /pair count of agent slot 0's why entry is 4294967295/],
    ["tactics", /result count of a tactics record is 4294967295/],
    ["influence", /layer count of influence map #0 \(4 × 3 cells\) is 4294967295/],
    ["occluders", /occluder count is 4294967295/],
    ["points", /point count of a polygon of occluder #7 is 4294967295/],
    ["walkNodes", /node count of set_walk_graph is 4294967295/],
  ];
  for (const [field, want] of crafted) {
    for (const value of [0xffffffff, 0x7fffff]) {
      const bytes = makeRecording({ corrupt: { [field]: value }, walk: true });
      const res = await Promise.race([
        page.evaluate((b) => { const t0 = performance.now(); const ok = window.argusInspector.open(new Uint8Array(b).buffer, "crafted"); return { ok, st: window.argusInspector.state(), error: document.getElementById("error").innerText, ms: performance.now() - t0 }; }, [...bytes])
          .catch((e) => ({ ok: false, error: "thrown out of the page: " + e.message })),
        new Promise((res) => setTimeout(() => res({ timeout: true }), 20000)),
      ]);
      const wantHere = value === 0xffffffff ? want : new RegExp(want.source.replace(/4294967295|4,\?294,\?967,\?295/g, String(value)));
      check(`issue 46: a nonsense ${field} count (${value}) → an error naming the field, no JavaScript error`,
        !res.timeout && !res.ok && /^Damaged recording: /.test(res.error) && wantHere.test(res.error) && !/TypeError|RangeError|undefined|NaN/.test(res.error),
        res.timeout ? "timed out" : res.error);
    }
  }
  check("issue 46: no page errors from the cut and crafted files", errors.length === 0, errors.slice(0, 3).join("; "));

  // The lose-sight wording only where a radius applies: an agent with none that loses the target.
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "no-lose-radius"), [...makeRecording({ loseRadius: 0 })]);
  await api(page, "select", 0, 0);
  await api(page, "seek", 6);
  let why = await text(page, "#why");
  check("issue 46: an agent without a lose-sight radius that loses the target: no “lose-sight radius applied”, its view radius (10 m)",
    !/lose-sight radius applied/.test(why) && /no lose-sight radius/.test(why) && /radius 10\.0 m/.test(why), why);
  check("issue 46: its agent panel says it has no lose-sight radius", /no lose-sight radius/.test(await text(page, "#agent")), await text(page, "#agent"));
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "lose-radius"), [...full]);
  await api(page, "select", 0, 0);
  await api(page, "seek", 6);
  why = await text(page, "#why");
  check("issue 46: an agent with one (12 m) that loses the target: the lose-sight radius applied, 12 m", /lose-sight radius applied \(12\.0 m: lost at this step\)/.test(why) && /radius 12\.0 m/.test(why), why);

  // Layers: a pair the sweep refused by the layer mask says so.
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "layers"), [...makeRecording({ layerFilter: true })]);
  await api(page, "seek", 4);
  await api(page, "select", 0, 1);
  why = await text(page, "#why");
  check("issue 46: a target refused by the layer mask: “filtered by the layer mask”, not outside the cone", /verdict: filtered by the layer mask/.test(why) && /point 1: filtered: by the layer mask/.test(why) && !/outside the cone/.test(why), why);

  // The Why panel is visible without scrolling at 1400 × 900 (the default viewport here).
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "layout"), [...makeRecording({ walk: true })]);
  await api(page, "seek", 2);
  await api(page, "select", 0, 0);
  const box = await page.evaluate(() => { const r = (document.getElementById("whypanel") || document.getElementById("why")).getBoundingClientRect(); return { x: r.left, y: r.top, right: r.right, bottom: r.bottom, w: innerWidth, h: innerHeight, scroll: document.getElementById("side").scrollTop + scrollY }; });
  check("issue 46: at 1400 × 900 the Why panel (with its side view) lies inside the window, unscrolled", box.w === 1400 && box.h === 900 && box.scroll === 0 && box.x >= 0 && box.y >= 0 && box.right <= 1400 && box.bottom <= 900 && box.bottom - box.y > 150, JSON.stringify(box));

  // Side view of the pair at step 2: the eye at 1.6 m, points at 1.6, 1.0, 0.5 m, 8 m away, all
  // blocked by occluder #7, whose footprint (x 5-5.5) the rays cross from 5.0 to 5.5 m.
  let st = await api(page, "state");
  const sv = st.sideView;
  check("issue 46: side view: eye, check points' heights and distances, wall #7 crossed at 5.0-5.5 m with the rays' stops on it",
    sv && Math.abs(sv.eye.y - 1.6) < 1e-5 && sv.points.map((p) => p.y.toFixed(1)).join() === "1.6,1.0,0.5" && sv.points.every((p) => Math.abs(p.h - 8) < 1e-4 && p.status === 2 && p.occluder === "#7") &&
      sv.walls.length === 1 && sv.walls[0].id === "#7" && Math.abs(sv.walls[0].from - 5) < 1e-4 && Math.abs(sv.walls[0].to - 5.5) < 1e-4 && sv.walls[0].hits.length === 3,
    JSON.stringify(sv));
  const svShot = path.join(work, "sideview.png");
  await (await page.$("#sideview")).screenshot({ path: svShot });
  const svPx = pngStats(fs.readFileSync(svShot));
  check("issue 46: the side view is drawn", svPx.distinct >= 6 && svPx.nonBackground > 0.03 * svPx.total, `${svPx.width}×${svPx.height}, ${svPx.distinct} colours`);
  await api(page, "seek", 4);
  st = await api(page, "state");
  check("issue 46: side view at step 4: a ray seen over no wall, one stopped by the engine at 2 m", st.sideView && st.sideView.walls.length === 0 && st.sideView.points[0].status === 2 && Math.abs(st.sideView.points[0].hitH - 2) < 1e-4 && st.sideView.points[1].status === 3, JSON.stringify(st.sideView));

  // Search: by id, with the map centred on it; an unknown id says so; a target with "target".
  await api(page, "select", null);
  await page.click("#search", { clickCount: 3 });
  await page.keyboard.type("#1");
  await page.keyboard.press("Enter");
  st = await api(page, "state");
  let at = await api(page, "screenOf", "agent", 1);
  const mapBox = await (await page.$("#map")).boundingBox();
  check("issue 46: search “#1” + Enter selects agent #1 and centres the map on it", st.selected.agent === "#1" && Math.abs(at.x - (mapBox.x + mapBox.width / 2)) < 2 && Math.abs(at.y - (mapBox.y + mapBox.height / 2)) < 2, JSON.stringify({ sel: st.selected, at, mapBox }));
  await page.click("#search", { clickCount: 3 });
  await page.keyboard.type("42");
  await page.keyboard.press("Enter");
  check("issue 46: search for an agent that does not exist says so", /no agent “42”/.test(await text(page, "#searchmsg")) && (await api(page, "state")).selected.agent === "#1", await text(page, "#searchmsg"));
  await api(page, "select", 0);
  await page.click("#search", { clickCount: 3 });
  await page.keyboard.type("target 0");
  await page.keyboard.press("Enter");
  st = await api(page, "state");
  check("issue 46: search “target 0” with an agent selected selects the pair", st.selected.agent === "#0" && st.selected.target === "#0", JSON.stringify(st.selected));
  await page.focus("#map").catch(() => {});
  await page.evaluate(() => document.activeElement && document.activeElement.blur());

  // Events: agent #0's brain changes (steps 4, 6) and seen / lost (4, 6); sounds heard (step 1)
  // only when that kind is shown; N / P jump to the next / previous one.
  await api(page, "seek", 0);
  let list = await text(page, "#eventlist");
  check("issue 46: event list of agent #0: brain changes and seen / lost, percepts hidden by default",
    /step 4 · brain Idle → Investigating \(#0\)/.test(list) && /step 4 · started seeing #0/.test(list) && /step 6 · brain Investigating → Chasing/.test(list) && /step 6 · lost sight of #0/.test(list) && !/heard/.test(list), list);
  await page.keyboard.press("n");
  const n1 = (await api(page, "state")).step;
  await page.keyboard.press("n");
  const n2 = (await api(page, "state")).step;
  await page.keyboard.press("n");
  const n3 = (await api(page, "state")).step;
  await page.keyboard.press("p");
  const p1 = (await api(page, "state")).step;
  check("issue 46: N / P: next and previous event of the selected agent (steps 4, 6, none after, back to 4)", n1 === 4 && n2 === 6 && n3 === 6 && p1 === 4 && /no later event/.test(await text(page, "#eventmsg")) === false, [n1, n2, n3, p1].join(", "));
  await page.click('#eventkinds input[data-kind="sound"]');
  await api(page, "seek", 0);
  await page.click("#nextevent");
  const heardAt = (await api(page, "state")).step;
  list = await text(page, "#eventlist");
  check("issue 46: showing “heard”: the sound percept of step 1 is listed and next stops there", heardAt === 1 && /step 1 · heard #0 \(strength 0\.80\)/.test(list), heardAt + " | " + list);
  for (const k of ["brain", "seen", "sound"]) await page.click(`#eventkinds input[data-kind="${k}"]`);
  list = await text(page, "#eventlist");
  check("issue 46: the list filtered by kind (forgot and awareness only: none for agent #0)", /0 events/.test(list) && !/step/.test(list.replace(/^.*events/, "")), list);
  for (const k of ["brain", "seen"]) await page.click(`#eventkinds input[data-kind="${k}"]`);
  // Clicking a row seeks to it.
  await page.evaluate(() => [...document.querySelectorAll("#eventlist [data-i]")].find((d) => /lost sight/.test(d.innerText)).click());
  check("issue 46: clicking an event seeks to its step", (await api(page, "state")).step === 6);

  // The camera follows the selected agent: agent #0 stays in the middle while the view is panned.
  await page.keyboard.press("c");
  await api(page, "seek", 2);
  at = await api(page, "screenOf", "agent", 0);
  check("issue 46: C turns on follow: the selected agent is in the middle of the map", (await api(page, "state")).follow === true && Math.abs(at.x - (mapBox.x + mapBox.width / 2)) < 2 && Math.abs(at.y - (mapBox.y + mapBox.height / 2)) < 2, JSON.stringify(at));
  await page.keyboard.press("c");

  // Walk graph: the graph from step 1, the grid from step 4, none from step 6; toggled with W.
  const walks = [];
  for (const step of [0, 1, 3, 4, 6]) walks.push((await api(page, "seek", step)).walk);
  check("issue 46: the walk inputs: none, graph (4 nodes, 4 edges), graph, grid 16 × 12, cleared",
    walks[0] === null && walks[1]?.kind === "graph" && walks[1].nodes === 4 && walks[1].edges === 4 && walks[2]?.kind === "graph" && walks[3]?.kind === "grid" && walks[3].width === 16 && walks[3].depth === 12 && walks[4] === null, JSON.stringify(walks));
  await api(page, "seek", 2);
  const drawnWith = (await api(page, "state")).drawnSymbols;
  await page.keyboard.press("w");
  const drawnWithout = (await api(page, "state")).drawnSymbols;
  await page.keyboard.press("w");
  check("issue 46: the walk graph is drawn under the map, and W hides it", drawnWith.includes("walk-graph") && !drawnWithout.includes("walk-graph"), drawnWith.join(","));

  // The legend has an entry for every symbol the map drew, at steps that draw most of them.
  const missing = new Set(), seenSymbols = new Set();
  for (const [step, agent, target] of [[2, 0, 0], [3, 0, 0], [4, 0, 0], [4, 0, 1], [1, 1, 0], [6, 0, 0]]) {
    await api(page, "seek", step);
    await api(page, "select", agent, target);
    const s2 = await api(page, "state");
    for (const sym of s2.drawnSymbols) { seenSymbols.add(sym); if (!s2.legendSymbols.includes(sym)) missing.add(sym); }
  }
  const legendText = await page.$eval("#legendlist", (e) => e.textContent);
  check(`issue 46: every symbol drawn (${seenSymbols.size} kinds) is shown in the legend`, missing.size === 0 && seenSymbols.size >= 15 && /walk graph/.test(legendText) && /why ray: blocked/.test(legendText), [...missing].join(",") + " | drawn: " + [...seenSymbols].join(","));
  await api(page, "select", null);
  await api(page, "seek", 0);
  let lg = await api(page, "state");
  const shownNow = lg.legendSymbols.slice();
  await page.click("#legendall");
  lg = await api(page, "state");
  await page.click("#legendall");
  check("issue 46: the legend shows what is drawn now (no why rays with nothing selected), “all” lists every symbol", !shownNow.includes("ray-blocked") && shownNow.includes("occluder") && lg.legendSymbols.length === lg.legendAll.length && lg.legendAll.length >= 30, shownNow.join(","));
  check("issue 46: no page errors, no network requests", errors.length === 0 && requests.length === 0, [...errors, ...requests].join("; "));
  await page.close();
}

// ---- 1c. format 4: labels (NAMES chunks) and the targets' team and layers -------------------
{
  const { page, errors, requests } = await freshPage();
  const v4 = makeRecording({ version: 4 });
  const file4 = path.join(work, "fixture-v4.argusrec");
  fs.writeFileSync(file4, v4);
  let s = await upload(page, file4);
  check("format 4: the fixture opens through the file input (8 steps, not truncated)", s.ready && !s.error && s.frames === 8 && s.truncated === false && s.version === 4, JSON.stringify({ frames: s.frames, error: s.error, version: s.version }));
  const summary = await text(page, "#summary");
  check("format 4: the summary names the version and counts the labelled things (2 agents, 2 targets, 2 occluders)", /format version 4\)/.test(summary) && /labels\s+2 agents, 2 targets, 2 occluders labelled/.test(summary), summary);
  await page.waitForFunction(() => window.argusInspector.state().checksum !== "checking", { timeout: 60000 });
  check("format 4: checksum OK (the NAMES chunks are counted and summed like any chunk)", (await api(page, "state")).checksum === "ok" && /complete \(8 steps, \d+ chunks\)/.test(await text(page, "#summary")));

  // The 32-byte Targets records (team and layers before the check points) are read right: the
  // same numbers as format 3's.
  await api(page, "select", 0, 0);
  await api(page, "seek", 0);
  let why = await text(page, "#why");
  check("format 4: out of range, by how much (the check points after team and layers)", /point 1: out of range: 12\.5 m > 10\.0 m \(by 2\.5 m\)/.test(why), why);
  await api(page, "seek", 2);
  why = await text(page, "#why");
  check("format 4: blocked by occluder “east wall (#7)” at the hit point", /point 2: blocked by occluder east wall \(#7\) at \(5\.0, 1\.2, 0\.0\)/.test(why), why);
  await api(page, "seek", 4);
  why = await text(page, "#why");
  check("format 4: seen, and blocked by an engine's ray answer at (2.0, 1.6, 0.0)", /verdict: seen/.test(why) && /point 2: seen/.test(why) && /point 1: blocked by the engine's ray answer at \(2\.0, 1\.6, 0\.0\), 2\.0 m away/.test(why), why);
  await api(page, "seek", 6);
  why = await text(page, "#why");
  check("format 4: outside the cone, by how much; the lose-sight radius applied", /point 1: outside the cone: 60° > 45° half-angle \(by 15°\)/.test(why) && /lose-sight radius applied \(12\.0 m: lost at this step\)/.test(why), why);
  const countsAt = async (step) => { await api(page, "seek", step); return (await text(page, "#count-targets")) + "/" + (await text(page, "#count-agents")); };
  const c = [await countsAt(1), await countsAt(3), await countsAt(5), await countsAt(7)];
  check("format 4: deltas through the bigger Targets records: targets 1, 2 (#1 created), 1 (#1 gone); agents 2, 2, 2, 1", c.join() === "1/2,2/2,1/2,1/1", c.join());

  // Labels at step 0: the agent panel, the Why, the map, the lanes, the tooltips.
  await api(page, "select", 0, 0);
  await api(page, "seek", 0);
  let st = await api(page, "state");
  let agent = await text(page, "#agent");
  why = await text(page, "#why");
  check("format 4: the agent panel names agent #0 “G1 (#0)”", /agent\s+G1 \(#0\) \(team 1\)/.test(agent), agent);
  check("format 4: the Why names the pair “agent G1 (#0) → target player (#0)” and gives the target's team and layers", /agent G1 \(#0\) → target player \(#0\) at step 0/.test(why) && /the target is on team 2, layers 0b1; the agent on team 1/.test(why), why);
  check("format 4: the map's labels: the label alone (“G1 Idle”, “G2 Searching”, “player”)", ["G1 Idle", "G2 Searching", "player"].every((l) => st.mapLabels.includes(l)) && !st.mapLabels.some((l) => /#/.test(l)), JSON.stringify(st.mapLabels));
  check("format 4: the lanes' labels are “G1”, “G2”", st.laneLabels.join() === "G1,G2", JSON.stringify(st.laneLabels));
  const hover = async (x, y) => { await page.mouse.move(x - 30, y - 30); await page.mouse.move(x, y); return (await api(page, "state")).tooltip; };
  const worldToPage = (x, z) => page.evaluate((x, z) => { const c = document.getElementById("map"), r = c.getBoundingClientRect(), v = window.argusInspector.state().view, dpr = devicePixelRatio || 1; return { x: r.left + ((x - v.cx) * v.s + c.width / 2) / dpr, y: r.top + ((z - v.cz) * v.s + c.height / 2) / dpr }; }, x, z);
  let at = await api(page, "screenOf", "agent", 0);
  const tipAgent = await hover(at.x, at.y);
  at = await api(page, "screenOf", "target", 0);
  const tipTarget = await hover(at.x, at.y);
  at = await worldToPage(5.25, 1.5);
  const tipWall = await hover(at.x, at.y);
  at = await worldToPage(-6, 6.25);
  const tipWall2 = await hover(at.x, at.y);
  check("format 4: the map's tooltips name the agent, the target (with its team and layers) and the occluders (UTF-8 label)",
    /^agent G1 \(#0\): Idle/.test(tipAgent) && /^target player \(#0\) \(team 2, layers 0b1\)/.test(tipTarget) && tipWall === "occluder east wall (#7) (layers 0b1)" && tipWall2 === "occluder nördliche Mauer (#8) (layers 0b1)",
    [tipAgent, tipTarget, tipWall, tipWall2].join(" | "));
  await api(page, "seek", 2);
  st = await api(page, "state");
  check("format 4: the side view's note and walls name the occluder (“east wall (#7) at 5.0–5.5 m”; its id stays #7)",
    /east wall \(#7\) at 5\.0–5\.5 m/.test(await text(page, "#sidenote")) && st.sideView.walls[0].id === "#7" && st.sideView.walls[0].label === "east wall", await text(page, "#sidenote"));
  check("format 4: target #1, labelled as it is created (before step 2), is “decoy” on the map from step 2", st.mapLabels.includes("decoy"), JSON.stringify(st.mapLabels));

  // The rename before step 3's STEP: “G1” up to step 2, “Captain” from step 3; the removal before
  // step 5's: “G2” up to step 4, “#1” from step 5.
  const labelsAt = async (step) => {
    await api(page, "select", 0, 0);
    const st = await api(page, "seek", step);
    const a0 = (await text(page, "#agent")).match(/agent\s+(.*) \(team/)?.[1], why = (await text(page, "#why")).split("\n")[0];
    await api(page, "select", 1);
    const a1 = (await text(page, "#agent")).match(/agent\s+(.*) \(team/)?.[1];
    const st1 = await api(page, "state");
    return { a0, why, a1, map: st1.mapLabels.filter((l) => / (Idle|Investigating|Chasing|Searching)$/.test(l)).join(","), lanes: st1.laneLabels.join(","), tip: st.tooltip };
  };
  const L = {};
  for (const step of [1, 2, 3, 4, 5, 6]) L[step] = await labelsAt(step);
  check("format 4: before the rename (steps 1, 2) agent #0 is “G1” in the agent panel, the Why, the map and the lanes",
    [1, 2].every((k) => L[k].a0 === "G1 (#0)" && /^agent G1 \(#0\) →/.test(L[k].why) && /^G1 /.test(L[k].map) && /^G1,/.test(L[k].lanes)), JSON.stringify([L[1], L[2]]));
  check("format 4: from the rename on (steps 3-6) agent #0 is “Captain”",
    [3, 4, 5, 6].every((k) => L[k].a0 === "Captain (#0)" && /^agent Captain \(#0\) →/.test(L[k].why) && /^Captain /.test(L[k].map) && /^Captain,/.test(L[k].lanes)), JSON.stringify([L[3], L[6]]));
  check("format 4: agent #1 is “G2” before its label is removed (steps 1-4), “#1” from step 5",
    [1, 2, 3, 4].every((k) => L[k].a1 === "G2 (#1)" && /,G2 Searching$/.test(L[k].map) && /,G2$/.test(L[k].lanes)) && [5, 6].every((k) => L[k].a1 === "#1" && /,#1 Searching$/.test(L[k].map) && /,#1$/.test(L[k].lanes)),
    JSON.stringify([1, 2, 3, 4, 5, 6].map((k) => [L[k].a1, L[k].map, L[k].lanes])));

  // The event list: each row with the labels in force at its step.
  await api(page, "select", null);
  await api(page, "seek", 4);
  let list = await text(page, "#eventlist");
  check("format 4: this step's events (no agent selected) name the agent and the target: “Captain (#0) brain Idle → Investigating (player (#0))”",
    /step 4 · Captain \(#0\) brain Idle → Investigating \(player \(#0\)\)/.test(list) && /step 4 · Captain \(#0\) started seeing player \(#0\)/.test(list), list);
  await api(page, "select", 0);
  await page.click('#eventkinds input[data-kind="sound"]');
  await api(page, "seek", 1);
  const list1 = await text(page, "#eventlist");
  await api(page, "seek", 4);
  list = await text(page, "#eventlist");
  await page.click('#eventkinds input[data-kind="sound"]');
  check("format 4: agent #0's event list: its label at the current step in the head (“G1” at step 1, “Captain” at step 4), the target's label in each row",
    /^G1 \(#0\): 5 events/.test(list1) && /^Captain \(#0\): 5 events/.test(list) && /step 1 · heard player \(#0\) \(strength 0\.80\)/.test(list) && /step 6 · lost sight of player \(#0\)/.test(list), list1.split("\n")[0] + " | " + list);
  await api(page, "seek", 4);
  agent = await text(page, "#agent");
  const mem = await text(page, "#memory");
  check("format 4: the agent panel's events and the memory name the target “player (#0)”", /started seeing player \(#0\)/.test(agent) && /target player \(#0\): confidence 1\.00/.test(mem), agent + " | " + mem);

  // Search by label: the label now, part of it, a former label, a target's, case-insensitive.
  const find = async (q) => {
    await page.click("#search", { clickCount: 3 });
    await page.keyboard.type(q);
    await page.keyboard.press("Enter");
    const st = await api(page, "state");
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    return st;
  };
  await api(page, "select", null);
  await api(page, "seek", 5);
  let f = await find("captain");
  const mapBox = await (await page.$("#map")).boundingBox();
  at = await api(page, "screenOf", "agent", 0);
  check("format 4: search “captain” selects agent #0 (its label now, any case) and centres the map on it", f.selected.agent === "#0" && Math.abs(at.x - (mapBox.x + mapBox.width / 2)) < 2 && Math.abs(at.y - (mapBox.y + mapBox.height / 2)) < 2, JSON.stringify(f.selected));
  await api(page, "select", null);
  f = await find("Capt");
  const fPart = f.selected.agent;
  await api(page, "select", null);
  f = await find("G1");
  const fOld = f.selected.agent;
  await api(page, "select", null);
  f = await find("G2");
  check("format 4: search by part of a label (“Capt” → #0) and by a former label (“G1” → #0; “G2”, removed at step 5 → #1)", fPart === "#0" && fOld === "#0" && f.selected.agent === "#1", [fPart, fOld, f.selected.agent].join(", "));
  await api(page, "select", 1);
  f = await find("player");
  const fTarget = f.selected;
  f = await find("target player");
  check("format 4: search “player” and “target player” with an agent selected select that pair", fTarget.agent === "#1" && fTarget.target === "#0" && f.selected.agent === "#1" && f.selected.target === "#0", JSON.stringify([fTarget, f.selected]));
  await api(page, "seek", 3);
  f = await find("decoy");
  check("format 4: search “decoy” selects target #1 for the selected agent", f.selected.agent === "#1" && f.selected.target === "#1", JSON.stringify(f.selected));
  f = await find("zebra");
  check("format 4: a label no thing has: “no agent or target “zebra””", /no agent or target “zebra”/.test(await text(page, "#searchmsg")) && f.selected.target === "#1", await text(page, "#searchmsg"));
  f = await find("#0");
  check("format 4: search by id still works (“#0”)", f.selected.agent === "#0", JSON.stringify(f.selected));
  const options = await page.$$eval("#searchlist option", (xs) => xs.map((x) => x.value));
  check("format 4: the Find box's list offers every label (G1, Captain, G2, target player, target decoy)", ["G1", "Captain", "G2", "target player", "target decoy"].every((o) => options.includes(o)), options.join(", "));
  st = await api(page, "select", "Captain", "player");
  check("format 4: window.argusInspector.select takes labels (“Captain”, “player”)", st.selected.agent === "#0" && st.selected.target === "#0", JSON.stringify(st.selected));

  // The filter wording, exact with the target's team and layers; no format-3 caveat.
  await api(page, "seek", 4);
  await api(page, "select", 0, 1);
  why = await text(page, "#why");
  check("format 4: a pair filtered by attitude, the target on the agent's team: “attitude: same team”, no format-3 caveat",
    /verdict: filtered — attitude: same team \(the agent and the target are both on team 1\)/.test(why) && /point 1: filtered: attitude: same team \(the agent and the target are both on team 1\)/.test(why) && !/format 3/.test(why) && !/or a team this agent's team does not perceive/.test(why), why);
  await api(page, "seek", 2);
  why = await text(page, "#why");
  check("format 4: the unlisted pair gives the target's team and layers, without the format-3 caveat", /not among the sight sweep's pairs/.test(why) && /the target is on team 1, layers 0b100; the agent on team 1/.test(why) && !/format 3/.test(why), why);
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "v4-layers"), [...makeRecording({ version: 4, layerFilter: true })]);
  await api(page, "seek", 4);
  await api(page, "select", 0, 1);
  why = await text(page, "#why");
  check("format 4: a pair filtered by layers: “the target's layers 0b100 are not in the agent's target mask”",
    /verdict: filtered by the layer mask: the target's layers 0b100 are not in the agent's target mask/.test(why) && /point 1: filtered: by the layer mask: the target's layers 0b100 are not in the agent's target mask/.test(why) && !/format 3|on no layer of/.test(why), why);
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "v4-team"), [...makeRecording({ version: 4, targetTeam: 2 })]);
  await api(page, "seek", 4);
  await api(page, "select", 0, 1);
  why = await text(page, "#why");
  check("format 4: a pair filtered by attitude across teams: “team 1 does not perceive team 2”", /verdict: filtered — attitude: team 1 does not perceive team 2/.test(why) && /point 1: filtered: attitude: team 1 does not perceive team 2/.test(why) && !/format 3|same team/.test(why), why);

  // A START while recording (a snapshot loaded) begins afresh: the NAMES after its SCENE hold
  // every label then in force; a label not listed there ("Captain", "player") is gone.
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "v4-restart"), [...makeRecording({ version: 4, restart: true })]);
  const r5s = await api(page, "seek", 5), r6s = await api(page, "seek", 6);
  check("format 4: a second START before step 6: step 5 “Captain”, “#1”, “player”; from step 6 only its NAMES' labels (“#0”, “G2 again”, “target #0”)",
    r5s.laneLabels.join() === "Captain,#1" && r5s.mapLabels.includes("player") && r6s.laneLabels.join() === "#0,G2 again" && ["#0 Chasing", "G2 again Searching", "target #0"].every((l) => r6s.mapLabels.includes(l)),
    JSON.stringify([r5s.laneLabels, r5s.mapLabels, r6s.laneLabels, r6s.mapLabels]));

  // Without NAMES chunks, format 4 shows ids as format 3 does.
  page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "v4-unnamed"), [...makeRecording({ version: 4, names: false })]);
  await api(page, "select", 0, 0);
  st = await api(page, "seek", 3);
  check("format 4 without labels: “#0”, “target #0”, and the summary says none recorded", /agent\s+#0 \(team 1\)/.test(await text(page, "#agent")) && st.mapLabels.includes("#0 Idle") && st.mapLabels.includes("target #0") && /labels\s+none recorded/.test(await text(page, "#summary")), JSON.stringify(st.mapLabels));

  // Format 7 is refused, naming its version.
  const v7 = Uint8Array.from(v4); v7[8] = 7;
  fs.writeFileSync(path.join(work, "v7.argusrec"), v7);
  const r7 = await upload(page, path.join(work, "v7.argusrec"));
  check("format 7 → refused, naming its version and the versions read", !r7.ready && /Unsupported recording format version 7: this inspector reads versions 3 to 6\./.test(await text(page, "#error")), await text(page, "#error"));

  // Damaged NAMES chunks: an error naming the field, no JavaScript error.
  for (const [field, value, want] of [
    ["labels", 0xffffffff, /NAMES chunk at byte \d+: the label count is 4294967295, which needs/],
    ["labels", 0x7fffff, /NAMES chunk at byte \d+: the label count is 8388607, which needs/],
    ["labelLength", 0xffffffff, /NAMES chunk at byte \d+: the length of label 0 \(#0\) is 4294967295 bytes, more than 255/],
    ["labelLength", 256, /NAMES chunk at byte \d+: the length of label 0 \(#0\) is 256 bytes, more than 255/],
    ["labelLength", 200, /NAMES chunk at byte \d+: label 0 \(#0, 200 bytes\) runs past the end of the chunk/],
    ["labelKind", 7, /NAMES chunk at byte \d+: label 0 is of kind 7 \(0 agent, 1 target, 2 occluder\)/],
  ]) {
    const res = await page.evaluate((b) => { const ok = window.argusInspector.open(new Uint8Array(b).buffer, "crafted"); return { ok, error: document.getElementById("error").innerText }; }, [...makeRecording({ version: 4, corrupt: { [field]: value } })])
      .catch((e) => ({ ok: false, error: "thrown out of the page: " + e.message }));
    check(`format 4: a damaged NAMES chunk (${field} ${value}) → an error naming the field`, !res.ok && /^Damaged recording: /.test(res.error) && want.test(res.error) && !/TypeError|RangeError|undefined|NaN/.test(res.error), res.error);
  }

  // Cut at every byte after the first frame (the cuts inside the NAMES chunks too).
  const firstFrameEnd = (() => { const dv = new DataView(v4.buffer); for (let p = 16; p < v4.length;) { const len = dv.getUint32(p + 4, true); p += 8 + len; if (v4[p - 8 - len] === 5) return p; } return 0; })();
  const wants = [];
  for (let n = firstFrameEnd; n < v4.length; n++) { const c = completeFrames(v4.subarray(0, n)); wants.push([n, c.frames, c.lastStep]); }
  const got = await page.evaluate((bytes, wants) => {
    const bad = [];
    for (const [n, frames, lastStep] of wants) {
      const ok = window.argusInspector.open(new Uint8Array(bytes).slice(0, n).buffer, "cut-" + n);
      const st = window.argusInspector.state();
      if (!ok) { bad.push(n + ": not opened: " + st.error); continue; }
      const last = window.argusInspector.seekFrame(st.frames - 1);
      if (st.frames !== frames || last.step !== lastStep || !st.truncated) bad.push(n + ": " + st.frames + " steps (want " + frames + "), last step " + last.step);
    }
    return bad;
  }, [...v4], wants);
  check(`format 4: the fixture cut at each of its ${wants.length} bytes after the first frame opens up to its last complete step`, got.length === 0, got.slice(0, 3).join(" | "));
  check("format 4: no page errors, no network requests", errors.length === 0 && requests.length === 0, [...errors, ...requests].join("; "));
  await page.close();
}

// ---- 1d. format 5: hearing (each frame's Hearing section) ----------------------------------
{
  const { page, errors, requests } = await freshPage();
  const file5 = path.join(work, "fixture-v5.argusrec");
  fs.writeFileSync(file5, makeRecording({ version: 5 }));
  const s = await upload(page, file5);
  check("format 5: the fixture opens (8 steps, not truncated)", s.ready && !s.error && s.frames === 8 && s.version === 5, JSON.stringify({ frames: s.frames, error: s.error, version: s.version }));
  await api(page, "select", 0, null);
  await api(page, "seek", 1);
  let agent = await text(page, "#agent");
  const h = HEARING.heard;
  check("format 5: the agent panel says the sound came around the wall, its walk against its reach, where it seems to come from",
    /hearing\s+sound 0 of player \(#0\) \(loudness 6\.0\): heard around walls: walk 9\.5 m ≤ reach 12\.0 m; seems to come from \(6\.0, 0\.0, 3\.0\)/.test(agent), agent);
  const drawn = (await api(page, "state")).drawnSymbols;
  check("format 5: the map draws the sound's walk to the selected agent (and the legend has it)", drawn.includes("hearing-heard") && (await api(page, "state")).legendSymbols.includes("hearing-heard"), drawn.join(","));
  const rec = await api(page, "hearing", 1);
  check("format 5: the walk's points are read as written", rec.records.length === 1 && JSON.stringify(rec.records[0].path) === JSON.stringify(h.path) && rec.percepts.length === 1, JSON.stringify(rec.records[0]?.path));
  await api(page, "seek", 2);
  agent = await text(page, "#agent");
  check("format 5: a sound not heard says why (blocked: no walkable path)", /not heard: blocked: no walkable path \(the straight 8\.0 m is blocked\)/.test(agent), agent);
  await api(page, "seek", 3);
  agent = await text(page, "#agent");
  check("format 5: a step with no record says so", /hearing\s+no sound within twice its reach this step/.test(agent), agent);
  // A format 4 file has no hearing row at all.
  const file4 = path.join(work, "fixture-v4-hearing.argusrec");
  fs.writeFileSync(file4, makeRecording({ version: 4 }));
  await upload(page, file4);
  await api(page, "select", 0, null);
  await api(page, "seek", 1);
  agent = await text(page, "#agent");
  check("format 5: a format 4 recording shows no hearing row", !/hearing\s/.test(agent) && /heard/.test(agent), agent);
  // A nonsense walk point count is an error naming it, not a loop.
  const bytes = makeRecording({ version: 5 });
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = findHearingCount(bytes, 1);
  dv.setUint16(at + 4 + 14, 0xffff, true);
  const badFile = path.join(work, "fixture-v5-bad.argusrec");
  fs.writeFileSync(badFile, bytes);
  const bad = await upload(page, badFile);
  check("format 5: a walk point count past the chunk's end is refused by name", !!bad.error && /walk point count of a hearing record|hearing record runs past/.test(bad.error), bad.error);
  check("format 5: no page errors, no network requests", errors.length === 0 && requests.length === 0, [...errors, ...requests].join("; "));
  await page.close();
}

// ---- 1e. format 6: beliefs (each frame's Beliefs section) ---------------------------------
{
  const { page, errors, requests } = await freshPage();
  const file6 = path.join(work, "fixture-v6.argusrec");
  fs.writeFileSync(file6, makeRecording({ version: 6, walk: true }));
  const s = await upload(page, file6);
  check("format 6: the fixture opens (8 steps, not truncated)", s.ready && !s.error && s.frames === 8 && s.version === 6 && !s.truncated, JSON.stringify({ frames: s.frames, error: s.error, version: s.version }));
  // Cell centres: node n at (-3.75 + 0.5 (n % 16), -3.75 + 0.5 floor(n / 16)).
  const centre = (n) => [-3.75 + 0.5 * (n % 16), -3.75 + 0.5 * Math.floor(n / 16)];
  const empty = centre(150);   // row 9, column 6: no probability
  const warm = centre(155);    // level 128
  const hot = centre(172);     // level 200
  // Under the heat map a cell is redder than the same cell without it (the page's beige, or the
  // influence overlay's tint): much less green and blue.
  const tinted = (px, base) => px[1] < base[1] - 25 && px[2] < base[2] - 25;
  const same = (a, b) => a.every((v, k) => Math.abs(v - b[k]) <= 2);
  await api(page, "select", 0, null);
  let st = await api(page, "seek", 4);
  // Each cell without the heat map first (the checkbox off), then with it.
  await page.click("#belief");
  const bare = [await api(page, "pixelAt", ...warm), await api(page, "pixelAt", ...hot), await api(page, "pixelAt", ...empty)];
  await page.click("#belief");
  const on = [await api(page, "pixelAt", ...warm), await api(page, "pixelAt", ...hot)], off0 = await api(page, "pixelAt", ...empty);
  check("format 6: the heat map colours the cells holding probability (under the selected agent's belief), not the others", tinted(on[0], bare[0]) && tinted(on[1], bare[1]) && same(off0, bare[2]), JSON.stringify({ on, off0, bare }));
  check("format 6: likelier cells are drawn redder (level 200 less green than level 128)", on[1][1] < on[0][1], JSON.stringify(on));
  st = await api(page, "state");
  check("format 6: the map notes the heat map and the search point, and the legend lists both", ["belief", "search-point"].every((k) => st.drawnSymbols.includes(k) && st.legendSymbols.includes(k)), st.drawnSymbols.join(","));
  // The walk grid set before recording started is in the START's SCENE: the heat map over it.
  {
    const before = await freshPage();
    await before.page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "scene-walk"), [...makeRecording({ version: 6, sceneWalk: true })]);
    await api(before.page, "select", 0, null);
    const w0 = (await api(before.page, "seek", 0)).walk;
    await api(before.page, "seek", 4);
    const px = await api(before.page, "pixelAt", ...hot), ds = (await api(before.page, "state")).drawnSymbols;
    const none = await freshPage();
    await none.page.evaluate((b) => window.argusInspector.open(new Uint8Array(b).buffer, "no-walk"), [...makeRecording({ version: 6 })]);
    const n0 = (await api(none.page, "seek", 0)).walk;
    check("format 6: a walk grid in force at START comes from its SCENE (drawn from step 0, and the heat map over it); none when none is", w0?.kind === "grid" && w0.width === 16 && w0.depth === 12 && n0 === null && ds.includes("belief") && tinted(px, bare[1]), JSON.stringify({ w0, n0, px, ds }));
    await before.page.close(); await none.page.close();
  }
  let agent = await text(page, "#agent");
  check("format 6: the agent panel names its belief and peak", /belief\s+where player \(#0\) may be: its own; peak 50% on one node/.test(agent), agent);
  check("format 6: the agent panel gives the search point and why, in plain words",
    /search point\s+searching \(2\.8, 0\.0, 0\.8\): 23% of the belief within 4\.0 m, 12\.0 m walk — the most per metre walked \(30% on the node itself when chosen\)/.test(agent), agent);
  const bel = await api(page, "beliefs", 4);
  check("format 6: the record is read as written (owner, owners, peak, runs' nodes, the claim)", bel.length === 1 && bel[0].kind === 0 && bel[0].nodes === BELIEF.nodes && Math.abs(bel[0].peak - BELIEF.peak) < 1e-6 && bel[0].owners.length === 1 &&
    bel[0].claims.length === 1 && JSON.stringify(bel[0].claims[0].pos) === JSON.stringify(BELIEF.claim.pos) && Math.abs(bel[0].claims[0].walk - 12) < 1e-6, JSON.stringify(bel));
  // The toggle: the B key and the checkbox.
  await page.keyboard.press("b");
  const hidden = await api(page, "pixelAt", ...warm);
  st = await api(page, "state");
  check("format 6: B hides the heat map (the cell as without it, nothing noted)", !(await page.$eval("#belief", (e) => e.checked)) && same(hidden, bare[0]) && !st.drawnSymbols.includes("belief") && !st.drawnSymbols.includes("search-point"), JSON.stringify(hidden));
  await page.click("#belief");
  check("format 6: the checkbox shows it again", (await page.$eval("#belief", (e) => e.checked)) && same(await api(page, "pixelAt", ...warm), on[0]));
  // Unchanged in step 5: step 4's record, said so.
  await api(page, "seek", 5);
  agent = await text(page, "#agent");
  check("format 6: a step that wrote no record shows the latest (as recorded at step 4)", /peak 50% on one node \(as recorded at step 4\)/.test(agent) && (await api(page, "state")).drawnSymbols.includes("belief"), agent);
  // No agent selected: every belief is drawn.
  await api(page, "select", null, null);
  await api(page, "seek", 4);
  check("format 6: with no agent selected, every belief is drawn", same(await api(page, "pixelAt", ...warm), on[0]));
  // Agent #1 (not an owner) selected: none drawn.
  await api(page, "select", 1, null);
  check("format 6: another agent selected: its belief (none) only", same(await api(page, "pixelAt", ...warm), bare[0]) && !(await api(page, "state")).drawnSymbols.includes("belief") && /belief\s+not recorded \(not in focus\)/.test(await text(page, "#agent")), await text(page, "#agent"));
  // Dropped in step 7.
  await api(page, "select", 0, null);
  await api(page, "seek", 7);
  agent = await text(page, "#agent");
  check("format 6: a dropped belief is gone (the panel says none)", /belief\s+none \(it searches by no belief now\)/.test(agent) && (await api(page, "beliefs", 7)).length === 0, agent);
  // A run past the belief's nodes is an error naming it.
  const res = await page.evaluate((b) => { const ok = window.argusInspector.open(new Uint8Array(b).buffer, "crafted"); return { ok, error: document.getElementById("error").innerText }; }, [...makeRecording({ version: 6, walk: true, corrupt: { beliefRun: 1000 } })]);
  check("format 6: a belief run longer than its record is refused by name", !res.ok && /belief record's run of 1000 nodes from node 154 is not within its 192 nodes/.test(res.error), res.error);
  // Format 5 still opens, with no belief row.
  const file5 = path.join(work, "fixture-v5-beliefs.argusrec");
  fs.writeFileSync(file5, makeRecording({ version: 5, walk: true }));
  const s5 = await upload(page, file5);
  await api(page, "select", 0, null);
  await api(page, "seek", 4);
  agent = await text(page, "#agent");
  check("format 6: a format 5 recording still opens, with no belief row and no heat map", s5.ready && s5.version === 5 && !/belief\s/.test(agent) && (await api(page, "beliefs", 4)).length === 0 && !(await api(page, "state")).drawnSymbols.includes("belief"), agent);
  check("format 6: no page errors, no network requests", errors.length === 0 && requests.length === 0, [...errors, ...requests].join("; "));
  await page.close();
}

// The offset of the Hearing section's count in the FRAME of `step` of a fixture recording: the
// frame ends with it, and its one record (44 bytes and the walk's points) is the last thing in it.
function findHearingCount(bytes, step) {
  let at = 16;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (at < bytes.length) {
    const kind = bytes[at], len = dv.getUint32(at + 4, true), body = at + 8;
    if (kind === 5 && dv.getUint32(body + 8, true) === step) return body + len - 4 - 44 - 12 * HEARING.heard.path.length;
    at = body + len;
  }
  throw new Error("no frame of step " + step);
}

// ---- 2. the courtyard demo's recording, checked against the demo's own printed timeline ------
if (args.courtyard) {
  const log = fs.readFileSync(args["courtyard-log"], "utf8");
  const { page, errors, requests } = await freshPage();
  const s = await upload(page, args.courtyard);
  check("courtyard: opens", s.ready && !s.truncated, JSON.stringify({ frames: s.frames, error: s.error, warnings: s.warnings }));
  const summary = await text(page, "#summary");
  check("courtyard: the summary reads the options (the why recorded for every agent)", /why recorded\s+for every agent/.test(summary), summary);
  // "recording: G1 = agent #0, ..., player = target #3"
  const names = {};
  const idLine = log.match(/^recording: (.*)$/m);
  if (idLine) for (const m of idLine[1].matchAll(/(\w+) = (?:agent|target) (#\d+)/g)) names[m[1]] = m[2];
  check("courtyard: the demo printed its ids", names.G1 && names.player, idLine ? idLine[0] : "no 'recording:' line");
  // When the demo's recording carries labels (format 4 NAMES chunks), they are the names the demo
  // printed: the agent panel and the Why say "G1 (#0)" and "player (#0)".
  if (s.labelChanges > 0) {
    const bad = [];
    for (const [who, id] of Object.entries(names)) {
      if (who === "player") continue;
      await api(page, "select", id, names.player);
      const agent = await text(page, "#agent"), why = await text(page, "#why");
      if (!agent.includes(`${who} (${id})`) || !why.includes(`agent ${who} (${id}) → target player (${names.player})`)) bad.push(`${who}: ${agent.split("\n")[0]} | ${why.split("\n")[0]}`);
    }
    check("courtyard: the recording's labels are the demo's names (agent panel and Why)", bad.length === 0, bad.join("; "));
    await api(page, "select", null);
  } else console.log(`note: the courtyard recording (format ${s.version}) carries no labels; its checks use ids`);
  const header = log.match(/^courtyard: (\d+) guards, 1 player, (\d+) walls/m);
  await api(page, "seek", 0);
  check("courtyard: counts match the demo (guards, player, walls)",
    header && (await text(page, "#count-agents")) === header[1] && (await text(page, "#count-targets")) === "1" && (await text(page, "#count-occluders")) === header[2],
    (header ? header[0] : "no header") + " / page: " + (await text(page, "#counts")).split("\n")[0]);
  // Each brain change the demo printed: at its time the page shows the new state, a step before the old one.
  const changes = [...log.matchAll(/^\s+(\d+\.\d\d) s\s+(\w+)\s+(Idle|Investigating|Chasing|Searching) → (Idle|Investigating|Chasing|Searching)/gm)];
  let agree = 0;
  const disagree = [];
  for (const [, t, who, from, to] of changes) {
    const id = names[who];
    let st = await api(page, "seekTime", +t);
    await api(page, "select", id);
    const after = (await text(page, "#agent")).match(/brain\s+(\w+)/)?.[1];
    const okTime = Math.abs(st.time - +t) < 0.006;
    await api(page, "seekFrame", st.frame - 1);
    const before = (await text(page, "#agent")).match(/brain\s+(\w+)/)?.[1];
    if (okTime && after === to && before === from) agree++; else disagree.push(`${t} ${who} ${from}→${to}: page ${before}→${after} at t=${st.time.toFixed(3)}`);
  }
  check(`courtyard: all ${changes.length} brain changes of the demo's timeline shown at their times`, changes.length >= 5 && agree === changes.length, disagree.slice(0, 4).join("; "));
  // Each sound the demo printed as heard: the guard's panel lists the percept with its strength.
  const heard = [...log.matchAll(/^\s+(\d+\.\d\d) s\s+(\w+)\s+heard a (running|quiet) step .* strength (\d\.\d\d)/gm)];
  const heardBad = [];
  for (const [, t, who, , strength] of heard) {
    const st = await api(page, "seekTime", +t);
    await api(page, "select", names[who]);
    const panel = await text(page, "#agent");
    if (!(Math.abs(st.time - +t) < 0.006 && new RegExp(`heard ${shown(names.player)} \\(strength ${strength}\\)`).test(panel) && st.sounds > 0)) heardBad.push(`${t} ${who} ${strength}: ${panel.replace(/\s+/g, " ").slice(-120)}`);
  }
  check(`courtyard: all ${heard.length} sounds the demo printed as heard are in the guard's panel with their strength`, heard.length >= 5 && heardBad.length === 0, heardBad.slice(0, 3).join("; "));
  // Format 5: each frame's Hearing records agree with its sound percepts (a record says heard
  // exactly when the guard has the percept), and the footsteps out of reach say by how much.
  if (s.version >= 5) {
    const wrong = [];
    let heardRecords = 0, beyond = 0;
    for (let f = 0; f < s.frames; f++) {
      const h = await api(page, "hearing", f);
      for (const p of h.percepts) if (!h.records.some((r) => r.agent === p.agent && r.sound === p.sound && r.outcome === 0 && /: heard by the straight line: /.test(r.words))) wrong.push(`frame ${f}: percept ${p.agent}/${p.sound} without a heard record`);
      for (const r of h.records) {
        const percept = h.percepts.some((p) => p.agent === r.agent && p.sound === r.sound);
        if (percept !== r.outcome <= 1) wrong.push(`frame ${f}: ${r.words}`);
        if (r.outcome === 2 && !/not heard: \d+\.\d m away > reach \d+\.\d m$/.test(r.words)) wrong.push(`frame ${f}: ${r.words}`);
        heardRecords += r.outcome <= 1; beyond += r.outcome === 2;
      }
    }
    check(`courtyard: the Hearing records agree with the sound percepts (${heardRecords} heard, ${beyond} out of reach)`, wrong.length === 0 && heardRecords >= 5 && beyond > 0, wrong.slice(0, 3).join("; "));
  }
  // Each "forgot the player (last known at x, z)": the panel says forgot; a step before, the
  // memory record holds that last known position.
  const forgot = [...log.matchAll(/^\s+(\d+\.\d\d) s\s+(\w+)\s+forgot the player \(last known at (-?\d+\.\d), (-?\d+\.\d)\)/gm)];
  const forgotBad = [];
  for (const [, t, who, x, z] of forgot) {
    const st = await api(page, "seekTime", +t);
    await api(page, "select", names[who]);
    const now = await text(page, "#agent");
    await api(page, "seekFrame", st.frame - 1);
    const mem = await text(page, "#memory");
    if (!(new RegExp(`forgot ${shown(names.player)}`).test(now) && new RegExp(`target ${shown(names.player)}: confidence \\d\\.\\d\\d.*last known \\(${x}, -?\\d+\\.\\d, ${z}\\)`).test(mem)))
      forgotBad.push(`${t} ${who} (${x}, ${z}): ${mem.replace(/\s+/g, " ").slice(0, 160)}`);
  }
  check(`courtyard: all ${forgot.length} forgettings the demo printed, with the last known position in memory a step before`, forgot.length >= 2 && forgotBad.length === 0, forgotBad.slice(0, 3).join("; "));
  // The "why" when the demo printed that a guard sees the player, and at the moment it captured
  // with the player in a cone behind a wall (the live world's can_see printed by the demo).
  const sees = log.match(/^\s+(\d+\.\d\d) s\s+(\w+)\s+sees the player/m);
  if (check("courtyard: the demo printed a sighting", !!sees)) {
    await api(page, "seekTime", +sees[1]);
    await api(page, "select", names[sees[2]], names.player);
    const why = await text(page, "#why");
    check(`courtyard: why ${sees[2]} → player at ${sees[1]} s says seen`, /verdict: seen/.test(why) && !/not due/.test(why), why.replace(/\n/g, " | "));
  }
  const blocked = [...log.matchAll(/^check (\d+\.\d\d) s (\w+) → player: (.*)$/gm)];
  if (check("courtyard: the demo printed its line-of-sight checks", blocked.length > 0)) {
    for (const [, t, who, live] of blocked) {
      const st = await api(page, "seekTime", +t);
      await api(page, "select", names[who], names.player);
      const why = await text(page, "#why");
      // The demo prints the live can_see of that step: "blocked #N, blocked #N, seen", etc.
      const expect = live.split(", ");
      const got = [...why.matchAll(/point \d+: (out of range|outside the cone|blocked by occluder (?:[^\n()]+ \()?(#\d+)\)?|seen|filtered)/g)].map((m) => m[2] ? "blocked " + m[2] : m[1]);
      check(`courtyard: why ${who} → player at ${t} s matches the demo's can_see (${live})`,
        Math.abs(st.time - +t) < 0.006 && !/not due/.test(why) && got.join(", ") === expect.join(", "), got.join(", ") + " | " + why.split("\n").slice(0, 3).join(" | "));
    }
  }
  // The step after a check: the guard's sight (10 Hz, steps of 1/30 s) is not due; the page says
  // so and gives the answer of the tick the demo printed.
  if (blocked.length) {
    const [, t, who, live] = blocked[0];
    const st = await api(page, "seekTime", +t);
    await api(page, "seekFrame", st.frame + 1);
    await api(page, "select", names[who], names.player);
    const why = await text(page, "#why");
    const want = live.split(", ")[0].replace(/^blocked /, "blocked by occluder ");
    check(`courtyard: why ${who} → player one step after ${t} s: not due, with the answer of step ${st.step}`,
      /sight not due this step: next tick in \d\.\d\d s/.test(why) && why.includes(`last sight tick, step ${st.step} `) && new RegExp(want.replace(/#\d+/, (m) => shown(m))).test(why), why);
  }
  // A screenshot of the map: a drawn map, not a blank page.
  // (the last blocked check: in the courtyard, the east wall hiding the player from the chaser)
  const pair = blocked.filter((b) => /blocked/.test(b[3])).pop() || [null, sees[1], sees[2]];
  await api(page, "seekTime", +pair[1]);
  await api(page, "select", names[pair[2]], names.player);
  const shot = path.join(work, "courtyard-map.png");
  await (await page.$("#map")).screenshot({ path: shot });
  const px = pngStats(fs.readFileSync(shot));
  check("courtyard: the map screenshot is a drawn map", px.distinct >= 12 && px.nonBackground > 0.05 * px.total,
    `${px.width}×${px.height}, ${px.distinct} colours, ${(100 * px.nonBackground / px.total).toFixed(1)}% not background`);
  if (args.screenshot) {
    await page.screenshot({ path: args.screenshot });
    console.log("wrote " + args.screenshot);
  }
  check("courtyard: no page errors, no network requests", errors.length === 0 && requests.length === 0, [...errors, ...requests].join("; "));
  // The same recording handed over through the JS API shows the same step.
  {
    const b64 = fs.readFileSync(args.courtyard).toString("base64");
    const viaApi = await page.evaluate((b64, t) => {
      const bin = atob(b64), bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      if (!window.argusInspector.open(bytes.buffer, "courtyard (api)")) return null;
      window.argusInspector.seekTime(t);
      return Object.assign(window.argusInspector.state(), { counts: document.getElementById("counts").innerText });
    }, b64, +sees[1]);
    check("courtyard: opened through window.argusInspector.open: same steps and counts", viaApi && viaApi.frames === s.frames &&
      viaApi.agents === +header[1] && viaApi.targets === 1 && /Chasing 1/.test(viaApi.counts), viaApi && viaApi.counts);
    await upload(page, args.courtyard);
    await api(page, "seekTime", +pair[1]);
    await api(page, "select", names[pair[2]], names.player);
  }
  // The real recording without its END chunk (the last 24 bytes): opens, says truncated; cut
  // inside a chunk: refused, saying where.
  {
    const bytes = fs.readFileSync(args.courtyard);
    fs.writeFileSync(path.join(work, "courtyard-no-end.argusrec"), bytes.subarray(0, bytes.length - 24));
    let r = await upload(page, path.join(work, "courtyard-no-end.argusrec"));
    check("courtyard: without END → opens all its steps and says truncated", r.ready && r.truncated && r.frames === s.frames && /truncated/.test(await text(page, "#warn")), await text(page, "#warn"));
    // Cut at arbitrary bytes (a fixed seed; and half-way): each opens through the file input up
    // to its last complete step, and the banner says where it was cut.
    let seed = 46;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const cuts = [Math.floor(bytes.length / 2), ...Array.from({ length: 6 }, () => 1000 + Math.floor(rnd() * (bytes.length - 1000)))];
    const cutBad = [];
    for (const n of cuts) {
      const want = completeFrames(bytes.subarray(0, n));
      fs.writeFileSync(path.join(work, "courtyard-cut.argusrec"), bytes.subarray(0, n));
      r = await upload(page, path.join(work, "courtyard-cut.argusrec"));
      if (!r.ready) { cutBad.push(n + ": " + r.error); continue; }
      const last = await api(page, "seekFrame", r.frames - 1);
      const warn = await text(page, "#warn");
      if (r.frames !== want.frames || last.step !== want.lastStep || !warn.includes("cut: the file ends at byte " + n.toLocaleString("en")) || !warn.includes("last complete step, " + want.lastStep))
        cutBad.push(`${n}: ${r.frames} steps (want ${want.frames}), last step ${last.step} (want ${want.lastStep}): ${warn}`);
    }
    check(`courtyard: cut at ${cuts.length} arbitrary bytes (${cuts.join(", ")}): each opens up to its last complete step, the banner says cut and where`, cutBad.length === 0, cutBad.slice(0, 3).join(" | "));
    await upload(page, args.courtyard);
    await api(page, "seekTime", +pair[1]);
    await api(page, "select", names[pair[2]], names.player);
  }
  // ---- issue 46 on the demo's recording.
  {
    // The guard that lost the player at a check (G2 at 14.07 s): the courtyard's guards have no
    // lose-sight radius, so the page must not say it applied.
    const lostLine = log.match(/^\s+(\d+\.\d\d) s\s+(\w+)\s+lost sight of the player/m);
    if (check("courtyard: the demo printed a loss of sight", !!lostLine)) {
      await api(page, "seekTime", +lostLine[1]);
      await api(page, "select", names[lostLine[2]], names.player);
      const why = await text(page, "#why");
      check(`courtyard: ${lostLine[2]} lost the player at ${lostLine[1]} s: it has no lose-sight radius, so no “lose-sight radius applied”`, !/lose-sight radius applied/.test(why) && /no lose-sight radius/.test(why), why);
    }
    // At 1400 × 900, the Why panel of the guard and the player is in the window, unscrolled, at
    // every moment of the demo's timeline (its brain changes, sounds, checks: the agent panel
    // then lists the step's events, the Why its longest answers).
    const moments = [...log.matchAll(/^(?:check )?\s*(\d+\.\d\d) s\s+(G\d)/gm)];
    const outside = [];
    let lowest = 0;
    for (const [, t, who] of moments) {
      await api(page, "seekTime", +t);
      await api(page, "select", names[who], names.player);
      const box = await page.evaluate(() => { const r = (document.getElementById("whypanel") || document.getElementById("why")).getBoundingClientRect(); return { y: r.top, bottom: r.bottom, x: r.left, right: r.right, w: innerWidth, h: innerHeight, scroll: document.getElementById("side").scrollTop + scrollY }; });
      lowest = Math.max(lowest, box.bottom);
      if (!(box.w === 1400 && box.h === 900 && box.scroll === 0 && box.y >= 0 && box.bottom <= 900 && box.x >= 0 && box.right <= 1400)) outside.push(`${t} ${who}: ${JSON.stringify(box)}`);
    }
    check(`courtyard: at 1400 × 900 the Why panel lies inside the window, unscrolled, at all ${moments.length} moments of the demo's timeline`, moments.length >= 20 && outside.length === 0, outside.length ? outside.slice(0, 2).join(" | ") : "lowest bottom " + lowest.toFixed(0) + " px");
    // The side view at each blocked check the demo printed: the wall the demo found is among the
    // walls the ray crosses, with the ray's stop on it, below the eye.
    const sideBad = [];
    for (const [, t, who, live] of [...log.matchAll(/^check (\d+\.\d\d) s (\w+) → player: (.*)$/gm)].filter((b) => /blocked/.test(b[3]))) {
      await api(page, "seekTime", +t);
      await api(page, "select", names[who], names.player);
      const sv = (await api(page, "state")).sideView, wall = live.match(/blocked (#\d+)/)[1];
      const w = sv && sv.walls.find((x) => x.id === wall);
      if (!w || !w.hits.length || !(w.from > 0 && w.to >= w.from) || !sv.points.some((p) => p.status === 2 && p.occluder === wall && p.hitH >= w.from - 0.01 && p.hitH <= w.to + 0.01))
        sideBad.push(`${t} ${who} ${wall}: ${JSON.stringify(sv && sv.walls)}`);
    }
    check("courtyard: the side view at each blocked check shows the wall the demo found, with the ray's stop inside its footprint", sideBad.length === 0, sideBad.join(" | "));
    // Search by id.
    await api(page, "select", null);
    await page.click("#search", { clickCount: 3 });
    await page.keyboard.type(names.G2);
    await page.keyboard.press("Enter");
    check(`courtyard: search “${names.G2}” selects G2`, (await api(page, "state")).selected.agent === names.G2);
    await page.evaluate(() => document.activeElement && document.activeElement.blur());
    // Events: G1's brain changes, as the demo printed them, one N at a time.
    const g1 = [...log.matchAll(/^\s+(\d+\.\d\d) s\s+G1\s+(Idle|Investigating|Chasing|Searching) → (Idle|Investigating|Chasing|Searching)/gm)];
    await api(page, "select", names.G1);
    const kinds = await page.$$eval("#eventkinds input", (xs) => xs.map((x) => [x.dataset.kind, x.checked]));
    for (const [k, on] of kinds) if (on !== (k === "brain")) await page.click(`#eventkinds input[data-kind="${k}"]`);
    await api(page, "seekFrame", 0);
    const visited = [];
    for (let i = 0; i <= g1.length; i++) { await page.keyboard.press("n"); visited.push((await api(page, "state")).time.toFixed(2)); }
    const listed = await text(page, "#eventlist");
    check(`courtyard: N walks through G1's ${g1.length} brain changes at the demo's times, then stays`, g1.length >= 3 && visited.slice(0, g1.length).join() === g1.map((m) => m[1]).join() && visited[g1.length] === visited[g1.length - 1] &&
      g1.every((m) => listed.includes(`t ${m[1]} s`) && listed.includes(`brain ${m[2]} → ${m[3]}`)), visited.join(", ") + " | " + g1.map((m) => m[1]).join(", "));
    for (const [k, on] of kinds) if (on !== (k === "brain")) await page.click(`#eventkinds input[data-kind="${k}"]`);
    // Follow: the chasing guard stays in the middle of the map while it moves.
    const chase = log.match(/^\s+(\d+\.\d\d) s\s+(\w+)\s+Investigating → Chasing/m);
    await api(page, "select", names[chase[2]]);
    await api(page, "follow", true);
    const mapBox = await (await page.$("#map")).boundingBox();
    const off = [];
    for (const dt of [0, 0.5, 1, 1.5, 2]) {
      await api(page, "seekTime", +chase[1] + dt);
      const at = await api(page, "screenOf", "agent", names[chase[2]]);
      off.push(Math.hypot(at.x - (mapBox.x + mapBox.width / 2), at.y - (mapBox.y + mapBox.height / 2)).toFixed(1));
    }
    await api(page, "follow", false);
    check(`courtyard: follow keeps ${chase[2]} in the middle of the map through its chase`, off.every((d) => +d < 2), off.join(", "));
    // The legend has every symbol drawn, at a few moments.
    const missing = new Set();
    for (const t of [2.7, 5.0, 11.17, 14.07]) {
      await api(page, "seekTime", t);
      await api(page, "select", names.G2, names.player);
      const st = await api(page, "state");
      for (const sym of st.drawnSymbols) if (!st.legendSymbols.includes(sym)) missing.add(sym);
    }
    check("courtyard: every symbol drawn has a legend entry", missing.size === 0, [...missing].join(","));
    await api(page, "seekTime", +pair[1]);
    await api(page, "select", names[pair[2]], names.player);
  }
  // The address keeps the step and the selection: a reload that opens the same file returns there.
  await new Promise((r) => setTimeout(r, 500));
  const before = await api(page, "state");
  const url = page.url();
  await page.reload({ waitUntil: "load" });
  const after = await upload(page, args.courtyard);
  check("courtyard: a reload with the address returns to the step and the pair", /#step=\d+/.test(url) && after.step === before.step &&
    after.selected.agent === before.selected.agent && after.selected.target === before.selected.target, url.replace(/^.*#/, "#") + " → step " + after.step + " " + JSON.stringify(after.selected));
  await page.close();
}

// ---- 3. a large recording: open time and seek times -----------------------------------------
if (args.big) {
  const size = fs.statSync(args.big).size;
  const { page, errors } = await freshPage();
  // Opened three times (this machine's two cores are shared with other jobs: the best of three
  // is the page's cost, the others show the noise); each is timed inside the page from the
  // file input's change event to the first frame drawn, the whole file read and indexed.
  const opens = [];
  let s;
  for (let k = 0; k < 3; k++) { s = await upload(page, args.big); opens.push(s.timings || {}); }
  const best = (k) => Math.min(...opens.map((o) => o[k] ?? Infinity));
  check("big: opens", s.ready && !s.truncated, JSON.stringify({ error: s.error, warnings: s.warnings }));
  figure(`big recording: ${(size / 1048576).toFixed(1)} MB, ${s.frames} steps, ${s.agents} agents, ${s.targets} targets`);
  figure(`open, three times (file handed over → first step drawn / → whole file read and indexed): ${opens.map((o) => o.firstFrameMs?.toFixed(0) + " / " + o.totalMs?.toFixed(0) + " ms").join(", ")} (load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}, ${os.cpus().length} cores)`);
  const last = opens[opens.length - 1];
  figure(`of the last open: reading ${last.readMs?.toFixed(0)} ms, indexing ${last.indexMs?.toFixed(0)} ms`);
  check("big: the first step is drawn in under 2 s (best of three)", best("firstFrameMs") < 2000, `${best("firstFrameMs").toFixed(0)} ms`);
  check("big: the whole file is read and indexed in under 2 s (best of three)", best("totalMs") < 2000, `${best("totalMs").toFixed(0)} ms`);
  await page.waitForFunction(() => window.argusInspector.state().checksum !== "checking", { timeout: 120000 });
  const cs = await api(page, "state");
  check("big: checksum OK", cs.checksum === "ok", cs.checksum);
  figure(`checksum (in a worker, after the whole file is in): ${cs.checksumMs?.toFixed(0)} ms`);
  const lastStep = await api(page, "seekFrame", s.frames - 1);
  check("big: the last step is reachable", lastStep.frame === s.frames - 1 && Math.abs(lastStep.time - 60) < 0.05, `t = ${lastStep.time}`);
  // Selecting the last agent scrolls its lane into view (only the rows in view are drawn).
  await api(page, "select", s.agentIds[s.agentIds.length - 1]);
  const lanesView = await page.$eval("#laneswrap", (e) => ({ top: e.scrollTop, h: e.clientHeight, total: e.scrollHeight }));
  check("big: selecting the last agent scrolls the lanes to it", lanesView.top > 0 && lanesView.top + lanesView.h >= lanesView.total - 16 - 12 * 2,
    JSON.stringify(lanesView));
  // Scrub: 50 random steps (a fixed seed), each a seek plus the full redraw (map, lanes, panels),
  // timed inside the page up to the canvases' pixels being there (reading one pixel makes
  // Chromium rasterize what was drawn); a guard and a target selected so the panels work too.
  // Three runs of the same 50 steps: as for the opens, the best run is the page's cost, the
  // others show what this shared machine adds.
  await api(page, "select", s.agentIds[0], s.targetIds[0]);
  const runs = [];
  for (let run = 0; run < 3; run++) {
    const times = await page.evaluate(async (frames) => {
      const map = document.getElementById("map").getContext("2d"), lanes = document.getElementById("lanes").getContext("2d");
      let seed = 12345; const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
      const out = [];
      for (let i = 0; i < 50; i++) {
        const f = Math.floor(rnd() * frames);
        const t0 = performance.now();
        window.argusInspector.seekFrame(f);
        map.getImageData(0, 0, 1, 1); lanes.getImageData(0, 0, 1, 1);
        out.push(performance.now() - t0);
        await new Promise((r) => requestAnimationFrame(() => r()));
      }
      return out;
    }, s.frames);
    const sorted = [...times].sort((a, b) => a - b);
    runs.push({ median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] });
  }
  const bestRun = runs.reduce((a, b) => (b.max < a.max ? b : a));
  figure(`seek (50 random steps, seek + redraw of map, lanes and panels, three runs): ${runs.map((r) => `median ${r.median.toFixed(1)} ms, max ${r.max.toFixed(1)} ms`).join("; ")}`);
  // 100 ms: the limit below which a response feels immediate (Nielsen; the RAIL model's
  // "response" budget). A scrub under it never feels like a stall.
  check("big: every seek under 100 ms (no stall while scrubbing; best of three runs)", bestRun.max < 100, `max ${bestRun.max.toFixed(1)} ms, median ${bestRun.median.toFixed(1)} ms`);
  // Playing: frames drawn per second over 3 s at 10× speed.
  const fps = await page.evaluate(async () => {
    window.argusInspector.seekFrame(0);
    document.getElementById("speed").value = "10";
    let n = 0, step = window.argusInspector.state().step;
    document.getElementById("play").click();
    const t0 = performance.now();
    while (performance.now() - t0 < 3000) {
      await new Promise((r) => requestAnimationFrame(() => r()));
      const s = window.argusInspector.state().step; if (s !== step) { n++; step = s; }
    }
    document.getElementById("play").click();
    return n / 3;
  });
  figure(`playing at 10×: ${fps.toFixed(0)} frames drawn per second`);
  // Selecting an agent gathers its events over the whole recording (event sections only).
  const ev = await page.evaluate((id) => { window.argusInspector.select(id); return window.argusInspector.state().events; }, s.agentIds[0]);
  figure(`events of one agent over the whole recording, gathered on selection: ${ev && ev.count} events in ${ev && ev.ms.toFixed(0)} ms`);
  check("big: an agent's events gathered in under 1 s", ev && ev.ms < 1000, ev && ev.ms.toFixed(0) + " ms");
  // Cut at 57 %: opens (the first 4 MB drawn first, as for any large file) up to the last
  // complete step.
  {
    const n = Math.floor(size * 0.57), fd = fs.openSync(args.big, "r"), buf = Buffer.alloc(n);
    fs.readSync(fd, buf, 0, n, 0); fs.closeSync(fd);
    const cutFile = path.join(work, "big-cut.argusrec");
    fs.writeFileSync(cutFile, buf);
    const want = completeFrames(buf);
    const r = await upload(page, cutFile);
    const last = r.ready ? await api(page, "seekFrame", r.frames - 1) : {};
    check("big: cut at 57 % → opens up to its last complete step, with the banner", r.ready && r.frames === want.frames && last.step === want.lastStep && (await text(page, "#warn")).includes("cut: the file ends at byte " + n.toLocaleString("en")),
      JSON.stringify({ frames: r.frames, want: want.frames, error: r.error }));
    fs.unlinkSync(cutFile);
  }
  check("big: no page errors", errors.length === 0, errors.join("; "));
  await page.close();
}

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
