// Node's own clients as a user's script calls them, with no proxy setting of its own:
// fetch(), https.get and http.get to GitHub (http.get also with the heads Node renders
// early), fetch() and http.get to a local server (which NO_PROXY keeps off the proxy);
// then a host that is not GitHub's. Run under `ghbench record`.
// Prints one JSON object: what each call got, which dispatcher and agent served them
// (Node's own proxy support, or the preload's), NODE_OPTIONS, and whether the proxy's
// secret (its password) is anywhere in the process's argv or NODE_OPTIONS.
import http from "node:http";
import https from "node:https";
import { once } from "node:events";
import { readFileSync } from "node:fs";

function get(module, url, headers = { "user-agent": "node-builtins" }) {
  return new Promise((resolve, reject) => {
    module
      .get(url, { headers }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode, body }));
      })
      .on("error", reject);
  });
}

const out = {};
out.fetch = (await fetch("https://api.github.com/rate_limit")).status;
out.https = (await get(https, "https://api.github.com/repos/acme/todo")).status;
out.http = (await get(http, "http://api.github.com/rate_limit")).status;
// a head Node renders before any socket: headers as an array, and an Expect
const rendered = [
  get(http, "http://api.github.com/rate_limit", ["User-Agent", "node-builtins"]),
  get(http, "http://api.github.com/rate_limit", { expect: "100-continue" }),
];
out.httpRendered = (await Promise.all(rendered)).map((answer) => answer.status);

const local = http.createServer((req, res) => res.end("local"));
local.listen(0, "127.0.0.1");
await once(local, "listening");
const here = `http://127.0.0.1:${local.address().port}/`;
out.localFetch = await (await fetch(here)).text();
out.localHttp = (await get(http, here)).body;
local.close();

try {
  await fetch("https://example.com/");
  out.elsewhere = "reached";
} catch (error) {
  out.elsewhere = String(error.cause?.message ?? error.message);
}

out.dispatcher = globalThis[Symbol.for("undici.globalDispatcher.1")]?.constructor.name;
out.httpsAgent = https.globalAgent.constructor.name;
out.nodeOptions = process.env.NODE_OPTIONS ?? "";
const secret = new URL(process.env.HTTPS_PROXY).password;
const argv = [readFileSync("/proc/self/cmdline", "latin1"), ...process.execArgv, ...process.argv];
out.secretSeen = secret.length < 16 || [...argv, out.nodeOptions].some((s) => s.includes(secret));
console.log(JSON.stringify(out));
