// Drives the tesseld console in Debian's headless Chromium (playwright-core,
// no browser download) as a person would: waits for the heat map to show the
// skewed load, reads it, hovers and clicks the hottest band, and saves
// screenshots. Run by tests/suites/console.sh.
//
// Environment: CONSOLE_URL (http://host:port), CONSOLE_MODE ("console" or
// "login"), ARTIFACTS (screenshot folder), CONSOLE_KS, PLAYWRIGHT_CORE (path
// of the installed playwright-core), CONSOLE_USER / CONSOLE_PASSWORD (login).
// Prints "N passed, N failed"; exit status 1 on any failure.
"use strict";

const path = require("path");
const { chromium } = require(process.env.PLAYWRIGHT_CORE || "playwright-core");

const URL = process.env.CONSOLE_URL;
const MODE = process.env.CONSOLE_MODE || "console";
const ARTIFACTS = process.env.ARTIFACTS || ".";
const TABLE = (process.env.CONSOLE_KS || "consoleks") + ".events_unsharded";
const HOT_DAY = "2024-06-01";
const TIMEOUT_MS = 240000;

let passed = 0;
let failed = 0;
function check(what, ok, detail) {
  if (ok) {
    passed++;
    console.log("ok: " + what);
  } else {
    failed++;
    console.log("FAIL: " + what + (detail === undefined ? "" : ": " + JSON.stringify(detail)));
  }
}

async function waitFor(what, fn, timeout = TIMEOUT_MS) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    last = await fn();
    if (last) return last;
    if (Date.now() > deadline) throw new Error("timed out waiting for " + what + "; last: " + JSON.stringify(last));
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function updates(page) {
  return Number(await page.evaluate(() => document.body.dataset.updates || 0));
}

