// @octokit/rest, unchanged, against the emulator: the calls a CI bot makes.
// Usage: GHBENCH_URL=http://127.0.0.1:PORT GHBENCH_TOKEN=... node octokit_calls.mjs
// Prints one JSON object: each call's result (or its HTTP status when it failed).
import { Octokit } from "@octokit/rest";

const octokit = new Octokit({
  auth: process.env.GHBENCH_TOKEN,
  baseUrl: process.env.GHBENCH_URL,
  request: { retries: 0 },
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

await call("pulls.list", async () =>
  (await octokit.rest.pulls.list(repo)).data.map((p) => [p.number, p.labels.map((l) => l.name)]),
);
await call("pulls.get diff", async () =>
  (await octokit.rest.pulls.get({ ...repo, pull_number: 2, mediaType: { format: "diff" } })).data,
);
await call("combined status feat/a", async () =>
  (await octokit.rest.repos.getCombinedStatusForRef({ ...repo, ref: "feat/a" })).data.state,
);
await call("check runs feat/a", async () =>
  (await octokit.rest.checks.listForRef({ ...repo, ref: "feat/a" })).data.check_runs.map(
    (r) => r.conclusion,
  ),
);
await call("commit feat/a", async () =>
  (await octokit.rest.repos.getCommit({ ...repo, ref: "feat/a" })).data.commit.message,
);
await call("ref heads/feat/a", async () =>
  (await octokit.rest.git.getRef({ ...repo, ref: "heads/feat/a" })).data.ref,
);
await call("branches", async () =>
  (await octokit.rest.repos.listBranches(repo)).data.map((b) => b.name),
);
await call("comment", async () =>
  (await octokit.rest.issues.createComment({ ...repo, issue_number: 2, body: "from octokit" }))
    .status,
);
await call("add labels", async () =>
  (await octokit.rest.issues.addLabels({ ...repo, issue_number: 2, labels: ["triage"] })).data.map(
    (l) => l.name,
  ),
);
await call("request reviewers", async () =>
  (await octokit.rest.pulls.requestReviewers({ ...repo, pull_number: 2, reviewers: ["hubot"] }))
    .data.requested_reviewers.map((u) => u.login),
);
await call("search", async () =>
  (await octokit.rest.search.issuesAndPullRequests({ q: "repo:acme/todo label:triage" })).data
    .items.map((i) => i.number),
);
await call("workflow runs", async () =>
  (await octokit.rest.actions.listWorkflowRunsForRepo(repo)).data.total_count,
);
await call("missing run", async () =>
  (await octokit.rest.actions.getWorkflowRun({ ...repo, run_id: 5 })).status,
);
console.log(JSON.stringify(out));
