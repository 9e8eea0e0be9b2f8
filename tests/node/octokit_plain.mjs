// @octokit/rest as a user's script has it: its default base URL (https://api.github.com),
// no proxy agent, no CA option, the token from GITHUB_TOKEN. Run under
// `ghbench record --github emulator`, it reaches the front with nothing but the
// environment record gives it (NODE_USE_ENV_PROXY, or the preload where Node lacks it).
// Prints one JSON object: what each call returned.
import { Octokit } from "@octokit/rest";

const octokit = new Octokit({ auth: process.env.GITHUB_TOKEN, request: { retries: 0 } });
const repo = { owner: "acme", repo: "todo" };
const out = { created: [] };
for (const title of ["one", "two", "three"]) {
  out.created.push((await octokit.rest.issues.create({ ...repo, title })).data.number);
}
out.repo = (await octokit.rest.repos.get(repo)).data.full_name;
// one page per issue: three requests, each its own row
const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, per_page: 1 });
out.paginated = issues.map((issue) => issue.title);
out.viewer = (await octokit.graphql("query { viewer { login } }")).viewer.login;
console.log(JSON.stringify(out));