async function consoleMode(page) {
  await page.goto(URL + "/");
  await waitFor("the first update", async () => (await updates(page)) >= 1, 60000);

  // The hottest band of the newest column, and the hot partitions as listed.
  const seen = await waitFor("the heat map to show the hot tablet", () => page.evaluate(([table, day]) => {
    const c = window.tesselConsole;
    const band = c.hottestBand();
    const hot = (c.state.data.hot.partitions || [])[0];
    if (!band || band.value <= 0 || !hot || hot.partition_key !== day || !hot.tablet) return null;
    if (band.table !== table || band.range_start !== hot.tablet.range_start) return null;
    return { band, hot };
  }, [TABLE, HOT_DAY]));
  check("the hottest band of the heat map is the hot partition's tablet", true, seen.band);
  // Checked apart from the page: the tablet whose token range holds the hot
  // day's token, from /api/hot, and the tablet rates of /api/tablets.
  const api = await page.evaluate(async (table) => {
    const get = async (p) => (await fetch(p)).json();
    return { hot: await get("/api/hot?table=" + table), tablets: await get("/api/tablets?table=" + table) };
  }, TABLE);
  const busiest = api.tablets.tables[0].tablets.reduce((a, b) => (b.writes_per_sec > a.writes_per_sec ? b : a));
  check("the hottest band is the busiest tablet of /api/tablets", busiest.range_start === seen.band.range_start,
    { busiest: busiest.range_start, band: seen.band.range_start });
  check("the hottest band is the tablet of the hot day's token",
    api.hot.partitions[0].tablet.range_start === seen.band.range_start, api.hot.partitions[0]);

  const firstHot = await page.$eval("#hot tbody tr:first-child", (tr) => Array.from(tr.cells).map((c) => c.textContent));
  check("the hot partition is first in the hot partitions table", firstHot[2] === HOT_DAY && firstHot[1] === TABLE, firstHot);

  const advice = await waitFor("the advice", () => page.evaluate((table) => {
    const blocks = Array.from(document.querySelectorAll("#advice .advice.write_sharding"));
    const b = blocks.find((x) => x.querySelector(".table").textContent === table);
    return b && { message: b.querySelector(".message").textContent, statement: b.querySelector(".statement").textContent };
  }, TABLE));
  check("the advice names the hot partition", advice.message.includes(`Partition '${HOT_DAY}' takes`), advice.message);
  check("the advice shows its statement with a copy button",
    advice.statement.startsWith(`CREATE TABLE ${TABLE}_v2 (`) && (await page.$("#advice button.copy")) !== null, advice.statement);

  const tabletRows = await page.$$eval("#tablets tbody tr", (rows) => rows.length);
  check("the tablets table lists the tablets", tabletRows >= api.tablets.tables[0].tablets.length, tabletRows);

  const before = await updates(page);
  await waitFor("a live update without reload", async () => (await updates(page)) > before, 60000);
  check("the page updates itself", true);
  await page.screenshot({ path: path.join(ARTIFACTS, "console.png"), fullPage: true });

  // Hover the hottest band of the newest column: the tooltip names the tablet
  // and its top partitions.
  const box = await page.$eval("#heatmap", (e) => { const r = e.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  const fresh = await page.evaluate(() => window.tesselConsole.hottestBand());
  const [px, py] = await page.evaluate((b) => window.tesselConsole.bandPixel(b), fresh);
  await page.mouse.move(box.x + px - 2, box.y + py);
  const tooltip = await waitFor("the tooltip", () => page.evaluate((day) => {
    const t = Array.from(document.querySelectorAll("#heatmap div")).map((d) => d.innerText).find((s) => s.includes("top partitions"));
    return t && t.includes(day) ? t : null;
  }, HOT_DAY), 30000);
  check("hovering the hottest band shows its tablet, value and top partitions",
    tooltip.includes(TABLE) && tooltip.includes("writes") && tooltip.includes(fresh.range_start), tooltip);
  await page.screenshot({ path: path.join(ARTIFACTS, "console-hover.png") });

  await page.mouse.click(box.x + px - 2, box.y + py);
  await waitFor("the tablet filter", () => page.evaluate(() => !document.getElementById("filter").hidden), 10000);
  const filtered = await page.evaluate(() => ({
    tablets: Array.from(document.querySelectorAll("#tablets tbody tr")).map((r) => r.className + " " + r.cells[2].textContent),
    hot: Array.from(document.querySelectorAll("#hot tbody tr")).map((r) => r.cells[5] && r.cells[5].textContent),
  }));
  check("a click filters the tablets table to the tablet",
    filtered.tablets.length === 1 && filtered.tablets[0].startsWith("selected") && filtered.tablets[0].includes(fresh.range_start), filtered);
  check("a click filters the hot partitions to the tablet",
    filtered.hot.length >= 1 && filtered.hot.every((t) => t.includes(fresh.range_start)), filtered);
  await page.screenshot({ path: path.join(ARTIFACTS, "console-filtered.png"), fullPage: true });
}

async function loginMode(page) {
  await page.goto(URL + "/");
  check("without a session the console sends to the login form", page.url().endsWith("/login"), page.url());
  await page.screenshot({ path: path.join(ARTIFACTS, "console-login.png") });
  await page.fill('input[name="username"]', process.env.CONSOLE_USER);
  await page.fill('input[name="password"]', "not-" + process.env.CONSOLE_PASSWORD);
  await page.click('button[type="submit"]');
  check("a wrong password stays on the form with a message",
    (await page.textContent("body")).includes("Wrong username or password"));
  await page.fill('input[name="username"]', process.env.CONSOLE_USER);
  await page.fill('input[name="password"]', process.env.CONSOLE_PASSWORD);
  await page.click('button[type="submit"]');
  await page.waitForURL(URL + "/", { timeout: 30000 });
  await waitFor("the first update", async () => (await updates(page)) >= 1, 60000);
  const live = await page.textContent("#live");
  check("after login the console loads its data", live.startsWith("live"), live);
  check("the session cookie is HttpOnly (not visible to scripts)",
    !(await page.evaluate(() => document.cookie)).includes("tessel_console"));
  await page.click("#logout button");
  await page.waitForURL(URL + "/login", { timeout: 30000 });
  check("logging out returns to the login form", true);
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60000);
    page.on("pageerror", (e) => check("no script error on the page", false, String(e)));
    if (MODE === "login") await loginMode(page);
    else await consoleMode(page);
  } catch (e) {
    check("the console test ran to its end", false, String(e && e.stack || e));
  } finally {
    await browser.close();
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
})();
