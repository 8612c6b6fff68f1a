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
import { makeRecording } from "./fixture.mjs";
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
  await api(page, "seek", 4);
  why = await text(page, "#why");
  check("fixture: filtered (flags bits 4-7: attitude)", /verdict: filtered/.test(why) && /point 1: filtered: attitude/.test(why), why);
  await api(page, "select", 0, 0);
  why = await text(page, "#why");
  check("fixture: blocked by an engine's ray answer (occluder slot 0xFFFFFFFF), at the hit point", /point 1: blocked by the engine's ray answer at \(2\.0, 1\.6, 0\.0\), 2\.0 m away/.test(why), why);
  await api(page, "seek", 6);
  why = await text(page, "#why");
  check("fixture: lost in this step: the lose-sight radius applies to the unlisted pair", /radius 12\.0 m/.test(why) && /lose-sight radius applied/.test(why), why);
  check("fixture: the summary counts the key frames", /key frames\s+1\b/.test(await text(page, "#summary")), await text(page, "#summary"));
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
  check("fixture: version 2 → error shown", !r.ready && /version 2/.test(await text(page, "#error")) && /reads version 3/.test(await text(page, "#error")), await text(page, "#error"));
  fs.writeFileSync(path.join(work, "cut.argusrec"), full.subarray(0, full.length - 300));
  r = await upload(page, path.join(work, "cut.argusrec"));
  check("fixture: a chunk past the end → error shown", !r.ready && /runs past the end of the file/.test(await text(page, "#error")), await text(page, "#error"));
  await page.close();
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
    if (!(Math.abs(st.time - +t) < 0.006 && panel.includes(`heard ${names.player} (strength ${strength})`) && st.sounds > 0)) heardBad.push(`${t} ${who} ${strength}: ${panel.replace(/\s+/g, " ").slice(-120)}`);
  }
  check(`courtyard: all ${heard.length} sounds the demo printed as heard are in the guard's panel with their strength`, heard.length >= 5 && heardBad.length === 0, heardBad.slice(0, 3).join("; "));
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
    if (!(now.includes(`forgot ${names.player}`) && new RegExp(`target ${names.player}: confidence \\d\\.\\d\\d.*last known \\(${x}, -?\\d+\\.\\d, ${z}\\)`).test(mem)))
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
      const got = [...why.matchAll(/point \d+: (out of range|outside the cone|blocked by occluder (#\d+)|seen|filtered)/g)].map((m) => m[2] ? "blocked " + m[2] : m[1]);
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
      /sight not due this step: next tick in \d\.\d\d s/.test(why) && why.includes(`last sight tick, step ${st.step} `) && why.includes(want), why);
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
    fs.writeFileSync(path.join(work, "courtyard-cut.argusrec"), bytes.subarray(0, Math.floor(bytes.length / 2)));
    r = await upload(page, path.join(work, "courtyard-cut.argusrec"));
    check("courtyard: cut inside a chunk → refused, saying which chunk", !r.ready && /runs past the end of the file/.test(await text(page, "#error")), await text(page, "#error"));
    await upload(page, args.courtyard);
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
  check("big: no page errors", errors.length === 0, errors.join("; "));
  await page.close();
}

await browser.close();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
