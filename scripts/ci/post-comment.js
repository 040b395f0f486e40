// Posts specdiff's pull-request comments, from the privileged `workflow_run` job (comment/action.yml,
// run by actions/github-script): reads every specdiff-comment-KEY artifact the unprivileged
// `pull_request` run uploaded (one folder each: comment.md, pr-number, key), checks it, and edits
// the one comment carrying that key's marker, or adds it. One comment per job key: a matrix's
// jobs each own theirs, so no two posters ever read-modify-write one body.
//
// Everything in the artifact is untrusted (a fork's pull request wrote it): the number must be
// digits and name a pull request whose head is the commit that run tested, the key a short name,
// and the body is only ever passed to the API as data, as the action produced it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/** GitHub's limit on a comment body, in characters. */
const LIMIT = 65536;
/** Largest artifact file read (a comment is at most LIMIT characters of up to 4 bytes). */
const MAX_FILE_BYTES = 4 * LIMIT;
const KEY = /^[A-Za-z0-9._-]{1,100}$/;

/** The hidden first line of a job key's comment (as scripts/ci/specdiff_pr.py writes it). */
function marker(key) {
  return `<!-- specdiff key=${key} -->`;
}

/** The pull-request number in `pr-number`'s text; throws on anything but 1–10 digits. */
function parsePrNumber(text) {
  const t = String(text).trim();
  if (!/^[1-9][0-9]{0,9}$/.test(t)) throw new Error(`pr-number: not a pull-request number: ${JSON.stringify(t.slice(0, 40))}`);
  return Number(t);
}

function parseKey(text) {
  const t = String(text).trim();
  if (!KEY.test(t)) throw new Error(`key: not a job key: ${JSON.stringify(t.slice(0, 40))}`);
  return t;
}

/** The comment body: starts with the key's marker, at most LIMIT characters, no `<details>` left open. */
function commentBody(markdown, key) {
  const text = String(markdown);
  let body = text.startsWith(`${marker(key)}\n`) ? text : `${marker(key)}\n${text}`;
  const chars = [...body];
  if (chars.length > LIMIT) {
    const note = "\n\n… cut at GitHub's comment limit\n";
    for (let size = LIMIT - note.length; ; ) {
      let kept = chars.slice(0, size).join('');
      kept = kept.slice(0, kept.lastIndexOf('\n') + 1) || kept; // never half a line (or half a tag)
      const open = (kept.match(/<details\b/g) ?? []).length - (kept.match(/<\/details>/g) ?? []).length;
      body = kept + '\n</details>'.repeat(Math.max(open, 0)) + note;
      const over = [...body].length - LIMIT;
      if (over <= 0) break;
      size -= over;
    }
  }
  return body;
}

/**
 * The comment to edit among `comments` (GitHub's issue comments): the first whose first line is
 * the key's marker, whoever posted it, so an App or personal token finds its own comment too.
 */
function findMarked(comments, key) {
  const m = `${marker(key)}\n`;
  return comments.find((c) => typeof c?.body === 'string' && c.body.startsWith(m)) ?? null;
}

function readSmall(dir, name) {
  const file = path.join(dir, name);
  const stat = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!stat || !stat.isFile()) throw new Error(`${name}: missing from the artifact (or not a plain file)`);
  if (stat.size > MAX_FILE_BYTES) throw new Error(`${name}: ${stat.size} bytes, more than a comment can hold`);
  return fs.readFileSync(file, 'utf8');
}

/** One artifact's pull-request number, key and comment body, checked. */
function readArtifact(dir) {
  const key = parseKey(readSmall(dir, 'key'));
  return { number: parsePrNumber(readSmall(dir, 'pr-number')), key, body: commentBody(readSmall(dir, 'comment.md'), key) };
}

/** The artifact folders under `dir` (download-artifact's `pattern` gives one folder per artifact), sorted. */
function artifactDirs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name)).sort();
}

async function upsert({ github, owner, repo, number, key, body, core }) {
  const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number: number, per_page: 100 });
  const mine = findMarked(comments, key);
  if (mine) {
    await github.rest.issues.updateComment({ owner, repo, comment_id: mine.id, body });
    core.info(`updated comment ${mine.id} (${key}) on #${number}`);
    return 'updated';
  }
  await github.rest.issues.createComment({ owner, repo, issue_number: number, body });
  core.info(`commented (${key}) on #${number}`);
  return 'created';
}

/**
 * The run left no artifact (it failed before its report): say so on the pull request, in the
 * comment of key `run`, and fail this job so the red check is seen. The number comes from the
 * event (GitHub lists the pull requests of a same-repository branch; a fork's list is empty).
 */
async function noArtifact({ github, context, core, owner, repo }) {
  const wr = context.payload.workflow_run ?? {};
  const number = wr.pull_requests?.[0]?.number;
  const why = `the specdiff run ${wr.html_url ?? ''} (${wr.conclusion ?? 'unknown'}) left no comment artifact`;
  core.setFailed(why);
  if (!Number.isInteger(number)) return 'failed';
  const body = commentBody(`## specdiff: ⚠️ no result for head ${wr.head_sha ?? '?'}\n\n${why}: open the run to see which step failed.\n`, 'run');
  await upsert({ github, owner, repo, number, key: 'run', body, core });
  return 'failed';
}

/** Posts or updates the comments. `github`, `context`, `core`: actions/github-script's. */
async function run({ github, context, core, dir }) {
  const { owner, repo } = context.repo;
  const dirs = artifactDirs(dir);
  if (dirs.length === 0) return [await noArtifact({ github, context, core, owner, repo })];
  const tested = context.payload.workflow_run?.head_sha;
  const results = [];
  for (const one of dirs) {
    const { number, key, body } = readArtifact(one);
    const { data: pr } = await github.rest.pulls.get({ owner, repo, pull_number: number });
    if (pr.head.sha !== tested) {
      // Pushed again since (that run will post), or an artifact naming some other pull request.
      core.warning(`pull request #${number} is at ${pr.head.sha}, the run tested ${tested}: not commenting`);
      results.push('skipped');
      continue;
    }
    results.push(await upsert({ github, owner, repo, number, key, body, core }));
  }
  // The comments are up to date; a failed run still shows red here, where the PR's checks list it.
  if (context.payload.workflow_run?.conclusion === 'failure') core.setFailed('the specdiff run failed: see its comment');
  return results;
}

module.exports = { LIMIT, marker, parsePrNumber, parseKey, commentBody, findMarked, readArtifact, artifactDirs, run };
