// @octokit/rest with its default base URL (https://api.github.com), through a proxy
// as a Node bot reaches one: undici's EnvHttpProxyAgent reads HTTPS_PROXY and
// NO_PROXY, Node reads the extra CA from NODE_EXTRA_CA_CERTS.
// Usage: GHBENCH_TOKEN=... HTTPS_PROXY=... NODE_EXTRA_CA_CERTS=... node octokit_front.mjs
// Prints one JSON object: each call's result (or its HTTP status when it failed).
import { Octokit } from "@octokit/rest";
import { EnvHttpProxyAgent, fetch as undiciFetch } from "undici";

const dispatcher = new EnvHttpProxyAgent();
const octokit = new Octokit({
  auth: process.env.GHBENCH_TOKEN,
  request: { retries: 0, fetch: (url, options) => undiciFetch(url, { ...options, dispatcher }) },
});
const repo = { owner: "acme", repo: "todo" };
const out = {};

async function call(name, fn) {
  try {
    out[name] = await fn();
  } catch (error) {
    out[name] = { status: error.status ?? null, message: error.message };
  }
}

await call("repos.get", async () => (await octokit.rest.repos.get(repo)).data.full_name);
await call("pulls.list", async () => (await octokit.rest.pulls.list(repo)).data.map((p) => p.number));
await call("graphql", async () => (await octokit.graphql("query { viewer { login } }")).viewer.login);
console.log(JSON.stringify(out));
await dispatcher.close();
