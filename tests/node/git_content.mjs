// octokit, unchanged, reading git content from the emulator: refs with "/" (octokit
// percent-encodes them), the diff and patch media types. Prints one JSON object.
//   node tests/node/git_content.mjs BASE_URL OWNER REPO BRANCH PULL_NUMBER
// The token comes from GH_TOKEN (never an argument).
import { Octokit } from "@octokit/rest";

const [baseUrl, owner, repo, branch, pullNumber] = process.argv.slice(2);
const octokit = new Octokit({ baseUrl, auth: process.env.GH_TOKEN });
const pull_number = Number(pullNumber);
const ref = branch;

const commit = await octokit.rest.repos.getCommit({ owner, repo, ref });
const status = await octokit.rest.repos.getCombinedStatusForRef({ owner, repo, ref });
const checks = await octokit.rest.checks.listForRef({ owner, repo, ref });
const branchInfo = await octokit.rest.repos.getBranch({ owner, repo, branch });
const branches = await octokit.rest.repos.listBranches({ owner, repo });
const commits = await octokit.rest.repos.listCommits({ owner, repo, sha: branch });
const pullCommits = await octokit.rest.pulls.listCommits({ owner, repo, pull_number });
const matching = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: `heads/${branch}` });
const readme = await octokit.rest.repos.getContent({ owner, repo, path: "README.md", ref });
const diff = await octokit.rest.pulls.get({ owner, repo, pull_number, mediaType: { format: "diff" } });
const patch = await octokit.rest.pulls.get({ owner, repo, pull_number, mediaType: { format: "patch" } });
const commitDiff = await octokit.rest.repos.getCommit({ owner, repo, ref, mediaType: { format: "diff" } });

console.log(
  JSON.stringify({
    commit: { sha: commit.data.sha, files: commit.data.files.map((f) => f.filename), stats: commit.data.stats },
    status: { state: status.data.state, sha: status.data.sha },
    checks: checks.data.check_runs.map((r) => [r.name, r.conclusion]),
    branch: { name: branchInfo.data.name, sha: branchInfo.data.commit.sha },
    branches: branches.data.map((b) => b.name),
    commits: commits.data.map((c) => c.sha),
    pullCommits: pullCommits.data.map((c) => c.sha),
    matching: matching.data.map((r) => r.ref),
    readme: Buffer.from(readme.data.content, "base64").toString(),
    diff: diff.data,
    diffType: diff.headers["content-type"],
    patch: patch.data,
    commitDiff: commitDiff.data,
  }),
);
